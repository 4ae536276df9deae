// What our servers must have answered rmcp's client, step by step (the steps: src/client.rs).
// The expectations are our servers' exact outcomes, each the spec's rule for its era:
// - bad tool arguments are a tool execution error (isError), not a JSON-RPC error, from 2025-11-25
//   (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling); before,
//   invalid arguments were a protocol error, -32602
//   (https://modelcontextprotocol.io/specification/2025-06-18/server/tools#error-handling);
// - an unknown tool is -32602;
// - an unknown resource is -32002 in the handshake era and -32602 in 2026-07-28
//   (https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes), which has no ping
//   (https://modelcontextprotocol.io/specification/2026-07-28/changelog).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CLI, runCommand, type PeerContext } from "../harness.js";
import type { Step } from "./processes.js";

export interface Session {
  server: "demo" | "textbook";
  transport: "stdio" | "streamable-http" | "streamable-http (session per post)";
  era: string;
  serverArgs: string[];
}

type Row = Parameters<PeerContext["check"]>[0];
interface ToolResult { content: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean }

const DEMO_TOOLS = ["echo", "add", "get_time", "countdown", "greet", "summarize", "toggle_extra"];
const TEXTBOOK_TOOLS = ["echo", "add", "get_time", "countdown"];
const modern = (era: string) => era === "2026-07-28";

function ok<T>(step: Step | undefined): T {
  assert.ok(step, "the client never got to this step");
  assert.equal(step.ok, true, `expected a result, got ${JSON.stringify(step.error)}`);
  return step.value as T;
}

function failed(step: Step | undefined, code: number): void {
  assert.ok(step, "the client never got to this step");
  assert.equal(step.ok, false, `expected JSON-RPC error ${code}, got ${JSON.stringify(step.value)}`);
  assert.equal(step.error?.code, code, JSON.stringify(step.error));
}

/** A call with bad arguments: isError from 2025-11-25, -32602 before; either way `text` says what is wrong. */
function badArguments(step: Step | undefined, era: string, text: string): void {
  if (era >= "2025-11-25") return assert.equal(toolText(step, true), text);
  failed(step, -32602);
  assert.equal(step!.error!.message, text);
}

function toolText(step: Step | undefined, isError: boolean): string {
  const result = ok<ToolResult>(step);
  assert.equal(result.isError ?? false, isError, JSON.stringify(result));
  assert.equal(result.content[0]?.type, "text");
  return result.content[0]!.text!;
}

/** The server messages of a recording ("< +MS {json}" lines). */
function serverMessages(recording: string): Record<string, unknown>[] {
  return readFileSync(recording, "utf8").split("\n").filter((line) => line.startsWith("< ")).map((line) => line.slice(line.indexOf("{")))
    .filter((json) => json.startsWith("{")).map((json) => JSON.parse(json) as Record<string, unknown>);
}

export async function judgeSession(ctx: PeerContext, row: Row, session: Session, steps: Map<string, Step>, exit: string | undefined, recording: string): Promise<void> {
  const { era, server } = session;
  const get = (name: string) => steps.get(name);
  // The demo's --session-per-post answers each handshake-era POST with JSON, in a session of its
  // own: no progress, no requests to the client, and a cancel lands in another session. Its --help
  // says so; the spec allows each (JSON or SSE is the server's choice, progress is optional, and a
  // cancel for a request the receiver does not know MAY be ignored).
  const perPost = session.transport === "streamable-http (session per post)" && !modern(era);
  const check = (name: string, body: () => void | Promise<void>) => ctx.check(row, `${server}: ${name}`, async () => { await body(); });

  await check(modern(era) ? "server/discover picks 2026-07-28" : `initialize with ${era}`, () => {
    const info = ok<{ protocolVersion: string; capabilities: Record<string, unknown> }>(get("initialize"));
    assert.equal(info.protocolVersion, era);
    assert.ok(info.capabilities.tools, "the server offers tools");
  });
  await check(modern(era) ? "ping is gone from 2026-07-28: -32601" : "ping", () => {
    for (const name of ["ping", "ping after all"]) {
      if (modern(era)) failed(get(name), -32601);
      else assert.deepEqual(ok(get(name)), {});
    }
  });
  await check("tools/list", () => {
    const tools = ok<{ name: string; outputSchema?: unknown }[]>(get("tools/list"));
    assert.deepEqual(tools.map((tool) => tool.name), server === "demo" ? DEMO_TOOLS : TEXTBOOK_TOOLS);
    assert.ok(tools.find((tool) => tool.name === "add")?.outputSchema, "add has an output schema");
  });
  await check("call echo, good and bad arguments", () => {
    assert.equal(toolText(get("call echo good"), false), "echo: hello from rmcp");
    badArguments(get("call echo bad"), era, "tools/call echo: invalid arguments: text: must be string, got number");
  });
  await check("call add: structured content; bad arguments", () => {
    const result = ok<ToolResult>(get("call add good"));
    assert.deepEqual(result.structuredContent, { sum: 5.5 });
    assert.equal(toolText(get("call add good"), false), '{"sum":5.5}');
    badArguments(get("call add bad"), era, "tools/call add: invalid arguments: a: must be number, got string");
  });
  await check("call get_time, good and bad arguments", () => {
    assert.match(toolText(get("call get_time good"), false), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    badArguments(get("call get_time bad"), era, 'tools/call get_time: invalid arguments: must NOT have additional property "zone"');
  });
  await check("call countdown with bad arguments; an unknown tool is -32602", () => {
    badArguments(get("call countdown bad"), era, "tools/call countdown: invalid arguments: steps: must be >= 1, got 0");
    failed(get("call unknown tool"), -32602);
    // The textbook's error messages are its own shorter words (same codes and data).
    assert.equal(get("call unknown tool")!.error!.message, server === "demo" ? 'tools/call: "name" names no tool of this server: "no_such_tool"' : "tools/call: no tool named no_such_tool");
  });
  await check(perPost ? "progress: none, the POST is answered with JSON" : "progress: countdown's three steps reach rmcp's on_progress", () => {
    const { result, progress } = ok<{ result: ToolResult; progress: { progress: number; total: number; message: string }[] }>(get("progress"));
    assert.equal(result.content[0]?.text, "countdown: done after 3 steps");
    if (perPost) return assert.deepEqual(progress, []);
    assert.deepEqual(progress.map((p) => [p.progress, p.total, p.message]), [[1, 3, "2 to go"], [2, 3, "1 to go"], [3, 3, "0 to go"]]);
  });
  await check(perPost ? "cancellation: the cancel reaches another session, the call runs to its end" : "cancellation: no answer to the cancelled call, the server goes on", () => {
    const value = ok<{ id: number; sent: boolean; progressBefore: number; progressAfterCancel: number; progressLate: number; answered: { result?: ToolResult; error?: { message: string } } | null; eventually: { result?: ToolResult; error?: { message: string } } | null; afterwards: ToolResult }>(get("cancellation"));
    assert.equal(value.sent, true);
    assert.equal(value.afterwards.content[0]?.text, "echo: still there");
    if (perPost) return assert.equal((value.answered ?? value.eventually)?.result?.content[0]?.text, "countdown: done after 50 steps");
    assert.ok(value.progressBefore >= 1, "the countdown had started");
    assert.equal(value.progressLate, 0, "progress went on after the cancel");
    assert.ok(value.progressAfterCancel <= 1, `${value.progressAfterCancel} progress notifications after the cancel`);
    // rmcp settles the cancelled call itself (ServiceError::Cancelled); the wire must show no answer.
    assert.match((value.answered ?? value.eventually)?.error?.message ?? "", /^task cancelled/);
    const answers = serverMessages(recording).filter((message) => message.id === value.id && ("result" in message || "error" in message));
    assert.deepEqual(answers, [], "the server answered the cancelled request");
  });
  await check("resources: list, read the protocol notes, an unknown one", () => {
    const resources = ok<{ uri: string }[]>(get("resources/list"));
    assert.ok(resources.some((resource) => resource.uri === "docs://demo/protocol-notes"));
    const read = ok<{ contents: { uri: string; mimeType: string; text: string }[] }>(get("resources/read notes"));
    assert.equal(read.contents[0]?.mimeType, "text/markdown");
    assert.ok(read.contents[0]?.text.startsWith("# mcp-wire protocol notes"), read.contents[0]?.text.slice(0, 80));
    failed(get("resources/read missing"), modern(era) ? -32602 : -32002);
  });
  if (server === "demo") {
    await check("prompts: list, get explain_topic, a bad topic is -32602", () => {
      const prompts = ok<{ name: string }[]>(get("prompts/list"));
      assert.deepEqual(prompts.map((prompt) => prompt.name), ["explain_topic", "review_message"]);
      const prompt = ok<{ description: string; messages: { content: { type: string } }[] }>(get("prompts/get explain_topic"));
      assert.equal(prompt.description, 'Explain "Lifecycle" at expert level');
      assert.deepEqual(prompt.messages.map((message) => message.content.type), ["text", "resource"]);
      failed(get("prompts/get bad topic"), -32602);
    });
  } else {
    // The textbook's one prompt (src/textbook/demo.ts), and its own words for a missing argument.
    await check("prompts: list, get review_message, without its message is -32602", () => {
      const prompts = ok<{ name: string }[]>(get("prompts/list"));
      assert.deepEqual(prompts.map((prompt) => prompt.name), ["review_message"]);
      const prompt = ok<{ description: string; messages: { role: string; content: { type: string; text?: string } }[] }>(get("prompts/get review_message"));
      assert.equal(prompt.description, "Review one MCP message");
      assert.deepEqual(prompt.messages.map((message) => [message.role, message.content.type]), [["user", "text"]]);
      const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
      assert.ok(prompt.messages[0]!.content.text!.startsWith(`Here is an MCP message sent under protocol version 2025-11-25:\n${ping}\n`), prompt.messages[0]!.content.text);
      failed(get("prompts/get without message"), -32602);
      assert.equal(get("prompts/get without message")!.error!.message, 'prompts/get: "message" must be of type string, got undefined');
    });
  }
  if (perPost) {
    await check("sampling and elicitation: the tools say the server has no channel back (isError)", () => {
      for (const [tool, method] of [["summarize", "sampling/createMessage"], ["greet", "elicitation/create"]]) {
        const { asked, result } = ok<{ asked: string[]; result: ToolResult }>(get(`call ${tool}`));
        assert.deepEqual(asked, []);
        assert.equal(result.isError, true);
        assert.ok(result.content[0]?.text?.startsWith(`${method}: a server that answers each HTTP request on its own`), result.content[0]?.text);
      }
    });
  } else if (server === "demo") {
    await check(modern(era) ? "sampling and elicitation (input_required rounds)" : "sampling and elicitation (server-to-client requests)", () => {
      const summary = ok<{ asked: string[]; result: ToolResult }>(get("call summarize"));
      assert.deepEqual(summary.asked, ["sampling/createMessage (1 messages)"]);
      assert.equal(summary.result.content[0]?.text, "A crab summarised it.");
      const greeting = ok<{ asked: string[]; result: ToolResult }>(get("call greet"));
      assert.deepEqual(greeting.asked, ["elicitation/create"]);
      assert.equal(greeting.result.content[0]?.text, "Hello, Ferris!");
    });
  }
  const withSession = session.transport === "streamable-http" && !modern(era);
  const closing = session.transport === "stdio" ? "close: the server exits 0 when rmcp closes its stdin"
    : withSession ? "close: rmcp's DELETE ends the session (200)" : "close";
  await check(closing, () => {
    ok(get("close"));
    if (session.transport === "stdio") assert.equal(exit, "0");
    if (withSession) {
      // https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
      const lines = readFileSync(recording, "utf8").split("\n");
      const at = lines.findIndex((line) => line.startsWith("# > DELETE "));
      assert.ok(at >= 0, "rmcp sent no DELETE");
      assert.ok(lines.slice(at).some((line) => line.startsWith("# < 200 ")), lines.slice(at, at + 3).join("\n"));
    }
  });
  await check("mcp-wire check finds no violation in the recorded session", async () => {
    const checked = await runCommand("node", [CLI, "check", recording], { timeoutMs: 60_000 });
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  });
}
