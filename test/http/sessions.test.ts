// Streamable HTTP sessions: DELETE ends one (then 404 everywhere), idle sessions expire, the cap
// on live sessions (503), and what happens to requests and streams still open when a session ends.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, text } from "../../src/server/definition.js";
import { ACCEPT_BOTH, answerOf, eventually, holdingServer, initializeRequest, messagesOf, openGet, openSession, post, raw, request, serve, SseReader, withinLimit, type Message } from "../helpers/http-peer.js";

/** initialize without notifications/initialized: a session left in its handshake; its request headers. */
async function halfOpen(url: string): Promise<Record<string, string>> {
  const init = await post(url, initializeRequest());
  assert.equal(init.status, 200);
  const id = init.headers.get("mcp-session-id")!;
  await init.text();
  return { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
}

test("DELETE ends the session: 200, then POST, GET and DELETE with its id get 404", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const other = await openSession(served.url);
    const deleted = await fetch(served.url, { method: "DELETE", headers: s.headers });
    assert.equal(deleted.status, 200);
    // Spec (transports#session-management): the server MUST answer an ended session's id with 404.
    const cases: { method: string; headers: Record<string, string>; body?: string }[] = [
      { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json" }, body: JSON.stringify(request(1, "ping")) },
      { method: "GET", headers: { accept: "text/event-stream" } },
      { method: "DELETE", headers: {} },
    ];
    for (const c of cases) {
      const reply = await raw(served.origin, { method: c.method, headers: { ...s.headers, ...c.headers }, body: c.body });
      assert.equal(reply.status, 404, `${c.method} after DELETE`);
    }
    // The other session lives on.
    assert.deepEqual((await other.call(2, "ping")).result, {});
    assert.equal(served.http.streamable.sessionCount, 1);
  } finally {
    await served.close();
  }
});

test("DELETE ends the session's open GET stream", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const reader = new SseReader((await openGet(served.url, s.headers)).body!);
    await reader.next();
    assert.equal((await fetch(served.url, { method: "DELETE", headers: s.headers })).status, 200);
    assert.deepEqual(await withinLimit("the GET stream to end", reader.rest()), []);
  } finally {
    await served.close();
  }
});

test("DELETE while a request is in flight on an SSE stream: the stream ends", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const response = await s.post(request("long", "tools/call", { name: "countdown", arguments: { steps: 100, intervalMs: 1000 } }));
    const reader = new SseReader(response.body!);
    await reader.next();
    assert.equal((await fetch(served.url, { method: "DELETE", headers: s.headers })).status, 200);
    const rest = messagesOf(await withinLimit("the POST stream to end", reader.rest()));
    assert.ok(rest.every((m) => m.id !== "long" || m.error !== undefined), "no result for a request of an ended session");
  } finally {
    await served.close();
  }
});

test("DELETE while a request is in flight in jsonResponses mode: the POST still gets an HTTP answer", async () => {
  const served = await serve({ jsonResponses: true });
  try {
    const s = await openSession(served.url);
    const pending = s.post(request("long", "tools/call", { name: "countdown", arguments: { steps: 100, intervalMs: 1000 } }));
    // The POST is in the server's hands once its session has a request running; ping proves the body was read.
    assert.deepEqual((await s.call("p", "ping")).result, {});
    assert.equal((await fetch(served.url, { method: "DELETE", headers: s.headers })).status, 200);
    const response = await withinLimit("the pending POST after DELETE", pending);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    const body = (await response.json()) as Message;
    assert.equal(body.id, "long");
    assert.equal(body.result, undefined);
    assert.equal(typeof body.error?.code, "number", `a JSON-RPC error for the unanswered request, got ${JSON.stringify(body)}`);
  } finally {
    await served.close();
  }
});

test("idle sessions expire (sessionIdleMs), then their id gets 404", async () => {
  // The sweep runs every min(keepAliveMs, initializedTimeoutMs, 60 s), so keepAliveMs is small too.
  const served = await serve({ sessionIdleMs: 100, keepAliveMs: 10 });
  try {
    const headers = await halfOpen(served.url);
    await eventually("the idle session to be swept", () => served.http.streamable.sessionCount === 0);
    const response = await post(served.url, request(1, "ping"), headers);
    assert.equal(response.status, 404);
    assert.equal(served.mcp.sessionCount, 0, "the definition no longer holds the expired session");
  } finally {
    await served.close();
  }
});

test("session cap: with maxSessions 2 and both sessions in use (a GET stream each), the third initialize gets 503 until one ends", async () => {
  const served = await serve({ maxSessions: 2 });
  try {
    const a = await openSession(served.url);
    const b = await openSession(served.url);
    const streams = [new SseReader((await openGet(served.url, a.headers)).body!), new SseReader((await openGet(served.url, b.headers)).body!)];
    for (const stream of streams) await stream.next();
    const third = await post(served.url, initializeRequest());
    assert.equal(third.status, 503);
    assert.equal(third.headers.get("mcp-session-id"), null);
    // Both sessions are operating and in use: no slot frees itself at a known time, so no Retry-After.
    assert.equal(third.headers.get("retry-after"), null);
    assert.equal(JSON.parse(await third.text()).error.code, -32000);
    assert.equal((await fetch(served.url, { method: "DELETE", headers: a.headers })).status, 200);
    const fourth = await openSession(served.url);
    assert.deepEqual((await fourth.call(1, "ping")).result, {});
    await streams[1]!.cancel();
  } finally {
    await served.close();
  }
});

test("session cap: a full table evicts the longest-idle session with no open stream; sessions in use stay", async () => {
  const served = await serve({ maxSessions: 2 });
  try {
    const idle = await openSession(served.url);
    const busy = await openSession(served.url);
    const get = new SseReader((await openGet(served.url, busy.headers)).body!);
    await get.next();
    const third = await openSession(served.url);
    assert.deepEqual((await third.call(1, "ping")).result, {});
    assert.equal((await idle.post(request(2, "ping"))).status, 404, "the idle session made room");
    assert.deepEqual((await busy.call(3, "ping")).result, {}, "the session with a GET stream was kept");
    await get.cancel();
  } finally {
    await served.close();
  }
});

test("session cap: sessions still in their handshake are evicted before operating ones", async () => {
  const served = await serve({ maxSessions: 2 });
  try {
    const operating = await openSession(served.url);
    const half = await halfOpen(served.url);
    // The operating session is now the longest idle, yet the half-open one goes first.
    const third = await openSession(served.url);
    assert.deepEqual((await third.call(1, "ping")).result, {});
    assert.deepEqual((await operating.call(2, "ping")).result, {});
    const reply = await post(served.url, request(3, "ping"), half);
    assert.equal(reply.status, 404);
  } finally {
    await served.close();
  }
});

test("session cap: when every slot is in use, Retry-After is the time until a handshake deadline frees one", async () => {
  const served = await serve({ maxSessions: 1, initializedTimeoutMs: 120_000 });
  try {
    // A session in its handshake with a GET stream open: in use, but it must finish within 120 s.
    const headers = await halfOpen(served.url);
    const get = new SseReader((await openGet(served.url, headers)).body!);
    await get.next();
    const refused = await post(served.url, initializeRequest());
    assert.equal(refused.status, 503);
    const seconds = Number(refused.headers.get("retry-after"));
    assert.ok(seconds > 60 && seconds <= 120, `Retry-After ${refused.headers.get("retry-after")} is not the time left of 120 s`);
    await refused.text();
    await get.cancel();
  } finally {
    await served.close();
  }
});

test("handshake deadline: a session without notifications/initialized ends after initializedTimeoutMs; an operating one stays", async () => {
  // Long enough for the operating session to finish its own handshake on a busy machine.
  const served = await serve({ initializedTimeoutMs: 1000, keepAliveMs: 10 });
  try {
    const operating = await openSession(served.url);
    const half = await halfOpen(served.url);
    assert.equal(served.http.streamable.sessionCount, 2);
    await eventually("the half-open session to expire", () => served.http.streamable.sessionCount === 1);
    assert.equal((await post(served.url, request(1, "ping"), half)).status, 404);
    assert.deepEqual((await operating.call(2, "ping")).result, {});
  } finally {
    await served.close();
  }
});

test("idle expiry: an open GET stream is activity; the session expires only once it is closed", async () => {
  // Long enough to open the GET stream before the session counts as idle, on a busy machine.
  const served = await serve({ sessionIdleMs: 500, keepAliveMs: 10 });
  try {
    const watched = await openSession(served.url);
    const get = new SseReader((await openGet(served.url, watched.headers)).body!);
    await get.next();
    // A session opened later, with no stream: once it has expired, the watched one is idle longer.
    await openSession(served.url);
    await eventually("the streamless session to expire", () => served.http.streamable.sessionCount === 1);
    assert.deepEqual((await watched.call(1, "ping")).result, {}, "the session with an open GET stream is alive");
    await get.cancel();
    await eventually("the watched session to expire once its stream is gone", () => served.http.streamable.sessionCount === 0);
  } finally {
    await served.close();
  }
});

test("closing the server ends every session and answers nothing more", async () => {
  const served = await serve();
  const s = await openSession(served.url);
  const reader = new SseReader((await openGet(served.url, s.headers)).body!);
  await reader.next();
  await served.http.close();
  assert.equal(served.http.streamable.sessionCount, 0);
  assert.deepEqual(await withinLimit("the GET stream to end on close", reader.rest()), []);
  await served.listening.close();
});

test("session cap: an initialize refused for the requests in flight evicts no session and leaves none behind", async () => {
  const { mcp, release } = holdingServer();
  const served = await serve({ maxSessions: 2, maxRequestsInFlightTotal: 1 }, mcp);
  try {
    const busy = await openSession(served.url);
    const idle = await openSession(served.url);
    // Its SSE stream is open once the headers are here: the request is in flight until released.
    const held = await busy.post(request("h", "tools/call", { name: "hold", arguments: {} }));
    assert.equal(held.status, 200);
    // The one request the server may have in flight is taken: the initialize is refused ...
    const third = await post(served.url, initializeRequest());
    assert.equal(third.status, 503);
    assert.equal(JSON.parse(await third.text()).error.code, -32000);
    // ... before it could make room: the idle session was not evicted, and no new one stays.
    assert.equal(served.http.streamable.sessionCount, 2);
    release();
    assert.equal((await answerOf(held)).result.content[0].text, "held");
    assert.deepEqual((await idle.call(1, "ping")).result, {});
  } finally {
    await served.close();
  }
});

test("sessions: a notification for a session with no GET stream is not delivered, and not reported once per session and message either", async () => {
  const problems: string[] = [];
  const mcp = new McpServer({ name: "quiet", version: "1.0.0" }).tool({ name: "a", inputSchema: { type: "object" } }, () => ({ content: [text("a")] }));
  const served = await serve({ onProblem: (problem) => problems.push(problem) }, mcp);
  try {
    // Spec (transports#listening-for-messages-from-the-server): without a GET stream the server has
    // nowhere to send notifications; that is the client's choice, not a fault. Here: 10 x 20.
    const sessions = await Promise.all(Array.from({ length: 10 }, () => openSession(served.url)));
    for (let i = 0; i < 20; i++) {
      mcp.removeTool("a");
      mcp.tool({ name: "a", inputSchema: { type: "object" } }, () => ({ content: [text("a")] }));
    }
    // A round trip in each session after the changes: their notifications were sent (or dropped) before it.
    for (const session of sessions) assert.deepEqual((await session.call("after", "ping")).result, {});
    assert.deepEqual(problems.filter((problem) => problem.includes("list_changed")), []);
  } finally {
    await served.close();
  }
});
