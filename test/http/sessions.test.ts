// Streamable HTTP sessions: DELETE ends one (then 404 everywhere), idle sessions expire, the cap
// on live sessions (503), and what happens to requests and streams still open when a session ends.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
import { test } from "node:test";
import assert from "node:assert/strict";
import { ACCEPT_BOTH, eventually, initializeRequest, messagesOf, openGet, openSession, post, raw, request, serve, SseReader, withinLimit, type Message } from "../helpers/http-peer.js";

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
  // The sweep runs every min(keepAliveMs, 60 s), so keepAliveMs is small too.
  const served = await serve({ sessionIdleMs: 100, keepAliveMs: 10 });
  try {
    const init = await post(served.url, initializeRequest());
    assert.equal(init.status, 200);
    const id = init.headers.get("mcp-session-id")!;
    await init.text();
    await eventually("the idle session to be swept", () => served.http.streamable.sessionCount === 0);
    const response = await post(served.url, request(1, "ping"), { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" });
    assert.equal(response.status, 404);
    assert.equal(served.mcp.sessionCount, 0, "the definition no longer holds the expired session");
  } finally {
    await served.close();
  }
});

test("session cap: with maxSessions 2 the third initialize gets 503 until one ends", async () => {
  const served = await serve({ maxSessions: 2 });
  try {
    const a = await openSession(served.url);
    await openSession(served.url);
    const third = await post(served.url, initializeRequest());
    assert.equal(third.status, 503);
    assert.equal(third.headers.get("mcp-session-id"), null);
    assert.equal(JSON.parse(await third.text()).error.code, -32000);
    assert.equal((await fetch(served.url, { method: "DELETE", headers: a.headers })).status, 200);
    const fourth = await openSession(served.url);
    assert.deepEqual((await fourth.call(1, "ping")).result, {});
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
