// The 2024-11-05 HTTP+SSE transport served next to Streamable HTTP: GET /sse announces the POST
// endpoint in an `endpoint` event, each POST there gets 202, and every answer travels on the
// stream as an `event: message`.
// Spec: https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { eventually, initializeRequest, notification, request, serve, SseReader, type Served } from "../helpers/http-peer.js";

async function openLegacy(served: Served): Promise<{ reader: SseReader; endpoint: URL; send: (body: unknown) => Promise<Response> }> {
  const response = await fetch(served.origin + "/sse", { headers: { accept: "text/event-stream" } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  const reader = new SseReader(response.body!);
  const first = (await reader.next())!;
  // Spec (2024-11-05 transports#http-with-sse): the first event MUST be `endpoint`.
  assert.equal(first.event, "endpoint");
  assert.match(first.data, /^\/messages\?sessionId=[\x21-\x7e]+$/);
  const endpoint = new URL(first.data, served.origin);
  const send = (body: unknown) => fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { reader, endpoint, send };
}

async function nextMessage(reader: SseReader): Promise<any> {
  const event = (await reader.next())!;
  assert.equal(event.event, "message");
  return JSON.parse(event.data);
}

test("legacy: endpoint event, POST gets 202, and the answers arrive on the stream as event: message", async () => {
  const served = await serve();
  try {
    const { reader, send } = await openLegacy(served);
    const init = await send(initializeRequest(1, "2024-11-05"));
    assert.equal(init.status, 202);
    await init.text();
    const initAnswer = await nextMessage(reader);
    assert.equal(initAnswer.id, 1);
    assert.equal(initAnswer.result.protocolVersion, "2024-11-05");
    assert.equal((await send(notification("notifications/initialized"))).status, 202);

    const call = await send(request(2, "tools/call", { name: "echo", arguments: { text: "old" } }));
    assert.equal(call.status, 202);
    assert.deepEqual(await nextMessage(reader), { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "echo: old" }] } });

    assert.equal((await send(request(3, "tools/call", { name: "countdown", arguments: { steps: 2, intervalMs: 1 }, _meta: { progressToken: "t" } }))).status, 202);
    const seen = [];
    for (let m = await nextMessage(reader); ; m = await nextMessage(reader)) {
      seen.push(m);
      if (m.id === 3) break;
    }
    assert.deepEqual(seen.filter((m) => m.method === "notifications/progress").map((m) => m.params.progress), [1, 2]);
    await reader.cancel();
  } finally {
    await served.close();
  }
});

test("legacy: two sessions each get only their own answers", async () => {
  const served = await serve();
  try {
    const a = await openLegacy(served);
    const b = await openLegacy(served);
    assert.notEqual(a.endpoint.href, b.endpoint.href);
    await a.send(request("from-a", "ping"));
    await b.send(request("from-b", "ping"));
    assert.equal((await nextMessage(a.reader)).id, "from-a");
    assert.equal((await nextMessage(b.reader)).id, "from-b");
    await a.reader.cancel();
    await b.reader.cancel();
  } finally {
    await served.close();
  }
});

test("legacy: POST with an unknown or missing sessionId is 404", async () => {
  const served = await serve();
  try {
    for (const path of ["/messages?sessionId=nope", "/messages"]) {
      const response = await fetch(served.origin + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request(1, "ping")) });
      assert.equal(response.status, 404, path);
      assert.equal(JSON.parse(await response.text()).error.code, -32000);
    }
  } finally {
    await served.close();
  }
});

test("legacy: a body over maxBodyBytes is 413", async () => {
  const served = await serve({ maxBodyBytes: 256 });
  try {
    const { reader, send } = await openLegacy(served);
    const response = await send(JSON.stringify(request(1, "tools/call", { name: "echo", arguments: { text: "x".repeat(1000) } })));
    assert.equal(response.status, 413);
    await reader.cancel();
  } finally {
    await served.close();
  }
});

test("legacy: wrong methods on the legacy paths are 405", async () => {
  const served = await serve();
  try {
    assert.equal((await fetch(served.origin + "/sse", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status, 405);
    assert.equal((await fetch(served.origin + "/messages?sessionId=x")).status, 405);
  } finally {
    await served.close();
  }
});

test("legacy: when the client closes the stream the session ends, and its endpoint then gets 404", async () => {
  const mcp = createDemoServer();
  const served = await serve({}, mcp);
  try {
    const { reader, send } = await openLegacy(served);
    assert.equal(mcp.sessionCount, 1);
    await reader.cancel();
    await eventually("the legacy session to close", () => mcp.sessionCount === 0);
    assert.equal((await send(request(1, "ping"))).status, 404);
  } finally {
    await served.close();
  }
});
