// The 2024-11-05 HTTP+SSE transport served next to Streamable HTTP: GET /sse announces the POST
// endpoint in an `endpoint` event, each POST of a message there gets 202, and every answer travels
// on the stream as an `event: message`; a body that is not a message gets 400 with its error.
// Spec: https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
import { test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { eventually, holdingServer, initializeRequest, notification, request, serve, SseReader, withinLimit, type Served } from "../helpers/http-peer.js";

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
  const send = (body: unknown) => fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body) });
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

test("legacy: sessions are capped by maxLegacySessions: one more gets 503 with a JSON-RPC error and a Retry-After within the idle expiry", async () => {
  const served = await serve({ maxLegacySessions: 2, sessionIdleMs: 60_000 });
  try {
    const a = await openLegacy(served);
    const b = await openLegacy(served);
    const refused = await fetch(served.origin + "/sse", { headers: { accept: "text/event-stream" } });
    assert.equal(refused.status, 503);
    assert.match(JSON.parse(await refused.text()).error.message, /all 2 HTTP\+SSE sessions are in use/);
    // The least recently active session expires within the idle time: that is when a slot frees at the latest.
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${refused.headers.get("retry-after")}`);
    await a.reader.cancel();
    await eventually("a slot to free", () => served.http.legacy!.sessionCount === 1);
    const c = await openLegacy(served);
    await b.reader.cancel();
    await c.reader.cancel();
  } finally {
    await served.close();
  }
});

test("legacy: open streams get keep-alive comments, and a session whose client sends nothing for sessionIdleMs ends, stream and all", async () => {
  const mcp = createDemoServer();
  const served = await serve({ sessionIdleMs: 300, keepAliveMs: 20 }, mcp);
  try {
    const response = await fetch(served.origin + "/sse", { headers: { accept: "text/event-stream" } });
    const reader = response.body!.getReader();
    let text = "";
    const read = async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    };
    // The stream ends by itself: the session expired, having received nothing.
    await withinLimit("the idle session's stream to end", read());
    assert.match(text, /^event: endpoint\n/);
    assert.match(text, /\n: keep-alive\n/);
    const endpoint = /data: (.+)/.exec(text)![1]!;
    assert.equal(mcp.sessionCount, 0);
    const posted = await fetch(new URL(endpoint, served.origin), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request(1, "ping")) });
    assert.equal(posted.status, 404);
  } finally {
    await served.close();
  }
});

test("legacy: a POST whose session's stream closes while its body is read gets 404, not a 202 whose answer nobody gets", async () => {
  const mcp = createDemoServer();
  const served = await serve({}, mcp);
  try {
    const { reader, endpoint } = await openLegacy(served);
    const body = JSON.stringify(request(1, "ping"));
    const req = httpRequest({ host: endpoint.hostname, port: endpoint.port, path: endpoint.pathname + endpoint.search, method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": String(body.length) } });
    const status = new Promise<number>((resolve, reject) => {
      req.on("response", (res) => (res.resume(), resolve(res.statusCode!)));
      req.on("error", reject);
    });
    // Seen from inside: the handler found the session and now waits for the rest of the body.
    let found = false;
    const legacy = served.http.legacy!;
    const post = legacy.post.bind(legacy);
    legacy.post = (incoming) => ((found = true), post(incoming));
    req.write(body.slice(0, 5));
    await eventually("the POST to reach its session", () => found);
    await reader.cancel();
    await eventually("the legacy session to close", () => mcp.sessionCount === 0);
    req.end(body.slice(5));
    assert.equal(await withinLimit("the POST's answer", status), 404);
  } finally {
    await served.close();
  }
});

test("legacy: a body that is not JSON (or not UTF-8) gets 400 with -32700 in the body, and nothing on the stream", async () => {
  const served = await serve();
  try {
    const { reader, send } = await openLegacy(served);
    const notUtf8 = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    for (const [bytes, reason] of [[notUtf8, /UTF-8/], ['{"jsonrpc":"2.0","id":1,"method":"ping"', /not valid JSON/]] as const) {
      const response = await send(bytes);
      assert.equal(response.status, 400);
      assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
      const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string } };
      assert.equal(body.jsonrpc, "2.0");
      assert.equal(body.error.code, -32700);
      assert.match(body.error.message, reason);
    }
    await assertStreamQuiet(reader, send);
  } finally {
    await served.close();
  }
});

test("legacy: a body that is not a JSON-RPC message gets 400 with -32600 in the body, its id as it reads by the session's version", async () => {
  const served = await serve();
  try {
    const { reader, send } = await openLegacy(served);
    // Before initialize the newest rules apply: an unreadable id is left out.
    const scalar = await send("42");
    assert.equal(scalar.status, 400);
    assert.deepEqual(Object.keys((await scalar.json()) as object).sort(), ["error", "jsonrpc"]);
    const bad = await send('{"jsonrpc":"2.0","id":"bad","method":7}');
    assert.equal(bad.status, 400);
    const badBody = (await bad.json()) as { id: string; error: { code: number; message: string } };
    assert.equal(badBody.id, "bad");
    assert.equal(badBody.error.code, -32600);
    assert.match(badBody.error.message, /"method" must be a string/);
    await assertStreamQuiet(reader, send);
    // Spec (2024-11-05, JSON-RPC 2.0): an unreadable id is answered as null.
    assert.equal((await send(initializeRequest(1, "2024-11-05"))).status, 202);
    assert.equal((await nextMessage(reader)).id, 1);
    const old = await send("42");
    assert.equal(old.status, 400);
    const oldBody = (await old.json()) as { id: unknown; error: { code: number } };
    assert.equal(oldBody.id, null);
    assert.equal(oldBody.error.code, -32600);
    await assertStreamQuiet(reader, send);
  } finally {
    await served.close();
  }
});

/** Nothing came on the stream for the refused POSTs: the next event there answers a ping sent now. */
async function assertStreamQuiet(reader: SseReader, send: (body: unknown) => Promise<Response>): Promise<void> {
  const id = `quiet-${Math.random()}`;
  assert.equal((await send(request(id, "ping"))).status, 202);
  assert.deepEqual(await nextMessage(reader), { jsonrpc: "2.0", id, result: {} });
}

test("legacy: a client that never reads its stream loses the session once the backlog passes its bound; POSTs then get 404", async () => {
  const mcp = createDemoServer();
  const served = await serve({ maxStreamBacklogBytes: 64 * 1024 }, mcp);
  try {
    // Opened with node:http and paused: nothing of the stream is read after the endpoint event.
    const opened = await new Promise<{ endpoint: URL; pause: () => void; destroy: () => void }>((resolve, reject) => {
      const req = httpRequest(served.origin + "/sse", { headers: { accept: "text/event-stream" }, agent: false }, (res) => {
        res.setEncoding("utf8");
        res.once("data", (chunk: string) => {
          res.pause();
          const path = /data: (.+)/.exec(chunk)![1]!;
          resolve({ endpoint: new URL(path, served.origin), pause: () => res.pause(), destroy: () => req.destroy() });
        });
      });
      req.on("error", reject);
      req.end();
    });
    const send = (body: unknown) => fetch(opened.endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    assert.equal((await send(initializeRequest(1, "2024-11-05"))).status, 202);
    assert.equal((await send(notification("notifications/initialized"))).status, 202);
    // Each echo answer is ~100 KB; socket buffers on loopback take a few MiB, then the backlog fills.
    const text = "x".repeat(100_000);
    const statuses: number[] = [];
    for (let id = 2; id < 400 && !statuses.includes(404); id++) {
      const response = await send(request(id, "tools/call", { name: "echo", arguments: { text } }));
      statuses.push(response.status);
      await response.text();
    }
    assert.ok(statuses.includes(404), `the unread session was never ended: ${statuses.length} POSTs accepted`);
    await eventually("the legacy session to be gone", () => mcp.sessionCount === 0);
    opened.destroy();
  } finally {
    await served.close();
  }
});

test("legacy: at maxLegacyInFlight a POST carrying a request gets 429 with a JSON-RPC error; a cancellation still goes in and frees the session", async () => {
  const { mcp } = holdingServer();
  const problems: string[] = [];
  const served = await serve({ maxLegacyInFlight: 1, onProblem: (message) => problems.push(message) }, mcp);
  try {
    const { reader, send } = await openLegacy(served);
    assert.equal((await send(initializeRequest(1, "2024-11-05"))).status, 202);
    assert.equal((await nextMessage(reader)).id, 1);
    assert.equal((await send(notification("notifications/initialized"))).status, 202);
    assert.equal((await send(request("held", "tools/call", { name: "hold", arguments: {} }))).status, 202);

    const refused = await send(request("p1", "ping"));
    assert.equal(refused.status, 429);
    const body = (await refused.json()) as { jsonrpc: string; error: { code: number; message: string } };
    assert.equal(body.jsonrpc, "2.0");
    assert.match(body.error.message, /^too many requests: .*1 messages in flight/);
    // A batch hiding a request behind a notification is a request too.
    assert.equal((await send([notification("notifications/progress", { progressToken: "x", progress: 1 }), request("p2", "ping")])).status, 429);

    // The cancellation is a notification: it is taken in, and ends the held request.
    assert.equal((await send(notification("notifications/cancelled", { requestId: "held" }))).status, 202);
    let status = 429;
    await withinLimit("the session to take requests again", (async () => {
      while ((status = (await send(request("p3", "ping"))).status) === 429) await new Promise((resolve) => setTimeout(resolve, 5));
    })());
    assert.equal(status, 202);
    // The cancelled request got no answer; the ping did.
    assert.deepEqual(await nextMessage(reader), { jsonrpc: "2.0", id: "p3", result: {} });
    // The session reports its problems to the handler's onProblem, as Streamable HTTP sessions do.
    assert.equal((await send({ jsonrpc: "2.0", id: "nobody", result: {} })).status, 202);
    await eventually("the stray response to be reported", () => problems.some((p) => p.includes('dropped a response for id "nobody"')));
    await reader.cancel();
  } finally {
    await served.close();
  }
});
