// The java-langchain4j suite's recordings: the wire of each LangChain4j session with our servers,
// taken by our recorder (`mcp-wire record`), read back for what only the wire shows (the version
// LangChain4j offers, its cancel, its HTTP headers), and turned into the goldens of
// fixtures/peers/java-langchain4j/ (the header PEERS.md asks for; the protocol notes' text as
// placeholders, since every edit of PROTOCOL_NOTES.md would change it).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sections } from "../../../src/demo/notes.js";
import { CLI, ROOT, runCommand } from "../harness.js";

/** One recorded message: which way it went and what it was (notes and headers left out). */
export interface Line { dir: "c2s" | "s2c"; message: Record<string, unknown> }

export function linesOf(file: string): Line[] {
  const found: Line[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = /^([<>]) \+\d+ (.*)$/.exec(line);
    if (match) found.push({ dir: match[1] === ">" ? "c2s" : "s2c", message: JSON.parse(match[2]!) as Record<string, unknown> });
  }
  return found;
}

/** The `# >` notes of an HTTP recording: one per request, "METHOD PATH headers". */
export function requestNotes(file: string): string[] {
  return readFileSync(file, "utf8").split("\n").filter((line) => line.startsWith("# > ")).map((line) => line.slice(4));
}

/** A node process of ours that serves HTTP, started and awaited until it says where it listens. */
export async function startListening(args: string[], saysReady: RegExp): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let said = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening after 15 s: ${said}`)), 15_000);
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      said += chunk;
      if (saysReady.test(said)) { clearTimeout(timer); resolve(); }
    });
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`exited ${code}: ${said}`)); });
  });
  return child;
}

/** Stops a process started above and waits for it (SIGTERM: the recorder then finishes its file). */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** What our own check finds in a recording: one line per violation, empty when there is none. */
export async function violations(file: string): Promise<string[]> {
  const ran = await runCommand(process.execPath, [CLI, "check", file], { timeoutMs: 60_000 });
  if (ran.code !== 0 && ran.code !== 1) throw new Error(`mcp-wire check exited ${ran.code}: ${ran.stderr}`);
  return ran.stdout.split("\n").filter((line) => line.trim() !== "");
}

export interface GoldenHeader {
  peer: string;
  server: "demo" | "textbook";
  transport: "stdio" | "http";
  /** The server's program, relative to the repo root, and its extra flags. */
  command: string;
  args: string[];
}

const NOTES = "../../../PROTOCOL_NOTES.md";

/**
 * The recording as a golden: PEERS.md's header in place of the recorder's, and the protocol notes
 * (whole, and the lifecycle section a prompt embeds) as placeholders, so that the golden still
 * replays after the notes are edited. mcp-wire replay compares everything else.
 */
export function writeGolden(recorded: string, golden: string, header: GoldenHeader): void {
  const notes = readFileSync(join(ROOT, "PROTOCOL_NOTES.md"), "utf8");
  const lifecycle = sections(notes).find((section) => section.slug === "lifecycle")!.text;
  const body = readFileSync(recorded, "utf8").split("\n")
    .filter((line) => !/^# (Recorded by|transport|command|args|url):?/.test(line))
    .map((line) => line.replaceAll(JSON.stringify(notes).slice(1, -1), "<PROTOCOL_NOTES.md>")
      .replaceAll(JSON.stringify(lifecycle).slice(1, -1), "<PROTOCOL_NOTES.md section lifecycle>"));
  const lines = [
    `# peer: ${header.peer}`,
    "# direction: their client",
    `# server: ${header.server}`,
    `# transport: ${header.transport}`,
    `# command: ${header.command}`,
    ...(header.args.length > 0 ? [`# args: ${header.args.join(" ")}`] : []),
    `# placeholder: <PROTOCOL_NOTES.md> file ${NOTES}`,
    `# placeholder: <PROTOCOL_NOTES.md section lifecycle> section ${NOTES} lifecycle`,
    ...body,
  ];
  writeFileSync(golden, lines.join("\n"));
}
