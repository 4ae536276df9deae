// Our CLI against a server written with the Python SDK (their_server.py): mcp 2.3.0's MCPServer,
// which speaks both generations, and mcp 1.30.0's FastMCP, which speaks only the handshake, so
// `--protocol-version auto` must go modern against the first and fall back to initialize against
// the second, and say which on stderr. Over stdio and Streamable HTTP. Every run has --trace, whose
// "era:" line tells what the CLI chose. With ctx.record, the stdio drives are recorded as goldens
// (`# drive:` and `# exit:`), which npm test plays against a stub answering from their server side.
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, freePort, PEER_FIXTURES, ROOT, runCommand, tailOf, type PeerContext, type Ran } from "../harness.js";
import { setHeader } from "./processes.js";

const MODERN = "2026-07-28";

export interface ServerPeer { peer: string; version: string; python: string; modern: boolean; slug: string }

interface Drive {
  /** Our CLI's words (options first, then the command), before `--`. */
  words: string[];
  /** The era the CLI must end up in. */
  era: string;
  /** The exit code the CLI must give. */
  exit: number;
  /** Throws unless the output is right; returns what to print. */
  expect(out: unknown, ran: Ran): string;
}

/** The drives kept as goldens (with ctx.record), by their words, and the file names they get. */
const GOLDENS: Record<string, string> = {
  "discover": "discover",
  "tools": "tools",
  "call add a=3 b=4": "call-add",
  "--protocol-version 2025-11-25 call add a=3 b=4": "call-add-2025-11-25",
  "--protocol-version 2024-11-05 call add a=3 b=4": "call-add-2024-11-05",
  "call countdown steps=3": "call-countdown",
  "read peer://notes": "read",
  "get greeting name=Ada": "get",
  "--protocol-version 2026-07-28 discover": "discover-2026-07-28",
};

const pinned = (version: string) => ["--protocol-version", version];

function drivesFor(peer: ServerPeer): Drive[] {
  const newest = peer.modern ? MODERN : "2025-11-25";
  const drives: Drive[] = [
    { words: ["discover"], era: newest, exit: 0, expect: (out, ran) => {
      if (peer.modern) return `supportedVersions ${JSON.stringify(field(out, "supportedVersions"))}`;
      // Spec 2026-07-28 (basic/lifecycle): a client that gets an error for server/discover falls back to initialize.
      must(/not a 2026-07-28 session .*fell back to initialize/.test(ran.stderr), `no fallback note on stderr:\n${tailOf(ran.stderr, 4)}`);
      return `fell back to initialize: protocolVersion ${JSON.stringify(field(out, "protocolVersion"))}`;
    } },
    { words: ["tools"], era: newest, exit: 0, expect: (out) => {
      const tools = field(out, "tools") as { name: string; outputSchema?: unknown }[];
      const add = tools.find((tool) => tool.name === "add");
      must(add?.outputSchema !== undefined, "add has no outputSchema");
      return tools.map((tool) => tool.name).join(", ");
    } },
    ...[[], pinned(MODERN), pinned("2025-11-25"), pinned("2025-06-18")].filter((pin) => peer.modern || pin[1] !== MODERN).map((pin): Drive => ({
      words: [...pin, "call", "add", "a=3", "b=4"], era: pin[1] ?? newest, exit: 0, expect: (out) => structured(out),
    })),
    { words: [...pinned("2024-11-05"), "call", "add", "a=3", "b=4"], era: "2024-11-05", exit: 0, expect: (out) => `text ${textOf(out)}` },
    { words: ["call", "add", JSON.stringify({ a: "x", b: 1 })], era: newest, exit: 3, expect: (out) => {
      must(field(out, "isError") === true, "not isError");
      return "isError (exit 3)";
    } },
    { words: ["call", "countdown", "steps=3"], era: newest, exit: 0, expect: (out, ran) => {
      const progress = ran.stderr.split("\n").filter((line) => line.includes('"method":"notifications/progress"')).length;
      must(progress === 3, `${progress} notifications/progress, not 3`);
      return `3 notifications/progress, then ${JSON.stringify(textOf(out))}`;
    } },
    { words: ["read", "peer://notes"], era: newest, exit: 0, expect: (out) => {
      const [contents] = field(out, "contents") as { text?: string }[];
      must(contents?.text === "notes from the Python peer", `contents ${JSON.stringify(contents)}`);
      return contents.text;
    } },
    ...[[], pinned("2025-11-25")].map((pin): Drive => ({ words: [...pin, "get", "greeting", "name=Ada"], era: pin[1] ?? newest, exit: 0, expect: (out) => {
      const [message] = field(out, "messages") as { content: { text?: string } }[];
      must(message?.content.text === "Please greet Ada.", `messages ${JSON.stringify(field(out, "messages"))}`);
      return message.content.text;
    } })),
  ];
  // Demanding 2026-07-28 of a handshake-only server is a failure, not a fallback.
  if (!peer.modern) drives.push({ words: [...pinned(MODERN), "discover"], era: MODERN, exit: 1, expect: (_out, ran) => tailOf(ran.stderr, 1) });
  return drives;
}

export async function runTheirServer(ctx: PeerContext, peer: ServerPeer): Promise<void> {
  const server = [peer.python, join(ROOT, "scripts", "peers", "python", "their_server.py")];
  const row = { peer: peer.peer, version: peer.version, language: "python", direction: "their server" } as const;
  for (const drive of drivesFor(peer)) {
    await ctx.check({ ...row, transport: "stdio", era: drive.era }, `mcp-wire ${drive.words.join(" ")}`, () => driven(drive, [...drive.words, "--", ...server, "stdio"]));
  }
  const port = await freePort();
  const http = await startPython([...server, "http", String(port)], port);
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    for (const drive of drivesFor(peer).filter((d) => d.words.includes("call"))) {
      await ctx.check({ ...row, transport: "streamable-http", era: drive.era }, `mcp-wire --url ${drive.words.join(" ")}`, () => driven(drive, ["--url", url, ...drive.words]));
    }
  } finally {
    await http.stop();
  }
  if (ctx.record) await recordGoldens(ctx, peer, row, server);
}

/**
 * Python takes seconds to start (mcp 2 imports a lot) and the machine is shared: past the default
 * 5 s the probe would time out, which is a test of the machine's load, not of the protocol.
 */
const PATIENCE = ["--handshake-timeout", "30000"];

async function driven(drive: Drive, words: string[]): Promise<string> {
  const ran = await runCommand("node", [CLI, "--trace", ...PATIENCE, ...words], { timeoutMs: 120_000 });
  must(ran.code === drive.exit, `exit ${ran.code}, expected ${drive.exit}:\n${tailOf(ran.stderr, 6)}`);
  const era = /era: (?:modern|handshake) (\S+):/.exec(ran.stderr)?.[1];
  must(era === drive.era || (drive.exit === 1 && era === undefined), `era ${era}, expected ${drive.era}`);
  const out = ran.stdout.trim() ? JSON.parse(ran.stdout) as unknown : undefined;
  return drive.expect(out, ran);
}

/** The stdio drives through `mcp-wire record`, kept in fixtures/peers/python/ with their drive and exit. */
async function recordGoldens(ctx: PeerContext, peer: ServerPeer, row: { peer: string; version: string; language: "python"; direction: "their server" }, server: string[]): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "mcp-wire-python-"));
  try {
    for (const drive of drivesFor(peer)) {
      const golden = GOLDENS[drive.words.join(" ")];
      if (golden === undefined) continue;
      const name = `server-${peer.slug}-${golden}.recording`;
      const recorded = join(scratch, name);
      await ctx.check({ ...row, transport: "stdio", era: drive.era }, `golden ${name}: recorded, checked`, async () => {
        const ran = await runCommand("node", [CLI, ...PATIENCE, ...drive.words, "--", "node", CLI, "record", "--out", recorded, ...server, "stdio"], { timeoutMs: 120_000 });
        must(ran.code === drive.exit, `exit ${ran.code}, expected ${drive.exit}`);
        setHeader(recorded, [
          `# peer: ${peer.peer} ${peer.version} (python)`,
          "# direction: their server",
          "# transport: stdio",
          "# command: python scripts/peers/python/their_server.py stdio",
          `# drive: ${drive.words.map((word) => (/^[\w.=:/-]+$/.test(word) ? word : `'${word}'`)).join(" ")}`,
          `# exit: ${drive.exit}`,
        ]);
        const checked = await runCommand("node", [CLI, "check", recorded], { timeoutMs: 60_000 });
        // A violation by their server is a deviation (PROTOCOL_NOTES.md); one by us is a failure here.
        must(!/by the client|client sent|\bc2s\b/i.test(checked.stdout), `mcp-wire check blames our client:\n${checked.stdout}`);
        renameSync(recorded, join(PEER_FIXTURES, "python", name));
        return checked.code === 0 ? "no violation" : `their server's findings: ${tailOf(checked.stdout, 3)}`;
      });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Starts the Python server over HTTP and waits until its port takes connections (uvicorn logs at WARNING say nothing). */
async function startPython(command: string[], port: number): Promise<{ stop(): Promise<void> }> {
  const { spawn } = await import("node:child_process");
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let said = "";
  child.stderr.on("data", (chunk: Buffer) => { said += chunk.toString("utf8"); });
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  for (let tries = 0; tries < 300; tries++) {
    if (child.exitCode !== null) throw new Error(`their_server.py http exited ${child.exitCode}:\n${tailOf(said)}`);
    if (await accepts(port)) return { stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`their_server.py http: port ${port} not open after 30 s:\n${tailOf(said)}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => { socket.destroy(); resolve(true); });
    socket.once("error", () => resolve(false));
  });
}

function must(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function field(out: unknown, name: string): unknown {
  must(typeof out === "object" && out !== null && name in out, `no ${name} in ${JSON.stringify(out)?.slice(0, 300)}`);
  return (out as Record<string, unknown>)[name];
}

function textOf(out: unknown): string {
  const content = field(out, "content") as { type: string; text?: string }[];
  return content.map((block) => block.text ?? "").join("");
}

function structured(out: unknown): string {
  const value = field(out, "structuredContent");
  must(JSON.stringify(value) === JSON.stringify({ sum: 7 }), `structuredContent ${JSON.stringify(value)}`);
  return `structuredContent ${JSON.stringify(value)}`;
}

