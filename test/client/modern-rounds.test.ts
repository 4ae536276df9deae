// The dual-era client's 2026-07-28 results: input_required rounds answered by the same handlers
// that answer a legacy server's requests (against our real server, and scripted), the bound on
// rounds, and results whose resultType is missing or unknown (basic#result-responses,
// basic/patterns/mrtr#client-requirements-basic-workflow).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, type ClientOptions } from "../../src/client/client.js";
import { InputRoundsExceededError, NoInputHandlerError } from "../../src/client/errors.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { MalformedResponseError } from "../../src/jsonrpc/pending.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { discoverResult, roundsServer, ScriptedServer, type Sent } from "../helpers/client-modern-peer.js";

const info = { name: "test-client", version: "1.0.0" };
const CAPS = "io.modelcontextprotocol/clientCapabilities";

const handlers: ClientOptions = {
  elicitation: { form: (params) => ({ action: "accept", content: { name: `Ada (asked: ${params.message.slice(0, 7)})` } }) },
  sampling: (params) => ({ role: "assistant", model: "test-model", content: { type: "text", text: `summary of ${params.messages.length} message(s)` } }),
  roots: () => [{ uri: "file:///work", name: "work" }],
};

async function withDemo(options: ClientOptions, era: ClientOptions["protocolVersion"]) {
  const [clientEnd, serverEnd] = createMemoryPair();
  createDemoServer().connect(serverEnd);
  const client = new McpClient(info, { ...options, protocolVersion: era });
  await client.connect(clientEnd);
  return client;
}

test("greet and summarize against our server: the same handlers answer input rounds (modern) and server requests (handshake)", async () => {
  for (const era of ["auto", "2025-11-25"] as const) {
    const client = await withDemo(handlers, era);
    assert.equal(client.era, era === "auto" ? "modern" : "handshake");
    assert.deepEqual((await client.callTool("greet", {})).content, [{ type: "text", text: "Hello, Ada (asked: What is)!" }], era);
    assert.deepEqual((await client.callTool("summarize", { text: "a long text" })).content, [{ type: "text", text: "summary of 1 message(s)" }], era);
    await client.close();
  }
});

test("the capabilities declared in the envelope are the 2026-07-28 shape of the handlers the application has", async () => {
  const seen: Sent[] = [];
  const server = new ScriptedServer((m) => {
    seen.push(m);
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: discoverResult({}) }];
  });
  const client = new McpClient(info, { ...handlers, elicitation: { ...handlers.elicitation, url: () => ({ action: "accept" }) }, samplingTools: true, protocolVersion: "auto" });
  await client.connect(server);
  assert.deepEqual((seen[0]!.params!._meta as Record<string, unknown>)[CAPS], { roots: {}, sampling: { tools: {} }, elicitation: { form: {}, url: {} } });
  await client.close();
});


const confirm = { method: "elicitation/create", params: { mode: "form", message: "Sure?", requestedSchema: { type: "object", properties: { ok: { type: "boolean", default: true } } } } };

test("input rounds: every request answered under its key, a new id, the same params, requestState byte for byte (none when none)", async () => {
  const state = "opaque+/= state \u00e9";
  const server = roundsServer((round) => {
    if (round === 0) return { resultType: "input_required", inputRequests: { c: confirm, r: { method: "roots/list" } }, requestState: state };
    if (round === 1) return { resultType: "input_required", inputRequests: { again: confirm } };
    return { resultType: "complete", content: [{ type: "text", text: "done" }] };
  });
  const client = new McpClient(info, { ...handlers, elicitation: { form: () => ({ action: "accept", content: {} }) }, protocolVersion: "auto" });
  await client.connect(server);
  assert.deepEqual((await client.callTool("deploy", { env: "prod" })).content, [{ type: "text", text: "done" }]);
  const calls = server.sent.filter((m) => m.method === "tools/call");
  assert.equal(calls.length, 3);
  assert.equal(new Set(calls.map((c) => c.id)).size, 3, "each round is a new request");
  for (const call of calls) assert.deepEqual([call.params!.name, call.params!.arguments], ["deploy", { env: "prod" }]);
  assert.equal(calls[0]!.params!.inputResponses, undefined);
  assert.deepEqual(calls[1]!.params!.inputResponses, { c: { action: "accept", content: { ok: true } }, r: { roots: [{ uri: "file:///work", name: "work" }] } }, "form defaults filled in, as for a legacy request");
  assert.equal(calls[1]!.params!.requestState, state);
  assert.deepEqual(calls[2]!.params!.inputResponses, { again: { action: "accept", content: { ok: true } } }, "only this round's answers");
  assert.equal("requestState" in calls[2]!.params!, false, "no requestState given, none sent");
  await client.close();
});

test("input rounds: past maxInputRounds a clear InputRoundsExceededError", async () => {
  const server = roundsServer(() => ({ resultType: "input_required", requestState: "again" }));
  const client = new McpClient(info, { protocolVersion: "auto", maxInputRounds: 3 });
  await client.connect(server);
  await assert.rejects(client.callTool("loop"), (e: unknown) => e instanceof InputRoundsExceededError && /after 3 rounds/.test(e.message));
  assert.equal(server.sent.filter((m) => m.method === "tools/call").length, 4, "the first request and 3 retries");
  await client.close();
});

test("input rounds: a question the application has no handler for is a clear local error", async () => {
  const server = roundsServer(() => ({ resultType: "input_required", inputRequests: { s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } } } }));
  const client = new McpClient(info, { protocolVersion: "auto" });
  await client.connect(server);
  await assert.rejects(client.callTool("x"), (e: unknown) => e instanceof NoInputHandlerError && /input "s" \(sampling\/createMessage\)/.test(e.message));
  await client.close();
});

const badResults: { name: string; result: object; problem: RegExp }[] = [
  { name: "no resultType", result: { content: [] }, problem: /"resultType" is missing/ },
  { name: "an unknown resultType", result: { resultType: "task", content: [] }, problem: /unknown "resultType" "task"/ },
  { name: "input_required without requests or state", result: { resultType: "input_required" }, problem: /without inputRequests or requestState/ },
  { name: "an input request of an unknown method", result: { resultType: "input_required", inputRequests: { p: { method: "ping" } } }, problem: /inputRequests\.p/ },
];

for (const c of badResults) {
  test(`a modern tools/call result with ${c.name} is a MalformedResponseError`, async () => {
    const server = roundsServer(() => c.result);
    const client = new McpClient(info, { protocolVersion: "auto" });
    await client.connect(server);
    await assert.rejects(client.callTool("x"), (e: unknown) => e instanceof MalformedResponseError && c.problem.test(e.message));
    await client.close();
  });
}

test("input_required on a method that may not ask (tools/list) is a MalformedResponseError", async () => {
  const server = new ScriptedServer((m) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: discoverResult({ tools: {} }) }];
    if (m.method === "tools/list") return [{ jsonrpc: "2.0", id: m.id, result: { resultType: "input_required", requestState: "x" } }];
  });
  const client = new McpClient(info, { protocolVersion: "auto" });
  await client.connect(server);
  await assert.rejects(client.listTools(), (e: unknown) => e instanceof MalformedResponseError && /not allowed for tools\/list/.test(e.message));
  await client.close();
});
