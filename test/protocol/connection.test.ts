import { test } from "node:test";
import assert from "node:assert/strict";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import { DEFAULT_MAX_BATCH_ITEMS, RpcError, type RequestId } from "../../src/jsonrpc/messages.js";
import { ConnectionClosedError, RequestAbortedError } from "../../src/jsonrpc/pending.js";
import { Connection, type RequestContext } from "../../src/protocol/connection.js";
import { createMemoryPair, type TransportHandlers } from "../../src/protocol/transport.js";
import { RawPeer, settle, until } from "../helpers/raw-peer.js";

/** Resolvers of the "slow" requests in progress. */
const held: (() => void)[] = [];
const releaseAll = () => held.splice(0).forEach((release) => release());

function rows(log: string[] = []) {
  return new Dispatcher<RequestContext>([
    { method: "echo", kind: "request", handle: (p) => ({ echoed: p.value }) },
    {
      // Holds until the test releases it (or the request is aborted): no timing races.
      method: "slow",
      kind: "request",
      handle: (_p, context) =>
        new Promise((resolve, reject) => {
          held.push(() => resolve({ done: true }));
          context.signal.addEventListener("abort", () => (log.push("aborted"), reject(context.signal.reason)));
        }),
    },
    {
      method: "progressing",
      kind: "request",
      async handle(_p, context) {
        await context.progress(1, 3);
        await context.progress(2, 3, "half");
        if (context.progressToken !== undefined) await assert.rejects(context.progress(2, 3), /progress must increase/);
        return { token: context.progressToken ?? null };
      },
    },
    { method: "note", kind: "notification", handle: (p) => void log.push(`note ${JSON.stringify(p.value)}`) },
  ]);
}

function serve(policy = { batches: false, omitUnreadableId: true }, log: string[] = [], maxBatchItems?: number) {
  const peer = new RawPeer();
  const problems: string[] = [];
  const connection = new Connection(peer, { dispatcher: rows(log), policy, onProblem: (m) => problems.push(m), maxBatchItems });
  connection.start();
  return { peer, connection, problems, log };
}

test("connection: a request gets exactly one response with its exact id", async () => {
  const { peer } = serve();
  peer.write({ jsonrpc: "2.0", id: "1", method: "echo", params: { a: 1 } });
  peer.write({ jsonrpc: "2.0", id: 1, method: "echo", params: { b: 2 } });
  await peer.waitForSent(2);
  await settle();
  assert.deepEqual(peer.sent, [
    { jsonrpc: "2.0", id: "1", result: { echoed: { a: 1 } } },
    { jsonrpc: "2.0", id: 1, result: { echoed: { b: 2 } } },
  ]);
});

test("connection: parse errors are answered without id (2025-11-25) or with id null (older)", async () => {
  const modern = serve();
  modern.peer.write("{not json");
  await modern.peer.waitForSent(1);
  assert.equal((modern.peer.sent[0] as { error: { code: number } }).error.code, -32700);
  assert.ok(!("id" in (modern.peer.sent[0] as object)));
  const older = serve({ batches: false, omitUnreadableId: false });
  older.peer.write("{not json");
  await older.peer.waitForSent(1);
  assert.equal((older.peer.sent[0] as { id: unknown }).id, null);
});

test("connection: invalid requests keep a readable id", async () => {
  const { peer } = serve();
  peer.write('{"jsonrpc":"2.0","id":9,"method":"echo","params":[1]}');
  await peer.waitForSent(1);
  assert.deepEqual(peer.sent[0], { jsonrpc: "2.0", id: 9, error: { code: -32600, message: 'invalid request: echo: "params" must be an object' } });
});

test("connection: notifications are never answered", async () => {
  const { peer, log } = serve();
  peer.write({ jsonrpc: "2.0", method: "note", params: { x: 1 } });
  peer.write({ jsonrpc: "2.0", method: "unknown/notification" });
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 12345 } });
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: "malformed" });
  await settle();
  await settle();
  assert.deepEqual(peer.sent.filter((m) => !("error" in (m as object) && !("id" in (m as object)))), []);
  assert.deepEqual(log, ['note {"x":1}']);
});

test("connection: cancellation and progress are read by the connection alone; malformed ones are ignored without a report", async () => {
  const peer = new RawPeer();
  const problems: string[] = [];
  const tableSaw: string[] = [];
  const seen = (method: string) => ({ method, kind: "notification" as const, handle: () => void tableSaw.push(method) });
  const connection = new Connection(peer, {
    dispatcher: new Dispatcher<RequestContext>([seen("notifications/cancelled"), seen("notifications/progress")], { onInternalError: (m) => problems.push(m) }),
    onProblem: (m) => problems.push(m),
  });
  connection.start();
  for (const params of [{ requestId: true }, { requestId: 1 }, {}]) peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params });
  for (const params of [{ progressToken: {}, progress: 1 }, { progressToken: 0, progress: "1" }, { progressToken: 99, progress: 1 }]) {
    peer.write({ jsonrpc: "2.0", method: "notifications/progress", params });
  }
  await settle();
  await settle();
  assert.deepEqual(tableSaw, [], "the role's table never sees them");
  assert.deepEqual(problems, [], "no report per bad notification");
  assert.deepEqual(peer.sent, []);
});

test("connection: a duplicate in-flight id gets an error; the original still gets its answer", async () => {
  const { peer } = serve();
  peer.write({ jsonrpc: "2.0", id: 5, method: "slow" });
  peer.write({ jsonrpc: "2.0", id: 5, method: "echo" });
  await peer.waitForSent(1);
  releaseAll();
  await peer.waitForSent(2);
  assert.equal((peer.sent[0] as { error: { code: number } }).error.code, -32600);
  assert.deepEqual(peer.sent[1], { jsonrpc: "2.0", id: 5, result: { done: true } });
});

test("connection: a cancelled request aborts its handler and is never answered", async () => {
  const { peer, log } = serve();
  peer.write({ jsonrpc: "2.0", id: 6, method: "slow" });
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 6, reason: "user" } });
  peer.write({ jsonrpc: "2.0", id: 7, method: "echo" });
  await peer.waitForSent(1);
  releaseAll();
  await settle();
  assert.deepEqual(log, ["aborted"]);
  assert.deepEqual(peer.sent, [{ jsonrpc: "2.0", id: 7, result: { echoed: {} } }]);
  // The transport hears that no answer will come, so it can end whatever waits for one (an HTTP POST).
  assert.deepEqual(peer.unansweredIds, [6]);
});

test("connection: cancelling with the wrong id type cancels nothing", async () => {
  const { peer } = serve();
  peer.write({ jsonrpc: "2.0", id: 8, method: "slow" });
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "8" } });
  await settle();
  await settle();
  releaseAll();
  await peer.waitForSent(1);
  assert.deepEqual(peer.sent[0], { jsonrpc: "2.0", id: 8, result: { done: true } });
});

test("connection: progress goes out under the requester's token, increasing, and stops with the response", async () => {
  const { peer } = serve();
  peer.write({ jsonrpc: "2.0", id: 10, method: "progressing", params: { _meta: { progressToken: "tok" } } });
  await peer.waitForSent(3);
  await settle();
  assert.deepEqual(peer.sent, [
    { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 1, total: 3 } },
    { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 2, total: 3, message: "half" } },
    { jsonrpc: "2.0", id: 10, result: { token: "tok" } },
  ]);
});

test("connection: no progress without a token", async () => {
  const { peer } = serve();
  peer.write({ jsonrpc: "2.0", id: 11, method: "progressing" });
  await peer.waitForSent(1);
  await settle();
  assert.deepEqual(peer.sent, [{ jsonrpc: "2.0", id: 11, result: { token: null } }]);
});

test("connection: batches are refused unless the policy allows them", async () => {
  const { peer } = serve();
  peer.write([{ jsonrpc: "2.0", id: 1, method: "echo" }]);
  await peer.waitForSent(1);
  assert.equal((peer.sent[0] as { error: { code: number } }).error.code, -32600);
  assert.ok(!Array.isArray(peer.sent[0]));
});

test("connection: an allowed batch is answered with a batch of the requests' responses", async () => {
  const { peer, log } = serve({ batches: true, omitUnreadableId: false });
  peer.write([
    { jsonrpc: "2.0", id: 1, method: "echo", params: { n: 1 } },
    { jsonrpc: "2.0", method: "note", params: { n: 2 } },
    { jsonrpc: "2.0", id: "2", method: "missing" },
    42,
  ]);
  await peer.waitForSent(1);
  const batch = peer.sent[0] as unknown[];
  assert.ok(Array.isArray(batch));
  assert.deepEqual(batch, [
    { jsonrpc: "2.0", id: 1, result: { echoed: { n: 1 } } },
    { jsonrpc: "2.0", id: "2", error: { code: -32601, message: "method not found: missing" } },
    { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request: message must be a JSON object" } },
  ]);
  assert.deepEqual(log, ['note {"n":2}']);
});

test("connection: an empty batch is one Invalid Request error; a batch of notifications gets nothing", async () => {
  const { peer } = serve({ batches: true, omitUnreadableId: false });
  peer.write([]);
  await peer.waitForSent(1);
  assert.equal((peer.sent[0] as { error: { code: number } }).error.code, -32600);
  peer.write([{ jsonrpc: "2.0", method: "note" }]);
  await settle();
  await settle();
  assert.equal(peer.sent.length, 1);
});

test("connection: a batch over the item limit is refused whole, with the limit in data; none of it runs", async () => {
  const log: string[] = [];
  const { peer } = serve({ batches: true, omitUnreadableId: false }, log, 3);
  const note = { jsonrpc: "2.0", method: "note" };
  peer.write([{ jsonrpc: "2.0", id: 1, method: "echo" }, note, note, note]);
  await peer.waitForSent(1);
  assert.deepEqual(peer.sent[0], {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: "invalid request: a batch of 4 messages exceeds the limit of 3", data: { limit: 3 } },
  });
  // At the limit it is handled as usual.
  peer.write([{ jsonrpc: "2.0", id: 2, method: "echo" }, note, note]);
  await peer.waitForSent(2);
  assert.deepEqual(peer.sent[1], [{ jsonrpc: "2.0", id: 2, result: { echoed: {} } }]);
  await settle();
  assert.deepEqual(log, ["note {}", "note {}"]);
});

test("connection: the default batch limit is DEFAULT_MAX_BATCH_ITEMS", async () => {
  const { peer } = serve({ batches: true, omitUnreadableId: false });
  const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "echo" });
  peer.write(Array.from({ length: DEFAULT_MAX_BATCH_ITEMS + 1 }, (_, i) => ping(i)));
  await peer.waitForSent(1);
  assert.equal((peer.sent[0] as { error: { code: number; data: unknown } }).error.code, -32600);
  assert.deepEqual((peer.sent[0] as { error: { data: unknown } }).error.data, { limit: DEFAULT_MAX_BATCH_ITEMS });
});

test("connection: oversize input with a known id is answered to that id; invalid UTF-8 is a parse error", async () => {
  const { peer } = serve();
  peer.unreadable({ kind: "too-large", bytes: 2000, limit: 1000, id: 12 });
  peer.unreadable({ kind: "too-large", bytes: 2000, limit: 1000 });
  peer.unreadable({ kind: "invalid-utf8" });
  await peer.waitForSent(3);
  const [first, second, third] = peer.sent as { id?: unknown; error: { code: number; message: string } }[];
  assert.equal(first!.id, 12);
  assert.match(first!.error.message, /exceeds the limit of 1000 bytes/);
  assert.ok(!("id" in second!));
  assert.equal(third!.error.code, -32700);
});

test("connection: outgoing requests correlate, carry a progress token, and reject on close", async () => {
  const [a, b] = createMemoryPair();
  const server = new Connection(b, { dispatcher: rows() });
  const client = new Connection(a, { dispatcher: new Dispatcher([]) });
  server.start();
  client.start();
  const seen: number[] = [];
  const result = await client.request("progressing", {}, { onProgress: (p) => seen.push(p.progress) });
  assert.deepEqual(seen, [1, 2]);
  assert.equal(typeof result.token, "number");
  await assert.rejects(client.request("missing"), (e: unknown) => e instanceof RpcError && e.code === -32601);
  const hanging = client.request("slow", {}, { timeouts: { idleMs: 10_000 } });
  await client.close();
  releaseAll();
  await assert.rejects(hanging, ConnectionClosedError);
  await assert.rejects(client.request("echo"), ConnectionClosedError);
});

test("connection: aborting an outgoing request sends notifications/cancelled and the server stops", async () => {
  const log: string[] = [];
  const [a, b] = createMemoryPair();
  const server = new Connection(b, { dispatcher: rows(log) });
  const client = new Connection(a, { dispatcher: new Dispatcher([]) });
  server.start();
  client.start();
  const controller = new AbortController();
  const call = client.request("slow", {}, { signal: controller.signal });
  await settle();
  await settle();
  controller.abort();
  await assert.rejects(call, RequestAbortedError);
  await until(() => log.length > 0);
  assert.deepEqual(log, ["aborted"]);
  await client.close();
});

test("connection: when input ends, work in flight is answered before closing", async () => {
  const { peer, connection } = serve();
  let closed = false;
  connection.onClose(() => (closed = true));
  peer.write({ jsonrpc: "2.0", id: 20, method: "slow" });
  peer.handlers!.inputEnded!();
  await settle();
  assert.equal(closed, false);
  releaseAll();
  await peer.waitForSent(1);
  await settle();
  assert.deepEqual(peer.sent[0], { jsonrpc: "2.0", id: 20, result: { done: true } });
  assert.equal(closed, true);
});

test("connection: requests 1 and \"1\" in flight together are two requests, not a duplicate", async () => {
  const { peer } = serve();
  peer.write({ jsonrpc: "2.0", id: 1, method: "slow" });
  peer.write({ jsonrpc: "2.0", id: "1", method: "slow" });
  await settle();
  await settle();
  releaseAll();
  await peer.waitForSent(2);
  assert.deepEqual(peer.sent, [{ jsonrpc: "2.0", id: 1, result: { done: true } }, { jsonrpc: "2.0", id: "1", result: { done: true } }]);
});

test("connection: a failed write is reported while open, but not when our own close cut it short", async () => {
  const problems: string[] = [];
  const failures: ((error: Error) => void)[] = [];
  const transport = {
    start() {},
    send: () => new Promise<void>((_resolve, reject) => void failures.push(reject)),
    async close() {},
  };
  const connection = new Connection(transport, { dispatcher: rows(), onProblem: (m) => problems.push(m) });
  connection.start();
  const open = connection.notify("note");
  failures[0]!(new Error("pipe broke"));
  await open;
  assert.deepEqual(problems, ["write failed: pipe broke"]);
  const cut = connection.notify("note");
  await connection.close();
  failures[1]!(new Error("the transport is closed"));
  await cut;
  assert.deepEqual(problems, ["write failed: pipe broke"]);
});

test("connection: a call whose idle timeout is Infinity still gives its cancel a real bound, not an instant abort", async () => {
  const cancels: AbortSignal[] = [];
  const transport = {
    start() {},
    send: (message: { method?: string }, options?: { signal?: AbortSignal }) => {
      // The request is never answered; the cancel is never taken.
      if (message.method === "notifications/cancelled") cancels.push(options!.signal!);
      return new Promise<void>(() => {});
    },
    async close() {},
  };
  const connection = new Connection(transport as never, { dispatcher: rows() });
  connection.start();
  await assert.rejects(connection.request("slow", undefined, { timeouts: { idleMs: Infinity, maxTotalMs: 20 } }), /maximum total time/);
  assert.equal(cancels.length, 1);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(cancels[0]!.aborted, false, "setTimeout(Infinity) fires at once: the cancel must not be given up so soon");
  await connection.close();
});

test("connection: params by position (an array) are refused before anything is sent, at compile time and at run time", async () => {
  const [near, far] = createMemoryPair();
  const sent: string[] = [];
  far.start({ message: (text) => void sent.push(text), unreadable: () => {}, inputEnded: () => {}, close: () => {} });
  const connection = new Connection(near, { dispatcher: new Dispatcher([]) });
  connection.start();
  // @ts-expect-error MCP params are an object of named fields, never an array
  const typed = connection.request("tools/call", ["add", 1, 2]);
  await assert.rejects(typed, (e: unknown) => e instanceof TypeError && e.message === "tools/call: params must be an object of named fields, not an array");
  const untyped: object = [1];
  await assert.rejects(connection.request("x", untyped), TypeError);
  await assert.rejects(connection.notify("notifications/x", untyped), TypeError);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(sent, []);
  await connection.close();
});

test("connection: requests still waiting in the inbox when the connection closes never start their handlers", async () => {
  let handlers: TransportHandlers | undefined;
  const sent: unknown[] = [];
  const transport = { start: (h: typeof handlers) => void (handlers = h), send: (m: unknown) => (sent.push(m), Promise.resolve()), close: async () => {} };
  const started: RequestId[] = [];
  const dispatcher = new Dispatcher<RequestContext>([
    { method: "slow", kind: "request", handle: () => new Promise((resolve) => setTimeout(() => resolve({}), 20)) },
    { method: "sideEffect", kind: "request", handle: (_params, context) => (started.push(context.id), {}) },
  ]);
  const connection = new Connection(transport, { dispatcher, maxInFlight: 1000 });
  connection.start();
  // One chunk of input: a slow request and ten behind it; then the transport fails (say, EPIPE).
  handlers!.message('{"jsonrpc":"2.0","id":0,"method":"slow"}');
  for (let i = 1; i <= 10; i++) handlers!.message(`{"jsonrpc":"2.0","id":${i},"method":"sideEffect"}`);
  handlers!.close(new Error("write EPIPE"));
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.deepEqual(started, []);
  assert.deepEqual(sent, []);
});
