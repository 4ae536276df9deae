// The goldens of this suite (fixtures/peers/java-spring/): a session recorded by `mcp-wire record`
// gets the header that test/golden/peers.test.ts reads (peer, direction, and how to replay it).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sections } from "../../../src/demo/notes.js";
import { CLI, PEER_FIXTURES, ROOT, runCommand } from "../harness.js";

export const GOLDENS = join(PEER_FIXTURES, "java-spring");

export function goldenPath(name: string): string {
  mkdirSync(GOLDENS, { recursive: true });
  return join(GOLDENS, `${name}.recording`);
}

/**
 * Puts `fields` (lines without the "# ") at the top of the recording, in place of the recorder's
 * own transport/command lines, which name absolute paths of this machine.
 */
export function writeHeader(file: string, fields: string[]): void {
  const text = readFileSync(file, "utf8");
  const at = text.indexOf("-- session --");
  if (at < 0) throw new Error(`${file}: no "-- session --" line: the recorder wrote nothing`);
  const kept = text.slice(0, at).split("\n").filter((line) => line !== "" && !/^# (transport|command|args|url):/.test(line));
  writeFileSync(file, [...fields.map((line) => `# ${line}`), ...kept, text.slice(at)].join("\n"));
}

/**
 * `mcp-wire check` on a recording: throws on a violation by our side (`ours`: "s2c" when we are the
 * server, "c2s" when we are the client); the peer's violations are returned, for the check's line
 * (each is a deviation written down in PROTOCOL_NOTES.md, "Peers' deviations").
 */
export async function checkRecording(file: string, ours: "c2s" | "s2c"): Promise<string> {
  const checked = await runCommand("node", [CLI, "check", file], { cwd: ROOT, timeoutMs: 60_000 });
  const violations = checked.stdout.split("\n").map((line) => line.slice(line.indexOf(":#") + 1)).filter((line) => / (c2s|s2c) /.test(line));
  const mine = violations.filter((line) => line.includes(` ${ours} `));
  if (mine.length > 0 || (checked.code !== 0 && violations.length === 0)) throw new Error(`mcp-wire check ${file}:\n${checked.stdout}${checked.stderr}`);
  return violations.length === 0 ? "no violation" : `no violation by us; the peer's: ${violations.join("; ")}`;
}

const NOTES = join(ROOT, "PROTOCOL_NOTES.md");
/** From fixtures/peers/java-spring/, where the placeholders' paths start. */
const NOTES_FROM_GOLDENS = "../../../PROTOCOL_NOTES.md";

/**
 * The demo serves PROTOCOL_NOTES.md, which changes with the project: the whole file (read as the
 * notes resource) and its lifecycle section (in the explain_topic prompt) become placeholders, so a
 * golden neither goes stale nor carries 140 KB of notes. Returns the header lines that name them.
 */
export function notesPlaceholders(file: string): string[] {
  const whole = readFileSync(NOTES, "utf8");
  const lifecycle = sections(whole).find((section) => section.slug === "lifecycle")?.text;
  const names = new Map<string, string>([[whole, "<PROTOCOL_NOTES.md>"]]);
  if (lifecycle !== undefined) names.set(lifecycle, "<PROTOCOL_NOTES.md section lifecycle>");
  const used = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") {
      const name = names.get(node);
      if (name) used.add(name);
      return name ?? node;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
    return node;
  };
  const lines = readFileSync(file, "utf8").split("\n").map((line) => {
    const at = /^< \+\d+ /.exec(line)?.[0].length;
    return at === undefined ? line : line.slice(0, at) + JSON.stringify(walk(JSON.parse(line.slice(at)) as unknown));
  });
  writeFileSync(file, lines.join("\n"));
  return [...used].map((name) => name === "<PROTOCOL_NOTES.md>"
    ? `placeholder: ${name} file ${NOTES_FROM_GOLDENS}`
    : `placeholder: ${name} section ${NOTES_FROM_GOLDENS} lifecycle`);
}
