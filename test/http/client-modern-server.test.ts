// The Streamable HTTP client transport carrying 2026-07-28 requests to our own HTTP server (issue 9),
// through a Connection as the client uses it: discover and a call as JSON and as SSE, the server's
// refusals (-32022 on 400, -32601 on 404) arriving as the requests' errors, a legacy session beside
// modern requests on one transport, a listen whose notifications arrive until its cancel closes
// the stream (the server frees it), and a cancelled call whose handler the server stops.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
import { test } from "node:test";
import assert from "node:assert/strict";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { RequestAbortedError } from "../../src/jsonrpc/pending.js";
import { META } from "../../src/mcp/modern.js";
import { Connection } from "../../src/protocol/connection.js";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import type { Transport } from "../../src/protocol/transport.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { text } from "../../src/server/definition.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { eventually, serve, withinLimit } from "../helpers/http-peer.js";

const MODERN = "2026-07-28";
const meta = (version = MODERN) => ({ [META.protocolVersion]: version, [META.clientCapabilities]: {}, [META.clientInfo]: { name: "client-modern-server", version: "1" } });

/** Lets the test see each text the transport hands to its connection (the notifications, above all). */
function tee(transport: Transport, seen: { method?: string; params?: any }[]): Transport {
  return {
    start: (handlers) => transport.start({ ...handlers, message: (line) => (seen.push(JSON.parse(line)), handlers.message(line)) }),
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
  };
}

async function connect(mcp = createDemoServer()) {
  const served = await serve({}, mcp);
  const transport = new StreamableHttpClientTransport(served.url);
  const seen: { method?: string; params?: any }[] = [];
  const connection = new Connection(tee(transport, seen), { dispatcher: new Dispatcher([]) });
  connection.start();
  return {
    served, transport, connection, seen,
    [Symbol.asyncDispose]: async () => { await connection.close(); await served.close(); },
  };
}

const rpcError = (code: number) => (error: unknown) => error instanceof RpcError && error.code === code;

test("our server: server/discover and a tools/call, as JSON, with no session", async () => {
  await using peer = await connect();
  const discover = await peer.connection.request("server/discover", { _meta: meta() });
  assert.equal(discover.resultType, "complete");
  assert.ok((discover.supportedVersions as string[]).includes(MODERN));
  const call = await peer.connection.request("tools/call", { name: "echo", arguments: { text: "héllo" }, _meta: meta() });
  assert.deepEqual([call.resultType, call.content], ["complete", [{ type: "text", text: "echo: héllo" }]]);
  assert.equal(peer.transport.sessionId, undefined);
});

test("our server: progress on an SSE answer, then the result", async () => {
  await using peer = await connect();
  const progress: number[] = [];
  const result = await peer.connection.request("tools/call", { name: "countdown", arguments: { steps: 2, intervalMs: 1 }, _meta: meta() }, { onProgress: (p) => progress.push(p.progress) });
  assert.equal(result.resultType, "complete");
  assert.deepEqual(progress, [1, 2], "progress arrived on the stream before the result");
});

test("our server: an unsupported version (400) and an unknown method (404) arrive as the requests' errors", async () => {
  await using peer = await connect();
  await assert.rejects(peer.connection.request("tools/list", { _meta: meta("2099-01-01") }), (error: unknown) =>
    rpcError(-32022)(error) && ((error as RpcError).data as { supported: string[] }).supported.includes(MODERN));
  await assert.rejects(peer.connection.request("ping", { _meta: meta() }), rpcError(-32601));
});

test("our server: a legacy session and modern requests on one transport", async () => {
  await using peer = await connect();
  await peer.connection.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
  await peer.connection.notify("notifications/initialized");
  const session = peer.transport.sessionId;
  assert.ok(session);
  const legacy = await peer.connection.request("tools/list");
  const modern = await peer.connection.request("tools/list", { _meta: meta() });
  assert.deepEqual([legacy.resultType, modern.resultType], [undefined, "complete"]);
  assert.equal(peer.transport.sessionId, session);
});

test("our server: a listen brings its notifications; its cancel closes the stream and the server ends the listen", async () => {
  const mcp = createDemoServer();
  await using peer = await connect(mcp);
  const stop = new AbortController();
  const listen = peer.connection.request("subscriptions/listen", { notifications: { toolsListChanged: true }, _meta: meta() }, { signal: stop.signal });
  await eventually("the acknowledgement", () => peer.seen.some((m) => m.method === "notifications/subscriptions/acknowledged"));
  mcp.tool({ name: "late", inputSchema: { type: "object" } }, async () => ({ content: [text("late")] }));
  await eventually("the list change", () => peer.seen.some((m) => m.method === "notifications/tools/list_changed"));
  stop.abort(new Error("the client is done listening"));
  await assert.rejects(listen, RequestAbortedError);
  await eventually("the server to end the listen", () => mcp.sessionCount === 0);
});

test("our server: cancelling a call closes its stream, and the server stops its handler", async () => {
  const mcp = createDemoServer();
  let aborted = false;
  let started = false;
  mcp.tool({ name: "hold", inputSchema: { type: "object" } }, async (_args, context) => {
    started = true;
    await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
    aborted = true;
    return { content: [text("held")] };
  });
  await using peer = await connect(mcp);
  const stop = new AbortController();
  const call = peer.connection.request("tools/call", { name: "hold", _meta: meta() }, { signal: stop.signal });
  await eventually("the handler to start", () => started);
  stop.abort(new Error("the user gave up"));
  await assert.rejects(call, RequestAbortedError);
  await withinLimit("the handler's abort", eventually("the handler to see the cancel", () => aborted));
});
