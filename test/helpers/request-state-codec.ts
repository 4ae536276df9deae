// The requestState codec as its tests drive it (test/server/request-state.test.ts and
// replay-memory.test.ts): one round of a request to seal, a codec on a clock moved by hand, and the
// check that a token is refused for a given reason.
import assert from "node:assert/strict";
import { ErrorCode, RpcError } from "../../src/jsonrpc/messages.js";
import { askFingerprint, RequestStateCodec, type RequestStateOptions, type RequestStateRejection, type SealedRound, type StoredAnswer } from "../../src/server/modern/request-state.js";

export const KEY = "k".repeat(32);
export const METHOD = "tools/call";
export const PARAMS = { name: "greet", arguments: { who: "Ada", times: 2 } };
export const ANSWERS: StoredAnswer[] = [
  { ask: askFingerprint("elicitation/create", { message: "Name?" }), answer: { action: "accept", content: { name: "Ada" } } },
  { ask: askFingerprint("roots/list", undefined), answer: { roots: [] } },
];
/** One round of a request: what it was answered so far, and what it asks next. */
export const ROUND: SealedRound = { method: METHOD, params: PARAMS, answers: ANSWERS, asked: ["elicit-3-abcdefgh"], round: 2 };

/** A codec on a clock the test moves by hand. */
export function codec(options: RequestStateOptions = {}): { codec: RequestStateCodec; clock: { now: number } } {
  const clock = { now: 1_000_000 };
  return { codec: new RequestStateCodec({ key: KEY, now: () => clock.now, ...options }), clock };
}

/** Asserts that `open` throws -32602 with `data.reason` === reason, and returns the message. */
export function refused(open: () => unknown, reason: RequestStateRejection): string {
  let message = "";
  assert.throws(open, (error: unknown) => {
    assert.ok(error instanceof RpcError, `an RpcError, got ${String(error)}`);
    assert.equal(error.code, ErrorCode.InvalidParams);
    assert.deepEqual(error.data, { reason });
    assert.match(error.message, /^[a-z/]+: "requestState" /);
    message = error.message;
    return true;
  });
  return message;
}
