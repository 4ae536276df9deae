// The LangChain4j MCP client (langchain4j-mcp) against our servers, wired as the seed chapter wires
// it: StdioMcpTransport, StreamableHttpMcpTransport (and the legacy HttpMcpTransport, which it still
// ships) under DefaultMcpClient, then McpToolProvider. ClientPeer.java prints one CHECK line per
// check; this file turns each into a ctx.check, and adds what only the wire shows, read from our
// recorder's file (which is also the golden, with --record).
// Their server direction is not here: langchain4j-community-mcp-server is not served by the Maven
// registry this machine reaches (no version of it is listed; 1.11.0-beta19 and 1.18.1-beta28 are
// "Could not find artifact"), and no other LangChain4j artifact is an MCP server.
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, PEER_FIXTURES, runCommand, tailOf, type PeerContext, type PeerSuite } from "../harness.js";
import { linesOf, requestNotes, startListening, stop, violations, writeGolden, type Line } from "./recording.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
/** The seed chapter pins 1.22.0-beta32, which the registry does not serve; see pom.xml. */
const VERSION = "1.18.1-beta28";
const PEER = "LangChain4j langchain4j-mcp";
const FIXTURES = join(PEER_FIXTURES, "java-langchain4j");
const CLI = "dist/cli.cjs";
const DEMO = "dist/server.js";
const TEXTBOOK = "dist/textbook/demo.js";

interface Session {
  /** The golden's file name, without .recording. */
  name: string;
  server: "demo" | "textbook";
  transport: "stdio" | "streamable-http" | "streamable-http (session per post)" | "http+sse";
  /** The version DefaultMcpClient offers (protocolVersion(...)); undefined: its default. */
  offers?: string;
  serverArgs: string[];
}

const SESSIONS: Session[] = [
  { name: "demo-stdio", server: "demo", transport: "stdio", serverArgs: ["--roots-tool"] },
  // The seed chapter's own server spoke 2024-11-05: LangChain4j asked for it, as a host pinned to it would.
  { name: "demo-stdio-2024-11-05", server: "demo", transport: "stdio", offers: "2024-11-05", serverArgs: ["--roots-tool"] },
  { name: "textbook-stdio", server: "textbook", transport: "stdio", serverArgs: [] },
  { name: "demo-http", server: "demo", transport: "streamable-http", serverArgs: ["--roots-tool"] },
  { name: "demo-http-session-per-post", server: "demo", transport: "streamable-http (session per post)", serverArgs: ["--session-per-post", "--roots-tool"] },
  { name: "demo-http-sse", server: "demo", transport: "http+sse", serverArgs: ["--roots-tool"] },
];

function target(cacheDir: string): { classes: string; classpath: string } {
  return { classes: join(cacheDir, "target", "classes"), classpath: join(cacheDir, "target", "classpath.txt") };
}

export const suite: PeerSuite = {
  name: "java-langchain4j",
  language: "java",

  async install(ctx) {
    const { classpath } = target(ctx.cacheDir);
    // Rebuilt when the pom or the Java source is newer than the last build's classpath file.
    const sources = [join(HERE, "pom.xml"), join(HERE, "src", "main", "java", "mcpwire", "peers", "lc4j", "ClientPeer.java")];
    if (existsSync(classpath) && sources.every((file) => statSync(file).mtimeMs < statSync(classpath).mtimeMs)) return;
    const ran = await runCommand("mvn", ["-q", "-B", `-Dmaven.repo.local=${join(ctx.cacheDir, "m2")}`, `-Dpeers.target=${join(ctx.cacheDir, "target")}`, "package"],
      { cwd: HERE, timeoutMs: 20 * 60_000 });
    if (ran.code !== 0) throw new Error(`mvn package exited ${ran.code}:\n${tailOf(ran.stdout + ran.stderr, 30)}`);
  },

  async run(ctx) {
    const work = join(ctx.cacheDir, "recordings");
    mkdirSync(work, { recursive: true });
    if (ctx.record) mkdirSync(FIXTURES, { recursive: true });
    for (const session of SESSIONS) await runSession(ctx, session, work);
    console.log("--    java-langchain4j: their server not run: langchain4j-community-mcp-server is not served by the Maven registry reached here (see suite.ts)");
  },
};

async function runSession(ctx: PeerContext, session: Session, work: string): Promise<void> {
  const era = session.offers ?? "2025-11-25";
  const row = { peer: PEER, version: VERSION, language: "java" as const, direction: "their client" as const, transport: session.transport, era };
  const recorded = join(work, `${session.name}.log`);
  const cancelRecorded = join(work, `${session.name}-cancel.log`);
  const server = session.server === "demo" ? DEMO : TEXTBOOK;
  const options = [...(session.server === "textbook" ? ["--textbook"] : []), ...(session.offers ? ["--protocol-version", session.offers] : []),
    ...(session.serverArgs.includes("--session-per-post") ? ["--session-per-post"] : [])];
  const started = [];
  let peerArgs: string[];
  try {
    if (session.transport === "stdio") {
      // LangChain4j spawns our recorder, which spawns the server (PEERS.md); the cancellation
      // check's second client gets a recorder of its own.
      const recorder = (file: string) => ["node", CLI, "record", "--out", file, "node", server, ...session.serverArgs];
      peerArgs = [...options, "--stdio", ...recorder(recorded), "--cancel-target", ...recorder(cancelRecorded)];
    } else {
      const port = await freePort();
      started.push(await startListening([DEMO, "--http", "--port", String(port), "--host", "127.0.0.1", ...session.serverArgs], /Streamable HTTP at/));
      const path = session.transport === "http+sse" ? "/sse" : "/mcp";
      const proxies: string[] = [];
      for (const file of [recorded, cancelRecorded]) {
        const listen = await freePort();
        started.push(await startListening([CLI, "record", "--out", file, "--listen", `127.0.0.1:${listen}`, "--target", `http://127.0.0.1:${port}${path}`], /listen/i));
        proxies.push(`http://127.0.0.1:${listen}${path}`);
      }
      peerArgs = [...options, session.transport === "http+sse" ? "--sse" : "--http", proxies[0]!, "--cancel-target", proxies[1]!];
    }
    await peerChecks(ctx, row, peerArgs);
  } finally {
    // The recorders first, so that each finishes its file; then the server.
    for (const child of started.reverse()) await stop(child);
  }
  await wireChecks(ctx, row, session, recorded, cancelRecorded);
  if (ctx.record) {
    writeGolden(recorded, join(FIXTURES, `${session.name}.recording`), {
      peer: `${PEER} ${VERSION} (java)`, server: session.server, transport: session.transport === "stdio" ? "stdio" : "http",
      command: `node ${server}`, args: session.serverArgs,
    });
  }
}

type Row = Parameters<PeerContext["check"]>[0];

/** Runs ClientPeer once and makes a check of each CHECK line it prints (a crash is a failed check). */
async function peerChecks(ctx: PeerContext, row: Row, peerArgs: string[]): Promise<void> {
  const { classes, classpath } = target(ctx.cacheDir);
  const ran = await runCommand("java", ["-cp", `${classes}:${readFileSync(classpath, "utf8").trim()}`, "mcpwire.peers.lc4j.ClientPeer", ...peerArgs], { timeoutMs: 180_000 });
  const lines = ran.stdout.split("\n").filter((line) => line.startsWith("CHECK "));
  for (const line of lines) {
    const match = /^CHECK (ok|FAIL) ([^\t]*)\t(.*)$/.exec(line)!;
    await ctx.check(row, match[2]!, async () => {
      if (match[1] !== "ok") throw new Error(match[3]);
      return match[3];
    });
  }
  if (lines.length === 0 || (ran.code !== 0 && lines.every((line) => line.startsWith("CHECK ok")))) {
    await ctx.check(row, "ClientPeer ran to its end", async () => { throw new Error(`java exited ${ran.code}:\n${tailOf(ran.stderr)}`); });
  }
}

/** What the recordings show: the version offered and agreed, the cancel, the HTTP headers, our check. */
async function wireChecks(ctx: PeerContext, row: Row, session: Session, recorded: string, cancelRecorded: string): Promise<void> {
  const lines = linesOf(recorded);
  const offered = session.offers ?? "2025-11-25";
  await ctx.check(row, `initialize offers ${offered}, the server agrees`, async () => {
    const request = lines.find((line) => line.dir === "c2s" && line.message.method === "initialize");
    const answer = lines.find((line) => line.dir === "s2c" && request && line.message.id === request.message.id);
    const asked = (request?.message.params as { protocolVersion?: string } | undefined)?.protocolVersion;
    const agreed = (answer?.message.result as { protocolVersion?: string } | undefined)?.protocolVersion;
    if (asked !== offered || agreed !== offered) throw new Error(`offered ${asked}, agreed ${agreed}`);
    return `protocolVersion ${agreed}`;
  });
  await ctx.check(row, "cancellation on the wire: notifications/cancelled for the countdown, which gets no answer", async () => {
    const cancel = linesOf(cancelRecorded);
    const countdown = cancel.find((line) => line.dir === "c2s" && line.message.method === "tools/call");
    const cancelled = cancel.find((line) => line.dir === "c2s" && line.message.method === "notifications/cancelled");
    const requestId = (cancelled?.message.params as { requestId?: unknown } | undefined)?.requestId;
    if (!countdown || requestId !== countdown.message.id) throw new Error(`countdown ${JSON.stringify(countdown?.message)}, cancel ${JSON.stringify(cancelled?.message)}`);
    const answered = cancel.some((line: Line) => line.dir === "s2c" && line.message.id === countdown.message.id);
    if (answered) throw new Error("the cancelled countdown was answered");
    return `requestId ${JSON.stringify(requestId)}, reason ${JSON.stringify((cancelled!.message.params as { reason?: unknown }).reason)}`;
  });
  if (session.transport === "streamable-http" || session.transport === "streamable-http (session per post)") {
    // A peer's deviation (PROTOCOL_NOTES.md): recorded as it is, so that a fixed LangChain4j shows.
    await ctx.check(row, "HTTP: no MCP-Protocol-Version header after initialize (LangChain4j's deviation)", async () => {
      const notes = requestNotes(recorded);
      if (notes.some((note) => /mcp-protocol-version/i.test(note))) throw new Error("LangChain4j now sends MCP-Protocol-Version: remove this check and its deviation note");
      return `${notes.length} requests, none with the header`;
    });
    await ctx.check(row, "HTTP: close() sends no DELETE for the session (LangChain4j's deviation)", async () => {
      const methods = new Set(requestNotes(recorded).map((note) => note.split(" ")[0]));
      if (methods.has("DELETE")) throw new Error("LangChain4j now ends its session with DELETE: remove this check and its deviation note");
      return `methods: ${[...methods].join(", ")}`;
    });
  }
  if (session.transport === "streamable-http (session per post)") {
    // Our checker judges these POSTs by the version initialize agreed; the server, which has no
    // session and got no header, rightly answered by 2025-03-26 (basic/transports#protocol-version-header):
    // bad arguments are -32602 there. The checker cannot tell a session per POST from a session
    // without an id, so it reports those two answers; any other finding fails.
    await ctx.check(row, "mcp-wire check of the recording: only the two -32602 answers of 2025-03-26 (the checker's known limit)", async () => {
      const found = await violations(recorded);
      const expected = [/is-error: tools\/call of the listed tool "add" answered -32602/, /is-error: tools\/call of the listed tool "echo" answered -32602/];
      if (found.length !== expected.length || !expected.every((pattern, i) => pattern.test(found[i]!))) throw new Error(found.join("\n") || "no finding: the checker now knows; make this check ask for none");
      return `${found.length} findings, as expected`;
    });
    return;
  }
  await ctx.check(row, "mcp-wire check of the recording: no violation", async () => {
    const found = await violations(recorded);
    if (found.length > 0) throw new Error(found.join("\n"));
  });
}

