// Streamable HTTP, what a POST body may hold: strict UTF-8, the batch bounds (empty, too long)
// answered before anything runs, and a batch whose invalid items are answered one by one inside
// the batch answer, in JSON mode and on an SSE stream.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
// and https://www.jsonrpc.org/specification#batch
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ACCEPT_BOTH, messagesOf, openSession, request, serve, SseReader, withinLimit, type Message, type Served, type Session } from "../helpers/http-peer.js";
import { withDefaults } from "../../src/http/streamable-options.js";

let sse: Served;
let json: Served;
let sseOld: Session;
let jsonOld: Session;

before(async () => {
  sse = await serve({ maxBatchItems: 3 });
  json = await serve({ jsonResponses: true, maxBatchItems: 3 });
  sseOld = await openSession(sse.url, "2025-03-26");
  jsonOld = await openSession(json.url, "2025-03-26");
});
after(async () => {
  await sse.close();
  await json.close();
});

/** The responses of a batch answer, whatever its form (a JSON array, or array events on a stream). */
async function batchAnswerOf(response: Response): Promise<Message[]> {
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) return (await response.json()) as Message[];
  const events = await withinLimit("the batch's SSE stream to end", new SseReader(response.body!).rest());
  return messagesOf(events).flat() as Message[];
}

test("POST: a body that is not valid UTF-8 gets 400 with -32700, not a repaired message", async () => {
  const s = await openSession(sse.url);
  // "ping" with its last letter replaced by a lone continuation byte.
  const bytes = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"pin'), Buffer.from([0x80]), Buffer.from('"}')]);
  const response = await fetch(sse.url, { method: "POST", headers: { ...s.headers, accept: ACCEPT_BOTH, "content-type": "application/json" }, body: bytes });
  assert.equal(response.status, 400);
  const body = (await response.json()) as Message;
  assert.equal(body.error.code, -32700);
  assert.equal("id" in body, false);
});

for (const [name, session] of [["SSE", () => sseOld], ["JSON", () => jsonOld]] as const) {
  test(`POST (${name}): an empty batch gets 400 with the -32600 "empty batch" error, not 202`, async () => {
    const response = await withinLimit("the empty batch", session().post([]));
    assert.equal(response.status, 400);
    const body = (await response.json()) as Message;
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /empty batch/);
  });

  test(`POST (${name}): a batch over maxBatchItems gets 400 with -32600 and the limit, and none of it runs`, async () => {
    const items = [1, 2, 3, 4].map((i) => request(`big-${i}`, "tools/call", { name: "echo", arguments: { text: String(i) } }));
    const response = await withinLimit("the over-long batch", session().post(items));
    assert.equal(response.status, 400);
    const body = (await response.json()) as Message;
    assert.equal(body.error.code, -32600);
    assert.deepEqual(body.error.data, { limit: 3 });
    assert.equal("id" in body, false);
  });

  test(`POST (${name}): a batch with invalid items answers each item: results for the valid, errors for the invalid`, async () => {
    const items = [request("ok", "ping"), { jsonrpc: "1.0", id: "bad-version", method: "ping" }, 42];
    const response = await withinLimit("the mixed batch", session().post(items));
    assert.equal(response.status, 200);
    const answers = await batchAnswerOf(response);
    assert.equal(answers.length, 3, `one answer per item, got ${JSON.stringify(answers)}`);
    assert.deepEqual(answers.find((m) => m.id === "ok")?.result, {});
    assert.equal(answers.find((m) => m.id === "bad-version")?.error.code, -32600);
    // Spec (2025-03-26 basic#responses, JSON-RPC 2.0): an id that could not be read is null.
    assert.equal(answers.find((m) => m.id === null)?.error.code, -32600);
  });

  test(`POST (${name}): a malformed response is never answered, alone or inside a batch`, async () => {
    // Spec (basic#responses): a response gets no reply; JSON-RPC answers only requests.
    const broken = { jsonrpc: "2.0", id: "r1", result: "not an object" };
    const alone = await withinLimit("the lone broken response", session().post(broken));
    assert.equal(alone.status, 202);
    assert.equal(await alone.text(), "");
    const response = await withinLimit("the batch with a broken response", session().post([request("ok2", "ping"), broken]));
    assert.equal(response.status, 200);
    const answers = await batchAnswerOf(response);
    assert.deepEqual(answers.map((m) => m.id), ["ok2"]);
  });

  test(`POST (${name}): a batch of only invalid items gets an array of their errors`, async () => {
    const response = await withinLimit("the invalid batch", session().post([1, 2]));
    assert.equal(response.status, 200);
    const answers = (await response.json()) as Message[];
    assert.deepEqual(answers.map((m) => [m.id, m.error.code]), [[null, -32600], [null, -32600]]);
  });
}

test("POST: maxBatchItems raised above 100 alone: a full batch runs (the per-session bound on requests in flight follows it)", async () => {
  const served = await serve({ jsonResponses: true, maxBatchItems: 150 });
  try {
    const s = await openSession(served.url, "2025-03-26");
    const items = Array.from({ length: 150 }, (_, i) => request(i, "ping"));
    const response = await withinLimit("the full batch", s.post(items));
    assert.equal(response.status, 200);
    const answers = (await response.json()) as Message[];
    assert.equal(answers.length, 150);
    assert.ok(answers.every((m) => m.result !== undefined), JSON.stringify(answers.find((m) => m.result === undefined)));
  } finally {
    await served.close();
  }
});

test("options: maxRequestsInFlight defaults to the larger of 100 and maxBatchItems; a value given is kept", () => {
  assert.equal(withDefaults({}).maxRequestsInFlight, 100);
  assert.equal(withDefaults({ maxBatchItems: 3 }).maxRequestsInFlight, 100);
  assert.equal(withDefaults({ maxBatchItems: 500 }).maxRequestsInFlight, 500);
  assert.equal(withDefaults({ maxBatchItems: 500, maxRequestsInFlight: 7 }).maxRequestsInFlight, 7);
});
