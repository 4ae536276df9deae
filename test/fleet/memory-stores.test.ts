// The in-process fleet stores (src/fleet/memory-stores.ts): two servers in one process sharing them
// behave as two processes sharing Redis do (redis-*.test.ts): a used requestState is refused by
// both, a change made on one reaches a listen on the other, a stream of a session that ended on one
// is resumed on the other. Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { MemoryChangeFanout, MemoryEventLog, MemoryStateUses } from "../../src/fleet/memory-stores.js";
import { SseReader, serve, withinLimit, type Message, type Served } from "../helpers/http-peer.js";
import { modernRequest, postModern } from "../helpers/http-modern-peer.js";

const running: Served[] = [];
after(() => Promise.all(running.map((served) => served.close())));

const call = async (served: Served, id: number, name: string, extra: object = {}) =>
  (await (await postModern(served.url, modernRequest(id, "tools/call", { name, arguments: {}, ...extra }, {}, { elicitation: { form: {} } }))).json()) as Message;

test("memory stores: a used requestState is refused by both servers; a change on one reaches a listen on the other", async () => {
  const requestState = { key: randomBytes(32), sharedUses: new MemoryStateUses() };
  const changes = new MemoryChangeFanout();
  const a = await serve({}, createDemoServer({ requestState, changes }));
  const b = await serve({}, createDemoServer({ requestState, changes }));
  running.push(a, b);
  const asked = await call(a, 1, "greet");
  const key = Object.keys(asked.result.inputRequests)[0]!;
  const retry = { inputResponses: { [key]: { action: "accept", content: { name: "Kay" } } }, requestState: asked.result.requestState };
  assert.equal((await call(b, 2, "greet", retry)).result?.content?.[0]?.text, "Hello, Kay!");
  assert.deepEqual((await call(a, 3, "greet", retry)).error?.data, { reason: "replayed" });
  assert.deepEqual((await call(b, 4, "greet", retry)).error?.data, { reason: "replayed" });

  const listen = new SseReader((await postModern(b.url, modernRequest("l", "subscriptions/listen", { notifications: { toolsListChanged: true } }))).body!);
  await listen.until((message) => message.method === "notifications/subscriptions/acknowledged");
  await call(a, 5, "toggle_extra");
  await withinLimit("b's listen to hear a's change", listen.until((message) => message.method === "notifications/tools/list_changed"));
  await listen.cancel();
});

test("memory event log: events after an id, its owner only; a session's end forgets them", async () => {
  const log = new MemoryEventLog();
  log.opened("a.s", undefined);
  log.append("a.s", "p1", { id: "p1:1", data: "" });
  log.append("a.s", "p1", { id: "p1:2", data: "{\"x\":1}" });
  log.append("a.s", "p2", { id: "p2:3", data: "{}" });
  assert.deepEqual(await log.after("a.s", "p1:1", undefined), [{ id: "p1:2", data: "{\"x\":1}" }]);
  assert.equal(await log.after("a.s", "p1:1", "someone"), undefined);
  assert.equal(await log.after("a.s", "p1:7", undefined), undefined);
  log.forget("a.s", "p1");
  assert.equal(await log.after("a.s", "p1:1", undefined), undefined);
  log.ended("a.s");
  assert.equal(await log.after("a.s", "p2:3", undefined), undefined);
});

test("memory state uses: a claim holds until released or expired", async () => {
  let now = 1000;
  const uses = new MemoryStateUses(() => now);
  assert.equal(await uses.claim("n", 2000), true);
  assert.equal(await uses.claim("n", 2000), false);
  await uses.release("n");
  assert.equal(await uses.claim("n", 2000), true);
  now = 2000;
  assert.equal(await uses.claim("n", 3000), true, "an expired use is forgotten");
});
