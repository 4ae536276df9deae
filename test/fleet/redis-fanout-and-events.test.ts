// The fleet's list-change fan-out and shared SSE event log in a real Redis, across two servers:
// a change made on one reaches a 2026-07-28 listen and a handshake-era GET stream on the other;
// session ids name their instance; a stream of a session whose process is gone is resumed on
// another from the log (the events after Last-Event-ID, then the end), and the session is then
// 404 everywhere. Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions,
// https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer, NOTES_URI } from "../../src/demo/server-definition.js";
import { RedisChangeFanout } from "../../src/fleet/redis-change-fanout.js";
import { RedisEventLog } from "../../src/fleet/redis-event-log.js";
import { SseReader, messagesOf, openGet, openSession, post, request, serve, withinLimit, type Message, type Served } from "../helpers/http-peer.js";
import { modernRequest, postModern } from "../helpers/http-modern-peer.js";
import { REDIS_MISSING, redisFixture } from "../helpers/redis-server.js";

const fixture = redisFixture();

/** A server on its own fan-out (its own subscriber connection, as each process would have). */
async function fanned(prefix: string, instance: string): Promise<Served> {
  const subscriber = await fixture.redis.client();
  const changes = new RedisChangeFanout(fixture.client, subscriber, { prefix });
  const served = await serve({ instance }, createDemoServer({ changes }));
  await changes.ready;
  fixture.running.push(served);
  return served;
}

test("redis fan-out: toggle_extra on one server reaches a listen and a GET stream on the other", { skip: REDIS_MISSING }, async () => {
  const a = await fanned("f1:", "a");
  const b = await fanned("f1:", "b");
  const listen = await postModern(b.url, modernRequest("listen-1", "subscriptions/listen", { notifications: { toolsListChanged: true } }));
  assert.equal(listen.status, 200);
  const listening = new SseReader(listen.body!);
  await listening.until((message) => message.method === "notifications/subscriptions/acknowledged");
  const session = await openSession(b.url);
  assert.match(session.id, /^b\./, "the session id names its instance");
  const get = new SseReader((await openGet(b.url, session.headers)).body!);
  await get.next();

  const toggled = (await (await postModern(a.url, modernRequest(1, "tools/call", { name: "toggle_extra", arguments: {} }))).json()) as Message;
  assert.equal(toggled.result?.resultType, "complete", JSON.stringify(toggled));

  const heard = await withinLimit("the listen on b to hear a's change", listening.until((message) => message.method === "notifications/tools/list_changed"));
  assert.equal(messagesOf(heard).at(-1)!.params._meta["io.modelcontextprotocol/subscriptionId"], "listen-1");
  await withinLimit("the GET stream on b to hear a's change", get.until((message) => message.method === "notifications/tools/list_changed"));
  await listening.cancel();
  await get.cancel();
});

test("redis fan-out: a server does not announce its own change twice", { skip: REDIS_MISSING }, async () => {
  const a = await fanned("f2:", "a");
  const b = await fanned("f2:", "b");
  const session = await openSession(a.url);
  assert.equal((await session.call(1, "resources/subscribe", { uri: NOTES_URI })).error, undefined);
  const get = new SseReader((await openGet(a.url, session.headers)).body!);
  await get.next();
  await session.call(2, "tools/call", { name: "toggle_extra", arguments: {} });
  // b's notice comes through Redis after a's own would have come back: it marks the end.
  b.mcp.resourceUpdated(NOTES_URI);
  const seen = messagesOf(await withinLimit("b's marker on a's stream", get.until((message) => message.method === "notifications/resources/updated")));
  await get.cancel();
  assert.equal(seen.filter((message) => message.method === "notifications/tools/list_changed").length, 1, JSON.stringify(seen));
});

test("redis event log: a stream of a session whose server is gone is resumed on another, then the session is 404", { skip: REDIS_MISSING }, async () => {
  const log = () => new RedisEventLog(fixture.client, { prefix: "e1:" });
  const a = await serve({ instance: "a", sharedEvents: log() });
  const b = await serve({ instance: "b", sharedEvents: log() });
  fixture.running.push(b);
  const session = await openSession(a.url);
  assert.match(session.id, /^a\./);
  const stop = new AbortController();
  const call = await session.post(request(7, "tools/call", { name: "countdown", arguments: { steps: 3, intervalMs: 50 }, _meta: { progressToken: "p" } }), {}, stop.signal);
  const reader = new SseReader(call.body!);
  const first = await reader.until((message) => message.method === "notifications/progress");
  const lastEventId = first.at(-1)!.id!;
  stop.abort();
  // a finishes the call with nobody reading, then goes away (as if its process had died).
  await withinLimit("the answer to reach the log", (async () => {
    while (!(await fixture.client.lRange(`e1:events:${session.id}:${lastEventId.split(":")[0]}`, 0, -1)).some((item) => item.includes("countdown: done"))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })());
  await a.listening.close();

  const resumed = await openGet(b.url, { ...session.headers, "last-event-id": lastEventId });
  assert.equal(resumed.status, 200);
  const replayed = messagesOf(await withinLimit("the replay to end", new SseReader(resumed.body!).rest()));
  const answer = replayed.find((message) => message.id === 7);
  assert.match(answer?.result?.content?.[0]?.text ?? "", /countdown: done/, JSON.stringify(replayed));
  assert.equal(replayed.filter((message) => message.id === 7).length, 1, "the answer comes once");
  assert.ok(replayed.every((message) => !(message.method === "notifications/progress" && message.params.progress === 1)), "nothing up to Last-Event-ID is replayed");

  const after = await post(b.url, request(8, "ping"), session.headers);
  assert.equal(after.status, 404, "the session is over: its id gets 404");
  const again = await openGet(b.url, { ...session.headers, "last-event-id": lastEventId });
  assert.equal(again.status, 404, "its events are gone once replayed");
  await a.http.close();
});

test("redis event log: another user's token, a made-up event id or session id finds nothing (404)", { skip: REDIS_MISSING }, async () => {
  const log = new RedisEventLog(fixture.client, { prefix: "e2:" });
  log.opened("a.x", "issuer alice");
  log.append("a.x", "p1", { id: "p1:1", data: "" });
  log.append("a.x", "p1", { id: "p1:2", data: "{}" });
  assert.deepEqual(await log.after("a.x", "p1:1", "issuer alice"), [{ id: "p1:2", data: "{}" }]);
  assert.equal(await log.after("a.x", "p1:1", "issuer bob"), undefined);
  assert.equal(await log.after("a.x", "p1:1", undefined), undefined);
  assert.equal(await log.after("a.x", "p1:9", "issuer alice"), undefined);
  assert.equal(await log.after("a.y", "p1:1", "issuer alice"), undefined);
});
