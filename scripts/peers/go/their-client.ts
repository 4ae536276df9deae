// The Go SDK's client against our servers: the demo over stdio, Streamable HTTP (sessions, and a
// session per POST) and HTTP+SSE, and the textbook over stdio; in 2026-07-28 (the SDK's default:
// server/discover first) and with every handshake version the SDK offers. Each session is one run
// of `peer client`, whose JSON lines client-expectations.ts judges, one check per step.
import { DEMO_SERVER, TEXTBOOK_SERVER, tailOf, type PeerContext } from "../harness.js";
import { promptFlags, STEP_CHECKS, type SessionShape, type StepLine } from "./client-expectations.js";
import { GO_SDK_VERSION, LANGUAGE, runPeer, startDemoHttp } from "./toolchain.js";

const PEER = "go-sdk (mcp.Client)";
/** The versions go-sdk v1.8.0 offers (mcp.SupportedProtocolVersions), newest first. */
export const SDK_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const HANDSHAKE_VERSIONS_SPOKEN_BY_TEXTBOOK = ["2025-11-25"];

type Script = "full" | "short";

/** One session: where the client connects and what it runs. */
interface Session {
  server: SessionShape["server"];
  transport: SessionShape["transport"];
  /** What the client asks for; "" is the SDK's default (2026-07-28, falling back to initialize). */
  version: string;
  script: Script;
  /** The peer's arguments after `client`: how it reaches the server. */
  reach: string[];
}

/** What the server answers for a requested version: the demo speaks all five; the textbook 2026-07-28 and 2025-11-25. */
function negotiated(server: Session["server"], version: string): string {
  if (version === "" || version === "2026-07-28") return "2026-07-28";
  if (server === "textbook" && !HANDSHAKE_VERSIONS_SPOKEN_BY_TEXTBOOK.includes(version)) return "2025-11-25";
  return version;
}

function parseSteps(stdout: string): Map<string, StepLine> {
  const steps = new Map<string, StepLine>();
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    const step = JSON.parse(line) as StepLine;
    steps.set(step.step, step);
  }
  return steps;
}

async function runSession(ctx: PeerContext, session: Session): Promise<void> {
  const era = negotiated(session.server, session.version);
  const row = { peer: PEER, version: GO_SDK_VERSION, language: LANGUAGE, direction: "their client" as const, transport: session.transport, era };
  const label = `${session.server}${session.version ? `, asks ${session.version}` : ", SDK default"}`;
  const args = ["client", "-script", session.script, ...(session.server === "demo" && session.script === "full" ? ["-two-way"] : []), ...(session.version ? ["-version", session.version] : []), ...promptFlags(session.server), ...session.reach];
  const ran = await runPeer(ctx.cacheDir, args);
  let steps: Map<string, StepLine>;
  try {
    steps = parseSteps(ran.stdout);
  } catch (error) {
    await ctx.check(row, `${label}: the client's report`, async () => { throw new Error(`unreadable output (${String(error)}):\n${tailOf(ran.stdout)}\n${tailOf(ran.stderr)}`); });
    return;
  }
  const shape: SessionShape = { server: session.server, era, transport: session.transport };
  await ctx.check(row, `${label}: connect (${session.version ? "initialize" : "server/discover"})`, async () => {
    const connect = steps.get("connect");
    const result = connect?.value as { protocolVersion?: string; serverInfo?: { name?: string } } | undefined;
    if (!connect || connect.error || result?.protocolVersion !== era || result.serverInfo?.name !== "mcp-wire-demo") {
      throw new Error(`expected ${era} with mcp-wire-demo; got ${JSON.stringify(connect)}\n${tailOf(ran.stderr)}`);
    }
    return `negotiated ${era}`;
  });
  const wanted = STEP_CHECKS.filter(([name]) => steps.has(name) || mustRun(session, name));
  for (const [name, body] of wanted) {
    await ctx.check(row, `${label}: ${name}`, async () => {
      const step = steps.get(name);
      if (!step) throw new Error(`the client never reported this step (exit ${ran.code}):\n${tailOf(ran.stderr)}`);
      return body(step, shape) ?? undefined;
    });
  }
}

/** The steps a session's script must report: a missing one is a failure, not a skip. */
function mustRun(session: Session, name: string): boolean {
  if (session.script === "short") return ["tools/list", "call add good", "close"].includes(name);
  const twoWay = ["elicitation (greet)", "sampling (summarize)", "roots (list_roots)"];
  return session.server === "demo" || !twoWay.includes(name);
}

function stdio(server: Session["server"], version: string, script: Script): Session {
  const command = server === "demo" ? [DEMO_SERVER, "--roots-tool"] : [TEXTBOOK_SERVER];
  return { server, transport: "stdio", version, script, reach: ["--", process.execPath, ...command] };
}

export async function runTheirClient(ctx: PeerContext): Promise<void> {
  for (const server of ["demo", "textbook"] as const) {
    await runSession(ctx, stdio(server, "", "full"));
    for (const version of SDK_VERSIONS.slice(1)) await runSession(ctx, stdio(server, version, server === "demo" || version === "2025-11-25" ? "full" : "short"));
  }
  for (const [transport, flags] of [["streamable-http", []], ["streamable-http (session per post)", ["--session-per-post"]]] as const) {
    const demo = await startDemoHttp(["--roots-tool", ...flags]);
    try {
      for (const version of ["", "2025-11-25"]) await runSession(ctx, { server: "demo", transport, version, script: "full", reach: ["-url", demo.url] });
    } finally {
      await demo.stop();
    }
  }
  const demo = await startDemoHttp(["--roots-tool"]);
  try {
    const sse = demo.url.replace(/\/mcp$/, "/sse");
    for (const version of ["", "2024-11-05"]) await runSession(ctx, { server: "demo", transport: "http+sse", version, script: "full", reach: ["-sse", sse] });
  } finally {
    await demo.stop();
  }
}
