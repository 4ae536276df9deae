// 2026-07-28 response streams on the Streamable HTTP client transport (issue 9): notifications
// then the answer; a stream that breaks fails its request (never resumed: no GET, no
// Last-Event-ID); cancelling closes the stream and POSTs no notifications/cancelled (a legacy
// request's cancel is still POSTed); a subscriptions/listen stream delivers each notification as
// it comes until it is cancelled or breaks; the SSE event bound holds on modern streams too.
// Scripted loopback servers (test/helpers/scripted-http.ts).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import type { JSONRPCMessage, RequestId } from "../../src/jsonrpc/messages.js";
import { RequestAbortedError } from "../../src/jsonrpc/pending.js";
import { META } from "../../src/mcp/modern.js";
import { Connection } from "../../src/protocol/connection.js";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import { MessageTooLargeError, ResponseStreamBrokenError } from "../../src/http/client-fetch.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { initializeResult, json, routine, scriptedServer, wait, type Route, type SeenRequest } from "../helpers/scripted-http.js";

/** A regression must fail, not hang the suite: the old transport waited forever on some of these. */
const bounded = { timeout: 10_000 };
const envelope = { [META.protocolVersion]: "2026-07-28", [META.clientCapabilities]: {} };
const modern = (id: RequestId, method: string, params: { [key: string]: unknown } = {}): JSONRPCMessage =>
  ({ jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope } });
const event = (message: object, id?: string) => `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;
const sse = (response: ServerResponse) => response.writeHead(200, { "content-type": "text/event-stream" });
const listChanged = (subscription: RequestId) => ({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [META.subscriptionId]: subscription } } });

/** Every fetch the transport makes, with its body: a POSTed cancel shows here even before the server reads it. */
function recordingFetch() {
  const bodies: string[] = [];
  const fetcher: typeof fetch = (input, init) => {
    bodies.push(`${init?.method} ${typeof init?.body === "string" ? init.body : ""}`);
    return fetch(input, init);
  };
  return { fetch: fetcher, bodies };
}

async function open(route: Route, options: { maxMessageBytes?: number } = {}) {
  const server = await scriptedServer(route);
  const recording = recordingFetch();
  const transport = new StreamableHttpClientTransport(server.url, { fetch: recording.fetch, retryMs: 10, minRetryMs: 10, ...options });
  const received: { method?: string; id?: unknown }[] = [];
  transport.start({ message: (text) => received.push(JSON.parse(text)), unreadable: () => {}, close: () => {} });
  return { server, transport, received, bodies: recording.bodies, [Symbol.asyncDispose]: async () => { await transport.close(); await server.close(); } };
}

test("an SSE answer: the request's notifications reach the connection first, then the answer ends the send", bounded, async () => {
  await using peer = await open((seen, response) => {
    const id = seen.body!.id!;
    sse(response).write(event({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: id, progress: 1 } }));
    response.end(event({ jsonrpc: "2.0", id, result: { resultType: "complete", content: [] } }));
  });
  await peer.transport.send(modern(4, "tools/call", { name: "slow" }));
  assert.deepEqual(peer.received.map((m) => m.method ?? `answer ${String(m.id)}`), ["notifications/progress", "answer 4"]);
});

test("a modern stream that breaks before its answer fails the request, and is not resumed", bounded, async () => {
  await using peer = await open((seen, response) => {
    if (routine(seen, response)) return;
    // An event id and a retry: what a legacy stream would be resumed from.
    sse(response).write(`retry: 10\n${event({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }, "e1")}`);
    setImmediate(() => response.destroy());
  });
  await assert.rejects(peer.transport.send(modern(1, "tools/call", { name: "slow" })), ResponseStreamBrokenError);
  assert.deepEqual(peer.server.seen.map((s) => s.method), ["POST"], "no GET with Last-Event-ID");
  assert.equal(peer.received.length, 1, "the notification before the break was delivered");
});

test("a modern stream that ends cleanly without its answer fails the request too", bounded, async () => {
  await using peer = await open((_seen, response) => sse(response).end(event({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }, "e1")));
  await assert.rejects(peer.transport.send(modern(1, "tools/list")), ResponseStreamBrokenError);
  assert.equal(peer.server.seen.length, 1);
});

test("the SSE event bound holds on a modern stream", bounded, async () => {
  await using peer = await open((_seen, response) => sse(response).write(`data: ${"x".repeat(4096)}\n\n`), { maxMessageBytes: 1024 });
  await assert.rejects(peer.transport.send(modern(1, "tools/list")), MessageTooLargeError);
});

/** A server that opens a stream for each request and keeps it, telling the test. */
function holding(onStream: (seen: SeenRequest, stream: ServerResponse) => void = () => {}): Route {
  return (seen, response) => {
    if (routine(seen, response)) return;
    if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id), { "mcp-session-id": "s-1" });
    sse(response).flushHeaders();
    onStream(seen, response);
  };
}

test("cancelling a modern request closes its stream (the server sees it go) and POSTs no notifications/cancelled", bounded, async () => {
  await using peer = await open(holding());
  // Not started: the transport keeps handing what comes to `received`; the connection only sends.
  const connection = new Connection(peer.transport, { dispatcher: new Dispatcher([]) });
  const stop = new AbortController();
  const call = connection.request("tools/call", { name: "hold", _meta: envelope }, { signal: stop.signal });
  await wait(() => peer.server.seen.length === 1);
  stop.abort(new Error("the user gave up"));
  await assert.rejects(call, RequestAbortedError);
  await wait(() => peer.server.seen[0]!.abandoned);
  // The cancel went out (to the transport) in the same turn as the abort: a POST of it would be the next fetch.
  const after = connection.request("tools/list", { _meta: envelope });
  await wait(() => peer.server.seen.length === 2);
  assert.deepEqual(peer.bodies.map((b) => JSON.parse(b.slice(5)).method), ["tools/call", "tools/list"]);
  await connection.close();
  await after.catch(() => {});
});

test("a notifications/cancelled naming a modern request in flight closes its stream, with no POST", bounded, async () => {
  await using peer = await open(holding());
  const send = peer.transport.send(modern(3, "tools/call", { name: "hold" }));
  await wait(() => peer.server.seen.length === 1);
  await peer.transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } });
  await assert.rejects(send);
  await wait(() => peer.server.seen[0]!.abandoned);
  assert.equal(peer.bodies.length, 1);
});

test("a cancel that itself claims the modern era is never POSTed, even for a request no longer in flight", bounded, async () => {
  await using peer = await open(holding());
  await peer.transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9, _meta: envelope } });
  assert.deepEqual(peer.bodies, []);
});

test("a legacy request's cancel is still POSTed, with the session id", bounded, async () => {
  await using peer = await open(holding());
  await peer.transport.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  void peer.transport.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hold" } }).catch(() => {});
  await wait(() => peer.server.seen.some((s) => s.rpc === "tools/call"));
  await peer.transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
  const cancel = peer.server.seen.find((s) => s.rpc === "notifications/cancelled");
  assert.equal(cancel?.headers["mcp-session-id"], "s-1");
});

test("subscriptions/listen: each notification arrives while the stream stays open; the cancel closes it, with no POST", bounded, async () => {
  let stream: ServerResponse | undefined;
  await using peer = await open(holding((_seen, response) => (stream = response)));
  const connection = new Connection(peer.transport, { dispatcher: new Dispatcher([]) });
  const stop = new AbortController();
  const listen = connection.request("subscriptions/listen", { notifications: { toolsListChanged: true }, _meta: envelope }, { signal: stop.signal });
  await wait(() => stream !== undefined);
  stream!.write(event({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: { [META.subscriptionId]: 0 } } }));
  await wait(() => peer.received.length === 1);
  stream!.write(event(listChanged(0)));
  await wait(() => peer.received.length === 2);
  stream!.write(event(listChanged(0)));
  await wait(() => peer.received.length === 3);
  assert.deepEqual(peer.received.map((m) => m.method), ["notifications/subscriptions/acknowledged", "notifications/tools/list_changed", "notifications/tools/list_changed"]);
  stop.abort(new Error("closed by the client"));
  await assert.rejects(listen, RequestAbortedError);
  await wait(() => peer.server.seen[0]!.abandoned);
  assert.equal(peer.bodies.length, 1, "no notifications/cancelled was POSTed");
  await connection.close();
});

test("subscriptions/listen: a stream that breaks fails the listen (the client re-listens with a new id)", bounded, async () => {
  let stream: ServerResponse | undefined;
  await using peer = await open(holding((_seen, response) => (stream = response)));
  const listen = peer.transport.send(modern(5, "subscriptions/listen", { notifications: { toolsListChanged: true } }));
  await wait(() => stream !== undefined);
  stream!.write(event(listChanged(5)));
  await wait(() => peer.received.length === 1);
  stream!.destroy();
  await assert.rejects(listen, ResponseStreamBrokenError);
});
