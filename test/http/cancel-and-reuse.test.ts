// Streamable HTTP, requests that end without their own answer: a cancelled request's POST stops
// waiting for the response that will not come, and a second POST that reuses an id in flight gets
// its -32600 without taking the first request's stream or answer; and the bound on requests a
// session may have awaiting answers (429 past it), and all sessions together (503 past it).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation and
// basic#requests (ids MUST NOT be reused within a session).
import { test } from "node:test";
import assert from "node:assert/strict";
import { answerOf, messagesOf, notification, openSession, request, serve, SseReader, withinLimit, type Message } from "../helpers/http-peer.js";

const LONG = { name: "countdown", arguments: { steps: 100, intervalMs: 1000 } };

for (const jsonResponses of [false, true]) {
  const mode = jsonResponses ? "JSON" : "SSE";

  test(`cancellation (${mode}): the cancelled request's POST ends without a response`, async () => {
    const served = await serve({ jsonResponses });
    try {
      const s = await openSession(served.url);
      const pending = s.post(request("c", "tools/call", LONG));
      // The request is running once a later ping on the same session is answered.
      assert.deepEqual((await s.call("p", "ping")).result, {});
      assert.equal((await s.post(notification("notifications/cancelled", { requestId: "c", reason: "test" }))).status, 202);
      const response = await withinLimit("the cancelled request's POST", pending);
      if (jsonResponses) {
        // JSON-RPC (#batch) and cancellation: no response is owed, so the body is nothing at all.
        assert.equal(response.status, 202);
        assert.equal(await response.text(), "");
      } else {
        const events = await withinLimit("the cancelled request's stream to end", new SseReader(response.body!).rest());
        assert.deepEqual(messagesOf(events).filter((m) => m.id === "c"), [], "no response for a cancelled request");
      }
    } finally {
      await served.close();
    }
  });

  test(`id reuse (${mode}): a second POST with an id in flight gets -32600; the first still gets its answer`, async () => {
    const served = await serve({ jsonResponses });
    try {
      const s = await openSession(served.url);
      const first = s.post(request("dup", "tools/call", { name: "countdown", arguments: { steps: 10, intervalMs: 100 } }));
      assert.deepEqual((await s.call("p", "ping")).result, {});
      const second = await withinLimit("the reusing POST", s.post(request("dup", "ping")));
      assert.equal(second.status, 200);
      const refused = await answerOf(second);
      assert.equal(refused.id, "dup");
      assert.equal(refused.error?.code, -32600);
      const answer: Message = await withinLimit("the first request's answer", first.then(answerOf));
      assert.equal(answer.id, "dup");
      assert.equal(answer.result?.content[0].text, "countdown: done after 10 steps");
    } finally {
      await served.close();
    }
  });
}

test("requests in flight: past maxRequestsInFlight a POST gets 429 and does not run; once one ends, there is room again", async () => {
  const served = await serve({ maxRequestsInFlight: 2 });
  try {
    const s = await openSession(served.url);
    const streams = await Promise.all(["a", "b"].map(async (id) => new SseReader((await s.post(request(id, "tools/call", LONG))).body!)));
    for (const stream of streams) await stream.next();
    const refused = await withinLimit("the POST over the bound", s.post(request("c", "tools/call", { name: "echo", arguments: { text: "c" } })));
    assert.equal(refused.status, 429);
    const body = (await refused.json()) as Message;
    assert.equal(body.error.code, -32000);
    assert.equal("id" in body, false);
    assert.equal((await s.post(notification("notifications/cancelled", { requestId: "a" }))).status, 202);
    await withinLimit("the cancelled stream to end", streams[0]!.rest());
    assert.equal((await s.call("d", "tools/call", { name: "echo", arguments: { text: "d" } })).result?.content[0].text, "echo: d");
    await s.post(notification("notifications/cancelled", { requestId: "b" }));
    await withinLimit("the second cancelled stream to end", streams[1]!.rest());
  } finally {
    await served.close();
  }
});

test("requests in flight: past maxRequestsInFlightTotal, across sessions, a POST gets 503 and does not run", async () => {
  const served = await serve({ maxRequestsInFlightTotal: 2 });
  try {
    const sessions = [await openSession(served.url), await openSession(served.url), await openSession(served.url)];
    const streams = await Promise.all(sessions.slice(0, 2).map(async (s, i) => new SseReader((await s.post(request(`long-${i}`, "tools/call", LONG))).body!)));
    for (const stream of streams) await stream.next();
    const refused = await withinLimit("the POST over the total", sessions[2]!.post(request("c", "ping")));
    assert.equal(refused.status, 503);
    assert.equal(((await refused.json()) as Message).error.code, -32000);
    for (const [i, s] of sessions.slice(0, 2).entries()) await s.post(notification("notifications/cancelled", { requestId: `long-${i}` }));
    for (const stream of streams) await withinLimit("a cancelled stream to end", stream.rest());
    assert.deepEqual((await sessions[2]!.call("d", "ping")).result, {}, "room again once the others ended");
  } finally {
    await served.close();
  }
});
