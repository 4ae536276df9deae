// 2026-07-28 answers that take time over Streamable HTTP: the first message decides (SSE when a
// notification comes before the response: progress, a log, a listen's ack; else JSON), MRTR rounds
// as plain POSTs, closing the response as the request's cancellation (held, JSON and SSE),
// subscriptions/listen as a long-lived stream bounded by the server's maxListens and the HTTP
// in-flight bounds, and a legacy session beside modern POSTs.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
// and basic/patterns/subscriptions (#receiving-messages, #cancellation, #backward-compatibility).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpServer, text } from "../../src/server/definition.js";
import { eventually, openSession, SseReader, serve, type Message } from "../helpers/http-peer.js";
import { MODERN, modernRequest, postModern } from "../helpers/http-modern-peer.js";

/**
 * The demo server plus `wait`, which runs until its signal aborts and records that it did; with
 * `{ report: true }` it first reports progress (sent only when the call carries a progressToken).
 */
function withWaitTool(): { mcp: McpServer; seen: { started: number; aborted: number } } {
  const seen = { started: 0, aborted: 0 };
  const mcp = createDemoServer({ maxListens: 1 }).tool({ name: "wait", inputSchema: { type: "object" } }, async (args, context) => {
    if (args.report === true) await context.progress(0);
    seen.started++;
    await new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve(), { once: true }));
    seen.aborted++;
    return { content: [text("aborted")] };
  });
  return { mcp, seen };
}

test("modern SSE: a request with a progressToken gets its progress, then its response, and the stream ends", async () => {
  const served = await serve();
  try {
    const response = await postModern(served.url, modernRequest(1, "tools/call", { name: "countdown", arguments: { steps: 2, intervalMs: 1 } }, { progressToken: "p" }));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    assert.equal(response.headers.get("x-accel-buffering"), "no");
    const events = await new SseReader(response.body!).rest();
    const messages = events.map((event) => JSON.parse(event.data) as Message);
    assert.deepEqual(messages.slice(0, -1).map((m) => m.method), ["notifications/progress", "notifications/progress"]);
    assert.equal(messages.at(-1)!.id, 1);
    assert.equal(messages.at(-1)!.result.resultType, "complete");
    // Spec (2026-07-28 streamable-http): no resumability, so events carry no ids.
    assert.ok(events.every((event) => event.id === undefined));
    await eventually("the one-request session to close", () => served.mcp.sessionCount === 0);
  } finally {
    await served.close();
  }
});

test("modern SSE: a logLevel request whose handler logs gets an event stream: the log, then the response", async () => {
  const served = await serve();
  try {
    const logged = await postModern(served.url, modernRequest(1, "tools/call", { name: "echo", arguments: { text: "hi" } }, { "io.modelcontextprotocol/logLevel": "debug" }));
    assert.equal(logged.status, 200);
    assert.equal(logged.headers.get("content-type"), "text/event-stream");
    const messages = (await new SseReader(logged.body!).rest()).map((event) => JSON.parse(event.data) as Message);
    assert.deepEqual(messages.map((m) => m.method), ["notifications/message", undefined]);
    assert.equal(messages.at(-1)!.result.resultType, "complete");
  } finally {
    await served.close();
  }
});

test("modern JSON: the first message decides: a logLevel or progressToken whose handler sends nothing first is answered as JSON", async () => {
  const served = await serve();
  try {
    // tools/list never logs, and echo never reports progress: the response is the first and only message.
    const calls = [
      modernRequest(1, "tools/list", {}, { "io.modelcontextprotocol/logLevel": "debug" }),
      modernRequest(2, "tools/call", { name: "echo", arguments: { text: "hi" } }, { progressToken: "p" }),
    ];
    for (const call of calls) {
      const response = await postModern(served.url, call);
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /^application\/json/, call.method);
      assert.equal(((await response.json()) as Message).result.resultType, "complete");
    }
  } finally {
    await served.close();
  }
});

test("modern MRTR: greet answers input_required, and the retry with inputResponses and requestState completes it", async () => {
  const served = await serve();
  try {
    const capabilities = { elicitation: { form: {} } };
    const first = await postModern(served.url, modernRequest(1, "tools/call", { name: "greet", arguments: {} }, {}, capabilities));
    assert.equal(first.status, 200);
    const asked = ((await first.json()) as Message).result;
    assert.equal(asked.resultType, "input_required");
    const [key, input] = Object.entries(asked.inputRequests as Record<string, { method: string }>)[0]!;
    assert.equal(input.method, "elicitation/create");
    const retry = modernRequest(2, "tools/call", { name: "greet", arguments: {}, inputResponses: { [key]: { action: "accept", content: { name: "Ada" } } }, requestState: asked.requestState }, {}, capabilities);
    const second = await postModern(served.url, retry);
    assert.equal(second.status, 200);
    const done = ((await second.json()) as Message).result;
    assert.equal(done.resultType, "complete");
    assert.match(done.content[0].text, /Ada/);
  } finally {
    await served.close();
  }
});

test("modern listen: ack, a tagged list change, and the client closing the stream frees the listen slot", async () => {
  const { mcp } = withWaitTool();
  const served = await serve({}, mcp);
  try {
    const listen = modernRequest("L1", "subscriptions/listen", { notifications: { toolsListChanged: true } });
    const response = await postModern(served.url, listen);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const reader = new SseReader(response.body!);
    const ack = JSON.parse((await reader.next())!.data) as Message;
    assert.equal(ack.method, "notifications/subscriptions/acknowledged");
    assert.deepEqual(ack.params.notifications, { toolsListChanged: true });
    mcp.tool({ name: "late", inputSchema: { type: "object" } }, async () => ({ content: [text("late")] }));
    const change = JSON.parse((await reader.next())!.data) as Message;
    assert.equal(change.method, "notifications/tools/list_changed");
    assert.equal(change.params._meta["io.modelcontextprotocol/subscriptionId"], "L1");
    // maxListens is 1: a second listen is refused while the first is open; no ack came first, so
    // the refusal is a JSON answer.
    const second = await postModern(served.url, modernRequest("L2", "subscriptions/listen", { notifications: { toolsListChanged: true } }));
    assert.match(second.headers.get("content-type") ?? "", /^application\/json/);
    assert.match(((await second.json()) as Message).error.message, /listens open/);
    // Spec (streamable-http): closing the stream ends the listen; its slot is free again.
    await reader.cancel();
    await eventually("the listen to end", () => mcp.sessionCount === 0);
    const third = await postModern(served.url, modernRequest("L3", "subscriptions/listen", { notifications: { toolsListChanged: true } }));
    const thirdReader = new SseReader(third.body!);
    assert.equal((JSON.parse((await thirdReader.next())!.data) as Message).method, "notifications/subscriptions/acknowledged");
    await thirdReader.cancel();
  } finally {
    await served.close();
  }
});

test("modern listen: a server that closes ends each listen with its result, the last event of the stream", async () => {
  const served = await serve();
  try {
    const response = await postModern(served.url, modernRequest("L", "subscriptions/listen", { notifications: { toolsListChanged: true } }));
    const reader = new SseReader(response.body!);
    assert.equal((JSON.parse((await reader.next())!.data) as Message).method, "notifications/subscriptions/acknowledged");
    await served.http.close();
    const rest = (await reader.rest()).map((event) => JSON.parse(event.data) as Message);
    assert.deepEqual(rest, [{ jsonrpc: "2.0", id: "L", result: rest[0]?.result }]);
    assert.equal(rest[0]!.result._meta["io.modelcontextprotocol/subscriptionId"], "L");
    assert.equal(rest[0]!.result.resultType, "complete");
  } finally {
    await served.close();
  }
});

test("modern listen: the stream gets keep-alive comments like the legacy streams", async () => {
  const served = await serve({ keepAliveMs: 10 });
  try {
    const response = await postModern(served.url, modernRequest("L", "subscriptions/listen", { notifications: { toolsListChanged: true } }));
    const reader = response.body!.getReader();
    let seen = "";
    while (!seen.includes(": keep-alive")) seen += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
  } finally {
    await served.close();
  }
});

// Every answer is held until its first message; a progressToken (or a logLevel) with nothing sent yet changes nothing.
for (const [name, meta] of [["a plain request", {}], ["a request with a progressToken, no progress yet", { progressToken: 1 }]] as const) {
  test(`modern cancellation: a client that drops ${name} while its answer is held aborts its handler`, async () => {
    const { mcp, seen } = withWaitTool();
    const served = await serve({}, mcp);
    try {
      const controller = new AbortController();
      const pending = postModern(served.url, modernRequest(1, "tools/call", { name: "wait", arguments: {} }, meta), {}, [], controller.signal);
      await eventually("the handler to start", () => seen.started === 1);
      controller.abort();
      // No response had come: the fetch itself fails.
      await assert.rejects(pending);
      await eventually("the handler to see its signal abort", () => seen.aborted === 1);
      await eventually("the session to close", () => mcp.sessionCount === 0);
    } finally {
      await served.close();
    }
  });
}

test("modern cancellation: closing an SSE response aborts its handler, and nothing more is sent", async () => {
  const { mcp, seen } = withWaitTool();
  const served = await serve({}, mcp);
  try {
    const response = await postModern(served.url, modernRequest(1, "tools/call", { name: "wait", arguments: { report: true } }, { progressToken: 1 }));
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    await eventually("the handler to start", () => seen.started === 1);
    const reader = new SseReader(response.body!);
    assert.equal((JSON.parse((await reader.next())!.data) as Message).method, "notifications/progress");
    await reader.cancel();
    await eventually("the handler to see its signal abort", () => seen.aborted === 1);
    await eventually("the session to close", () => mcp.sessionCount === 0);
  } finally {
    await served.close();
  }
});

test("modern bounds: a modern request counts against maxRequestsInFlightTotal (503 past it)", async () => {
  const { mcp, seen } = withWaitTool();
  const served = await serve({ maxRequestsInFlightTotal: 1 }, mcp);
  try {
    const controller = new AbortController();
    const pending = postModern(served.url, modernRequest(1, "tools/call", { name: "wait", arguments: {} }), {}, [], controller.signal);
    await eventually("the handler to start", () => seen.started === 1);
    const refused = await postModern(served.url, modernRequest(2, "tools/list"));
    assert.equal(refused.status, 503);
    controller.abort();
    await assert.rejects(pending);
    await eventually("the slot to free", () => mcp.sessionCount === 0);
    assert.equal((await postModern(served.url, modernRequest(3, "tools/list"))).status, 200);
  } finally {
    await served.close();
  }
});

test("modern bounds: an open listen holds an in-flight slot until the client closes it", async () => {
  const served = await serve({ maxRequestsInFlightTotal: 1 });
  try {
    const response = await postModern(served.url, modernRequest("L", "subscriptions/listen", { notifications: { toolsListChanged: true } }));
    const reader = new SseReader(response.body!);
    await reader.next();
    assert.equal((await postModern(served.url, modernRequest(1, "tools/list"))).status, 503);
    await reader.cancel();
    await eventually("the listen to end", () => served.mcp.sessionCount === 0);
    assert.equal((await postModern(served.url, modernRequest(2, "tools/list"))).status, 200);
  } finally {
    await served.close();
  }
});

test("dual-era: a legacy session and modern POSTs side by side on one endpoint", async () => {
  const served = await serve();
  try {
    const session = await openSession(served.url);
    const modern = await postModern(served.url, modernRequest(1, "tools/call", { name: "echo", arguments: { text: "new" } }));
    assert.equal(((await modern.json()) as Message).result.resultType, "complete");
    // The legacy session, with its MCP-Session-Id, answers in the 2025 shape: no resultType.
    const legacy = await session.call(2, "tools/call", { name: "echo", arguments: { text: "old" } });
    assert.deepEqual(legacy.result, { content: [{ type: "text", text: "echo: old" }] });
    // A modern POST carrying the session's id is still modern: the id is ignored, not used.
    const mixed = await postModern(served.url, modernRequest(3, "tools/list"), { "mcp-session-id": session.id });
    assert.equal(((await mixed.json()) as Message).result.resultType, "complete");
    assert.equal(served.http.streamable.sessionCount, 1);
    assert.equal(MODERN, "2026-07-28");
  } finally {
    await served.close();
  }
});
