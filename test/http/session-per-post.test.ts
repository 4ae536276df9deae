// Streamable HTTP with a session per POST (`sessionPerPost`, once named `stateless`): no
// MCP-Session-Id is issued, every handshake-era POST is served by a session of its own and answered
// with JSON, GET and DELETE are 405, and a tool that needs the client (sampling) fails with a clear
// tool error instead of waiting for an answer that cannot come. (Not the 2026-07-28 generation,
// which needs no option: its requests are served one by one whatever this says.)
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
// (sessions are optional) and #listening-for-messages-from-the-server (405 when no GET stream).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpServer, text } from "../../src/server/definition.js";
import { eventually, initializeRequest, LATEST, notification, post, request, serve, withinLimit, type Message } from "../helpers/http-peer.js";

function withSamplingTool(): McpServer {
  const mcp = createDemoServer();
  mcp.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, context) => {
    const answer = await context.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
    return { content: [text(JSON.stringify(answer))] };
  });
  return mcp;
}

const VERSION = { "mcp-protocol-version": LATEST };

test("session per POST: initialize is answered with JSON and no MCP-Session-Id", async () => {
  const served = await serve({ sessionPerPost: true });
  try {
    const response = await post(served.url, initializeRequest());
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(response.headers.get("mcp-session-id"), null);
    assert.equal(((await response.json()) as Message).result.protocolVersion, LATEST);
  } finally {
    await served.close();
  }
});

test("session per POST: tools/call works without a handshake and comes back as one JSON body", async () => {
  const served = await serve({ sessionPerPost: true });
  try {
    const response = await post(served.url, request("e", "tools/call", { name: "echo", arguments: { text: "solo" } }), VERSION);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(response.headers.get("mcp-session-id"), null);
    assert.deepEqual(await response.json(), { jsonrpc: "2.0", id: "e", result: { content: [{ type: "text", text: "echo: solo" }] } });
  } finally {
    await served.close();
  }
});

test("session per POST: the MCP-Protocol-Version header picks the rules; without it 2025-03-26 applies", async () => {
  const served = await serve({ sessionPerPost: true });
  try {
    const call = request(1, "tools/call", { name: "add", arguments: { a: 1, b: 2 } });
    const latest = (await (await post(served.url, call, VERSION)).json()) as Message;
    assert.deepEqual(latest.result.structuredContent, { sum: 3 });
    // Spec (transports#protocol-version-header): no header and no other hint: assume 2025-03-26,
    // which has no structuredContent.
    const assumed = (await (await post(served.url, call)).json()) as Message;
    assert.equal(assumed.result.content[0].text, JSON.stringify({ sum: 3 }));
    assert.equal("structuredContent" in assumed.result, false);
    assert.equal((await post(served.url, call, { "mcp-protocol-version": "1999-01-01" })).status, 400);
  } finally {
    await served.close();
  }
});

test("session per POST: GET and DELETE are 405", async () => {
  const served = await serve({ sessionPerPost: true });
  try {
    const get = await fetch(served.url, { headers: { accept: "text/event-stream" } });
    assert.equal(get.status, 405);
    const del = await fetch(served.url, { method: "DELETE" });
    assert.equal(del.status, 405);
    assert.ok(get.headers.get("allow")?.includes("POST"));
  } finally {
    await served.close();
  }
});

test("session per POST: a notification gets 202", async () => {
  const served = await serve({ sessionPerPost: true });
  try {
    const response = await post(served.url, notification("notifications/initialized"), VERSION);
    assert.equal(response.status, 202);
    assert.equal(await response.text(), "");
  } finally {
    await served.close();
  }
});

test("session per POST: a tool that calls ctx.sample() gets an isError result saying why, not a hang", async () => {
  const served = await serve({ sessionPerPost: true }, withSamplingTool());
  try {
    const response = await withinLimit("tools/call ask", post(served.url, request("ask", "tools/call", { name: "ask", arguments: {} }), VERSION));
    assert.equal(response.status, 200);
    const body = (await response.json()) as Message;
    assert.equal(body.id, "ask");
    assert.equal(body.result.isError, true);
    assert.match(body.result.content[0].text, /no channel back to the client/);
  } finally {
    await served.close();
  }
});

test("session per POST: concurrent requests leave no session behind", async () => {
  const mcp = createDemoServer();
  const served = await serve({ sessionPerPost: true }, mcp);
  try {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(served.url, request(i, "tools/call", { name: "echo", arguments: { text: `n${i}` } }), VERSION).then(async (r) => (await r.json()) as Message)),
    );
    assert.deepEqual(answers.map((a) => a.result.content[0].text), answers.map((_, i) => `echo: n${i}`));
    assert.equal(served.http.streamable.sessionCount, 0);
    await eventually("the per-request sessions to close", () => mcp.sessionCount === 0);
  } finally {
    await served.close();
  }
});

test("session per POST: the legacy HTTP+SSE endpoint is not offered", async () => {
  const served = await serve({ sessionPerPost: true });
  try {
    const response = await fetch(served.origin + "/sse", { headers: { accept: "text/event-stream" } });
    assert.equal(response.status, 404);
    await response.text();
  } finally {
    await served.close();
  }
});

test("session per POST: a batch over the default item bound is one 400 -32600 and no session is left behind (the 30,000-read body)", async () => {
  const served = await serve({ sessionPerPost: true });
  try {
    // 2025-03-26 (no version header) allows batches; DEFAULT_MAX_BATCH_ITEMS is 100.
    const items = Array.from({ length: 101 }, (_, i) => request(i, "resources/read", { uri: "demo://readme" }));
    const response = await withinLimit("the over-long batch", post(served.url, items));
    assert.equal(response.status, 400);
    const body = (await response.json()) as Message;
    assert.equal(body.error.code, -32600);
    assert.deepEqual(body.error.data, { limit: 100 });
    await eventually("no per-POST session to remain", () => served.mcp.sessionCount === 0);
  } finally {
    await served.close();
  }
});

test("session per POST: the deprecated option `stateless: true` is the same mode", async () => {
  const served = await serve({ stateless: true });
  try {
    const response = await post(served.url, initializeRequest());
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("mcp-session-id"), null);
    await response.text();
    assert.equal((await fetch(served.url, { headers: { accept: "text/event-stream" } })).status, 405);
    assert.equal((await fetch(served.origin + "/sse", { headers: { accept: "text/event-stream" } })).status, 404);
  } finally {
    await served.close();
  }
});

test("session per POST: sessionPerPost: false wins over the deprecated stateless: true", async () => {
  const served = await serve({ sessionPerPost: false, stateless: true });
  try {
    const response = await post(served.url, initializeRequest());
    assert.equal(response.status, 200);
    assert.notEqual(response.headers.get("mcp-session-id"), null);
    await response.text();
  } finally {
    await served.close();
  }
});
