// What our servers must answer the Go SDK's client, step by step (the steps client.go reports),
// as our servers answer today and the spec asks. A step's check throws with what came instead.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling
// (a bad argument is a tool execution error, isError; an unknown tool is -32602), and the
// 2026-07-28 pages for the modern era (no ping; roots, sampling, elicitation as MRTR rounds).

export interface StepLine { step: string; value?: unknown; error?: { code?: number; message: string } }

/** Which session the steps came from: what the answers depend on. */
export interface SessionShape {
  server: "demo" | "textbook";
  /** The version the session negotiated (2026-07-28 for a modern one). */
  era: string;
  transport: "stdio" | "streamable-http" | "streamable-http (session per post)" | "http+sse";
}

export type StepCheck = [name: string, body: (step: StepLine, shape: SessionShape) => string | void];

interface ToolResult { content?: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean }

function fail(message: string, step: StepLine): never {
  throw new Error(`${message}; got ${JSON.stringify(step.error ?? step.value)}`);
}

function resultOf(step: StepLine): ToolResult {
  if (step.error) fail("expected a result, not an error", step);
  return (step.value ?? {}) as ToolResult;
}

function textOf(step: StepLine): string {
  return (resultOf(step).content ?? []).map((block) => block.text ?? "").join("\n");
}

function expectText(step: StepLine, text: string, isError = false): string {
  const result = resultOf(step);
  if (textOf(step) !== text || Boolean(result.isError) !== isError) fail(`expected ${isError ? "isError with " : ""}${JSON.stringify(text)}`, step);
  return isError ? "isError" : JSON.stringify(text);
}

/**
 * A bad argument: from 2025-11-25 on a tool execution error (isError, so a model can correct
 * itself); before it, our server answers -32602, as those versions leave it to the server.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling
 */
function expectInvalidArguments(step: StepLine, says: string, shape: SessionShape): string {
  if (shape.era < "2025-11-25") return expectError(step, -32602, says);
  const result = resultOf(step);
  if (result.isError !== true || !textOf(step).includes(says)) fail(`expected isError saying ${JSON.stringify(says)}`, step);
  return `isError: ${textOf(step)}`;
}

function expectError(step: StepLine, code: number | undefined, says: string): string {
  if (!step.error || step.error.code !== code || !step.error.message.includes(says)) fail(`expected error ${code ?? "(no code)"} saying ${JSON.stringify(says)}`, step);
  return `${code ?? "error"}: ${step.error.message}`;
}

/** A session per POST answers in JSON, so nothing but the result reaches the client (src/http/server.ts). */
const perPost = (shape: SessionShape) => shape.transport === "streamable-http (session per post)" && shape.era !== "2026-07-28";

const DEMO_TOOLS = ["echo", "add", "get_time", "countdown", "greet", "summarize", "toggle_extra", "list_roots"];
const TEXTBOOK_TOOLS = ["echo", "add", "get_time", "countdown"];

/** The prompt a session gets, per server (the textbook has only review_message): client.go's flags. */
export function promptFlags(server: SessionShape["server"]): string[] {
  if (server === "demo") return [];
  return ["-prompt", "review_message", "-prompt-args", JSON.stringify({ message: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })];
}

/** What each server answers for its prompts (src/demo/ and src/textbook/demo.ts; the textbook's error words are its own). */
const PROMPTS = {
  demo: { names: ["explain_topic", "review_message"], description: 'Explain "Lifecycle" at beginner level', roles: ["user", "user"], missing: '"arguments.topic" is required by prompt "explain_topic"' },
  textbook: { names: ["review_message"], description: "Review one MCP message", roles: ["user"], missing: 'prompts/get: "message" must be of type string, got undefined' },
};
const NO_CHANNEL = "a server that answers each HTTP request on its own (session per POST, or a 2026-07-28 request) has no channel back to the client";

/** Elicitation came with 2025-06-18: an older session's client capability means nothing. */
function greet(step: StepLine, shape: SessionShape): string {
  if (shape.era < "2025-06-18") return expectText(step, `elicitation/create: protocol ${shape.era} has no elicitation (it arrived in 2025-06-18)`, true);
  return expectText(step, "Hello, Gopher!");
}

export const STEP_CHECKS: StepCheck[] = [
  ["tools/list", (step, shape) => {
    const want = shape.server === "demo" ? DEMO_TOOLS : TEXTBOOK_TOOLS;
    if (JSON.stringify(step.value) !== JSON.stringify(want)) fail(`expected ${want.join(", ")}`, step);
    return want.join(", ");
  }],
  ["call add good", (step, shape) => {
    // structuredContent came with 2025-06-18: https://modelcontextprotocol.io/specification/2025-06-18/server/tools#structured-content
    if (shape.era < "2025-06-18") {
      if (resultOf(step).structuredContent !== undefined) fail("expected no structuredContent before 2025-06-18", step);
      return expectText(step, '{"sum":7}');
    }
    if (resultOf(step).structuredContent?.sum !== 7 || resultOf(step).isError) fail("expected structuredContent {sum: 7}", step);
    return "structuredContent {sum: 7}";
  }],
  ["call add bad", (step, shape) => expectInvalidArguments(step, "a: must be number, got string", shape)],
  ["call echo good", (step) => expectText(step, "echo: hello from Go")],
  ["call echo bad", (step, shape) => expectInvalidArguments(step, 'missing required property "text"', shape)],
  ["call get_time good", (step) => {
    if (Number.isNaN(Date.parse(textOf(step))) || resultOf(step).isError) fail("expected an ISO 8601 time", step);
    return textOf(step);
  }],
  ["call get_time bad", (step, shape) => expectInvalidArguments(step, 'must NOT have additional property "zone"', shape)],
  ["call countdown good", (step) => expectText(step, "countdown: done after 2 steps")],
  ["call countdown bad", (step, shape) => expectInvalidArguments(step, "steps: must be >= 1, got 0", shape)],
  ["call unknown tool", (step, shape) => expectError(step, -32602, shape.server === "demo" ? '"name" names no tool of this server: "no_such_tool"' : "tools/call: no tool named no_such_tool")],
  ["resources/read", (step) => {
    const read = step.value as { uri?: string; mimeType?: string; startsWith?: string; textLength?: number } | undefined;
    if (read?.uri !== "docs://demo/protocol-notes" || read.mimeType !== "text/markdown" || !read.startsWith?.startsWith("# mcp-wire protocol notes")) fail("expected the protocol notes as text/markdown", step);
    return `${read.textLength} characters of text/markdown`;
  }],
  ["prompts/list", (step, shape) => {
    const { names } = PROMPTS[shape.server];
    if (JSON.stringify(step.value) !== JSON.stringify(names)) fail(`expected ${names.join(", ")}`, step);
    return names.join(", ");
  }],
  ["prompts/get good", (step, shape) => {
    const { description, roles } = PROMPTS[shape.server];
    const got = step.value as { description?: string; roles?: string[] } | undefined;
    if (got?.description !== description || JSON.stringify(got.roles) !== JSON.stringify(roles)) fail(`expected ${JSON.stringify(description)} in ${roles.length} user message(s)`, step);
    return `${description} (${roles.length} message(s))`;
  }],
  ["prompts/get bad", (step, shape) => expectError(step, -32602, PROMPTS[shape.server].missing)],
  ["progress", (step, shape) => {
    const seen = step.value as { notifications?: number; result?: ToolResult } | undefined;
    const want = perPost(shape) ? 0 : 3;
    if (step.error || seen?.notifications !== want || seen.result?.content?.[0]?.text !== "countdown: done after 3 steps") fail(`expected ${want} notifications/progress and the result`, step);
    return `${want} notifications/progress${want === 0 ? " (a session per POST answers in JSON)" : ""}, then the result`;
  }],
  ["cancel", (step) => {
    const seen = step.value as { contextCanceled?: boolean; echoAfter?: ToolResult; echoAfterError?: string } | undefined;
    if (seen?.contextCanceled !== true || seen.echoAfter?.content?.[0]?.text !== "echo: still there") fail("expected the call cancelled and echo answered after it", step);
    return "no result for the cancelled countdown; echo answered after it";
  }],
  ["elicitation (greet)", (step, shape) => (perPost(shape) ? expectText(step, `elicitation/create: ${NO_CHANNEL}; run it with sessions to send requests to the client`, true) : greet(step, shape))],
  ["sampling (summarize)", (step, shape) => (perPost(shape) ? expectText(step, `sampling/createMessage: ${NO_CHANNEL}; run it with sessions to send requests to the client`, true) : expectText(step, "A one-sentence summary."))],
  ["roots (list_roots)", (step, shape) => {
    if (perPost(shape)) return expectText(step, `roots/list: ${NO_CHANNEL}; run it with sessions to send requests to the client`, true);
    // go-sdk v1.8.0 cannot read an input request without params, which ListRootsRequest allows
    // (schema/2026-07-28: `params?`): PROTOCOL_NOTES.md, "Peers' deviations".
    if (shape.era === "2026-07-28") return `${expectError(step, undefined, "unexpected end of JSON input")} (the SDK's deviation: roots/list without params)`;
    return expectText(step, "go-peer-root: file:///tmp/go-peer-root");
  }],
  ["ping", (step, shape) => {
    // 2026-07-28 has no ping, yet the SDK sends one without the _meta envelope. Over stdio that is
    // a handshake-era ping, which needs no initialize; over HTTP the header claims 2026-07-28 and
    // the body lacks the envelope's required keys: 400 with -32602 (basic/index#meta).
    if (shape.era === "2026-07-28" && shape.transport.startsWith("streamable-http")) return `${expectError(step, undefined, "Bad Request")} (the SDK's deviation: ping on 2026-07-28)`;
    if (step.error || step.value !== "pong") fail("expected an empty result", step);
    return "answered";
  }],
  ["close", (step, shape) => {
    const closed = step.value as { closeError?: string; serverExitCode?: number } | undefined;
    if (closed?.closeError !== "") fail("expected a clean close", step);
    if (shape.transport === "stdio" && closed.serverExitCode !== 0) fail("expected the server to exit 0 when stdin closed", step);
    return shape.transport === "stdio" ? "the server exited 0" : "closed";
  }],
];
