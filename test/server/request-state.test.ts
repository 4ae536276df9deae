// The requestState codec of Multi Round-Trip Requests (src/server/modern/request-state.ts): a
// sealed token opens once, for the request it was issued for, before it expires, under its key;
// everything else is refused with -32602 and a `data.reason`, cheapest checks first. (Its replay
// memory, when full: replay-memory.test.ts.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import {
  askFingerprint, DEFAULT_MAX_REMEMBERED_USES, DEFAULT_MAX_REQUEST_STATE_BYTES, DEFAULT_REQUEST_STATE_TTL_MS,
  RequestStateCodec, RequestStateTooLargeError,
} from "../../src/server/modern/request-state.js";
import { ANSWERS, codec, KEY, METHOD, PARAMS, refused, ROUND } from "../helpers/request-state-codec.js";

/** The token with one character at `index` replaced by another of the base64url alphabet. */
function flip(token: string, index: number): string {
  const replacement = token[index] === "A" ? "B" : "A";
  return token.slice(0, index) + replacement + token.slice(index + 1);
}

test("request-state: the defaults are the documented ones", () => {
  assert.equal(DEFAULT_REQUEST_STATE_TTL_MS, 600_000);
  assert.equal(DEFAULT_MAX_REQUEST_STATE_BYTES, 262_144);
  assert.equal(DEFAULT_MAX_REMEMBERED_USES, 100_000);
});

test("request-state: a sealed token opens to the same answers, in order, with the keys asked and the round count", () => {
  const { codec: c } = codec();
  const token = c.seal(ROUND);
  assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  const opened = c.open(token, METHOD, PARAMS);
  assert.deepEqual(opened.answers, ANSWERS);
  assert.deepEqual([...opened.asked], ["elicit-3-abcdefgh"]);
  assert.equal(opened.round, 2);
  const random = new RequestStateCodec();
  assert.deepEqual(random.open(random.seal({ ...ROUND, params: {}, answers: [] }), METHOD, {}).answers, [], "the default random key works");
  refused(() => new RequestStateCodec().open(random.seal({ ...ROUND, params: {}, answers: [] }), METHOD, {}), "forged");
});

test("request-state: two seals of one round differ (a nonce each), and each opens once", () => {
  const { codec: c } = codec();
  const first = c.seal(ROUND);
  const second = c.seal(ROUND);
  assert.notEqual(first, second);
  assert.deepEqual(c.open(first, METHOD, PARAMS).answers, ANSWERS);
  assert.deepEqual(c.open(second, METHOD, PARAMS).answers, ANSWERS);
});

test("request-state: an altered payload, an altered mac, or another key's token is forged", () => {
  const { codec: c } = codec();
  const token = c.seal(ROUND);
  const dot = token.indexOf(".");
  for (const index of [0, dot - 1, dot + 1, token.length - 1]) refused(() => c.open(flip(token, index), METHOD, PARAMS), "forged");
  // The mac's last character carries 4 bits and 2 unused ones: a loose decoder reads this spelling as the same mac.
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const respelled = token.slice(0, -1) + alphabet[alphabet.indexOf(token.at(-1)!) ^ 1];
  assert.deepEqual(Buffer.from(respelled.slice(dot + 1), "base64url"), Buffer.from(token.slice(dot + 1), "base64url"));
  refused(() => c.open(respelled, METHOD, PARAMS), "forged");
  const other = new RequestStateCodec({ key: "o".repeat(32) }).seal(ROUND);
  const message = refused(() => c.open(other, METHOD, PARAMS), "forged");
  assert.match(message, /integrity check/);
  assert.deepEqual(c.open(token, METHOD, PARAMS).answers, ANSWERS, "the refused tries did not use the token up");
});

test("request-state: a truncated token is malformed without its mac, forged with part of it", () => {
  const { codec: c } = codec();
  const token = c.seal(ROUND);
  const dot = token.indexOf(".");
  for (const length of [0, 1, dot - 1, dot, dot + 1]) refused(() => c.open(token.slice(0, length), METHOD, PARAMS), "malformed");
  for (const length of [dot + 2, token.length - 1]) refused(() => c.open(token.slice(0, length), METHOD, PARAMS), "forged");
  refused(() => c.open(`${token}.x`, METHOD, PARAMS), "malformed");
  refused(() => c.open(`${token}=`, METHOD, PARAMS), "malformed");
});

test("request-state: a correctly signed token that this version did not write is malformed", () => {
  const { codec: c } = codec();
  const signed = (payload: string) => {
    const body = Buffer.from(payload, "utf8").toString("base64url");
    return `${body}.${createHmac("sha256", KEY).update(body).digest("base64url")}`;
  };
  const good = { v: 2, b: "x", e: 2_000_000, n: "n", r: 1, k: ["elicit-1-abcdefgh"], a: [] };
  const { k: _noKeys, ...keyless } = good;
  const bad = [
    { ...good, v: 1 }, { ...good, v: 3 }, { ...good, e: "later" }, { ...good, a: [{ answer: 1 }] },
    { ...good, r: 0 }, { ...good, r: "1" }, { ...good, r: 1.5 }, { ...good, k: [1] }, { ...good, k: "elicit-1-abcdefgh" }, keyless,
  ];
  for (const payload of ["not json", "[]", ...bad.map((value) => JSON.stringify(value))]) {
    assert.match(refused(() => c.open(signed(payload), METHOD, PARAMS), "malformed"), /signed but unreadable/, payload);
  }
  refused(() => c.open(signed(JSON.stringify(good)), METHOD, PARAMS), "other-request");
});

test("request-state: a token that is not a string is malformed", () => {
  const { codec: c } = codec();
  for (const token of [undefined, null, 42, {}, ["a.b"], true]) refused(() => c.open(token, METHOD, PARAMS), "malformed");
});

test("request-state: a 10 MB token is too long, refused before any decoding or hashing", () => {
  const { codec: c } = codec();
  // Not even base64: had it been decoded or matched against the token shape first, it would be "malformed".
  const message = refused(() => c.open("!".repeat(10 * 1024 * 1024), METHOD, PARAMS), "too-long");
  assert.match(message, /10485760 bytes long, over the 262144-byte limit/);
  const { codec: small } = codec({ maxStateBytes: 100 });
  refused(() => small.open("!".repeat(101), METHOD, PARAMS), "too-long");
  refused(() => small.open("!".repeat(100), METHOD, PARAMS), "malformed");
});

test("request-state: a token opened after its expiry is expired, one just before it opens", () => {
  const { codec: c, clock } = codec({ ttlMs: 60_000 });
  const late = c.seal(ROUND);
  const onTime = c.seal(ROUND);
  clock.now += 59_999;
  assert.deepEqual(c.open(onTime, METHOD, PARAMS).answers, ANSWERS);
  clock.now += 1;
  assert.match(refused(() => c.open(late, METHOD, PARAMS), "expired"), /expired 0 s ago/);
});

test("request-state: opening does not use a token up; once consumed it is replayed", () => {
  const { codec: c } = codec();
  const token = c.seal(ROUND);
  c.open(token, METHOD, PARAMS);
  const opened = c.open(token, METHOD, PARAMS);
  c.consume(opened, METHOD);
  assert.match(refused(() => c.open(token, METHOD, PARAMS), "replayed"), /already used/);
});

test("request-state: of two retries that opened one token, only the first to consume it may", () => {
  const { codec: c } = codec();
  const token = c.seal(ROUND);
  const [first, second] = [c.open(token, METHOD, PARAMS), c.open(token, METHOD, PARAMS)];
  c.consume(first, METHOD);
  refused(() => c.consume(second, METHOD), "replayed");
});

test("request-state: a principal, when given, is bound: another caller's or none is another request", () => {
  const { codec: c } = codec();
  const alice = c.seal({ ...ROUND, principal: "alice" });
  refused(() => c.open(alice, METHOD, PARAMS, "bob"), "other-request");
  refused(() => c.open(alice, METHOD, PARAMS), "other-request");
  assert.deepEqual(c.open(alice, METHOD, PARAMS, "alice").answers, ANSWERS);
  const nobody = c.seal(ROUND);
  refused(() => c.open(nobody, METHOD, PARAMS, "alice"), "other-request");
  refused(() => c.open(c.seal({ ...ROUND, principal: "" }), METHOD, PARAMS), "other-request");
  assert.deepEqual(c.open(nobody, METHOD, PARAMS).answers, ANSWERS);
});

test("request-state: a token is bound to its method and its params", () => {
  const { codec: c } = codec();
  const token = c.seal(ROUND);
  refused(() => c.open(token, "prompts/get", PARAMS), "other-request");
  refused(() => c.open(token, METHOD, { ...PARAMS, name: "other" }), "other-request");
  refused(() => c.open(token, METHOD, { ...PARAMS, arguments: { who: "Ada", times: 3 } }), "other-request");
  refused(() => c.open(token, METHOD, { ...PARAMS, task: {} }), "other-request");
  refused(() => c.open(token, METHOD, { name: "greet" }), "other-request");
  assert.deepEqual(c.open(token, METHOD, PARAMS).answers, ANSWERS, "the refused tries did not use the token up");
});

test("request-state: key order in params does not matter", () => {
  const { codec: c } = codec();
  const token = c.seal(ROUND);
  assert.deepEqual(c.open(token, METHOD, { arguments: { times: 2, who: "Ada" }, name: "greet" }).answers, ANSWERS);
});

test("request-state: _meta, inputResponses and requestState in params are not bound", () => {
  const { codec: c } = codec();
  const sealedWith = { ...PARAMS, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" }, requestState: "earlier" };
  const token = c.seal({ ...ROUND, params: sealedWith });
  const retry = { ...PARAMS, _meta: { progressToken: 1 }, inputResponses: { a: { roots: [] } }, requestState: token };
  assert.deepEqual(c.open(token, METHOD, retry).answers, ANSWERS);
});

test("request-state: a seal longer than maxStateBytes throws a local error, not an RpcError", () => {
  const { codec: c } = codec({ maxStateBytes: 300 });
  assert.ok(c.seal({ ...ROUND, answers: [] }).length <= 300);
  const big = [{ ask: "x", answer: "y".repeat(300) }];
  assert.throws(() => c.seal({ ...ROUND, answers: big }), (error: unknown) =>
    error instanceof RequestStateTooLargeError && /over the 300-byte limit/.test(error.message));
});

test("request-state: params too deep to bind cannot be sealed, and do not open a token", () => {
  const { codec: c } = codec();
  let deep: object = {};
  for (let i = 0; i < 300; i++) deep = { d: deep };
  assert.throws(() => c.seal({ ...ROUND, params: deep, answers: [] }), RequestStateTooLargeError);
  assert.throws(() => askFingerprint("sampling/createMessage", deep), RequestStateTooLargeError);
  const token = c.seal({ ...ROUND, answers: [] });
  refused(() => c.open(token, METHOD, deep), "other-request");
});

test("request-state: a key shorter than 32 bytes, or a bound that is not a positive integer, throws at construction", () => {
  assert.throws(() => new RequestStateCodec({ key: "k".repeat(31) }), /at least 32 bytes, got 31/);
  assert.throws(() => new RequestStateCodec({ key: new Uint8Array(16) }), /at least 32 bytes, got 16/);
  assert.throws(() => new RequestStateCodec({ key: "é".repeat(15) }), /got 30/, "counted in UTF-8 bytes");
  assert.doesNotThrow(() => new RequestStateCodec({ key: new Uint8Array(32) }));
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => new RequestStateCodec({ ttlMs: bad }), /ttlMs must be a positive integer/);
    assert.throws(() => new RequestStateCodec({ maxStateBytes: bad }), /maxStateBytes/);
    assert.throws(() => new RequestStateCodec({ maxRememberedUses: bad }), /maxRememberedUses/);
  }
});

test("request-state: askFingerprint is short, ignores key order, and tells asks apart", () => {
  const a = askFingerprint("elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: {} } });
  assert.match(a, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(askFingerprint("elicitation/create", { requestedSchema: { properties: {}, type: "object" }, message: "Name?" }), a);
  assert.notEqual(askFingerprint("elicitation/create", { message: "Age?" }), askFingerprint("elicitation/create", { message: "Name?" }));
  assert.notEqual(askFingerprint("roots/list", {}), askFingerprint("sampling/createMessage", {}));
  assert.equal(askFingerprint("roots/list", undefined), askFingerprint("roots/list", {}));
});
