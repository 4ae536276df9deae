// Streamable HTTP, SSE: the stream a POSTed request is answered on (priming event, the request's
// own progress and logs, the response last, then the end), the standalone GET stream for messages
// unrelated to any request, server-to-client requests answered by POST, and resumption.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpServer, text } from "../../src/server/definition.js";
import { BacklogBudget, SseSink } from "../../src/http/sse-sink.js";
import { StreamableHttpHandler } from "../../src/http/streamable-server.js";
import { ACCEPT_BOTH, answerOf, initializeRequest, messagesOf, notification, openGet, openSession, request, serve, SseReader, type Message, type SseEvent } from "../helpers/http-peer.js";

const EXTRA_TOOL = { name: "added_later", inputSchema: { type: "object" as const } };

function countdown(id: string, token: string, steps: number, intervalMs = 1): object {
  return request(id, "tools/call", { name: "countdown", arguments: { steps, intervalMs }, _meta: { progressToken: token } });
}

test("SSE response: priming event, then the request's logs and progress, the response last, then the stream ends", async () => {
  const served = await serve({ retryMs: 1234 });
  try {
    const s = await openSession(served.url);
    await s.call("level", "logging/setLevel", { level: "debug" });
    const response = await s.post(countdown("cd", "tok", 3));
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
    const events = await new SseReader(response.body!).rest();

    // Spec (transports, SEP-1699): the first event has an id and empty data, and a retry hint.
    const [priming, ...rest] = events as [SseEvent, ...SseEvent[]];
    assert.ok(priming.id, "the priming event has an id");
    assert.equal(priming.data, "");
    assert.equal(priming.retry, 1234);

    const messages = messagesOf(rest);
    assert.deepEqual(messages.at(-1), { jsonrpc: "2.0", id: "cd", result: { content: [{ type: "text", text: "countdown: done after 3 steps" }] } });
    const progress = messages.filter((m) => m.method === "notifications/progress");
    assert.deepEqual(progress.map((m) => [m.params.progressToken, m.params.progress, m.params.total]), [["tok", 1, 3], ["tok", 2, 3], ["tok", 3, 3]]);
    const logs = messages.filter((m) => m.method === "notifications/message");
    assert.equal(logs.length, 4, "one info log at the start and one debug log per step");
    assert.ok(logs.every((m) => m.params.logger === "countdown"));
    assert.equal(messages.length, progress.length + logs.length + 1, "nothing else on the stream");

    const ids = events.map((e) => e.id);
    assert.ok(ids.every((id) => typeof id === "string" && id.length > 0), "every event has an id");
    assert.equal(new Set(ids).size, ids.length, "event ids are unique");
  } finally {
    await served.close();
  }
});

test("SSE response: a 2025-06-18 session gets no priming event (SEP-1699 is 2025-11-25)", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url, "2025-06-18");
    const events = await new SseReader((await s.post(request(1, "ping"))).body!).rest();
    assert.equal(events.length, 1);
    assert.deepEqual(JSON.parse(events[0]!.data), { jsonrpc: "2.0", id: 1, result: {} });
  } finally {
    await served.close();
  }
});

test("SSE responses: two requests in flight each get only their own progress and response", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const [a, b] = await Promise.all([s.post(countdown("a", "token-a", 4)), s.post(countdown("b", "token-b", 4))]);
    const [eventsA, eventsB] = await Promise.all([new SseReader(a.body!).rest(), new SseReader(b.body!).rest()]);
    for (const [events, id, token] of [[eventsA, "a", "token-a"], [eventsB, "b", "token-b"]] as const) {
      const messages = messagesOf(events);
      const progress = messages.filter((m) => m.method === "notifications/progress");
      assert.equal(progress.length, 4);
      assert.ok(progress.every((m) => m.params.progressToken === token), `stream ${id} carries only ${token}`);
      const answers = messages.filter((m) => m.method === undefined);
      assert.deepEqual(answers.map((m) => m.id), [id]);
    }
    // Spec (transports#multiple-connections): event ids are unique across the session's streams.
    const all = [...eventsA, ...eventsB].map((e) => e.id);
    assert.equal(new Set(all).size, all.length);
  } finally {
    await served.close();
  }
});

test("GET stream: priming first, unrelated notifications (tools/list_changed) arrive there, never a response or a request's log", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    await s.call("level", "logging/setLevel", { level: "debug" });
    const get = await openGet(served.url, s.headers);
    assert.equal(get.status, 200);
    assert.match(get.headers.get("content-type") ?? "", /^text\/event-stream/);
    const reader = new SseReader(get.body!);
    const priming = await reader.next();
    assert.equal(priming?.data, "");
    assert.ok(priming?.id);

    // Work answered on POST streams while the GET stream is open.
    assert.equal((await s.call("e", "tools/call", { name: "echo", arguments: { text: "x" } })).result.content[0].text, "echo: x");
    assert.equal((await s.call("c", "tools/call", { name: "countdown", arguments: { steps: 2, intervalMs: 1 }, _meta: { progressToken: "p" } })).id, "c");

    served.mcp.tool(EXTRA_TOOL, () => ({ content: [text("later")] }));
    const seen = messagesOf(await reader.until((m) => m.method === "notifications/tools/list_changed"));
    assert.deepEqual(seen.at(-1), { jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    // Spec (transports#listening-for-messages-from-the-server): no JSON-RPC responses on the GET stream.
    assert.deepEqual(seen.filter((m) => m.method === undefined), []);
    assert.deepEqual(seen.filter((m) => m.method === "notifications/message" || m.method === "notifications/progress"), []);
    await reader.cancel();
  } finally {
    await served.close();
  }
});

test("GET stream: a second one for the same session gets 409; other sessions are unaffected", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const first = await openGet(served.url, s.headers);
    assert.equal(first.status, 200);
    const second = await openGet(served.url, s.headers);
    assert.equal(second.status, 409);
    assert.equal(JSON.parse(await second.text()).error.code, -32000);
    const other = await openSession(served.url);
    const third = await openGet(served.url, other.headers);
    assert.equal(third.status, 200);
    await first.body!.cancel();
    await third.body!.cancel();
  } finally {
    await served.close();
  }
});

test("GET stream: without Accept: text/event-stream it is 406", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const response = await fetch(served.url, { headers: { ...s.headers, accept: "application/json" } });
    assert.equal(response.status, 406);
  } finally {
    await served.close();
  }
});

test("GET stream: once the client drops it, a new GET is accepted and gets the next notification", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const first = await openGet(served.url, s.headers);
    await first.body!.cancel();
    // The server learns of the drop when the socket closes; until then a new GET is a conflict.
    let second: Response | undefined;
    for (let attempt = 0; attempt < 200 && second === undefined; attempt++) {
      const reply = await openGet(served.url, s.headers);
      if (reply.status === 200) second = reply;
      else {
        assert.equal(reply.status, 409);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    assert.ok(second, "a new GET stream was accepted");
    const reader = new SseReader(second.body!);
    served.mcp.tool(EXTRA_TOOL, () => ({ content: [text("later")] }));
    const seen = messagesOf(await reader.until((m) => m.method === "notifications/tools/list_changed"));
    assert.equal(seen.length, 1);
    await reader.cancel();
  } finally {
    await served.close();
  }
});

function samplingServer(): McpServer {
  const mcp = new McpServer({ name: "sampler", version: "1.0.0" });
  mcp.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, context) => {
    const answer = await context.sample({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 5 });
    return { content: [text(`model said: ${(answer.content as { text: string }).text}`)] };
  });
  return mcp;
}

test("server-to-client request: sampling/createMessage arrives on the POST stream; the client's POSTed response gets 202 and completes the call", async () => {
  const served = await serve({}, samplingServer());
  try {
    const s = await openSession(served.url, undefined, { sampling: {} });
    const response = await s.post(request("ask-1", "tools/call", { name: "ask", arguments: {} }));
    const reader = new SseReader(response.body!);
    const [asked] = messagesOf(await reader.until((m) => m.method === "sampling/createMessage")) as [Message];
    assert.equal(asked.method, "sampling/createMessage");
    assert.notEqual(asked.id, undefined);

    const reply = await s.post({ jsonrpc: "2.0", id: asked.id, result: { role: "assistant", content: { type: "text", text: "4" }, model: "test-model" } });
    assert.equal(reply.status, 202);
    assert.equal(await reply.text(), "");

    const rest = messagesOf(await reader.rest());
    assert.deepEqual(rest, [{ jsonrpc: "2.0", id: "ask-1", result: { content: [{ type: "text", text: "model said: 4" }] } }]);
  } finally {
    await served.close();
  }
});

// Both paths: the countdown usually finishes before the resume at 1 ms a step (replay, then end),
// and is usually still running at 50 ms a step (replay, then live events); the rules are the same.
for (const intervalMs of [1, 50]) test(`resumption (${intervalMs} ms a step): after a dropped POST stream, GET with Last-Event-ID replays the rest of that stream only, ending with its response`, async () => {
  const mcp = createDemoServer();
  const served = await serve({}, mcp);
  try {
    const s = await openSession(served.url);
    await s.call("level", "logging/setLevel", { level: "debug" });
    const get = new SseReader((await openGet(served.url, s.headers)).body!);
    await get.next();

    const steps = 8;
    const controller = new AbortController();
    const response = await s.post(countdown("cd", "cd-token", steps, intervalMs), {}, controller.signal);
    const reader = new SseReader(response.body!);
    const before: SseEvent[] = [];
    for (let i = 0; i < 4; i++) before.push((await reader.next())!);
    controller.abort();

    // Traffic on other streams while this one is down: none of it may show up in the replay.
    assert.equal((await s.call("other", "tools/call", { name: "echo", arguments: { text: "elsewhere" } })).id, "other");
    mcp.tool(EXTRA_TOOL, () => ({ content: [text("later")] }));
    await get.until((m) => m.method === "notifications/tools/list_changed");

    const resumed = await openGet(served.url, { ...s.headers, "last-event-id": before.at(-1)!.id! });
    assert.equal(resumed.status, 200);
    assert.match(resumed.headers.get("content-type") ?? "", /^text\/event-stream/);
    const after = await new SseReader(resumed.body!).rest();

    const afterMessages = messagesOf(after);
    assert.deepEqual(afterMessages.at(-1), { jsonrpc: "2.0", id: "cd", result: { content: [{ type: "text", text: `countdown: done after ${steps} steps` }] } });
    for (const m of afterMessages) {
      const ours = m.id === "cd" || (m.method === "notifications/progress" && m.params.progressToken === "cd-token") || (m.method === "notifications/message" && m.params.logger === "countdown");
      assert.ok(ours, `replayed a message of another stream: ${JSON.stringify(m)}`);
    }
    // Nothing lost, nothing twice: progress 1..steps exactly once across both halves.
    const progress = messagesOf([...before, ...after]).filter((m) => m.method === "notifications/progress").map((m) => m.params.progress);
    assert.deepEqual(progress, Array.from({ length: steps }, (_, i) => i + 1));
    const ids = [...before, ...after].map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, "no event delivered twice");
    await get.cancel();
  } finally {
    await served.close();
  }
});

test("resumption: an unknown Last-Event-ID is refused with 400, not answered with another stream", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const response = await openGet(served.url, { ...s.headers, "last-event-id": "p999:1" });
    assert.equal(response.status, 400);
  } finally {
    await served.close();
  }
});

test("SseSink: a stream nobody reads ends itself past maxBacklogBytes (onGone runs once) instead of growing", async () => {
  let gone = 0;
  const sink = new SseSink(() => gone++, { maxBacklogBytes: 100 });
  const event = "data: " + "x".repeat(40) + "\n\n";
  for (let i = 0; i < 1000 && sink.open; i++) sink.write(event);
  assert.equal(sink.open, false, "the sink ended itself");
  assert.equal(gone, 1);
  // What was queued is dropped: the response ends with an error, not with a backlog.
  await assert.rejects(sink.body.getReader().read());
  sink.write(event);
  sink.end();
  assert.equal(gone, 1, "onGone ran once");
});

test("SseSink: a stream that is read keeps going far past maxBacklogBytes", async () => {
  const sink = new SseSink(() => {}, { maxBacklogBytes: 100 });
  const reader = sink.body.getReader();
  let received = 0;
  for (let i = 0; i < 50; i++) {
    sink.write("data: " + "y".repeat(60) + "\n\n");
    received += (await reader.read()).value!.byteLength;
  }
  assert.equal(sink.open, true);
  assert.equal(received, 50 * 68);
});

test("SseSink: onDelivered runs once the response has taken every byte after end(), never for a cancelled stream", async () => {
  let delivered = 0;
  const sink = new SseSink();
  sink.write("data: a\n\n");
  sink.write("data: b\n\n");
  sink.end(() => delivered++);
  assert.equal(sink.open, false);
  assert.equal(delivered, 0, "two events are still queued");
  const reader = sink.body.getReader();
  let text = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
  assert.equal(text, "data: a\n\ndata: b\n\n");
  assert.equal(delivered, 1);

  let cancelledDelivered = 0;
  const cancelled = new SseSink();
  cancelled.write("data: c\n\n");
  cancelled.end(() => cancelledDelivered++);
  await cancelled.body.cancel();
  assert.equal(cancelledDelivered, 0);
});

test("replay store: a POST stream the client read to its end is not kept; a dropped one is, until resumed and read", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const whole = await new SseReader((await s.post(request("w", "ping"))).body!).rest();
    assert.equal(messagesOf(whole).at(-1)?.id, "w");
    // The whole stream was delivered: there is nothing to resume.
    assert.equal((await openGet(served.url, { ...s.headers, "last-event-id": whole[0]!.id! })).status, 400);

    const controller = new AbortController();
    const cut = new SseReader((await s.post(countdown("cd", "t", 2, 50), {}, controller.signal)).body!);
    const priming = (await cut.next())!;
    controller.abort();
    const resumed = await openGet(served.url, { ...s.headers, "last-event-id": priming.id! });
    assert.equal(resumed.status, 200);
    assert.equal(messagesOf(await new SseReader(resumed.body!).rest()).at(-1)?.id, "cd");
    // Read to its end through the resume: now it is gone too.
    assert.equal((await openGet(served.url, { ...s.headers, "last-event-id": priming.id! })).status, 400);
  } finally {
    await served.close();
  }
});

test("GET stream: a client that does not read it past maxStreamBacklogBytes loses the stream, not the server's memory", async () => {
  // The handler itself, without a socket in between: the Response body is a stream nobody reads.
  const mcp = createDemoServer();
  const handler = new StreamableHttpHandler(mcp, { maxStreamBacklogBytes: 200 });
  const call = (method: string, headers: Record<string, string>, body?: unknown) =>
    handler.handle(new Request("http://localhost/mcp", { method, headers: { host: "localhost", ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }));
  try {
    const init = await call("POST", { accept: ACCEPT_BOTH, "content-type": "application/json" }, initializeRequest());
    const headers = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    await answerOf(init);
    await call("POST", { ...headers, accept: ACCEPT_BOTH, "content-type": "application/json" }, notification("notifications/initialized"));
    const unread = await call("GET", { ...headers, accept: "text/event-stream" });
    assert.equal(unread.status, 200);
    assert.equal((await call("GET", { ...headers, accept: "text/event-stream" })).status, 409, "the first GET stream is open");
    for (let i = 0; i < 20; i++) mcp.tool({ name: `added_${i}`, inputSchema: { type: "object" } }, () => ({ content: [text("x")] }));
    let again = await call("GET", { ...headers, accept: "text/event-stream" });
    for (let tries = 0; again.status !== 200 && tries < 100; tries++) {
      await again.text();
      await new Promise((resolve) => setTimeout(resolve, 10));
      again = await call("GET", { ...headers, accept: "text/event-stream" });
    }
    assert.equal(again.status, 200, "the unread stream was ended, so a new GET is accepted");
    await again.body!.cancel();
    await assert.rejects(unread.body!.getReader().read(), "what the unread stream held was dropped");
  } finally {
    await handler.close();
  }
});

test("SseSink: streams sharing a BacklogBudget end once their unread bytes together pass it, each under its own bound", async () => {
  // Each stream may hold 1000 bytes unread on its own; together they may hold 150.
  const budget = new BacklogBudget(150);
  const sinks = Array.from({ length: 3 }, () => new SseSink(() => {}, { maxBacklogBytes: 1000, budget }));
  sinks.forEach((sink) => sink.body);
  const event = "data: " + "x".repeat(42) + "\n\n";
  const writes = [0, 0, 0];
  // Round and round until every stream has ended (or each took 100 events: 5000 bytes, far past its own bound).
  for (let round = 0; round < 100 && sinks.some((sink) => sink.open); round++) {
    sinks.forEach((sink, i) => sink.open && (sink.write(event), writes[i]!++));
  }
  assert.deepEqual(sinks.map((sink) => sink.open), [false, false, false]);
  // 1000 bytes fill a stream's own queue (not a backlog); past them, the budget's 150 bytes are shared.
  assert.ok(writes.every((n) => n <= 1000 / 50 + 150 / 50 + 2), `events taken before the end: ${writes.join(", ")}`);
  assert.equal(budget.bytes, 0, "an ended stream gives its share back");
});

test("SseSink: a stream whose client reads again gives its share of the BacklogBudget back at once", async () => {
  const budget = new BacklogBudget(150);
  const reading = new SseSink(() => {}, { maxBacklogBytes: 100, budget });
  const reader = reading.body.getReader();
  const event = "data: " + "y".repeat(42) + "\n\n";
  // Past its 100-byte queue, 100 bytes of backlog.
  for (let i = 0; i < 4; i++) reading.write(event);
  assert.equal(budget.bytes, 100);
  // The client takes it all: the queue has room, the backlog is gone, and so is its share.
  for (let i = 0; i < 4; i++) await reader.read();
  assert.equal(budget.bytes, 0);
  const other = new SseSink(() => {}, { maxBacklogBytes: 100, budget });
  other.body;
  for (let i = 0; i < 4; i++) other.write(event);
  assert.equal(other.open, true, "the share the first stream gave back is there for another");
  assert.equal(reading.open, true);
});
