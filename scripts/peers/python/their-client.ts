// The Python SDK's client (their_client.py, one process per session) against our demo and textbook
// servers: over stdio in every version it offers, over Streamable HTTP (with sessions and
// --session-per-post) in both eras, and over the legacy HTTP+SSE transport. Each JSON line the
// program prints becomes one ctx.check. With ctx.record, a few sessions are run again through
// `mcp-wire record` (without the timing-dependent cancellation) and kept as goldens.
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { CLI, DEMO_SERVER, PEER_FIXTURES, ROOT, runCommand, tailOf, TEXTBOOK_SERVER, type PeerContext } from "../harness.js";
import { setHeader, startListening, type Running } from "./processes.js";


const MODERN = "2026-07-28";
const HANDSHAKE_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

type Transport = "stdio" | "streamable-http" | "streamable-http (session per post)" | "http+sse";

interface Session {
  server: "demo" | "textbook";
  transport: Transport;
  /** The version the client offers (a handshake version) or 2026-07-28 (server/discover). */
  era: string;
  /** Extra flags for our server. */
  serverArgs: string[];
  /** With ctx.record: the golden's file name under fixtures/peers/python/. */
  golden?: string;
}

const ROOTS = ["--roots-tool"];
const SESSIONS: Session[] = [
  ...[...HANDSHAKE_VERSIONS, MODERN].map((era): Session => ({
    server: "demo", transport: "stdio", era, serverArgs: ROOTS,
    golden: era === "2025-11-25" || era === MODERN ? `client-demo-stdio-${era}.recording` : undefined,
  })),
  // The textbook speaks 2025-11-25 and 2026-07-28; an older offer is answered with 2025-11-25.
  ...["2024-11-05", "2025-11-25", MODERN].map((era): Session => ({
    server: "textbook", transport: "stdio", era, serverArgs: [], golden: era === MODERN ? `client-textbook-stdio-${era}.recording` : undefined,
  })),
  ...["2025-11-25", MODERN].map((era): Session => ({
    server: "demo", transport: "streamable-http", era, serverArgs: ROOTS, golden: `client-demo-http-${era}.recording`,
  })),
  ...["2025-11-25", MODERN].map((era): Session => ({ server: "demo", transport: "streamable-http (session per post)", era, serverArgs: ["--session-per-post"] })),
  // HTTP+SSE is the 2024-11-05 transport; the SDK still has its client.
  { server: "demo", transport: "http+sse", era: "2024-11-05", serverArgs: ROOTS },
];

interface Line { name: string; ok: boolean; detail: string; era: string | null }

export interface ClientPeer { peer: string; version: string; language: "python"; direction: "their client" }

export async function runTheirClient(ctx: PeerContext, python: string, peer: ClientPeer): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "mcp-wire-python-"));
  try {
    for (const session of SESSIONS) await runSession(ctx, python, peer, session, scratch, false);
    if (ctx.record) for (const session of SESSIONS.filter((s) => s.golden)) await runSession(ctx, python, peer, session, scratch, true);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function runSession(ctx: PeerContext, python: string, peer: ClientPeer, session: Session, scratch: string, recording: boolean): Promise<void> {
  const script = join(ROOT, "scripts", "peers", "python", "their_client.py");
  const flags = ["--server", session.server, "--era", session.era];
  if (session.serverArgs.includes("--roots-tool")) flags.push("--roots");
  if (session.serverArgs.includes("--session-per-post")) flags.push("--session-per-post");
  if (recording) flags.push("--golden");
  const recorded = join(scratch, session.golden ?? "session");
  const label = `${session.server}${recording ? `, recorded as ${session.golden}` : ""}`;
  const servers: Running[] = [];
  try {
    let args: string[];
    if (session.transport === "stdio") {
      const server = ["node", relative(ROOT, session.server === "demo" ? DEMO_SERVER : TEXTBOOK_SERVER), ...session.serverArgs];
      const command = recording ? ["node", relative(ROOT, CLI), "record", "--out", recorded, ...server] : server;
      args = [...flags, "--transport", "stdio", "--exit-file", join(scratch, "exit-code"), "--", ...command];
      rmSync(join(scratch, "exit-code"), { force: true });
    } else {
      const demo = await startListening("node", [DEMO_SERVER, "--http", "--port", "0", "--host", "127.0.0.1", ...session.serverArgs], /Streamable HTTP at (http:\/\/\S+\/mcp)/);
      servers.push(demo);
      let url = demo.url;
      if (recording) {
        const proxy = await startListening("node", [CLI, "record", "--out", recorded, "--listen", "127.0.0.1:0", "--target", demo.url], /listening on (http:\/\/\S+\/mcp)/);
        servers.push(proxy);
        url = proxy.url;
      }
      if (session.transport === "http+sse") url = url.replace(/\/mcp$/, "/sse");
      args = [...flags, "--transport", session.transport === "http+sse" ? "http+sse" : "streamable-http", "--url", url];
    }
    const ran = await runCommand(python, [script, ...args], { timeoutMs: 180_000 });
    const lines = ran.stdout.split("\n").filter((text) => text.startsWith("{")).map((text) => JSON.parse(text) as Line);
    for (const line of lines) {
      await ctx.check({ ...peer, transport: session.transport, era: line.era ?? session.era }, `${label}: ${line.name}`, async () => {
        if (!line.ok) throw new Error(line.detail);
        return line.detail;
      });
    }
    if (lines.length === 0 || ran.code !== 0) {
      await ctx.check({ ...peer, transport: session.transport, era: session.era }, `${label}: the session ran to its end`, async () => {
        throw new Error(`their_client.py exited ${ran.code}:\n${tailOf(ran.stderr)}`);
      });
    }
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
  if (recording) await keepGolden(ctx, peer, session, recorded);
}

/** Gives the recording its header, names the notes' texts as placeholders, and checks it replays. */
async function keepGolden(ctx: PeerContext, peer: ClientPeer, session: Session, recorded: string): Promise<void> {
  const file = join(PEER_FIXTURES, "python", session.golden!);
  const http = session.transport !== "stdio";
  await ctx.check({ ...peer, transport: session.transport, era: session.era }, `golden ${session.golden}: recorded, checked, replays`, async () => {
    const notes = relative(join(PEER_FIXTURES, "python"), join(ROOT, "PROTOCOL_NOTES.md"));
    setHeader(recorded, [
      `# peer: ${peer.peer} ${peer.version} (python)`,
      "# direction: their client",
      `# server: ${session.server}`,
      `# transport: ${http ? "http" : "stdio"}`,
      `# command: node ${relative(ROOT, session.server === "demo" ? DEMO_SERVER : TEXTBOOK_SERVER)}`,
      ...(session.serverArgs.length ? [`# args: ${session.serverArgs.join(" ")}`] : []),
      // The notes change with every edit of PROTOCOL_NOTES.md: the golden names them instead.
      `# placeholder: <PROTOCOL_NOTES.md> file ${notes}`,
      `# placeholder: <PROTOCOL_NOTES.md section lifecycle> section ${notes} lifecycle`,
    ]);
    const checked = await runCommand("node", [CLI, "check", recorded], { timeoutMs: 60_000 });
    if (checked.code !== 0) throw new Error(`mcp-wire check found violations:\n${tailOf(checked.stdout)}`);
    // In place (the placeholders' paths are relative to it), rewritten through the placeholders,
    // then replayed as npm test will replay it; a golden that does not replay is not kept.
    renameSync(recorded, file);
    for (const update of [true, false]) {
      const replayed = await replayGolden(file, session, update);
      if (replayed.code !== 0) {
        rmSync(file);
        throw new Error(`replay${update ? " --update" : ""} exited ${replayed.code}:\n${tailOf(replayed.stdout + replayed.stderr)}`);
      }
    }
    return relative(ROOT, file);
  });
}

async function replayGolden(file: string, session: Session, update: boolean) {
  const extra = update ? ["--update"] : [];
  const server = session.server === "demo" ? DEMO_SERVER : TEXTBOOK_SERVER;
  if (session.transport === "stdio") return runCommand("node", [CLI, "replay", file, ...extra, "--", "node", server, ...session.serverArgs], { timeoutMs: 120_000 });
  const demo = await startListening("node", [server, "--http", "--port", "0", "--host", "127.0.0.1", ...session.serverArgs], /Streamable HTTP at (http:\/\/\S+\/mcp)/);
  try {
    return await runCommand("node", [CLI, "replay", file, ...extra, "--url", demo.url], { timeoutMs: 120_000 });
  } finally {
    await demo.stop();
  }
}
