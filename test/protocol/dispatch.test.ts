import { test } from "node:test";
import assert from "node:assert/strict";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import { RpcError, type JSONRPCRequest, type JSONRPCResponse } from "../../src/jsonrpc/messages.js";
import { FieldReader } from "../../src/jsonrpc/field-reader.js";

const problems: string[] = [];
const dispatcher = new Dispatcher<null>(
  [
    { method: "sum", kind: "request", handle: (p) => ({ sum: (p.value.a as number) + (p.value.b as number) }) },
    { method: "needs/name", kind: "request", handle: (p) => ({ name: p.string("name") }) },
    { method: "boom", kind: "request", handle: () => { throw new Error("secret path /etc/x"); } },
    { method: "refuse", kind: "request", handle: () => { throw new RpcError(-32002, "not here", { uri: "u" }); } },
    { method: "note", kind: "notification", handle: () => { throw new Error("notification failed"); } },
  ],
  { onInternalError: (method, error) => problems.push(`${method}: ${(error as Error).message}`) },
);

/** A request's one response, made the way PeerRequests.handle makes it: run, or errorResponse for what it rejects with. */
async function answer(through: Dispatcher<null>, request: JSONRPCRequest): Promise<JSONRPCResponse> {
  try {
    return { jsonrpc: "2.0", id: request.id, result: await through.run(request, null) };
  } catch (error) {
    return through.errorResponse(request, error);
  }
}

test("dispatcher: a known method answers with its result and the exact id", async () => {
  assert.deepEqual(await answer(dispatcher, { jsonrpc: "2.0", id: "x", method: "sum", params: { a: 1, b: 2 } }), { jsonrpc: "2.0", id: "x", result: { sum: 3 } });
});

test("dispatcher: unknown method is -32601", async () => {
  const response = await answer(dispatcher, { jsonrpc: "2.0", id: 1, method: "nope" });
  assert.deepEqual(response, { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "method not found: nope" } });
});

test("dispatcher: a notification's method called as a request is -32601", async () => {
  const response = await answer(dispatcher, { jsonrpc: "2.0", id: 1, method: "note" });
  assert.equal("error" in response && response.error.code, -32601);
});

test("dispatcher: invalid params is -32602 naming method and field", async () => {
  const response = await answer(dispatcher, { jsonrpc: "2.0", id: 2, method: "needs/name", params: { name: 5 } });
  assert.deepEqual("error" in response && response.error, { code: -32602, message: 'needs/name: "name" must be a string, got integer' });
});

test("dispatcher: a throwing handler is -32603 without its message or stack", async () => {
  const response = await answer(dispatcher, { jsonrpc: "2.0", id: 3, method: "boom" });
  assert.deepEqual("error" in response && response.error, { code: -32603, message: "boom: internal error" });
  assert.ok(problems.some((p) => p.includes("secret path")), "reported locally");
});

test("dispatcher: a thrown RpcError goes out as it is", async () => {
  const response = await answer(dispatcher, { jsonrpc: "2.0", id: 4, method: "refuse" });
  assert.deepEqual("error" in response && response.error, { code: -32002, message: "not here", data: { uri: "u" } });
});

test("dispatcher: the gate refuses before the handler runs", async () => {
  let ran = false;
  const gated = new Dispatcher<null>([{ method: "m", kind: "request", handle: () => ((ran = true), {}) }], {
    gate: () => new RpcError(-32600, "not yet"),
  });
  const response = await answer(gated, { jsonrpc: "2.0", id: 5, method: "m" });
  assert.equal("error" in response && response.error.message, "not yet");
  assert.equal(ran, false);
});

test("dispatcher: notifications never produce anything, even when they fail or are unknown", async () => {
  assert.equal(await dispatcher.handleNotification({ jsonrpc: "2.0", method: "note" }), undefined);
  assert.equal(await dispatcher.handleNotification({ jsonrpc: "2.0", method: "unknown/thing" }), undefined);
  assert.ok(problems.some((p) => p.includes("notification failed")));
});

test("dispatcher: two rows for one method is a programming error", () => {
  assert.throws(() => new Dispatcher([{ method: "a", kind: "request", handle: () => ({}) }, { method: "a", kind: "request", handle: () => ({}) }]), /two rows/);
});

test("params: readers name nested fields and check types", () => {
  const params = new FieldReader("completion/complete", { ref: { type: 3 }, argument: { name: "x" }, context: { arguments: { a: 1 } } });
  assert.throws(() => params.object("ref").string("type"), /completion\/complete: "ref.type" must be a string, got integer/);
  assert.throws(() => params.object("argument").string("value"), /"argument.value" is required/);
  assert.throws(() => params.optionalObject("context")!.optionalStringRecord("arguments"), /"context.arguments.a" must be a string/);
  assert.throws(() => new FieldReader("tools/call", [1, 2]), /tools\/call: params must be an object/);
  assert.throws(() => new FieldReader("x", {}).choice("level", ["debug", "info"]), /is required/);
  assert.throws(() => new FieldReader("x", { level: "loud" }).choice("level", ["debug", "info"]), /must be one of debug, info, got "loud"/);
  assert.deepEqual(new FieldReader("x", undefined).value, {});
});

test("dispatcher: a gated notification is dropped without running its handler", async () => {
  let ran = false;
  const gated = new Dispatcher<null>([{ method: "n", kind: "notification", handle: () => void (ran = true) }], {
    gate: (_method, kind) => (kind === "notification" ? new RpcError(-32600, "not now") : undefined),
  });
  assert.equal(await gated.handleNotification({ jsonrpc: "2.0", method: "n" }), undefined);
  assert.equal(ran, false);
});

test("dispatcher: a notification its reader refuses is reported as dropped; a handler's own RpcError as the handler's failure", async () => {
  const { describeFailure, notificationRows } = await import("../../src/protocol/dispatch.js");
  const { readServerNotification } = await import("../../src/mcp/read.js");
  const heard: string[] = [];
  const rows = notificationRows(readServerNotification, {
    "notifications/resources/updated": () => {
      throw new RpcError(-32000, "the application's listener refused it");
    },
  });
  const notes = new Dispatcher<null>(rows, { onInternalError: (method, error) => heard.push(describeFailure(method, error)) });
  await notes.handleNotification({ jsonrpc: "2.0", method: "notifications/resources/updated", params: {} });
  await notes.handleNotification({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///a" } });
  assert.equal(heard.length, 2);
  assert.match(heard[0]!, /^dropped a malformed notification: .*"uri" is required/);
  assert.match(heard[1]!, /^notifications\/resources\/updated: handler failed: .*the application's listener refused it/);
});

test("dispatcher: an onInternalError hook that throws does not cost the request its answer", async () => {
  const fragile = new Dispatcher<null>(
    [{ method: "boom", kind: "request", handle: () => { throw new Error("inside"); } }],
    { onInternalError: () => { throw new Error("the hook itself failed"); } },
  );
  assert.deepEqual(await answer(fragile, { jsonrpc: "2.0", id: 9, method: "boom" }), { jsonrpc: "2.0", id: 9, error: { code: -32603, message: "boom: internal error" } });
});
