// Multi Round-Trip Requests on the wire: a handler written once (it awaits context.elicit(), sample(),
// listRoots()) answers a 2026-07-28 request input_required, and the client's retry (new id,
// inputResponses, the requestState byte for byte) completes it. Also every way a hostile retry can
// be wrong. requestState values are random per run, so these rounds live here, not in goldens.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
// (#supported-requests, #server-requirements-basic-workflow, #security-considerations)
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpServer, text, type ServerOptions } from "../../src/server/definition.js";
import { DEFAULT_REQUEST_STATE_TTL_MS } from "../../src/server/modern/request-state.js";
import { envelope, errorOf, ModernPeer, resultOf } from "../helpers/modern-peer.js";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type Json = { [key: string]: unknown };

const FORM = { elicitation: { form: {} } };
const ALL = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };
const ASK_NAME = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
const ASK_AGE = { message: "age?", requestedSchema: { type: "object" as const, properties: { age: { type: "number" as const } } } };
const SAMPLE = { messages: [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }], maxTokens: 10 };
const ACCEPT_NAME = { action: "accept", content: { name: "Ada" } };
const SAMPLED = { role: "assistant", content: { type: "text", text: "hello" }, model: "m" };

/** What each test's handlers saw, by tool. */
interface Seen { aborted: boolean[]; runs: number }

function mrtrServer(options: ServerOptions = {}): { server: McpServer; seen: Seen } {
  const seen: Seen = { aborted: [], runs: 0 };
  const server = new McpServer({ name: "mrtr", version: "1" }, options);
  const tool = (name: string, handler: Parameters<McpServer["tool"]>[1]) => server.tool({ name, inputSchema: { type: "object" } }, handler);
  tool("name", async (_args, context) => {
    seen.runs++;
    const answer = await context.elicit(ASK_NAME);
    return { content: [text(answer.action === "accept" ? `hi ${String(answer.content?.name)}` : `no name (${answer.action})`)] };
  });
  tool("both", async (_args, context) => {
    const [answer, sampled] = await Promise.all([context.elicit(ASK_NAME), context.sample(SAMPLE)]);
    return { content: [text(`${String(answer.content?.name)} / ${sampled.model}`)] };
  });
  tool("two-rounds", async (_args, context) => {
    const name = await context.elicit(ASK_NAME);
    const age = await context.elicit(ASK_AGE);
    return { content: [text(`${String(name.content?.name)} is ${String(age.content?.age)}`)] };
  });
  tool("roots", async (_args, context) => ({ content: [text(`${(await context.listRoots()).roots.length} roots`)] }));
  tool("url", async (_args, context) => {
    const answer = await context.elicit({ mode: "url", message: "log in", url: "https://example.com/login", elicitationId: "e1" });
    return { content: [text(answer.action)] };
  });
  tool("sample-tools", async (_args, context) => {
    const answer = await context.sample({ ...SAMPLE, tools: [{ name: "t", inputSchema: { type: "object" } }] });
    return { content: [text(answer.model)] };
  });
  tool("asks-forever", async (_args, context) => {
    for (let i = 0; ; i++) await context.elicit({ ...ASK_NAME, message: `question ${i}` });
  });
  tool("watch-signal", async (_args, context) => {
    const signal = context.signal;
    try {
      return { content: [text(String((await context.elicit(ASK_NAME)).action))] };
    } finally {
      seen.aborted.push(signal.aborted);
    }
  });
  tool("fire-and-forget", (_args, context) => {
    void context.elicit(ASK_NAME);
    return { content: [text("done without waiting")] };
  });
  server.prompt({ name: "p" }, async (_args, context) => ({ messages: [{ role: "user", content: text(String((await context.elicit(ASK_NAME)).content?.name)) }] }));
  server.resource({ uri: "mem://r", name: "r" }, async (uri, context) => [{ uri, text: String((await context.elicit(ASK_NAME)).content?.name) }]);
  return { server, seen };
}

/** One input_required round's answer: its single ask key, its requestState. */
function inputRequired(response: Json): { keys: string[]; requests: Json; requestState: string; result: Json } {
  const result = resultOf(response);
  assert.equal(result.resultType, "input_required", JSON.stringify(result));
  const requests = result.inputRequests as Json;
  assert.equal(typeof result.requestState, "string");
  for (const field of ["ttlMs", "cacheScope"]) assert.equal(Object.hasOwn(result, field), false, `no ${field} on input_required`);
  return { keys: Object.keys(requests), requests, requestState: result.requestState as string, result };
}

function call(peer: ModernPeer, name: string, caps: Json, retry: Json = {}, args: Json = {}): Promise<Json> {
  return peer.modern("tools/call", { name, arguments: args, ...retry }, envelope(caps));
}

test("mrtr: an elicitation becomes input_required; the retry with its answer and requestState completes", async () => {
  const peer = new ModernPeer(createDemoServer());
  const round = inputRequired(await call(peer, "greet", FORM));
  assert.equal(round.keys.length, 1);
  assert.match(round.keys[0]!, /^elicit-1-[A-Za-z0-9_-]{8}$/);
  assert.equal((round.requests[round.keys[0]!] as Json).method, "elicitation/create");
  assert.equal(((round.requests[round.keys[0]!] as Json).params as Json).message, "What is your name? The server will greet you by it.");
  const done = resultOf(await call(peer, "greet", FORM, { inputResponses: { [round.keys[0]!]: ACCEPT_NAME }, requestState: round.requestState }));
  assert.deepEqual(done.content, [{ type: "text", text: "Hello, Ada!" }]);
  assert.equal(done.resultType, "complete");
});

test("mrtr: sampling (summarize) goes through one round too", async () => {
  const peer = new ModernPeer(createDemoServer());
  const round = inputRequired(await call(peer, "summarize", { sampling: {} }, {}, { text: "long text" }));
  assert.equal((round.requests[round.keys[0]!] as Json).method, "sampling/createMessage");
  const done = resultOf(await call(peer, "summarize", { sampling: {} }, { inputResponses: { [round.keys[0]!]: SAMPLED }, requestState: round.requestState }, { text: "long text" }));
  assert.deepEqual(done.content, [{ type: "text", text: "hello" }]);
});

test("mrtr: roots/list, prompts/get and resources/read ask the same way", async () => {
  const { server } = mrtrServer();
  const peer = new ModernPeer(server);
  const roots = inputRequired(await call(peer, "roots", { roots: {} }));
  assert.deepEqual(roots.requests[roots.keys[0]!], { method: "roots/list" });
  const rootsDone = await call(peer, "roots", { roots: {} }, { inputResponses: { [roots.keys[0]!]: { roots: [{ uri: "file:///a" }] } }, requestState: roots.requestState });
  assert.deepEqual(resultOf(rootsDone).content, [{ type: "text", text: "1 roots" }]);
  for (const [method, params, field] of [["prompts/get", { name: "p" }, "messages"], ["resources/read", { uri: "mem://r" }, "contents"]] as const) {
    const round = inputRequired(await peer.modern(method, params, envelope(FORM)));
    const done = resultOf(await peer.modern(method, { ...params, inputResponses: { [round.keys[0]!]: ACCEPT_NAME }, requestState: round.requestState }, envelope(FORM)));
    assert.match(JSON.stringify(done[field]), /Ada/, method);
    assert.equal(done.resultType, "complete");
  }
});

test("mrtr: two asks in one turn (Promise.all) go out in one round and are answered together", async () => {
  const { server } = mrtrServer();
  const peer = new ModernPeer(server);
  const round = inputRequired(await call(peer, "both", ALL));
  assert.deepEqual(round.keys.map((k) => k.split("-").slice(0, 2).join("-")).sort(), ["elicit-1", "sample-2"]);
  const [elicitKey, sampleKey] = [round.keys.find((k) => k.startsWith("elicit"))!, round.keys.find((k) => k.startsWith("sample"))!];
  // Only the second answered: both are asked again (answers are used in order).
  const again = inputRequired(await call(peer, "both", ALL, { inputResponses: { [sampleKey]: SAMPLED }, requestState: round.requestState }));
  assert.deepEqual(again.keys.sort(), [elicitKey, sampleKey].sort());
  const done = resultOf(await call(peer, "both", ALL, { inputResponses: { [elicitKey]: ACCEPT_NAME, [sampleKey]: SAMPLED }, requestState: again.requestState }));
  assert.deepEqual(done.content, [{ type: "text", text: "Ada / m" }]);
});

test("mrtr: a multi-round handler: round 1's answers ride in requestState, round 2 answers only the new key", async () => {
  const { server } = mrtrServer();
  const peer = new ModernPeer(server);
  const first = inputRequired(await call(peer, "two-rounds", FORM));
  assert.match(first.keys[0]!, /^elicit-1-/);
  const second = inputRequired(await call(peer, "two-rounds", FORM, { inputResponses: { [first.keys[0]!]: ACCEPT_NAME }, requestState: first.requestState }));
  assert.deepEqual(second.keys.length, 1);
  assert.match(second.keys[0]!, /^elicit-2-/);
  assert.equal(((second.requests[second.keys[0]!] as Json).params as Json).message, "age?");
  const done = resultOf(await call(peer, "two-rounds", FORM, { inputResponses: { [second.keys[0]!]: { action: "accept", content: { age: 36 } } }, requestState: second.requestState }));
  assert.deepEqual(done.content, [{ type: "text", text: "Ada is 36" }]);
});

test("mrtr: decline is an answer like any other; the handler sees it", async () => {
  const { server } = mrtrServer();
  const peer = new ModernPeer(server);
  const round = inputRequired(await call(peer, "name", FORM));
  const done = resultOf(await call(peer, "name", FORM, { inputResponses: { [round.keys[0]!]: { action: "decline" } }, requestState: round.requestState }));
  assert.deepEqual(done.content, [{ type: "text", text: "no name (decline)" }]);
});

test("mrtr: inputResponses keys the server did not ask under are ignored, even 10,000 of them", async () => {
  const { server } = mrtrServer();
  const peer = new ModernPeer(server);
  const round = inputRequired(await call(peer, "name", FORM));
  const junk = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`elicit-${i}-xxxxxxxx`, ACCEPT_NAME]));
  const again = inputRequired(await call(peer, "name", FORM, { inputResponses: junk, requestState: round.requestState }));
  assert.deepEqual(again.keys, round.keys, "nothing it asked was answered: asked again");
  const done = resultOf(await call(peer, "name", FORM, { inputResponses: { ...junk, [round.keys[0]!]: ACCEPT_NAME }, requestState: again.requestState }));
  assert.deepEqual(done.content, [{ type: "text", text: "hi Ada" }]);
});

test("mrtr: a retry without requestState starts over: its inputResponses are not read, even under the right key", async () => {
  const { server, seen } = mrtrServer();
  const peer = new ModernPeer(server);
  const round = inputRequired(await call(peer, "name", FORM));
  // The key is predictable (position and question): only a requestState naming it as asked lets it be answered.
  const again = inputRequired(await call(peer, "name", FORM, { inputResponses: { [round.keys[0]!]: ACCEPT_NAME } }));
  assert.deepEqual(again.keys, round.keys);
  assert.equal(seen.runs, 2);
});

const WRONG_SHAPES: { name: string; retry: (key: string, state: string) => Json; match: RegExp }[] = [
  { name: "inputResponses that is not an object", retry: (_key, state) => ({ inputResponses: "yes", requestState: state }), match: /inputResponses/ },
  { name: "an answer that is not an ElicitResult", retry: (key, state) => ({ inputResponses: { [key]: { action: "maybe" } }, requestState: state }), match: /inputResponses\.elicit-1-.*action/ },
  { name: "an answer that is not an object", retry: (key, state) => ({ inputResponses: { [key]: 42 }, requestState: state }), match: /inputResponses\.elicit-1-/ },
  { name: "a requestState that is not a string", retry: (key) => ({ inputResponses: { [key]: ACCEPT_NAME }, requestState: 7 }), match: /requestState/ },
];

for (const c of WRONG_SHAPES) {
  test(`mrtr: ${c.name} is -32602`, async () => {
    const { server } = mrtrServer();
    const peer = new ModernPeer(server);
    const round = inputRequired(await call(peer, "name", FORM));
    const error = errorOf(await call(peer, "name", FORM, c.retry(round.keys[0]!, round.requestState)));
    assert.equal(error.code, -32602);
    assert.match(error.message, c.match);
  });
}

/** Each way a requestState may be bad, made from a good one, with the reason the server must give. */
const BAD_STATES: { name: string; reason: string; spoil: (state: string) => string; args?: Json }[] = [
  { name: "forged (one MAC character changed)", reason: "forged", spoil: (s) => s.slice(0, -1) + (s.endsWith("A") ? "B" : "A") },
  { name: "forged (the body changed, MAC kept)", reason: "forged", spoil: (s) => "x" + s.slice(1) },
  { name: "truncated", reason: "forged", spoil: (s) => s.slice(0, -4) },
  { name: "cut before the MAC", reason: "malformed", spoil: (s) => s.split(".")[0]! },
  { name: "10 MB long", reason: "too-long", spoil: () => "A".repeat(10 * 1024 * 1024) },
  { name: "bound to other arguments", reason: "other-request", spoil: (s) => s, args: { other: true } },
];

for (const c of BAD_STATES) {
  test(`mrtr: a requestState ${c.name} is -32602 with data.reason ${c.reason}, before the handler runs`, async () => {
    const { server, seen } = mrtrServer();
    const peer = new ModernPeer(server);
    const round = inputRequired(await call(peer, "name", FORM));
    const runs = seen.runs;
    const error = errorOf(await call(peer, "name", FORM, { inputResponses: { [round.keys[0]!]: ACCEPT_NAME }, requestState: c.spoil(round.requestState) }, c.args));
    assert.equal(error.code, -32602);
    assert.equal(error.data?.reason, c.reason);
    assert.match(error.message, /requestState/);
    assert.equal(seen.runs, runs, "the handler did not run again");
  });
}

test("mrtr: a requestState presented after its expiry is -32602 reason expired (codec clock injected)", async () => {
  let now = 1_000_000;
  const { server } = mrtrServer({ requestState: { now: () => now } });
  const peer = new ModernPeer(server);
  const round = inputRequired(await call(peer, "name", FORM));
  now += DEFAULT_REQUEST_STATE_TTL_MS;
  const error = errorOf(await call(peer, "name", FORM, { inputResponses: { [round.keys[0]!]: ACCEPT_NAME }, requestState: round.requestState }));
  assert.deepEqual([error.code, error.data?.reason], [-32602, "expired"]);
});

test("mrtr: a requestState used twice is -32602 reason replayed the second time", async () => {
  const { server } = mrtrServer();
  const peer = new ModernPeer(server);
  const round = inputRequired(await call(peer, "two-rounds", FORM));
  const retry = { inputResponses: { [round.keys[0]!]: ACCEPT_NAME }, requestState: round.requestState };
  inputRequired(await call(peer, "two-rounds", FORM, retry));
  const error = errorOf(await call(peer, "two-rounds", FORM, retry));
  assert.deepEqual([error.code, error.data?.reason], [-32602, "replayed"]);
});

test("mrtr: a requestState of another server key is forged (a load balancer needs one shared key)", async () => {
  const a = new ModernPeer(mrtrServer().server);
  const b = new ModernPeer(mrtrServer().server);
  const round = inputRequired(await call(a, "name", FORM));
  const error = errorOf(await call(b, "name", FORM, { inputResponses: { [round.keys[0]!]: ACCEPT_NAME }, requestState: round.requestState }));
  assert.equal(error.data?.reason, "forged");
  const key = "k".repeat(32);
  const c = new ModernPeer(mrtrServer({ requestState: { key } }).server);
  const d = new ModernPeer(mrtrServer({ requestState: { key } }).server);
  const shared = inputRequired(await call(c, "name", FORM));
  assert.deepEqual(resultOf(await call(d, "name", FORM, { inputResponses: { [shared.keys[0]!]: ACCEPT_NAME }, requestState: shared.requestState })).content, [{ type: "text", text: "hi Ada" }]);
});

/** Each ask against capabilities that do not cover it, and what the -32021 names (mode-aware). */
const MISSING: { tool: string; caps: Json; required: Json }[] = [
  { tool: "name", caps: {}, required: { elicitation: { form: {} } } },
  { tool: "name", caps: { elicitation: { url: {} } }, required: { elicitation: { form: {} } } },
  { tool: "url", caps: { elicitation: {} }, required: { elicitation: { url: {} } } },
  { tool: "url", caps: { elicitation: { form: {} } }, required: { elicitation: { url: {} } } },
  { tool: "both", caps: { elicitation: {} }, required: { sampling: {} } },
  { tool: "sample-tools", caps: { sampling: {} }, required: { sampling: { tools: {} } } },
  { tool: "roots", caps: { elicitation: {}, sampling: {} }, required: { roots: {} } },
];

for (const c of MISSING) {
  test(`mrtr: ${c.tool} with capabilities ${JSON.stringify(c.caps)} is -32021 requiring ${JSON.stringify(c.required)}`, async () => {
    const peer = new ModernPeer(mrtrServer().server);
    const error = errorOf(await call(peer, c.tool, c.caps));
    assert.equal(error.code, -32021);
    assert.deepEqual(error.data, { requiredCapabilities: c.required });
  });
}

test("mrtr: with the capability declared the same asks are embedded (a bare elicitation {} means form; url needs url)", async () => {
  const peer = new ModernPeer(mrtrServer().server);
  inputRequired(await call(peer, "name", { elicitation: {} }));
  const url = inputRequired(await call(peer, "url", { elicitation: { url: {} } }));
  const asked = url.requests[url.keys[0]!] as { params: Json };
  assert.deepEqual(asked.params, { mode: "url", message: "log in", url: "https://example.com/login" }, "no elicitationId in 2026-07-28");
  inputRequired(await call(peer, "sample-tools", { sampling: { tools: {} } }));
});

test("mrtr: past maxInputAsks the handler's ask fails, and a tool answers isError", async () => {
  const peer = new ModernPeer(mrtrServer({ maxInputAsks: 2 }).server);
  let retry: Json = {};
  for (let round = 1; round <= 2; round++) {
    const asked = inputRequired(await call(peer, "asks-forever", FORM, retry));
    retry = { inputResponses: { [asked.keys[0]!]: ACCEPT_NAME }, requestState: asked.requestState };
  }
  const result = resultOf(await call(peer, "asks-forever", FORM, retry));
  assert.equal(result.isError, true);
  assert.match(JSON.stringify(result.content), /asked the client 3 times; the most one request may ask is 2/);
});

test("mrtr: the handler's signal aborts when it is set aside, and not when it completes", async () => {
  const { server, seen } = mrtrServer();
  const peer = new ModernPeer(server);
  const round = inputRequired(await call(peer, "watch-signal", FORM));
  assert.deepEqual(seen.aborted, [true], "a set-aside handler's ask rejects: its finally runs, with its signal aborted");
  const done = resultOf(await call(peer, "watch-signal", FORM, { inputResponses: { [round.keys[0]!]: ACCEPT_NAME }, requestState: round.requestState }));
  assert.deepEqual(done.content, [{ type: "text", text: "accept" }]);
  assert.deepEqual(seen.aborted, [true, false]);
});

test("mrtr: a set-aside handler's signal is aborted with a reason that names the step", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  let signal: AbortSignal | undefined;
  server.tool({ name: "t", inputSchema: { type: "object" } }, async (_args, context) => {
    signal = context.signal;
    return { content: [text(String((await context.elicit(ASK_NAME)).action))] };
  });
  const peer = new ModernPeer(server);
  inputRequired(await call(peer, "t", FORM));
  assert.equal(signal?.aborted, true);
  assert.match(String((signal?.reason as Error).message), /tools\/call: set aside until the client answers/);
});

test("mrtr: a handler that finishes without awaiting its ask is answered complete", async () => {
  const peer = new ModernPeer(mrtrServer().server);
  const done = resultOf(await call(peer, "fire-and-forget", FORM));
  assert.equal(done.resultType, "complete");
  assert.deepEqual(done.content, [{ type: "text", text: "done without waiting" }]);
});

test("mrtr: set-aside handlers leave nothing behind: no timers, and their frames are collected", async () => {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const frames: WeakRef<object>[] = [];
  const server = new McpServer({ name: "s", version: "1" });
  server.tool({ name: "t", inputSchema: { type: "object" } }, async (_args, context) => {
    const frame = { big: new Array(1000).fill(0) };
    frames.push(new WeakRef(frame));
    const answer = await context.elicit(ASK_NAME);
    return { content: [text(`${answer.action} ${frame.big.length}`)] };
  });
  const peer = new ModernPeer(server);
  const before = activeTimers();
  for (let i = 0; i < 50; i++) inputRequired(await call(peer, "t", FORM));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(activeTimers(), before, "no timer or immediate outlives a round");
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const alive = frames.filter((ref) => ref.deref() !== undefined).length;
  assert.equal(alive, 0, `${alive} of 50 set-aside handlers are still reachable`);
});

function activeTimers(): string[] {
  return process.getActiveResourcesInfo().filter((kind) => kind === "Timeout" || kind === "Immediate");
}

test("mrtr: a handler whose ask is refused -32021 is stopped too: its signal aborts, so work beside the ask ends", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  let signal: AbortSignal | undefined;
  server.tool({ name: "t", inputSchema: { type: "object" } }, async (_args, context) => {
    signal = context.signal;
    const beside = new Promise<void>((resolve) => signal!.addEventListener("abort", () => resolve()));
    await Promise.all([context.elicit(ASK_NAME), beside]);
    return { content: [] };
  });
  const peer = new ModernPeer(server);
  assert.equal(errorOf(await call(peer, "t", {})).code, -32021);
  assert.equal(signal?.aborted, true, "the handler was told to stop");
  assert.match(String((signal?.reason as Error).message), /cannot ask elicitation\/create/);
});

test("mrtr: a signal first read after the handler was set aside is already aborted", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  let kept: { signal: AbortSignal } | undefined;
  server.tool({ name: "t", inputSchema: { type: "object" } }, async (_args, context) => {
    kept = context;
    return { content: [text(String((await context.elicit(ASK_NAME)).action))] };
  });
  const peer = new ModernPeer(server);
  inputRequired(await call(peer, "t", FORM));
  assert.equal(kept?.signal.aborted, true);
});

test("mrtr: answers too large to carry in requestState to the next round are -32602, not an internal error", async () => {
  const peer = new ModernPeer(mrtrServer({ requestState: { maxStateBytes: 2000 } }).server);
  const first = inputRequired(await call(peer, "two-rounds", FORM));
  const huge = { action: "accept", content: { name: "x".repeat(3000) } };
  const error = errorOf(await call(peer, "two-rounds", FORM, { inputResponses: { [first.keys[0]!]: huge }, requestState: first.requestState }));
  assert.equal(error.code, -32602);
  assert.match(error.message, /tools\/call: .*over the 2000-byte limit/);
});
