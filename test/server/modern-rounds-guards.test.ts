// What the requestState of a Multi Round-Trip Request guards, on the wire: an answer counts only
// under a key the presented state names as asked; a request takes at most maxInputRounds rounds,
// even when a handler's question changes from run to run; a state is used up only once its retry
// produced an answer (a bad answer, a cancel or a lost race leave it, or refuse it, as they should);
// a full replay memory refuses the next retry (-32603) rather than forget a used state; and a set-aside or refused handler's pending asks reject, so it unwinds at once.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, text, type ServerOptions } from "../../src/server/definition.js";
import { DEFAULT_MAX_INPUT_ROUNDS, InputRounds, InputRoundSetAsideError } from "../../src/server/modern/input-rounds.js";
import { RequestStateCodec } from "../../src/server/modern/request-state.js";
import { readServerRequestResult } from "../../src/mcp/read.js";
import type { HandlerContext } from "../../src/server/handler-context.js";
import { envelope, errorOf, ModernPeer, resultOf } from "../helpers/modern-peer.js";
import { settle } from "../helpers/raw-peer.js";

type Json = { [key: string]: unknown };

const FORM = { elicitation: { form: {} } };
const ASK = (message: string) => ({ message, requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } });
const ACCEPT = { action: "accept", content: { name: "Ada" } };

type Handler = (context: HandlerContext) => Promise<string>;

/** A server with one tool per handler, each answering its handler's text. */
function serverWith(tools: Record<string, Handler>, options: ServerOptions = {}): McpServer {
  const server = new McpServer({ name: "guards", version: "1" }, options);
  for (const [name, handler] of Object.entries(tools)) {
    server.tool({ name, inputSchema: { type: "object" } }, async (_args, context) => ({ content: [text(await handler(context))] }));
  }
  return server;
}

function call(peer: ModernPeer, name: string, retry: Json = {}, id?: string): Promise<Json> {
  return peer.modern("tools/call", { name, arguments: {}, ...retry }, envelope(FORM), id);
}

/** The asked keys and the requestState of an input_required answer. */
function asked(response: Json): { keys: string[]; requestState: string } {
  const result = resultOf(response);
  assert.equal(result.resultType, "input_required", JSON.stringify(result));
  return { keys: Object.keys(result.inputRequests as Json), requestState: result.requestState as string };
}

/** A retry answering every key of `round` with `answer`. */
function answering(round: { keys: string[]; requestState: string }, answer: unknown = ACCEPT): Json {
  return { inputResponses: Object.fromEntries(round.keys.map((key) => [key, answer])), requestState: round.requestState };
}

const twoAsks: Handler = async (context) => {
  const first = await context.elicit(ASK("first?"));
  const second = await context.elicit(ASK("second?"));
  return `${String(first.content?.name)} ${String(second.content?.name)}`;
};

test("guards: an answer to a later round's ask, sent early under its predictable key, is not read", async () => {
  const peer = new ModernPeer(serverWith({ twoAsks }));
  // Learn round two's key the honest way once, then try to skip round two on a new request.
  const first = asked(await call(peer, "twoAsks"));
  const second = asked(await call(peer, "twoAsks", answering(first)));
  const fresh = asked(await call(peer, "twoAsks"));
  const skip = { inputResponses: { [fresh.keys[0]!]: ACCEPT, [second.keys[0]!]: ACCEPT }, requestState: fresh.requestState };
  const again = asked(await call(peer, "twoAsks", skip));
  assert.deepEqual(again.keys, second.keys, "round two is still asked: its key was not asked in round one");
  assert.deepEqual(resultOf(await call(peer, "twoAsks", answering(again))).content, [{ type: "text", text: "Ada Ada" }]);
});

test(`guards: a handler whose question changes each run ends at maxInputRounds (default ${DEFAULT_MAX_INPUT_ROUNDS}) with isError`, async () => {
  let runs = 0;
  const peer = new ModernPeer(serverWith({ nonce: async (context) => String((await context.elicit(ASK(`question ${runs++}`))).action) }));
  let retry: Json = {};
  for (let round = 1; round <= DEFAULT_MAX_INPUT_ROUNDS; round++) retry = answering(asked(await call(peer, "nonce", retry)));
  const result = resultOf(await call(peer, "nonce", retry));
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.match(JSON.stringify(result.content), /tools\/call: the handler needs input round 9; the most one request may take is 8/);
});

test("guards: ServerOptions.maxInputRounds reaches the rounds: with 2, the third round's ask fails in the handler", async () => {
  let runs = 0;
  const peer = new ModernPeer(serverWith({ nonce: async (context) => String((await context.elicit(ASK(`question ${runs++}`))).action) }, { maxInputRounds: 2 }));
  let retry: Json = {};
  for (let round = 1; round <= 2; round++) retry = answering(asked(await call(peer, "nonce", retry)));
  const result = resultOf(await call(peer, "nonce", retry));
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.match(JSON.stringify(result.content), /input round 3; the most one request may take is 2/);
});

test("guards: InputRounds' round bound is its own: with maxRounds 1, a second round's ask fails in the handler", async () => {
  const codec = new RequestStateCodec();
  const served = { protocolVersion: "2026-07-28" as const, logLevel: undefined, clientInfo: { name: "c", version: "1" }, clientCapabilities: FORM, signal: new AbortController().signal };
  const run = (params: Json) => {
    const rounds = new InputRounds("tools/call", params, served, codec, 16, 1);
    const handler = async () => ({ n: (await rounds.ask({ method: "elicitation/create", params: ASK(`q${String(params.requestState)}`) }, readServerRequestResult["elicitation/create"])).action });
    return { rounds, outcome: rounds.run(handler) };
  };
  const first = run({});
  const pending = (await first.outcome).needsInput;
  assert.ok(pending);
  const state = first.rounds.inputRequired(pending, { name: "s", version: "1" }).requestState;
  await assert.rejects(run({ requestState: state }).outcome, /tools\/call: the handler needs input round 2; the most one request may take is 1/);
});

test("guards: a handler that asks the same each run takes one round per turn of asks, well within the bound", async () => {
  const peer = new ModernPeer(serverWith({ twoAsks }));
  let response = await call(peer, "twoAsks");
  for (let round = 0; round < 2; round++) response = await call(peer, "twoAsks", answering(asked(response)));
  assert.equal(resultOf(response).resultType, "complete");
});

for (const bad of [{ name: "an answer of the wrong shape", retry: (round: { keys: string[]; requestState: string }) => answering(round, { action: "maybe" }) },
  { name: "inputResponses that is not an object", retry: (round: { keys: string[]; requestState: string }) => ({ inputResponses: "yes", requestState: round.requestState }) }]) {
  test(`guards: ${bad.name} is -32602 and leaves the requestState usable`, async () => {
    const peer = new ModernPeer(serverWith({ twoAsks }));
    const round = asked(await call(peer, "twoAsks"));
    assert.equal(errorOf(await call(peer, "twoAsks", bad.retry(round))).code, -32602);
    asked(await call(peer, "twoAsks", answering(round)));
  });
}

test("guards: a retry that completed used its requestState up: the same retry again is replayed", async () => {
  const peer = new ModernPeer(serverWith({ one: async (context) => String((await context.elicit(ASK("name?"))).action) }));
  const round = asked(await call(peer, "one"));
  assert.equal(resultOf(await call(peer, "one", answering(round))).resultType, "complete");
  assert.equal(errorOf(await call(peer, "one", answering(round))).data?.reason, "replayed");
});

/** A tool that, once answered, waits for `release()` before it completes, ignoring its signal. */
function gated(): { tools: Record<string, Handler>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { tools: { gated: async (context) => { const answer = await context.elicit(ASK("name?")); await gate; return answer.action; } }, release };
}

test("guards: a retry cancelled before its answer leaves the requestState usable", async () => {
  const { tools, release } = gated();
  const peer = new ModernPeer(serverWith(tools));
  const round = asked(await call(peer, "gated"));
  void call(peer, "gated", answering(round), "cancelled").catch(() => {});
  await settle();
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "cancelled", reason: "changed my mind" } });
  await settle();
  release();
  await settle();
  assert.equal(peer.answered("cancelled"), false, "a cancelled request is not answered");
  assert.deepEqual(resultOf(await call(peer, "gated", answering(round))).content, [{ type: "text", text: "accept" }]);
});

test("guards: of two retries sent at once with one requestState, the first to answer uses it; the other is replayed", async () => {
  const { tools, release } = gated();
  const peer = new ModernPeer(serverWith(tools));
  const round = asked(await call(peer, "gated"));
  const both = Promise.all([call(peer, "gated", answering(round), "a"), call(peer, "gated", answering(round), "b")]);
  await settle();
  release();
  const [a, b] = await both;
  assert.equal(resultOf(a).resultType, "complete");
  assert.deepEqual([errorOf(b).code, errorOf(b).data?.reason], [-32602, "replayed"]);
});

test("guards: a full replay memory refuses the next retry -32603 before its handler runs, and the used state stays used", async () => {
  let runs = 0;
  const counting: Handler = async (context) => (runs++, String((await context.elicit(ASK("name?"))).action));
  const peer = new ModernPeer(serverWith({ one: counting }, { requestState: { maxRememberedUses: 1 } }));
  const first = asked(await call(peer, "one"));
  const second = asked(await call(peer, "one"));
  assert.equal(resultOf(await call(peer, "one", answering(first))).resultType, "complete");
  runs = 0;
  const refusal = errorOf(await call(peer, "one", answering(second)));
  assert.equal(refusal.code, -32603);
  assert.equal(refusal.data?.reason, "busy");
  assert.equal(refusal.data?.limit, 1);
  assert.equal(runs, 0, "refused before the handler ran");
  assert.equal(errorOf(await call(peer, "one", answering(first))).data?.reason, "replayed", "nothing was forgotten to make room");
});

test("guards: of two retries of different rounds racing for the memory's last room, the later answer is -32603 and its state stays usable", async () => {
  const { tools, release } = gated();
  const peer = new ModernPeer(serverWith(tools, { requestState: { maxRememberedUses: 1 } }));
  const [a, b] = [asked(await call(peer, "gated")), asked(await call(peer, "gated"))];
  const both = Promise.all([call(peer, "gated", answering(a), "a"), call(peer, "gated", answering(b), "b")]);
  await settle();
  release();
  const [answerA, answerB] = await both;
  assert.equal(resultOf(answerA).resultType, "complete");
  assert.deepEqual([errorOf(answerB).code, errorOf(answerB).data?.reason], [-32603, "busy"]);
  assert.equal(errorOf(await call(peer, "gated", answering(b))).data?.reason, "busy", "b was not used up: refused as busy, not as replayed");
});

test("guards: a set-aside handler's pending ask rejects with InputRoundSetAsideError, so it unwinds at once", async () => {
  const seen: unknown[] = [];
  const peer = new ModernPeer(serverWith({
    unwinds: async (context) => {
      try {
        return String((await context.elicit(ASK("name?"))).action);
      } catch (error) {
        seen.push(error);
        throw error;
      }
    },
  }));
  asked(await call(peer, "unwinds"));
  await settle();
  assert.equal(seen.length, 1, "the handler is not left suspended");
  assert.ok(seen[0] instanceof InputRoundSetAsideError);
  assert.match((seen[0] as Error).message, /tools\/call: set aside until the client answers/);
});

test("guards: when an ask is refused -32021, the asks pending beside it reject too", async () => {
  let settled: PromiseSettledResult<unknown>[] | undefined;
  const peer = new ModernPeer(serverWith({
    refused: async (context) => {
      const name = context.elicit(ASK("name?"));
      const sampled = context.sample({ messages: [], maxTokens: 1 });
      settled = await Promise.allSettled([name, sampled]);
      return "unreached";
    },
  }));
  assert.equal(errorOf(await call(peer, "refused")).code, -32021);
  await settle();
  assert.deepEqual(settled?.map((outcome) => outcome.status), ["rejected", "rejected"]);
  assert.match(String((settled?.[0] as PromiseRejectedResult).reason), /cannot ask sampling\/createMessage/);
});

test("guards: a modern handler's context.signal is one signal, however often it is read", async () => {
  let same: boolean | undefined;
  const peer = new ModernPeer(serverWith({ signal: async (context) => { same = context.signal === context.signal; return "ok"; } }));
  resultOf(await call(peer, "signal"));
  assert.equal(same, true);
});
