// BadInput: what input that is not a valid message gets. A broken request gets one error response
// (with its id when readable: -32600, or -32700 for bytes that are not UTF-8); a broken response is
// never answered (JSON-RPC 2.0 #response_object) and fails the call waiting for it at once. The
// unreadable id is left out or sent as null as the policy in force says (basic#responses).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { decodeMessage, ErrorCode, RpcError, type Incoming, type JSONRPCResponse } from "../../src/jsonrpc/messages.js";
import { MalformedResponseError, PendingRequests } from "../../src/jsonrpc/pending.js";
import { BadInput } from "../../src/protocol/bad-input.js";
import type { WirePolicy } from "../../src/protocol/link.js";

/** Every test's calls; those a test leaves waiting are failed at the end, so that their timers do not hold the process. */
const correlators: PendingRequests[] = [];
after(() => correlators.forEach((pending) => pending.rejectAll(() => new Error("the tests are over"))));

function setup() {
  const pending = new PendingRequests();
  correlators.push(pending);
  const sent: JSONRPCResponse[] = [];
  const problems: string[] = [];
  const policy: WirePolicy = { batches: false, omitUnreadableId: true };
  const badInput = new BadInput({ pending, policy: () => policy, send: async (response) => void sent.push(response), onProblem: (m) => problems.push(m) });
  /** A call of ours, waiting on `id` with a timeout far beyond any test. */
  const call = (id: number | string) => {
    const waiting = pending.track(id, "tools/call", { timeouts: { idleMs: 60_000 } });
    waiting.catch(() => {});
    return waiting;
  };
  return { pending, sent, problems, policy, badInput, call };
}

function invalid(text: string): Extract<Incoming, { kind: "invalid" }> {
  const incoming = decodeMessage(text);
  assert.equal(incoming.kind, "invalid", text);
  return incoming as Extract<Incoming, { kind: "invalid" }>;
}

const requests = [
  { name: "a request with a non-string method", code: ErrorCode.InvalidRequest, text: '{"jsonrpc":"2.0","id":4,"method":7}', id: 4, message: /"method" must be a string/ },
  { name: "a request with array params", code: ErrorCode.InvalidRequest, text: '{"jsonrpc":"2.0","id":"a","method":"x","params":[1]}', id: "a", message: /"params" must be an object/ },
  { name: "a request with a null id", code: ErrorCode.InvalidRequest, text: '{"jsonrpc":"2.0","id":null,"method":"x"}', id: undefined, message: /"id" must be a string or an integer/ },
  { name: "a message of no kind", code: ErrorCode.InvalidRequest, text: '{"jsonrpc":"2.0","id":9}', id: 9, message: /neither "method", "result" nor "error"/ },
  { name: "a text that is not JSON", code: ErrorCode.ParseError, text: '{"jsonrpc":"2.0","id":5,"method":', id: undefined, message: /parse error/ },
];
for (const c of requests) {
  test(`bad input: ${c.name} is answered once, with its id when readable`, async () => {
    const { badInput, sent, problems } = setup();
    const incoming = invalid(c.text);
    assert.equal(await badInput.invalid(incoming, false), undefined);
    assert.equal(sent.length, 1);
    const response = sent[0]! as { id?: unknown; error: { code: number; message: string } };
    assert.equal(response.id, c.id);
    assert.equal("id" in response, c.id !== undefined, "an unreadable id is left out");
    assert.equal(response.error.code, c.code);
    assert.match(response.error.message, c.message);
    assert.deepEqual(problems, [incoming.error.message]);
  });
}

test("bad input: inside a batch the error response is returned, not sent", async () => {
  const { badInput, sent } = setup();
  const answer = await badInput.invalid(invalid('{"jsonrpc":"2.0","id":4,"method":7}'), true);
  assert.equal(answer?.id, 4);
  assert.equal((answer as { error: { code: number } }).error.code, ErrorCode.InvalidRequest);
  assert.deepEqual(sent, []);
});

const responses = [
  { name: "a result that is not an object", text: '{"jsonrpc":"2.0","id":3,"result":"oops"}', detail: '"result" must be an object' },
  { name: "an error without a code", text: '{"jsonrpc":"2.0","id":3,"error":{"message":"x"}}', detail: '"error" must be an object with an integer "code" and a string "message"' },
  { name: "a wrong jsonrpc version", text: '{"jsonrpc":"1.0","id":3,"result":{}}', detail: '"jsonrpc" must be exactly "2.0"' },
  { name: "truncated JSON", text: '{"jsonrpc":"2.0","id":3,"result":{"a":[', detail: "parse error: the message is not valid JSON" },
];
for (const c of responses) {
  test(`bad input: ${c.name} is never answered, and fails the call waiting for it`, async () => {
    const { badInput, sent, problems, pending, call } = setup();
    const waiting = call(3);
    for (const inBatch of [false, true]) assert.equal(badInput.invalid(invalid(c.text), inBatch), undefined);
    await assert.rejects(waiting, (e: unknown) => e instanceof MalformedResponseError && e.id === 3 && e.detail === c.detail);
    assert.equal(pending.size, 0);
    assert.deepEqual(sent, []);
    // The first drop failed the call; the second (the same text in a batch) found nobody waiting.
    assert.deepEqual(problems, [`dropped a malformed response for id 3: ${c.detail}`, `dropped a malformed response for id 3: ${c.detail} (no request is waiting for it)`]);
  });
}

test("bad input: a message of no kind is a response when its id is one we wait on", async () => {
  const { badInput, sent, call } = setup();
  const waiting = call(0);
  assert.equal(badInput.invalid(invalid('{"jsonrpc":"2.0","id":0}'), false), undefined);
  await assert.rejects(waiting, MalformedResponseError);
  assert.deepEqual(sent, []);
});

// Each side numbers its own requests (both often from 0): a broken request of the peer's that
// carries the id of a call of ours is still the peer's request, owed its answer.
const requestsWithOurId = [
  { name: "a non-string method", text: '{"jsonrpc":"2.0","id":0,"method":7}' },
  { name: "array params", text: '{"jsonrpc":"2.0","id":0,"method":"roots/list","params":[]}' },
  { name: "a wrong jsonrpc version", text: '{"jsonrpc":"1.0","id":0,"method":"ping"}' },
];
for (const c of requestsWithOurId) {
  test(`bad input: a request with ${c.name} and the id of a call of ours is answered, and our call still waits`, async () => {
    const { badInput, sent, pending, call } = setup();
    call(0);
    await badInput.invalid(invalid(c.text), false);
    assert.deepEqual(sent.map((response) => [response.id, "error" in response && response.error.code]), [[0, ErrorCode.InvalidRequest]]);
    assert.equal(pending.has(0), true);
  });
}

test("bad input: a broken response without a readable id is dropped, and no call fails", () => {
  const { badInput, sent, problems, pending, call } = setup();
  call(1);
  assert.equal(badInput.invalid(invalid('{"jsonrpc":"2.0","id":1.5,"result":{}}'), false), undefined);
  assert.deepEqual(sent, []);
  assert.equal(pending.has(1), true);
  assert.match(problems[0]!, /^dropped a malformed response: .* \(no request is waiting for it\)$/);
});

test("bad input: invalid UTF-8 gets a parse error without an id", async () => {
  const { badInput, sent, problems } = setup();
  await badInput.unreadable({ kind: "invalid-utf8" });
  assert.deepEqual(sent, [{ jsonrpc: "2.0", error: { code: ErrorCode.ParseError, message: "parse error: message is not valid UTF-8" } }]);
  assert.deepEqual(problems, ["a line was not valid UTF-8"]);
});

const tooLarge = [
  { name: "a request with its id", looksLike: "request" as const, id: 7, answeredWith: 7 },
  { name: "a message of unknown kind with an id nobody waits on", looksLike: undefined, id: 8, answeredWith: 8 },
  { name: "a message without a readable id", looksLike: "request" as const, id: undefined, answeredWith: undefined },
];
for (const c of tooLarge) {
  test(`bad input: a message over the size limit (${c.name}) is answered with the limit`, async () => {
    const { badInput, sent, problems } = setup();
    await badInput.unreadable({ kind: "too-large", bytes: 5000, limit: 1000, id: c.id, looksLike: c.looksLike });
    const id = c.answeredWith === undefined ? {} : { id: c.answeredWith };
    const error = { code: ErrorCode.InvalidRequest, message: "invalid request: message of 5000 bytes exceeds the limit of 1000 bytes", data: { limit: 1000 } };
    assert.deepEqual(sent, [{ jsonrpc: "2.0", ...id, error }]);
    assert.deepEqual(problems, ["a 5000-byte message exceeded the 1000-byte limit and was dropped"]);
  });
}

test("bad input: a response over the size limit is not answered, and fails its call at once", async () => {
  for (const looksLike of ["response" as const, undefined]) {
    const { badInput, sent, problems, call } = setup();
    const waiting = call("r");
    await badInput.unreadable({ kind: "too-large", bytes: 5000, limit: 1000, id: "r", looksLike });
    await assert.rejects(waiting, (e: unknown) => e instanceof MalformedResponseError && e.detail === "a 5000-byte message exceeded the 1000-byte limit");
    assert.deepEqual(sent, []);
    assert.deepEqual(problems, ['dropped a malformed response for id "r": a 5000-byte message exceeded the 1000-byte limit']);
  }
});

test("bad input: the unreadable id follows the policy in force when answering (left out, or null)", async () => {
  const { badInput, sent, policy } = setup();
  const error = new RpcError(ErrorCode.InvalidRequest, "invalid request: empty batch");
  await badInput.reply(error, undefined, false);
  policy.omitUnreadableId = false;
  await badInput.reply(error, undefined, false);
  await badInput.unreadable({ kind: "invalid-utf8" });
  assert.deepEqual(sent.map((response) => ("id" in response ? response.id : "left out")), ["left out", null, null]);
  assert.deepEqual(await badInput.reply(error, "x", true), { jsonrpc: "2.0", id: "x", error: { code: ErrorCode.InvalidRequest, message: "invalid request: empty batch" } });
  assert.equal(sent.length, 3, "a batch's answer is returned, not sent");
});
