// RedisChangeFanout (src/fleet/redis-change-fanout.ts) in a real Redis, where things go wrong: what
// else arrives on its channel (a shared Redis is someone else's too) is dropped and said, the changes
// around it still delivered; a publish, a subscribe or an unsubscribe that fails is reported through
// onProblem, never thrown; the subscriber's connection killed by Redis is reconnected and changes are
// heard again; the last listener's going ends the subscription, and a new one starts it again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "redis";
import { RedisChangeFanout } from "../../src/fleet/redis-change-fanout.js";
import type { CatalogChange } from "../../src/fleet/stores.js";
import { withinLimit } from "../helpers/http-peer.js";
import { REDIS_MISSING, redisFixture } from "../helpers/redis-server.js";

const fixture = redisFixture();
const DROPPED = (prefix: string) => `redis: dropped a message on ${prefix}changes that is not a list change`;

/** Resolves once `check` holds, looking every 20 ms. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  await withinLimit(what, (async () => {
    while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
  })());
}

/** A fan-out on its own subscriber connection, and what it heard and reported. */
async function fanout(prefix: string) {
  const subscriber = await fixture.redis.client();
  const problems: string[] = [];
  const changes = new RedisChangeFanout(fixture.client, subscriber, { prefix, onProblem: (message) => problems.push(message) });
  const heard: [string, CatalogChange][] = [];
  return { subscriber, changes, problems, heard, listener: (origin: string, change: CatalogChange) => void heard.push([origin, change]) };
}

const subscribers = async (channel: string): Promise<number> => (await fixture.client.pubSubNumSub(channel))[channel] ?? 0;

test("redis fan-out: what is not a list change is dropped and said, and the changes around it are delivered", { skip: REDIS_MISSING }, async () => {
  const { changes, problems, heard, listener } = await fanout("m1:");
  changes.subscribe(listener);
  await changes.ready;
  const others = [
    "not JSON",
    "[\"tools\"]",
    JSON.stringify({ list: "tools" }),
    JSON.stringify({ origin: 7, list: "tools" }),
    JSON.stringify({ origin: "x", list: "roots" }),
    JSON.stringify({ origin: "x", resourceUpdated: 7 }),
    JSON.stringify({ origin: "x", resourceUpdated: `file:///${"a".repeat(16 * 1024)}` }),
  ];
  // One connection's publishes arrive in order: the last change marks the end of the others.
  for (const message of [JSON.stringify({ origin: "a", list: "tools" }), ...others, JSON.stringify({ origin: "b", resourceUpdated: "mcp-wire://notes" })]) {
    await fixture.client.publish("m1:changes", message);
  }
  await until("the last change to arrive", () => heard.length === 2);
  assert.deepEqual(heard, [["a", { list: "tools" }], ["b", { resourceUpdated: "mcp-wire://notes" }]]);
  assert.deepEqual(problems, others.map(() => DROPPED("m1:")));
});

test("redis fan-out: a publish that fails (its connection closed) is reported, not thrown", { skip: REDIS_MISSING }, async () => {
  const closed = await fixture.redis.client();
  await closed.quit();
  const problems: string[] = [];
  const changes = new RedisChangeFanout(closed, await fixture.redis.client(), { prefix: "m2:", onProblem: (message) => problems.push(message) });
  changes.publish("a", { list: "prompts" });
  await until("the failure to be reported", () => problems.length > 0);
  assert.match(problems[0]!, /^redis: publishing a list change failed: .*closed/i);
  assert.equal(problems.length, 1);
});

test("redis fan-out: a subscription Redis refuses (an ACL user without the channel) is reported once, whatever the listeners, and ready rejects", { skip: REDIS_MISSING }, async () => {
  // A shared Redis with ACLs: the fleet's user may run commands but was given no pub/sub channel.
  assert.equal(await fixture.client.sendCommand(["ACL", "SETUSER", "m3", "on", ">m3-secret", "~*", "+@all", "resetchannels"]), "OK");
  const subscriber = createClient({ url: fixture.redis.url.replace("redis://", "redis://m3:m3-secret@") });
  subscriber.on("error", () => {});
  await subscriber.connect();
  const problems: string[] = [];
  const changes = new RedisChangeFanout(fixture.client, subscriber, { prefix: "m3:", onProblem: (message) => problems.push(message) });
  changes.subscribe(() => {});
  changes.subscribe(() => {});
  await assert.rejects(changes.ready, /NOPERM/);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.match(problems[0]!, /^redis: subscribing to list changes failed: NOPERM/);
  await subscriber.quit();
});

test("redis fan-out: the subscriber's connection killed by Redis comes back, subscribed, and hears changes again", { skip: REDIS_MISSING }, async () => {
  const { subscriber, changes, heard, listener } = await fanout("m4:");
  const id = await subscriber.clientId();
  changes.subscribe(listener);
  await changes.ready;
  assert.equal(await fixture.client.sendCommand(["CLIENT", "KILL", "ID", String(id)]), 1);
  // Pub/sub keeps nothing: what is published while it is away is lost, so publish until one is heard.
  await until("a change after the drop to be heard", async () => {
    await fixture.client.publish("m4:changes", JSON.stringify({ origin: "a", list: "resources" }));
    return heard.length > 0;
  });
  assert.deepEqual(heard[0], ["a", { list: "resources" }]);
  assert.notEqual(await fixture.client.sendCommand(["CLIENT", "KILL", "ID", String(id)]), 1, "a new connection, not the killed one");
});

test("redis fan-out: the last listener's going unsubscribes, one of two going does not, and a new listener subscribes again", { skip: REDIS_MISSING }, async () => {
  const { changes, problems, heard, listener } = await fanout("m5:");
  const stopFirst = changes.subscribe(() => {});
  const stopSecond = changes.subscribe(() => {});
  await changes.ready;
  assert.equal(await subscribers("m5:changes"), 1, "one subscription for both listeners");
  stopFirst();
  stopFirst();
  assert.equal(await subscribers("m5:changes"), 1, "the second listener still listens");
  stopSecond();
  await until("the channel to have no subscriber", async () => (await subscribers("m5:changes")) === 0);
  const stopThird = changes.subscribe(() => {});
  await changes.ready;
  stopThird();
  // At once, while the UNSUBSCRIBE is unanswered: the new subscription must not be undone by it.
  changes.subscribe(listener);
  await changes.ready;
  assert.equal(await subscribers("m5:changes"), 1, "subscribed again");
  stopFirst();
  assert.equal(await subscribers("m5:changes"), 1, "a listener gone before is not the new one");
  await fixture.client.publish("m5:changes", JSON.stringify({ origin: "a", list: "tools" }));
  await until("the change to be heard", () => heard.length > 0);
  assert.deepEqual(heard, [["a", { list: "tools" }]]);
  assert.deepEqual(problems, []);
});

test("redis fan-out: an unsubscribe that fails is reported, not thrown", { skip: REDIS_MISSING }, async () => {
  // Redis answers every UNSUBSCRIBE, and node-redis never settles one on a closed connection: the
  // failure is another client's (redis-commands.ts: any client fits behind these two methods).
  const real = await fixture.redis.client();
  const problems: string[] = [];
  const subscriber = { subscribe: real.subscribe.bind(real), unsubscribe: () => Promise.reject(new Error("connection lost")) };
  const changes = new RedisChangeFanout(fixture.client, subscriber, { prefix: "m6:", onProblem: (message) => problems.push(message) });
  const stop = changes.subscribe(() => {});
  await changes.ready;
  stop();
  await until("the failure to be reported", () => problems.length > 0);
  assert.deepEqual(problems, ["redis: unsubscribing from list changes failed: connection lost"]);
});
