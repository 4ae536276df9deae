// Whatever ends a call without a readable answer (a malformed answer, the close, a close that
// races the start of a POST or the fallback to HTTP+SSE) lets go of what the HTTP client
// transports hold open for it: no POST or stream outlives the call it was for; and McpClient.close()
// ends the 2026-07-28 listen.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import { MalformedResponseError } from "../../src/jsonrpc/pending.js";
import { Connection } from "../../src/protocol/connection.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { discoverResult } from "../helpers/client-modern-peer.js";

const encoder = new TextEncoder();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An SSE body that sends `text` and then stays open until its request is aborted. */
function openStream(text: string, signal: AbortSignal): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (text) controller.enqueue(encoder.encode(text));
      signal.addEventListener("abort", () => controller.error(signal.reason), { once: true });
    },
  });
}

const SSE = { status: 200, headers: { "content-type": "text/event-stream" } };

test("http client: a malformed answer on a response stream ends that POST at once, not at close()", async () => {
  let postSignal: AbortSignal | undefined;
  const fetch = (async (_url: URL, init: RequestInit) => {
    postSignal = init.signal!;
    return new Response(openStream('id: 1\ndata: {"jsonrpc":"2.0","id":0,"result":"not an object"}\n\n', postSignal), SSE);
  }) as typeof globalThis.fetch;
  const connection = new Connection(new StreamableHttpClientTransport("http://127.0.0.1:1/mcp", { fetch, listen: false }), { dispatcher: new Dispatcher([]) });
  connection.start();
  try {
    await assert.rejects(connection.request("tools/list"), MalformedResponseError);
    assert.equal(postSignal?.aborted, true, "the POST held for the answer is let go");
  } finally {
    await connection.close();
  }
});

test("http client: a POST that starts while close() runs is aborted, not held for ever", async () => {
  const signals: AbortSignal[] = [];
  const fetch = (async (_url: URL, init: RequestInit) => {
    signals.push(init.signal!);
    return new Response(openStream("", init.signal!), SSE);
  }) as typeof globalThis.fetch;
  const connection = new Connection(new StreamableHttpClientTransport("http://127.0.0.1:1/mcp", { fetch, listen: false }), { dispatcher: new Dispatcher([]) });
  connection.start();
  const call = connection.request("tools/list").catch((error: unknown) => error);
  await connection.close();
  assert.ok((await call) instanceof Error);
  await pause(50);
  assert.ok(signals.every((signal) => signal.aborted), `${signals.filter((s) => !s.aborted).length} of ${signals.length} POSTs still open after close()`);
});

test("http client: close() during the fallback to HTTP+SSE closes the legacy stream it was opening", async () => {
  let streamSignal: AbortSignal | undefined;
  const fetch = (async (_url: URL, init: RequestInit) => {
    if (init.method === "POST") return new Response("no", { status: 405 });
    streamSignal = init.signal!;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // The endpoint comes late: close() runs while the transport waits for it.
        setTimeout(() => {
          try {
            controller.enqueue(encoder.encode("event: endpoint\ndata: /messages?sessionId=1\n\n"));
          } catch {
            // Already cancelled.
          }
        }, 100);
      },
    });
    return new Response(body, SSE);
  }) as typeof globalThis.fetch;
  const transport = new HttpClientTransport("http://127.0.0.1:1/mcp", { fetch });
  const connection = new Connection(transport, { dispatcher: new Dispatcher([]) });
  connection.start();
  const call = connection.request("initialize", { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } }).catch((error: unknown) => error);
  await pause(30);
  await connection.close();
  assert.ok((await call) instanceof Error);
  await pause(200);
  assert.equal(streamSignal?.aborted, true, "the legacy stream is let go");
  assert.notEqual(transport.kind, "http+sse");
});

// The 2026-07-28 client (the default): its listen is a POST whose stream stays open as long as the
// client is connected, so close() must end it, or the process (and a test run) never ends.
test("http client: McpClient.close() in 2026-07-28 lets go of the listen's stream, over both HTTP transports", async () => {
  for (const Transport of [StreamableHttpClientTransport, HttpClientTransport]) {
    let listenSignal: AbortSignal | undefined;
    const fetch = (async (_url: URL, init: RequestInit) => {
      const message = JSON.parse(String(init.body)) as { id: number; method: string };
      if (message.method === "server/discover") {
        return new Response(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: discoverResult() }), { status: 200, headers: { "content-type": "application/json" } });
      }
      if (message.method !== "subscriptions/listen") return new Response(null, { status: 202 });
      listenSignal = init.signal!;
      const ack = { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": message.id } } };
      return new Response(openStream(`data: ${JSON.stringify(ack)}\n\n`, listenSignal), SSE);
    }) as typeof globalThis.fetch;
    const client = new McpClient({ name: "release-tests", version: "1" });
    const acknowledged = new Promise((resolve) => client.once("subscriptionsAcknowledged", resolve));
    await client.connect(new Transport("http://127.0.0.1:1/mcp", { fetch }));
    assert.equal(client.era, "modern");
    await acknowledged;
    assert.equal(listenSignal?.aborted, false, "the listen is open while connected");
    await client.close();
    assert.equal(listenSignal?.aborted, true, `${Transport.name}: close() let go of the listen`);
  }
});
