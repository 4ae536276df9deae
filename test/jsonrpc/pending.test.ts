import { test } from "node:test";
import assert from "node:assert/strict";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { ConnectionClosedError, PendingRequests, RequestAbortedError, RequestTimeoutError } from "../../src/jsonrpc/pending.js";

test("pending: a response settles the request with the same id and type only", async () => {
  const pending = new PendingRequests();
  const one = pending.track(1, "ping");
  const oneString = pending.track("1", "ping");
  assert.equal(pending.settle({ jsonrpc: "2.0", id: "1", result: { which: "string" } }), true);
  assert.equal(pending.settle({ jsonrpc: "2.0", id: 1, result: { which: "number" } }), true);
  assert.deepEqual(await one, { which: "number" });
  assert.deepEqual(await oneString, { which: "string" });
  assert.equal(pending.size, 0);
});

test("pending: an error response rejects with an RpcError carrying code and data", async () => {
  const pending = new PendingRequests();
  const call = pending.track(2, "tools/call");
  pending.settle({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "bad", data: { f: 1 } } });
  await assert.rejects(call, (error: unknown) => error instanceof RpcError && error.code === -32602 && (error.data as { f: number }).f === 1);
});

test("pending: a response nobody waits for is refused, not delivered", () => {
  const pending = new PendingRequests();
  assert.equal(pending.settle({ jsonrpc: "2.0", id: 99, result: {} }), false);
  assert.equal(pending.settle({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } }), false);
});

test("pending: the same id cannot be tracked twice", () => {
  const pending = new PendingRequests();
  void pending.track(1, "ping").catch(() => {});
  assert.throws(() => pending.track(1, "ping"), /already in flight/);
  pending.rejectAll((method) => new ConnectionClosedError(method));
});

test("pending: the idle timeout fires, gives up once, and a late response is dropped", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const pending = new PendingRequests();
  const gaveUp: Error[] = [];
  const call = pending.track(3, "tools/call", { timeouts: { idleMs: 1000, maxTotalMs: 10_000 }, giveUp: (e) => gaveUp.push(e) });
  t.mock.timers.tick(999);
  assert.equal(pending.size, 1);
  t.mock.timers.tick(1);
  await assert.rejects(call, (e: unknown) => e instanceof RequestTimeoutError && /idle timeout/.test(e.message));
  assert.equal(gaveUp.length, 1);
  assert.equal(pending.settle({ jsonrpc: "2.0", id: 3, result: {} }), false);
});

test("pending: progress restarts the idle clock but not the hard maximum", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const pending = new PendingRequests();
  const call = pending.track(4, "tools/call", { timeouts: { idleMs: 1000, maxTotalMs: 2500 } });
  t.mock.timers.tick(900);
  assert.equal(pending.touch(4), true);
  t.mock.timers.tick(900);
  assert.equal(pending.touch(4), true);
  t.mock.timers.tick(600); // 2400 ms in, 600 since the last progress: still alive
  assert.equal(pending.size, 1);
  pending.touch(4);
  t.mock.timers.tick(100); // 2500 ms: the hard maximum, however lively
  await assert.rejects(call, (e: unknown) => e instanceof RequestTimeoutError && /maximum total time/.test(e.message));
  assert.equal(pending.touch(4), false);
});

test("pending: aborting rejects at once with the reason and tells giveUp", async () => {
  const pending = new PendingRequests();
  const controller = new AbortController();
  let told: Error | undefined;
  const call = pending.track(5, "tools/call", { signal: controller.signal, giveUp: (e) => (told = e) });
  controller.abort(new Error("user pressed stop"));
  await assert.rejects(call, (e: unknown) => e instanceof RequestAbortedError && /user pressed stop/.test(e.message));
  assert.ok(told instanceof RequestAbortedError);
  assert.equal(pending.size, 0);
});

test("pending: an already-aborted signal rejects without tracking", async () => {
  const pending = new PendingRequests();
  await assert.rejects(pending.track(6, "ping", { signal: AbortSignal.abort() }), RequestAbortedError);
  assert.equal(pending.size, 0);
});

test("pending: rejectAll rejects every waiting call at once", async () => {
  const pending = new PendingRequests();
  const calls = [pending.track(1, "a"), pending.track(2, "b")];
  pending.rejectAll((method) => new ConnectionClosedError(method));
  for (const call of calls) await assert.rejects(call, ConnectionClosedError);
  assert.equal(pending.size, 0);
});

