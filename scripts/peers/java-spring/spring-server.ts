// Our CLI against their server: the Spring AI MCP server of this suite's jar (server/*.java: @Tool
// methods, an @McpTool with an output schema, one that reports progress, a resource, a prompt),
// over stdio and both of its HTTP transports (spring.ai.mcp.server.protocol=SSE, STREAMABLE).
// Spring AI 1.1.2 serves only the handshake era, so `auto` must fall back to initialize each time.
import { CLI, ROOT, runCommand, tailOf, type PeerContext } from "../harness.js";
import { SPRING_AI } from "./build.js";
import { checkRecording, goldenPath, writeHeader } from "./goldens.js";
import { JVM_FLAGS, type Row } from "./java-process.js";
import { startListening } from "./servers.js";

const ROW: Row = { peer: "Spring AI MCP server", version: SPRING_AI, language: "java", direction: "their server", transport: "stdio", era: "-" };
/** A Spring Boot start on two shared cores takes 10-20 s: the handshake waits for it. */
const PATIENCE = ["--handshake-timeout", "90000", "--timeout", "60000"];

interface Outcome { code: number | null; stdout: string; stderr: string }
interface Session {
  /** The CLI's words: options and command, before any `--`. */
  words: string[];
  exit: number;
  /** Throws if the outcome is wrong; returns what the check prints. */
  expect: (ran: Outcome, json: unknown) => string;
  golden?: string;
}

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

/** The era line of --trace: which generation the CLI chose, and why. */
function eraOf(stderr: string): string {
  return /era: ([^\n]*)/.exec(stderr)?.[1] ?? "no era line";
}

/** `auto` against a handshake-era server: it probed server/discover, was refused, and fell back. */
function fellBack(ran: Outcome): string {
  const era = eraOf(ran.stderr);
  expect(/^handshake \S+: server\/discover .*fell back to initialize/.test(era), `auto did not fall back: ${era}`);
  return era;
}

function jsonOf(stdout: string): unknown {
  try {
    return JSON.parse(stdout) as unknown;
  } catch {
    return undefined;
  }
}

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> } | undefined)?.content;
  return content?.[0]?.text ?? "";
}

const TOOLS: Session = {
  words: ["tools"], exit: 0,
  expect: (ran, json) => {
    const tools = (json as { tools?: Array<{ name: string; outputSchema?: unknown }> }).tools ?? [];
    const names = tools.map((tool) => tool.name).sort();
    expect(JSON.stringify(names) === JSON.stringify(["add", "countdown", "echo", "multiply"]), `tools ${names.join(", ")}`);
    expect(tools.find((tool) => tool.name === "multiply")?.outputSchema !== undefined, "multiply has no outputSchema");
    return `${names.join(", ")} (multiply with an outputSchema); ${fellBack(ran)}`;
  },
};
const MULTIPLY: Session = {
  words: ["call", "multiply", "a=6", "b=7"], exit: 0,
  expect: (ran, json) => {
    const structured = JSON.stringify((json as { structuredContent?: unknown }).structuredContent);
    expect(structured === '{"product":42}', `structuredContent ${structured}`);
    return `structuredContent ${structured}; ${fellBack(ran)}`;
  },
};
const ADD_PINNED: Session = {
  words: ["--protocol-version", "2025-11-25", "call", "add", "a=3", "b=4"], exit: 0,
  expect: (_ran, json) => {
    expect(textOf(json) === "7.0", `text ${textOf(json)}`);
    return `text ${textOf(json)} (a @Tool method's double, as Spring AI writes it)`;
  },
};
const ADD_BAD: Session = {
  words: ["call", "add", "a=x", "b=1"], exit: 3,
  expect: (_ran, json) => {
    expect((json as { isError?: boolean }).isError === true, "no isError");
    return `isError: ${textOf(json)}`;
  },
};
const COUNTDOWN: Session = {
  words: ["--protocol-version", "2025-06-18", "call", "countdown", "steps=3"], exit: 0,
  expect: (ran, json) => {
    expect(textOf(json) === "countdown: done after 3 steps", `text ${textOf(json)}`);
    const progress = ran.stderr.split("\n").filter((line) => line.includes("3/3") || /progress/i.test(line));
    expect(progress.length > 0, `no progress on stderr:\n${tailOf(ran.stderr)}`);
    return `${textOf(json)}; progress: ${progress.at(-1)?.trim()}`;
  },
};
const READ: Session = {
  words: ["--protocol-version", "2025-03-26", "read", "docs://peer/notes"], exit: 0,
  expect: (_ran, json) => {
    const text = (json as { contents?: Array<{ text?: string }> }).contents?.[0]?.text;
    expect(text === "Notes from the Spring AI peer.", `text ${text}`);
    return String(text);
  },
};
const GET: Session = {
  words: ["--protocol-version", "2024-11-05", "get", "greeting", "name=Ada"], exit: 0,
  expect: (_ran, json) => {
    const text = (json as { messages?: Array<{ content?: { text?: string } }> }).messages?.[0]?.content?.text;
    expect(text === "Say hello to Ada.", `text ${text}`);
    return String(text);
  },
};
const DISCOVER_AUTO: Session = {
  words: ["discover"], exit: 0,
  expect: (ran, json) => {
    expect((json as { serverInfo?: { name?: string } }).serverInfo?.name === "spring-ai-peer", "no serverInfo");
    expect(ran.stderr.includes("not a 2026-07-28 session"), `stderr does not say so:\n${tailOf(ran.stderr)}`);
    return `what initialize told; ${fellBack(ran)}`;
  },
};
const DISCOVER_MODERN: Session = {
  words: ["--protocol-version", "2026-07-28", "discover"], exit: 1,
  expect: (ran) => `exit 1: ${tailOf(ran.stderr.split("\n").filter((line) => line.startsWith("mcp-wire")).join("\n"), 1)}`,
};

function name(session: Session): string {
  return `mcp-wire ${session.words.join(" ")} (exit ${session.exit})`;
}

async function drive(ctx: PeerContext, row: Row, target: string[], session: Session): Promise<void> {
  await ctx.check(row, name(session), async () => {
    const ran = await runCommand("node", [CLI, "--trace", ...PATIENCE, ...session.words, ...target], { cwd: ROOT, timeoutMs: 180_000 });
    const json = jsonOf(ran.stdout);
    expect(ran.code === session.exit, `exit ${ran.code}, not ${session.exit}:\n${tailOf(ran.stdout + ran.stderr)}`);
    return session.expect(ran, json);
  });
}

const STDIO_SERVER = ["server", "--spring.ai.mcp.server.stdio=true", "--spring.main.web-application-type=none"];

/** A stdio session, behind the recorder (a golden) when goldens are being written. */
async function driveStdio(ctx: PeerContext, row: Row, jar: string, session: Session): Promise<void> {
  const server = ["java", ...JVM_FLAGS, "-jar", jar, ...STDIO_SERVER];
  const file = ctx.record && session.golden ? goldenPath(session.golden) : undefined;
  await drive(ctx, row, ["--", ...(file ? ["node", CLI, "record", "--out", file] : []), ...server], session);
  if (!file) return;
  writeHeader(file, [
    `peer: ${ROW.peer} ${ROW.version} (java)`,
    "direction: their server",
    `drive: ${[...PATIENCE, ...session.words].join(" ")}`,
    `exit: ${session.exit}`,
    `Recorded against: java -jar java-spring-peer.jar ${STDIO_SERVER.join(" ")} (scripts/peers/java-spring)`,
  ]);
  await ctx.check(row, `golden ${session.golden}: mcp-wire check`, () => checkRecording(file, "c2s"));
}

async function driveHttp(ctx: PeerContext, jar: string, protocol: "STREAMABLE" | "SSE", sessions: Session[]): Promise<void> {
  const transport = protocol === "SSE" ? "http+sse" : "streamable-http";
  const row = { ...ROW, transport, era: protocol === "SSE" ? "2024-11-05" : "2025-06-18" };
  const server = await startListening("java", [...JVM_FLAGS, "-jar", jar, "server", `--spring.ai.mcp.server.protocol=${protocol}`,
    "--server.port=0", "--server.address=127.0.0.1", "--logging.level.org.springframework.boot.web.embedded.tomcat=INFO"],
  /Tomcat started on port (\d+)/, 180_000).catch(async (error: Error) => {
    await ctx.check(row, `the Spring AI server starts (${protocol})`, async () => { throw error; });
    return undefined;
  });
  if (!server) return;
  try {
    const url = `http://127.0.0.1:${server.url}${protocol === "SSE" ? "/sse" : "/mcp"}`;
    for (const session of sessions) await drive(ctx, row, ["--url", url], session);
  } finally {
    await server.stop();
  }
}

export async function theirServer(ctx: PeerContext, jar: string): Promise<void> {
  // Over stdio the Java SDK's server transport offers 2024-11-05 only, whatever the client asks.
  const stdioRow = { ...ROW, era: "2024-11-05" };
  for (const session of [
    { ...TOOLS, golden: "spring-server-stdio-tools-auto" },
    { ...COUNTDOWN, golden: "spring-server-stdio-countdown-2025-06-18" },
    { ...DISCOVER_MODERN, golden: "spring-server-stdio-discover-2026-07-28" },
  ]) await driveStdio(ctx, stdioRow, jar, session).catch(async (error: Error) => ctx.check(stdioRow, name(session), async () => { throw error; }));
  await driveHttp(ctx, jar, "STREAMABLE", [TOOLS, MULTIPLY, ADD_PINNED, ADD_BAD, COUNTDOWN, READ, GET, DISCOVER_AUTO, DISCOVER_MODERN]);
  await driveHttp(ctx, jar, "SSE", [TOOLS, MULTIPLY, READ, GET, DISCOVER_AUTO, DISCOVER_MODERN]);
}
