// The connection against a hostile or broken peer: broken responses fail their call at once and
// are never answered; the end of the peer's output fails our calls at once while the peer's own
// requests are still answered; work in flight is bounded by pausing the transport's input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import { ConnectionClosedError, MalformedResponseError } from "../../src/jsonrpc/pending.js";
import { Connection, DEFAULT_MAX_IN_FLIGHT, type RequestContext } from "../../src/protocol/connection.js";
import { RawPeer, settle, until } from "../helpers/raw-peer.js";

const held: (() => void)[] = [];

function serve(options: { maxInFlight?: number; batches?: boolean } = {}) {
  const peer = new RawPeer();
  const problems: string[] = [];
  const dispatcher = new Dispatcher<RequestContext>([
    { method: "slow", kind: "request", handle: () => new Promise((resolve) => held.push(() => resolve({ done: true }))) },
  ]);
  const policy = { batches: options.batches ?? false, omitUnreadableId: true };
  const connection = new Connection(peer, { dispatcher, policy, onProblem: (m) => problems.push(m), maxInFlight: options.maxInFlight });
  connection.start();
  return { peer, connection, problems };
}

/** A call of ours (id 0 on a fresh connection) that would wait 30 s for an answer. */
function call(connection: Connection) {
  const pending = connection.request("tools/call", { name: "x" }, { timeouts: { idleMs: 30_000 } });
  pending.catch(() => {});
  return pending;
}

const broken = [
  { name: "a result that is not an object", text: '{"jsonrpc":"2.0","id":0,"result":"oops"}', detail: /"result" must be an object/ },
  { name: "an error without a code", text: '{"jsonrpc":"2.0","id":0,"error":{"message":"x"}}', detail: /integer "code"/ },
  { name: "a wrong jsonrpc version", text: '{"jsonrpc":"1.0","id":0,"result":{}}', detail: /"jsonrpc" must be exactly "2.0"/ },
  { name: "truncated JSON", text: '{"jsonrpc":"2.0","id":0,"result":{"content":[', detail: /not valid JSON/ },
  { name: "no kind member, with our id", text: '{"jsonrpc":"2.0","id":0}', detail: /neither "method", "result" nor "error"/ },
];
for (const c of broken) {
  test(`connection: a malformed response (${c.name}) fails its call at once and is never answered`, async () => {
    const { peer, connection, problems } = serve();
    const pending = call(connection);
    await peer.waitForSent(1);
    peer.write(c.text);
    await assert.rejects(pending, (e: unknown) => e instanceof MalformedResponseError && /^tools\/call: the peer's response was malformed: /.test(e.message) && c.detail.test(e.message));
    await settle();
    assert.equal(peer.sent.length, 1, "only our request was written: no reply to a response");
    assert.match(problems.join("\n"), /dropped a malformed response/);
  });
}

test("connection: an oversize response fails its call at once; an oversize request is still answered", async () => {
  const { peer, connection, problems } = serve();
  const pending = call(connection);
  await peer.waitForSent(1);
  // Shaped like a response, or of unknown shape but with the id of our call: both are responses.
  peer.unreadable({ kind: "too-large", bytes: 5000, limit: 1000, id: 0, looksLike: "response" });
  await assert.rejects(pending, (e: unknown) => e instanceof MalformedResponseError && /5000-byte message exceeded the 1000-byte limit/.test(e.message));
  const second = connection.request("tools/call", {}, { timeouts: { idleMs: 30_000 } });
  await peer.waitForSent(2);
  peer.unreadable({ kind: "too-large", bytes: 5000, limit: 1000, id: 1 });
  await assert.rejects(second, MalformedResponseError);
  peer.unreadable({ kind: "too-large", bytes: 5000, limit: 1000, id: 7, looksLike: "request" });
  await peer.waitForSent(3);
  assert.equal((peer.sent[2] as { id?: unknown }).id, 7);
  assert.equal(peer.sent.length, 3);
  assert.equal(problems.filter((p) => /dropped a malformed response/.test(p)).length, 2);
});

test("connection: a malformed response nobody waits for is dropped, not answered", async () => {
  const { peer, problems } = serve();
  peer.write('{"jsonrpc":"2.0","id":99,"result":[]}');
  await settle();
  await settle();
  assert.equal(peer.sent.length, 0);
  assert.match(problems.join("\n"), /for id 99: "result" must be an object \(no request is waiting for it\)/);
});

test("connection: when the peer's input ends, our calls fail at once and its requests are still answered", async () => {
  const { peer, connection } = serve();
  const ours = call(connection);
  peer.write({ jsonrpc: "2.0", id: 5, method: "slow" });
  await peer.waitForSent(1);
  peer.handlers!.inputEnded!();
  await assert.rejects(ours, (e: unknown) => e instanceof ConnectionClosedError && /the peer closed its output/.test(e.message));
  // A call made after the end, say by a handler still running, cannot be answered either.
  await assert.rejects(connection.request("roots/list", {}, { timeouts: { idleMs: 30_000 } }), ConnectionClosedError);
  assert.equal(connection.isClosed, false);
  held.splice(0).forEach((release) => release());
  await until(() => connection.isClosed);
  assert.deepEqual(peer.sent.at(-1), { jsonrpc: "2.0", id: 5, result: { done: true } });
});

for (const batches of [false, true]) {
  test(`connection: an empty batch queued behind other input is still answered when the input ends (batches ${batches ? "on" : "off"})`, async () => {
    const { peer, connection } = serve({ batches });
    peer.write({ jsonrpc: "2.0", method: "notifications/whatever" });
    peer.write("[]");
    peer.handlers!.inputEnded!();
    await until(() => connection.isClosed);
    assert.deepEqual(peer.sent.map((m) => "error" in m && m.error.code), [-32600]);
  });
}

test("connection: a broken request of the peer's that carries the id of our call is answered, and our call still waits", async () => {
  const { peer, connection } = serve();
  const ours = call(connection);
  await peer.waitForSent(1);
  peer.write('{"jsonrpc":"2.0","id":0,"method":"roots/list","params":[]}');
  await peer.waitForSent(2);
  assert.deepEqual(peer.sent[1], { jsonrpc: "2.0", id: 0, error: { code: -32600, message: 'invalid request: roots/list: "params" must be an object' } });
  peer.write({ jsonrpc: "2.0", id: 0, result: { ok: true } });
  assert.deepEqual(await ours, { ok: true });
});

test("connection: at maxInFlight messages in flight the input pauses, and resumes at half of it; a batch counts its items", async () => {
  const { peer } = serve({ maxInFlight: 4, batches: true });
  for (const id of [1, 2, 3]) peer.write({ jsonrpc: "2.0", id, method: "slow" });
  assert.equal(peer.paused, false);
  peer.write({ jsonrpc: "2.0", id: 4, method: "slow" });
  assert.equal(peer.paused, true);
  await until(() => held.length === 4);
  // Just below the bound is not enough: input resumes once half of it is free (2 of 4).
  held.shift()!();
  await peer.waitForSent(1);
  await settle();
  assert.equal(peer.paused, true);
  held.shift()!();
  await until(() => !peer.paused);
  peer.write([{ jsonrpc: "2.0", id: 5, method: "slow" }, { jsonrpc: "2.0", id: 6, method: "slow" }]);
  assert.equal(peer.paused, true);
  await until(() => held.length === 4);
  held.splice(0, 2).forEach((release) => release());
  await until(() => !peer.paused);
  held.splice(0).forEach((release) => release());
  await peer.waitForSent(5);
  assert.deepEqual(peer.sent.at(-1), [{ jsonrpc: "2.0", id: 5, result: { done: true } }, { jsonrpc: "2.0", id: 6, result: { done: true } }]);
});

test("connection: the default bound on work in flight is DEFAULT_MAX_IN_FLIGHT", () => {
  const { peer } = serve();
  for (let id = 1; id < DEFAULT_MAX_IN_FLIGHT; id++) peer.write({ jsonrpc: "2.0", id, method: "slow" });
  assert.equal(peer.paused, false);
  peer.write({ jsonrpc: "2.0", id: DEFAULT_MAX_IN_FLIGHT, method: "slow" });
  assert.equal(peer.paused, true);
  held.splice(0).forEach((release) => release());
});
