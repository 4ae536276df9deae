// OurRequests: our requests in flight, on their own. Each gets the next id and is registered before
// its bytes are written; asking for progress adds the id as its token (basic/utilities/progress)
// and the peer's reports reach the caller and keep the call alive; giving up sends one
// notifications/cancelled, never for initialize (basic/utilities/cancellation); a failed write, a
// refused result, the end of the peer's output and the close each fail the call with a local error.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JSONRPCMessage, JSONRPCRequest } from "../../src/jsonrpc/messages.js";
import { ConnectionClosedError, MalformedResponseError, RequestAbortedError, RequestTimeoutError } from "../../src/jsonrpc/pending.js";
import { OurRequests } from "../../src/protocol/our-requests.js";
import type { SendOptions, Transport } from "../../src/protocol/transport.js";

function setup(options: { failWrites?: boolean } = {}) {
  const sent: JSONRPCRequest[] = [];
  const notes: { method: string; params: unknown; signal: AbortSignal | undefined }[] = [];
  const connection = {
    isClosed: false,
    notify: async (method: string, params?: object, sendOptions?: SendOptions) => void notes.push({ method, params, signal: sendOptions?.signal }),
  };
  const transport: Transport = {
    start() {},
    async send(message: JSONRPCMessage | JSONRPCMessage[]) {
      if (options.failWrites) throw new Error("pipe broke");
      sent.push(message as JSONRPCRequest);
    },
    async close() {},
  };
  return { ours: new OurRequests(connection, transport), connection, sent, notes };
}

test("our requests: ids count up from 0, params go out as given, and an answer settles its call", async () => {
  const { ours, sent } = setup();
  const first = ours.request("ping", undefined, {});
  const second = ours.request("tools/call", { name: "add" }, {});
  assert.deepEqual(sent, [
    { jsonrpc: "2.0", id: 0, method: "ping" },
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add" } },
  ]);
  assert.equal(ours.has(1), true);
  assert.equal(ours.settle({ jsonrpc: "2.0", id: 1, result: { n: 2 } }), true);
  assert.equal(ours.settle({ jsonrpc: "2.0", id: 0, result: {} }), true);
  assert.deepEqual(await second, { n: 2 });
  assert.deepEqual(await first, {});
  assert.equal(ours.settle({ jsonrpc: "2.0", id: 0, result: {} }), false, "answered once: a second answer finds nobody");
  assert.equal(ours.has(1), false);
});

test("our requests: asking for progress adds the id as the token, keeping the caller's _meta and params", async () => {
  const { ours, sent } = setup();
  const call = ours.request("tools/call", { name: "add", _meta: { trace: "t" } }, { onProgress: () => {} });
  assert.deepEqual(sent[0]!.params, { name: "add", _meta: { trace: "t", progressToken: 0 } });
  ours.settle({ jsonrpc: "2.0", id: 0, result: {} });
  await call;
});

test("our requests: the peer's progress reaches the caller (bad fields left out) until the answer, and nothing else does", async () => {
  const { ours } = setup();
  const seen: unknown[] = [];
  const call = ours.request("slow", undefined, { onProgress: (report) => seen.push(report) });
  ours.progressed({ progressToken: 0, progress: 1 });
  ours.progressed({ progressToken: 0, progress: 2, total: 4, message: "half" });
  ours.progressed({ progressToken: 0, progress: 3, total: "4", message: 7 });
  for (const params of [{ progressToken: "0", progress: 9 }, { progressToken: 0, progress: "9" }, { progressToken: {}, progress: 9 }, {}]) ours.progressed(params);
  ours.settle({ jsonrpc: "2.0", id: 0, result: {} });
  await call;
  ours.progressed({ progressToken: 0, progress: 4 });
  assert.deepEqual(seen, [{ progress: 1 }, { progress: 2, total: 4, message: "half" }, { progress: 3 }]);
});

test("our requests: the peer's progress restarts the call's idle clock", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const { ours } = setup();
  const call = ours.request("slow", undefined, { timeouts: { idleMs: 1000, maxTotalMs: 60_000 }, onProgress: () => {} });
  t.mock.timers.tick(900);
  ours.progressed({ progressToken: 0, progress: 1 });
  t.mock.timers.tick(900);
  assert.equal(ours.has(0), true, "1800 ms in, 900 since the progress: still waiting");
  t.mock.timers.tick(100);
  await assert.rejects(call, (e: unknown) => e instanceof RequestTimeoutError && /idle timeout/.test(e.message));
});

test("our requests: giving up tells the peer once, with the reason, but never for initialize", async () => {
  const { ours, notes } = setup();
  for (const method of ["tools/call", "initialize"]) {
    const controller = new AbortController();
    const call = ours.request(method, undefined, { signal: controller.signal });
    controller.abort(new Error("user pressed stop"));
    await assert.rejects(call, RequestAbortedError);
  }
  assert.deepEqual(notes.map(({ method, params }) => ({ method, params })), [
    { method: "notifications/cancelled", params: { requestId: 0, reason: "tools/call: aborted by the caller: user pressed stop" } },
  ]);
  assert.equal(notes[0]!.signal?.aborted, false, "the cancel's write has a bound of its own, not yet reached");
});

test("our requests: the answer to a request we cancelled, arriving after the cancel, is taken silently (not a stray)", async () => {
  // Spec (2026-07-28 basic/patterns/cancellation): the client SHOULD ignore a response to a cancelled
  // request that arrives afterward (the go-sdk server answers a cancelled subscriptions/listen).
  const { ours } = setup();
  const controller = new AbortController();
  const call = ours.request("subscriptions/listen", {}, { signal: controller.signal });
  controller.abort(new Error("closed by the client"));
  await assert.rejects(call, RequestAbortedError);
  assert.equal(ours.settle({ jsonrpc: "2.0", id: 0, result: { resultType: "complete" } }), true, "the late answer is expected");
  assert.equal(ours.settle({ jsonrpc: "2.0", id: 0, result: {} }), false, "once only: a second answer is a stray");
  const initialize = new AbortController();
  const handshake = ours.request("initialize", {}, { signal: initialize.signal });
  initialize.abort(new Error("stop"));
  await assert.rejects(handshake, RequestAbortedError);
  assert.equal(ours.settle({ jsonrpc: "2.0", id: 1, result: {} }), false, "initialize is never cancelled, so its late answer is not one we asked to end");
});

test("our requests: a failed write fails the call with the transport's error, and no cancel is sent", async () => {
  const { ours, notes } = setup({ failWrites: true });
  await assert.rejects(ours.request("ping", undefined, {}), /^Error: pipe broke$/);
  assert.equal(ours.has(0), false);
  assert.deepEqual(notes, []);
});

test("our requests: a result that read refuses is a MalformedResponseError naming the method and id", async () => {
  const { ours } = setup();
  const call = ours.request("tools/list", undefined, {}, (result) => {
    if (!Array.isArray(result.tools)) throw new Error('"tools" must be an array');
    return result.tools;
  });
  ours.settle({ jsonrpc: "2.0", id: 0, result: { tools: "none" } });
  await assert.rejects(call, (e: unknown) => e instanceof MalformedResponseError && e.method === "tools/list" && e.id === 0 && e.detail === '"tools" must be an array');
});

test("our requests: an unreadable answer fails its call at once", async () => {
  const { ours } = setup();
  const call = ours.request("ping", undefined, {});
  assert.equal(ours.malformed(0, '"result" must be an object'), true);
  assert.equal(ours.malformed(0, "again"), false);
  await assert.rejects(call, MalformedResponseError);
});

test("our requests: the end of the peer's output fails waiting and later calls; a closed connection sends nothing", async () => {
  const { ours, connection, sent } = setup();
  const waiting = ours.request("ping", undefined, {});
  ours.stopWaiting(new Error("the peer closed its output"));
  const closedOutput = (e: unknown) => e instanceof ConnectionClosedError && e.message === "ping: connection closed before the response arrived: the peer closed its output";
  await assert.rejects(waiting, closedOutput);
  await assert.rejects(ours.request("ping", undefined, {}), closedOutput);
  connection.isClosed = true;
  sent.length = 0;
  await assert.rejects(ours.request("ping", undefined, {}), (e: unknown) => e instanceof ConnectionClosedError && e.message === "ping: connection closed before the response arrived");
  assert.deepEqual(sent, []);
});

test("our requests: the close fails every waiting call with its cause", async () => {
  const { ours } = setup();
  const calls = [ours.request("ping", undefined, {}), ours.request("tools/list", undefined, {})];
  ours.rejectAll(new Error("the server exited"));
  for (const call of calls) await assert.rejects(call, (e: unknown) => e instanceof ConnectionClosedError && /: the server exited$/.test(e.message));
});
