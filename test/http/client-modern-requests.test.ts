// The Streamable HTTP client transport carrying 2026-07-28 requests (issue 9): the headers of a
// modern POST (the mirror, the sender's Mcp-Param-*, never a session id, even beside a legacy
// session on the same transport), no GET stream or DELETE for modern traffic, and what a refusal
// becomes: a JSON-RPC error in a 4xx body is the request's answer (the probe reads -32022 that
// way), anything else an HttpStatusError. Scripted loopback servers (test/helpers/scripted-http.ts).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JSONRPCMessage, RequestId } from "../../src/jsonrpc/messages.js";
import { META } from "../../src/mcp/modern.js";
import { HttpProtocolError, HttpStatusError } from "../../src/http/client-fetch.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { initializeResult, json, routine, scriptedServer, type Route } from "../helpers/scripted-http.js";

const MODERN = "2026-07-28";
const envelope = { [META.protocolVersion]: MODERN, [META.clientCapabilities]: {} };

/** A 2026-07-28 request: its params carry the envelope in `_meta`. */
function modern(id: RequestId, method: string, params: { [key: string]: unknown } = {}): JSONRPCMessage {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope } };
}

/** A transport on a scripted server, and the texts it hands to its connection. */
async function open(route: Route) {
  const server = await scriptedServer(route);
  const transport = new StreamableHttpClientTransport(server.url);
  const received: unknown[] = [];
  transport.start({ message: (text) => received.push(JSON.parse(text)), unreadable: () => {}, close: () => {} });
  return { server, transport, received, [Symbol.asyncDispose]: async () => { await transport.close(); await server.close(); } };
}

const legacyInit: JSONRPCMessage = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
const answer = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", content: [] } });

test("a modern tools/call: Accept, Content-Type, the version, Mcp-Method, a Base64 Mcp-Name, the sender's Mcp-Param-*; no session id", async () => {
  await using peer = await open((seen, response) => json(response, answer(seen.body!.id)));
  const name = "grüße 世界";
  await peer.transport.send(modern(1, "tools/call", { name, arguments: { region: "eu" } }), {
    // The mirror is the transport's own: a sender's header of the same name does not replace it.
    headers: { "Mcp-Param-Region": "eu", "mcp-method": "tools/list" },
  });
  const [seen] = peer.server.seen;
  assert.equal(seen?.method, "POST");
  assert.deepEqual(
    {
      accept: seen.headers.accept, type: seen.headers["content-type"], version: seen.headers["mcp-protocol-version"],
      method: seen.headers["mcp-method"], name: seen.headers["mcp-name"], region: seen.headers["mcp-param-region"],
    },
    {
      accept: "application/json, text/event-stream", type: "application/json", version: MODERN,
      method: "tools/call", name: `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`, region: "eu",
    },
  );
  assert.equal(seen.headers["mcp-session-id"], undefined);
  assert.deepEqual(peer.received, [JSON.parse(answer(1))]);
});

test("modern traffic alone: only POSTs, no GET stream, and close() sends no DELETE", async () => {
  const peer = await open((seen, response) => routine(seen, response) || json(response, answer(seen.body!.id)));
  await peer.transport.send(modern(1, "server/discover"));
  await peer.transport.send(modern(2, "tools/list"));
  await peer.transport.close();
  await peer.server.close();
  assert.deepEqual(peer.server.seen.map((s) => `${s.method} ${s.rpc}`), ["POST server/discover", "POST tools/list"]);
  assert.equal(peer.server.seen[1]?.headers["mcp-name"], undefined, "tools/list names nothing");
});

test("a legacy session and modern requests on one transport: the session keeps its id, modern requests never carry it", async () => {
  await using peer = await open((seen, response) => {
    if (routine(seen, response)) return;
    if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id), { "mcp-session-id": "s-1" });
    json(response, answer(seen.body!.id));
  });
  await peer.transport.send(legacyInit);
  await peer.transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await peer.transport.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  await peer.transport.send(modern(2, "tools/list"));
  await peer.transport.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
  const posts = peer.server.seen.filter((s) => s.method === "POST" && s.rpc === "tools/list");
  assert.deepEqual(posts.map((s) => [s.body?.id, s.headers["mcp-session-id"], s.headers["mcp-protocol-version"], s.headers["mcp-method"]]), [
    [1, "s-1", "2025-11-25", undefined],
    [2, undefined, MODERN, "tools/list"],
    [3, "s-1", "2025-11-25", undefined],
  ]);
  assert.equal(peer.transport.sessionId, "s-1");
});

test("a 404 to a modern request does not end the legacy session beside it (the request carried no session id)", async () => {
  await using peer = await open((seen, response) => {
    if (routine(seen, response)) return;
    if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id), { "mcp-session-id": "s-1" });
    if (seen.headers["mcp-method"] !== undefined) return void response.writeHead(404).end();
    json(response, answer(seen.body!.id));
  });
  await peer.transport.send(legacyInit);
  await assert.rejects(peer.transport.send(modern(1, "server/discover")), (e: unknown) => e instanceof HttpStatusError && e.name === "HttpStatusError" && e.status === 404);
  await peer.transport.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  assert.equal(peer.server.seen.filter((s) => s.rpc === "initialize").length, 1, "no new session was opened");
  assert.equal(peer.server.seen.at(-1)?.headers["mcp-session-id"], "s-1");
});

test("peerKey: the server's origin and path, on both HTTP transports", () => {
  const url = "http://127.0.0.1:9/mcp?x=1";
  assert.equal(new StreamableHttpClientTransport(url).peerKey, "http://127.0.0.1:9/mcp");
  assert.equal(new HttpClientTransport(url).peerKey, "http://127.0.0.1:9/mcp");
});

// Spec (streamable-http#backward-compatibility): the client inspects a 400's body before falling back.
const delivered: { name: string; status: number; body: object }[] = [
  { name: "400 -32022 without an id (unsupported version)", status: 400, body: { jsonrpc: "2.0", error: { code: -32022, message: "Unsupported protocol version", data: { supported: [MODERN], requested: "2099-01-01" } } } },
  { name: "400 -32000 with a null id (our legacy server, before this issue)", status: 400, body: { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: Server not initialized" } } },
  { name: "400 -32020 naming the request's id (header mismatch)", status: 400, body: { jsonrpc: "2.0", id: 7, error: { code: -32020, message: "Header mismatch" } } },
  { name: "404 -32601 (unknown method)", status: 404, body: { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" } } },
  { name: "405 with a JSON-RPC error", status: 405, body: { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Method not allowed." } } },
];
for (const c of delivered) {
  test(`a modern request refused with ${c.name}: the error is delivered as the request's answer`, async () => {
    await using peer = await open((_seen, response) => response.writeHead(c.status, { "content-type": "application/json" }).end(JSON.stringify(c.body)));
    await peer.transport.send(modern(7, "server/discover"));
    const { code, message, data } = (c.body as { error: { code: number; message: string; data?: unknown } }).error;
    assert.deepEqual(peer.received, [{ jsonrpc: "2.0", id: 7, error: data === undefined ? { code, message } : { code, message, data } }]);
  });
}

const refused: { name: string; status: number; body: string }[] = [
  { name: "400, empty body", status: 400, body: "" },
  { name: "400, plain text", status: 400, body: "Bad Request" },
  { name: "400, JSON but no JSON-RPC error", status: 400, body: JSON.stringify({ message: "nope" }) },
  { name: "400, an error for another request", status: 400, body: JSON.stringify({ jsonrpc: "2.0", id: 8, error: { code: -32600, message: "x" } }) },
  { name: "400, an error whose code is not an integer", status: 400, body: JSON.stringify({ jsonrpc: "2.0", error: { code: "bad", message: "x" } }) },
  { name: "404, no body", status: 404, body: "" },
  { name: "401 with a JSON-RPC body (authorization stays HTTP)", status: 401, body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized" } }) },
  { name: "403 with a JSON-RPC body", status: 403, body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Forbidden" } }) },
  { name: "500 with a JSON-RPC body", status: 500, body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } }) },
];
for (const c of refused) {
  test(`a modern request refused with ${c.name}: HttpStatusError, nothing delivered`, async () => {
    await using peer = await open((_seen, response) => response.writeHead(c.status).end(c.body));
    const error = await peer.transport.send(modern(7, "server/discover")).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof HttpStatusError, `got ${String(error)}`);
    assert.equal(error.status, c.status);
    assert.deepEqual(peer.received, []);
  });
}

test("a legacy request refused with a JSON-RPC body still fails with HttpStatusError, as before", async () => {
  await using peer = await open((_seen, response) => response.writeHead(400).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request" } })));
  await assert.rejects(peer.transport.send({ jsonrpc: "2.0", id: 1, method: "tools/list" }), (e: unknown) => e instanceof HttpStatusError && e.status === 400);
  assert.deepEqual(peer.received, []);
});

test("a modern request answered 202: a protocol error, not a wait for an answer that has no way to come", async () => {
  await using peer = await open((_seen, response) => response.writeHead(202).end());
  await assert.rejects(peer.transport.send(modern(1, "tools/list")), (e: unknown) => e instanceof HttpProtocolError && /202/.test(e.message));
});

test("a modern notification is POSTed with the mirror and no session; 202 is its whole answer", async () => {
  await using peer = await open((seen, response) => void routine(seen, response));
  await peer.transport.send({ jsonrpc: "2.0", method: "notifications/example", params: { _meta: envelope } });
  const [seen] = peer.server.seen;
  assert.deepEqual([seen?.headers["mcp-method"], seen?.headers["mcp-protocol-version"], seen?.headers["mcp-session-id"]], ["notifications/example", MODERN, undefined]);
});

test("HttpClientTransport: a refused modern probe fails with HttpStatusError and opens no HTTP+SSE stream; initialize still falls back as before", async () => {
  const server = await scriptedServer((seen, response) => {
    if (seen.method === "GET") return void response.writeHead(405).end();
    response.writeHead(seen.rpc === "server/discover" ? 400 : 404).end();
  });
  const transport = new HttpClientTransport(server.url);
  transport.start({ message: () => {}, unreadable: () => {}, close: () => {} });
  try {
    await assert.rejects(transport.send(modern(1, "server/discover")), (e: unknown) => e instanceof HttpStatusError && e.status === 400);
    assert.deepEqual(server.seen.map((s) => s.method), ["POST"]);
    assert.equal(transport.kind, undefined, "no transport chosen yet: the client falls back to initialize next");
    // The fallback initialize is refused too, so it looks for HTTP+SSE (at /mcp, then /sse): a GET.
    await assert.rejects(transport.send(legacyInit));
    assert.ok(server.seen.some((s) => s.method === "GET"));
  } finally {
    await transport.close();
    await server.close();
  }
});
