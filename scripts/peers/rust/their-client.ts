// rmcp's client against our servers: the demo and the textbook over stdio (rmcp's
// TokioChildProcess), the demo over Streamable HTTP (rmcp's reqwest transport), with and without
// --session-per-post; the handshake era (initialize) and 2026-07-28 (server/discover). rmcp 3.11
// has no HTTP+SSE client any more, so that transport has no row here.
// Every session passes through our recorder: the recording shows what went over the wire (no
// answer to a cancelled request) and `mcp-wire check` must find no violation by us in it.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, runCommand, TEXTBOOK_SERVER, DEMO_SERVER, ROOT, type PeerContext } from "../harness.js";
import { runRmcpClient, startDemoHttp, startRecorderProxy, type Step } from "./processes.js";
import { judgeSession, type Session } from "./judge-client.js";
import { goldenPath, labelGolden } from "./goldens.js";

export const RMCP = { peer: "rmcp", version: "3.11.0", language: "rust" } as const;
const HANDSHAKE_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18"];

const relative = (path: string) => path.slice(ROOT.length).replace(/^\/+/, "");

function lifecycle(era: string): string[] {
  return era === "2026-07-28" ? ["--lifecycle", "discover", "--version", era] : ["--lifecycle", "initialize", "--version", era];
}

/** One session of the rmcp client: where it records, and its steps; stdio ones also the server's exit code. */
async function runSession(binary: string, session: Session, recording: string, clientFlags: string[]): Promise<{ steps: Map<string, Step>; exit?: string }> {
  const server = relative(session.server === "demo" ? DEMO_SERVER : TEXTBOOK_SERVER);
  if (session.transport === "stdio") {
    const exitFile = join(mkdtempSync(join(tmpdir(), "mcp-wire-rmcp-exit-")), "code");
    // rmcp closes the child's stdin and waits; sh keeps the server's exit code for the close check.
    const command = ["sh", "-c", 'f=$1; shift; "$@"; echo $? > "$f"', "sh", exitFile, "node", relative(CLI), "record", "--out", recording, "node", server, ...session.serverArgs];
    const steps = await runRmcpClient(binary, [...lifecycle(session.era), ...clientFlags, ...(session.server === "textbook" ? ["--textbook"] : []), "--", ...command]);
    let exit: string | undefined;
    try { exit = readFileSync(exitFile, "utf8").trim(); } catch { exit = "(no exit code: the server was killed)"; }
    return { steps, exit };
  }
  const demo = await startDemoHttp(session.serverArgs);
  try {
    const proxy = await startRecorderProxy(recording, demo.url);
    try {
      return { steps: await runRmcpClient(binary, [...lifecycle(session.era), ...clientFlags, "--url", proxy.url]) };
    } finally {
      await proxy.stop();
    }
  } finally {
    await demo.stop();
  }
}

const SESSIONS: Session[] = [
  ...(["2025-11-25", "2026-07-28"] as const).flatMap((era) => [
    { server: "demo", transport: "stdio", era, serverArgs: [] },
    { server: "textbook", transport: "stdio", era, serverArgs: [] },
    { server: "demo", transport: "streamable-http", era, serverArgs: [] },
    { server: "demo", transport: "streamable-http (session per post)", era, serverArgs: ["--session-per-post"] },
  ] satisfies Session[]),
  // The last version before 2025-11-25 made bad arguments a tool error: the demo must answer -32602.
  { server: "demo", transport: "stdio", era: "2025-06-18", serverArgs: [] },
];

export async function theirClient(ctx: PeerContext, binary: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "mcp-wire-rmcp-"));
  let n = 0;
  const scratchFile = () => join(scratch, `session-${++n}.recording`);
  const row = (session: Pick<Session, "transport" | "era">) => ({ ...RMCP, direction: "their client" as const, transport: session.transport, era: session.era });

  for (const session of SESSIONS) {
    const recording = scratchFile();
    const ran = await runSession(binary, session, recording, []);
    await judgeSession(ctx, row(session), session, ran.steps, ran.exit, recording);
  }

  // initialize with each older version rmcp offers, on both servers; and rmcp's Auto lifecycle.
  for (const server of ["demo", "textbook"] as const) {
    for (const era of HANDSHAKE_VERSIONS) {
      const session: Session = { server, transport: "stdio", era, serverArgs: [] };
      const ran = await runSession(binary, session, scratchFile(), ["--only-initialize"]);
      // The demo speaks every handshake version; the textbook only 2025-11-25, which it answers
      // instead, as the spec lets a server that lacks the client's version
      // (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation),
      // and rmcp, which knows 2025-11-25, goes on with it.
      const answered = server === "demo" ? era : "2025-11-25";
      await ctx.check(row(session), `${server}: initialize with ${era}: the server answers ${answered}; close (exit ${ran.exit})`, async () => {
        const init = ran.steps.get("initialize");
        assert.equal(init?.ok, true, JSON.stringify(init?.error));
        assert.equal((init!.value as { protocolVersion: string }).protocolVersion, answered);
        assert.equal(ran.steps.get("close")?.ok, true);
        assert.equal(ran.exit, "0");
      });
    }
    const auto: Session = { server, transport: "stdio", era: "2026-07-28", serverArgs: [] };
    const ran = await runSession(binary, auto, scratchFile(), ["--only-initialize", "--lifecycle", "auto"]);
    await ctx.check(row(auto), `${server}: rmcp's Auto lifecycle (server/discover first) speaks 2026-07-28`, async () => {
      const init = ran.steps.get("initialize");
      assert.equal((init?.value as { protocolVersion?: string } | undefined)?.protocolVersion, "2026-07-28", JSON.stringify(init));
      assert.equal(ran.exit, "0");
    });
  }

  // roots/list needs the demo's --roots-tool (off by default, so the default tool list stays as hosts saw it).
  for (const era of ["2025-11-25", "2026-07-28"] as const) {
    const session: Session = { server: "demo", transport: "stdio", era, serverArgs: ["--roots-tool"] };
    const ran = await runSession(binary, session, scratchFile(), ["--two-way-only"]);
    await ctx.check(row(session), "demo --roots-tool: list_roots asks rmcp's list_roots handler", async () => {
      const step = ran.steps.get("call list_roots");
      assert.equal(step?.ok, true, JSON.stringify(step?.error));
      const value = step!.value as { asked: string[]; result: { content: { text: string }[]; isError?: boolean } };
      assert.deepEqual(value.asked, ["roots/list"]);
      assert.equal(value.result.content[0]?.text, "rmcp-peer: file:///tmp/rmcp-peer");
      assert.equal(ran.exit, "0");
    });
  }

  if (ctx.record) await recordGoldens(ctx, binary);
}

/** The goldens: one stdio session per era and server, and one HTTP session per era, in --golden form. */
async function recordGoldens(ctx: PeerContext, binary: string): Promise<void> {
  const goldens = SESSIONS.filter((session) => !session.serverArgs.includes("--session-per-post"));
  for (const session of goldens) {
    const http = session.transport !== "stdio";
    const name = `rmcp-client-${session.server}-${http ? "http" : "stdio"}-${session.era}`;
    const path = goldenPath(name);
    await ctx.check({ ...row(session) }, `golden ${relative(path)} recorded and replays`, async () => {
      const ran = await runSession(binary, session, path, ["--golden"]);
      assert.equal(ran.steps.get("close")?.ok, true, JSON.stringify([...ran.steps.values()].filter((step) => step.step === "initialize")));
      labelGolden(path, {
        peer: `${RMCP.peer} ${RMCP.version} (${RMCP.language})`,
        direction: "their client",
        server: session.server,
        transport: http ? "http" : "stdio",
        command: `node ${relative(session.server === "demo" ? DEMO_SERVER : TEXTBOOK_SERVER)}`,
        args: session.serverArgs,
        // The notes' text (a section read, and the one explain_topic embeds) changes with every edit of PROTOCOL_NOTES.md.
        ignore: ["/result/contents/0/text", "/result/messages/1/content/resource/text"],
      });
      await assertReplays(path, http);
    });
  }
  function row(session: Session) {
    return { ...RMCP, direction: "their client" as const, transport: session.transport, era: session.era };
  }
}

/** The golden replays against a fresh server as test/golden/peers.test.ts runs it (exit 0). */
export async function assertReplays(path: string, http: boolean): Promise<void> {
  if (!http) {
    const replayed = await runCommand("node", [CLI, "replay", path], { timeoutMs: 60_000 });
    assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
    return;
  }
  const demo = await startDemoHttp();
  try {
    const replayed = await runCommand("node", [CLI, "replay", path, "--url", demo.url], { timeoutMs: 60_000 });
    assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
  } finally {
    await demo.stop();
  }
}
