// The fleet's requestState uses in a real Redis (RedisStateUses): two servers sharing the key and
// the store split an input round between them, and a replayed state is refused by both, where
// without the store each process would accept it once. Spec:
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
// (requestState is single use, enforced server-side).
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpServer, text } from "../../src/server/definition.js";
import { ErrorCode, RpcError } from "../../src/jsonrpc/messages.js";
import { RedisStateUses } from "../../src/fleet/redis-state-uses.js";
import type { RequestStateOptions } from "../../src/server/modern/request-state.js";
import { serve, type Message, type Served } from "../helpers/http-peer.js";
import { modernRequest, postModern } from "../helpers/http-modern-peer.js";
import { REDIS_MISSING, redisFixture } from "../helpers/redis-server.js";

const FORM = { elicitation: { form: {} } };
const KEY = randomBytes(32);
const fixture = redisFixture();

async function pair(requestState: RequestStateOptions): Promise<[Served, Served]> {
  const a = await serve({}, createDemoServer({ requestState }));
  const b = await serve({}, createDemoServer({ requestState }));
  fixture.running.push(a, b);
  return [a, b];
}

async function greet(served: Served, id: number, retry: object = {}): Promise<Message> {
  const response = await postModern(served.url, modernRequest(id, "tools/call", { name: "greet", arguments: {}, ...retry }, {}, FORM));
  return (await response.json()) as Message;
}

/** The first round on `first`, and the retry that answers it. */
async function firstRound(first: Served): Promise<object> {
  const asked = await greet(first, 1);
  assert.equal(asked.result?.resultType, "input_required", JSON.stringify(asked));
  const key = Object.keys(asked.result.inputRequests)[0]!;
  return { inputResponses: { [key]: { action: "accept", content: { name: "Ada" } } }, requestState: asked.result.requestState };
}

test("redis state uses: a round split across two servers completes, and its replay is refused by both", { skip: REDIS_MISSING }, async () => {
  const [a, b] = await pair({ key: randomBytes(32), sharedUses: new RedisStateUses(fixture.client, { prefix: "t1:" }) });
  const retry = await firstRound(a);
  const done = await greet(b, 2, retry);
  assert.equal(done.result?.resultType, "complete", JSON.stringify(done));
  assert.match(done.result.content[0].text, /Ada/);
  for (const [served, id] of [[a, 3], [b, 4]] as const) {
    const replayed = await greet(served, id, retry);
    assert.equal(replayed.result, undefined, JSON.stringify(replayed));
    assert.equal(replayed.error.code, -32602);
    assert.deepEqual(replayed.error.data, { reason: "replayed" });
  }
});

test("redis state uses: without the shared store, each process accepts the same state once (what the store prevents)", async () => {
  const [a, b] = await pair({ key: randomBytes(32) });
  const retry = await firstRound(a);
  assert.equal((await greet(b, 2, retry)).result?.resultType, "complete");
  assert.equal((await greet(a, 3, retry)).result?.resultType, "complete");
  assert.deepEqual((await greet(b, 4, retry)).error?.data, { reason: "replayed" });
});

test("redis state uses: a claimed use is refused until released; its key lives only as long as the state", { skip: REDIS_MISSING }, async () => {
  const uses = new RedisStateUses(fixture.client, { prefix: "t3:" });
  assert.equal(await uses.claim("n1", Date.now() + 60_000), true);
  assert.equal(await uses.claim("n1", Date.now() + 60_000), false);
  await uses.release("n1");
  assert.equal(await uses.claim("n1", Date.now() + 60_000), true);
  const ttl = await fixture.client.pTTL("t3:state-use:n1");
  assert.ok(ttl > 0 && ttl <= 60_000, `the key expires with the state, got a PTTL of ${ttl}`);
  assert.equal(await uses.claim("short", Date.now() + 20), true);
  const deadline = Date.now() + 5000;
  while ((await fixture.client.exists("t3:state-use:short")) === 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(await fixture.client.exists("t3:state-use:short"), 0, "the key of an expired state is gone");
});

test("redis state uses: an unreachable store refuses the retry (-32603), never accepts it unchecked", async () => {
  const unreachable = { claim: () => Promise.reject(new Error("connection refused")), release: () => Promise.resolve() };
  const [a, b] = await pair({ key: randomBytes(32), sharedUses: unreachable });
  const retry = await firstRound(a);
  const refused = await greet(b, 2, retry);
  assert.equal(refused.error?.code, -32603, JSON.stringify(refused));
  assert.equal(refused.error.data.reason, "busy");
  assert.match(refused.error.message, /unreachable/);
});

test("redis state uses: a retry answered with an error releases its claim, so the client may retry with the same state", { skip: REDIS_MISSING }, async () => {
  let failures = 1;
  const flaky = (): McpServer => new McpServer({ name: "flaky", version: "1.0.0" }, { requestState: { key: KEY, sharedUses: new RedisStateUses(fixture.client, { prefix: "t5:" }) } })
    .tool({ name: "greet", inputSchema: { type: "object" } }, async (_args, context) => {
      const answer = await context.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
      if (failures-- > 0) throw new RpcError(ErrorCode.InternalError, "the backend is down");
      return { content: [text(`Hello, ${String(answer.content?.name)}!`)] };
    });
  const a = await serve({}, flaky());
  const b = await serve({}, flaky());
  fixture.running.push(a, b);
  const retry = await firstRound(a);
  const failed = await greet(b, 2, retry);
  assert.equal(failed.error?.message, "the backend is down", JSON.stringify(failed));
  const done = await greet(a, 3, retry);
  assert.equal(done.result?.content?.[0]?.text, "Hello, Ada!", JSON.stringify(done));
  assert.deepEqual((await greet(b, 4, retry)).error?.data, { reason: "replayed" });
});

test("redis state uses: a retry refused for a capability it lacks releases its claim", { skip: REDIS_MISSING }, async () => {
  const [a, b] = await pair({ key: randomBytes(32), sharedUses: new RedisStateUses(fixture.client, { prefix: "t6:" }) });
  const retry = await firstRound(a);
  const bare = await postModern(b.url, modernRequest(2, "tools/call", { name: "greet", arguments: {}, ...retry }));
  const refused = (await bare.json()) as Message;
  assert.equal(refused.error?.code, -32021, JSON.stringify(refused));
  const done = await greet(a, 3, retry);
  assert.equal(done.result?.content?.[0]?.text, "Hello, Ada!", JSON.stringify(done));
});
