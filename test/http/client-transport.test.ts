// The HTTP client transports over real loopback sockets, against McpHttpServer(createDemoServer()):
// Streamable HTTP (SSE and JSON answers, the GET stream, sessions, resumption, errors), the
// fallback to HTTP+SSE, and the headers each request carries. A recording fetch watches the wire.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { RequestAbortedError } from "../../src/jsonrpc/pending.js";
import { HttpNetworkError, HttpStatusError } from "../../src/http/client-fetch.js";
import { StreamableHttpClientTransport, type StreamableHttpClientOptions } from "../../src/http/client-transport.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { LegacySseClientTransport } from "../../src/http/legacy-client.js";
import { LegacySseHandler } from "../../src/http/legacy-sse.js";
import { listen, type Listening } from "../../src/http/node.js";
import { errorResponse, requestOf, responseOf } from "../../src/http/web.js";
import { McpHttpServer, type HttpServerOptions } from "../../src/http/server.js";
import { ADAPTER } from "../helpers/http-peer.js";
import type { McpServer } from "../../src/server/definition.js";
import { text } from "../../src/server/definition.js";

const info = { name: "http-client-tests", version: "1" };
const TOKEN = "a-long-random-test-token-7f3e9c1d";

interface Exchange { method: string; path: string; headers: Headers; status: number; contentType: string | null; at: number }

/** A fetch that records each request and its answer; `alter` may replace the response. */
function recordingFetch(alter?: (response: Response, exchange: Exchange) => Response) {
  const log: Exchange[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const at = performance.now();
    const response = await fetch(input, init);
    const exchange = { method: init?.method ?? "GET", path: url.pathname + url.search, headers, status: response.status, contentType: response.headers.get("content-type"), at };
    log.push(exchange);
    return alter ? alter(response, exchange) : response;
  };
  return { fetch: fetcher, log };
}

async function serve(options: HttpServerOptions = {}, definition: McpServer = createDemoServer()) {
  const http = new McpHttpServer(definition, options);
  const listening = await http.listen({ port: 0, adapter: ADAPTER });
  return { http, definition, listening, url: `${listening.origin}/mcp`, async close() { await http.close(); await listening.close(); } };
}

async function connect(url: string, options: StreamableHttpClientOptions = {}) {
  const problems: string[] = [];
  const transport = new StreamableHttpClientTransport(url, { onProblem: (p) => problems.push(p), ...options });
  // The subject here is the handshake era's Streamable HTTP (sessions, the GET stream, resumption):
  // pinned. The 2026-07-28 client over HTTP is test/http/client-modern-*.test.ts.
  const client = new McpClient(info, { protocolVersion: "2025-11-25", onProblem: (p) => problems.push(p) });
  await client.connect(transport);
  return { client, transport, problems };
}

const until = async (check: () => boolean, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

test("streamable http: a tool call answered on an SSE stream, with progress; the headers of every request", async () => {
  const server = await serve();
  const wire = recordingFetch();
  const { client, transport, problems } = await connect(server.url, { fetch: wire.fetch });
  const progress: number[] = [];
  const result = await client.callTool("countdown", { steps: 3, intervalMs: 5 }, { onProgress: (p) => progress.push(p.progress) });
  assert.deepEqual(result.content, [{ type: "text", text: "countdown: done after 3 steps" }]);
  assert.deepEqual(progress, [1, 2, 3]);
  assert.equal(transport.protocolVersion, "2025-11-25");
  const session = transport.sessionId!;
  assert.match(session, /^[\x21-\x7e]+$/);
  await client.close();

  const [initialize, ...later] = wire.log;
  assert.equal(initialize!.method, "POST");
  assert.equal(initialize!.headers.get("mcp-session-id"), null, "initialize carries no session id");
  assert.equal(initialize!.headers.get("mcp-protocol-version"), null);
  for (const exchange of wire.log.filter((e) => e.method === "POST")) {
    assert.equal(exchange.headers.get("accept"), "application/json, text/event-stream");
    assert.equal(exchange.headers.get("content-type"), "application/json");
  }
  for (const exchange of later) {
    assert.equal(exchange.headers.get("mcp-session-id"), session, `${exchange.method} carries the session id`);
    assert.equal(exchange.headers.get("mcp-protocol-version"), "2025-11-25", `${exchange.method} carries the version`);
  }
  assert.deepEqual(later.map((e) => `${e.method} ${e.status}`).sort(), ["DELETE 200", "GET 200", "POST 200", "POST 202"]);
  assert.match(wire.log.find((e) => e.method === "POST" && e.status === 200 && e !== initialize)!.contentType!, /^text\/event-stream/);
  assert.equal(server.http.streamable.sessionCount, 0, "DELETE ended the session");
  assert.deepEqual(problems, []);
  await server.close();
});

test("streamable http: JSON answers (server option jsonResponses)", async () => {
  const server = await serve({ jsonResponses: true });
  const wire = recordingFetch();
  const { client } = await connect(server.url, { fetch: wire.fetch });
  assert.deepEqual((await client.callTool("add", { a: 2, b: 3 })).structuredContent, { sum: 5 });
  await assert.rejects(client.request("no/such"), /-32601|not found/i);
  assert.ok(wire.log.filter((e) => e.method === "POST" && e.status === 200).every((e) => /^application\/json/.test(e.contentType!)));
  await client.close();
  await server.close();
});

test("streamable http: the GET stream brings a notification unrelated to any request", async () => {
  const server = await serve();
  const wire = recordingFetch();
  const { client } = await connect(server.url, { fetch: wire.fetch });
  await until(() => wire.log.some((e) => e.method === "GET" && e.status === 200));
  const changed = new Promise((resolve) => client.once("toolsChanged", resolve));
  server.definition.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [text("late")] }));
  await changed;
  assert.ok((await client.listAllTools()).some((tool) => tool.name === "late"));
  await client.close();
  await server.close();
});

test("streamable http: a session-per-POST server (GET answered 405) needs no GET stream and no DELETE", async () => {
  const server = await serve({ sessionPerPost: true });
  const wire = recordingFetch();
  const { client, transport, problems } = await connect(server.url, { fetch: wire.fetch });
  assert.deepEqual((await client.callTool("add", { a: 1, b: 1 })).structuredContent, { sum: 2 });
  await until(() => wire.log.some((e) => e.method === "GET"));
  await client.close();
  assert.equal(transport.sessionId, undefined);
  assert.deepEqual(wire.log.filter((e) => e.method !== "POST").map((e) => `${e.method} ${e.status}`), ["GET 405"]);
  assert.deepEqual(problems, []);
  await server.close();
});

test("streamable http: after a 404 for its session, the client initializes anew and resends the message once", async () => {
  const server = await serve();
  const wire = recordingFetch();
  const received: string[] = [];
  const { client, transport, problems } = await connect(server.url, { fetch: wire.fetch });
  client.on("close", () => received.push("close"));
  const first = transport.sessionId!;
  // The server ends the session (as if it expired).
  const ended = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": first } });
  assert.equal(ended.status, 200);

  assert.deepEqual((await client.callTool("add", { a: 20, b: 22 })).structuredContent, { sum: 42 });
  const second = transport.sessionId!;
  assert.notEqual(second, first);
  const posts = wire.log.filter((e) => e.method === "POST");
  assert.deepEqual(posts.map((e) => `${e.status} ${e.headers.get("mcp-session-id") === null ? "-" : e.headers.get("mcp-session-id") === first ? "old" : "new"}`),
    ["200 -", "202 old", "404 old", "200 -", "202 new", "200 new"], "initialize, initialized, the 404, initialize again, initialized, the resent call");
  await until(() => wire.log.some((e) => e.method === "GET" && e.headers.get("mcp-session-id") === second));
  assert.ok(client.isConnected, "the connection never saw the second initialize");
  assert.deepEqual(received, []);
  assert.deepEqual(problems, [], "no stray response reached the connection");

  // Two calls that both meet the 404 start one new session between them.
  await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": second } });
  const sums = await Promise.all([client.callTool("add", { a: 1, b: 1 }), client.callTool("add", { a: 2, b: 2 })]);
  assert.deepEqual(sums.map((r) => r.structuredContent), [{ sum: 2 }, { sum: 4 }]);
  assert.equal(wire.log.filter((e) => e.method === "POST" && e.headers.get("mcp-session-id") === null).length, 3, "three initialize requests in all");
  assert.deepEqual(problems, []);
  await client.close();
  await server.close();
});

test("streamable http: a stream dropped mid-call resumes with GET and Last-Event-ID after the server's retry", async () => {
  const server = await serve({ retryMs: 200 });
  let dropAt = 0;
  const wire = recordingFetch((response, exchange) => {
    if (exchange.method !== "POST" || !/^text\/event-stream/.test(exchange.contentType ?? "") || dropAt !== 0) return response;
    // Pass the body on until the first progress notification, then break the connection.
    const reader = response.body!.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        if (new TextDecoder().decode(value).includes("notifications/progress")) {
          dropAt = performance.now();
          void reader.cancel();
          controller.error(new TypeError("terminated"));
        }
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  });
  const { client } = await connect(server.url, { fetch: wire.fetch });
  await until(() => wire.log.some((e) => e.method === "GET"));
  const progress: number[] = [];
  const result = await client.callTool("countdown", { steps: 4, intervalMs: 40 }, { onProgress: (p) => progress.push(p.progress) });
  assert.deepEqual(result.content, [{ type: "text", text: "countdown: done after 4 steps" }]);
  assert.deepEqual(progress, [1, 2, 3, 4], "every progress report exactly once");
  const resumed = wire.log.find((e) => e.method === "GET" && e.headers.get("last-event-id") !== null);
  assert.ok(resumed, "a GET with Last-Event-ID");
  assert.match(resumed.headers.get("last-event-id")!, /^p\d+:\d+$|^\S+$/);
  const waited = resumed.at - dropAt;
  assert.ok(waited >= 190 && waited < 600, `waited ${waited.toFixed(0)} ms for retry 200`);
  await client.close();
  await server.close();
});

test("streamable http: headers and a token supplier called for every request", async () => {
  const server = await serve({ bearerToken: TOKEN });
  const wire = recordingFetch();
  let calls = 0;
  const { client } = await connect(server.url, { fetch: wire.fetch, headers: { "x-client-tag": "tests" }, token: () => (calls++, Promise.resolve(TOKEN)) });
  await client.ping();
  await until(() => wire.log.some((e) => e.method === "GET"));
  await client.close();
  assert.equal(calls, wire.log.length);
  for (const exchange of wire.log) {
    assert.equal(exchange.headers.get("authorization"), `Bearer ${TOKEN}`);
    assert.equal(exchange.headers.get("x-client-tag"), "tests");
  }

  // A 401 is an error whichever request meets it first: the probe does not take it for a legacy server.
  for (const [options, step] of [[{ protocolVersion: "2025-11-25" }, "initialize"], [{}, "server/discover"]] as const) {
    const refused = new McpClient(info, options);
    await assert.rejects(refused.connect(new StreamableHttpClientTransport(server.url, { token: "wrong-token-wrong-token" })), (error: unknown) =>
      error instanceof HttpStatusError && error.status === 401 &&
      error.message === `${step}: the server answered HTTP 401 Unauthorized: unauthorized: a valid bearer token is required`);
  }
  await server.close();
});

test("streamable http: a server that cannot be reached, or goes away mid-call, fails the calls promptly", async () => {
  const server = await serve({ retryMs: 100 });
  const { client } = await connect(server.url);
  const slow = client.callTool("countdown", { steps: 50, intervalMs: 1000 });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = performance.now();
  await server.close();
  await assert.rejects(slow, (error: unknown) => error instanceof HttpNetworkError && /^tools\/call: could not reach http:\/\/127\.0\.0\.1:\d+\/mcp: .*ECONNREFUSED/.test(error.message));
  assert.ok(performance.now() - started < 2000);
  await client.close();

  for (const [options, step] of [[{ protocolVersion: "2025-11-25" }, "initialize"], [{}, "server/discover"]] as const) {
    const nobody = new McpClient(info, options);
    await assert.rejects(nobody.connect(new StreamableHttpClientTransport(server.url)), (error: unknown) =>
      error instanceof HttpNetworkError && new RegExp(`^${step}: could not reach .*ECONNREFUSED`).test(error.message));
  }
});

test("streamable http: a cancelled call stops waiting at once, and the session goes on", async () => {
  const server = await serve();
  const { client } = await connect(server.url);
  const abort = new AbortController();
  const call = client.callTool("countdown", { steps: 50, intervalMs: 1000 }, { signal: abort.signal });
  setTimeout(() => abort.abort(), 50);
  await assert.rejects(call, RequestAbortedError);
  assert.deepEqual((await client.callTool("add", { a: 1, b: 2 })).structuredContent, { sum: 3 });
  await client.close();
  await server.close();
});

test("fallback: a URL where POST gets 404 is tried as HTTP+SSE, here at /sse next to it", async () => {
  const server = await serve();
  const transport = new HttpClientTransport(`${server.listening.origin}/`);
  const client = new McpClient(info);
  await client.connect(transport);
  assert.equal(transport.kind, "http+sse");
  assert.deepEqual((await client.callTool("add", { a: 3, b: 4 })).structuredContent, { sum: 7 });
  const progress: number[] = [];
  await client.callTool("countdown", { steps: 2, intervalMs: 5 }, { onProgress: (p) => progress.push(p.progress) });
  assert.deepEqual(progress, [1, 2]);
  await client.close();
  await server.close();
});

test("fallback: a legacy-only server that answers POST with 405 at the same URL", async () => {
  const legacy = new LegacySseHandler(createDemoServer());
  const listening: Listening = await listen(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/events" && request.method === "GET") return responseOf(legacy.open());
    if (path === legacy.messagesPath && request.method === "POST") return responseOf(await legacy.post(requestOf(request)));
    return errorResponse(405, "method not allowed");
  });
  const transport = new HttpClientTransport(`${listening.origin}/events`);
  const client = new McpClient(info);
  await client.connect(transport);
  assert.equal(transport.kind, "http+sse");
  assert.equal(client.serverInfo?.name, "mcp-wire-demo");
  assert.equal((await client.listAllTools()).length, 7);
  await client.close();
  await legacy.close();
  await listening.close();
});

test("fallback: Streamable HTTP is kept when it works; a server with neither names both failures", async () => {
  const server = await serve();
  const transport = new HttpClientTransport(server.url);
  // `kind` is decided by initialize: the handshake era, pinned.
  const client = new McpClient(info, { protocolVersion: "2025-11-25" });
  await client.connect(transport);
  assert.equal(transport.kind, "streamable-http");
  await client.close();

  // By default the probe's 404 falls back to initialize, whose 404 then tries HTTP+SSE.
  const nothing = await listen(async () => errorResponse(404, "nothing here"));
  await assert.rejects(new McpClient(info).connect(new HttpClientTransport(`${nothing.origin}/mcp`)), (error: unknown) =>
    error instanceof Error && /^initialize: the server answered HTTP 404 Not Found: nothing here; and no HTTP\+SSE server answered either \(GET \/mcp: .*404.*; GET \/sse: .*404/.test(error.message));
  await nothing.close();
  await server.close();
});

test("legacy: the endpoint must be on the stream's origin, and come first", async () => {
  const cases = [
    { name: "another origin", first: "event: endpoint\ndata: http://elsewhere.example/messages\n\n", message: /endpoint http:\/\/elsewhere\.example is on another origin/ },
    { name: "a message first", first: "event: message\ndata: {}\n\n", message: /the first event is "message", not "endpoint"/ },
  ];
  for (const c of cases) {
    const server = await listen(async () => new Response(c.first, { headers: { "content-type": "text/event-stream" } }));
    await assert.rejects(LegacySseClientTransport.open(`${server.origin}/sse`), c.message, c.name);
    await server.close();
  }
});
