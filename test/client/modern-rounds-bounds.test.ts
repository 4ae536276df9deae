// The bounds on a 2026-07-28 call's input rounds: entries per round (maxInputRequests), answered
// one after another, the call's maxTotalMs shared by all its rounds, and a handler's refusal kept
// local (InputRefusedError), never taken for the server's error (basic/patterns/mrtr).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, type ClientOptions } from "../../src/client/client.js";
import { InputRefusedError, InputRequestsExceededError, InputRoundsTimeoutError } from "../../src/client/errors.js";
import { DEFAULT_MAX_INPUT_REQUESTS } from "../../src/client/modern/input-rounds.js";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { roundsServer } from "../helpers/client-modern-peer.js";

const info = { name: "test-client", version: "1.0.0" };
const sample = { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } };
const samples = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, sample]));
const reply = { role: "assistant", model: "m", content: { type: "text", text: "ok" } } as const;

async function connected(server: ReturnType<typeof roundsServer>, options: ClientOptions) {
  const client = new McpClient(info, options);
  await client.connect(server);
  return client;
}

test("a round asking for more than maxInputRequests (default 16) fails the call locally, none answered", async () => {
  let answered = 0;
  const server = roundsServer(() => ({ resultType: "input_required", inputRequests: samples(DEFAULT_MAX_INPUT_REQUESTS + 1) }));
  const client = await connected(server, { sampling: () => (answered++, reply) });
  await assert.rejects(client.callTool("x"), (e: unknown) => e instanceof InputRequestsExceededError && /asked for 17 inputs in one round, more than 16 \(maxInputRequests\)/.test(e.message));
  assert.equal(answered, 0);
  assert.equal(server.sent.filter((m) => m.method === "tools/call").length, 1, "no retry sent");
  await client.close();

  const small = roundsServer((round) => (round === 0 ? { resultType: "input_required", inputRequests: samples(3) } : { resultType: "complete", content: [] }));
  const bounded = await connected(small, { sampling: () => reply, maxInputRequests: 2 });
  await assert.rejects(bounded.callTool("x"), InputRequestsExceededError);
  await bounded.close();
});

test("the inputs of a round are answered one after another, all of them", async () => {
  let running = 0;
  let most = 0;
  const server = roundsServer((round) => (round === 0 ? { resultType: "input_required", inputRequests: samples(4) } : { resultType: "complete", content: [] }));
  const client = await connected(server, {
    sampling: async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return reply;
    },
  });
  await client.callTool("x");
  assert.equal(most, 1, "never two at once");
  assert.deepEqual(Object.keys(server.sent.filter((m) => m.method === "tools/call")[1]!.params!.inputResponses as object), ["s0", "s1", "s2", "s3"]);
  await client.close();
});

test("the rounds share the call's maxTotalMs: a call whose answers used it up sends no further round", async () => {
  const server = roundsServer((round) => (round < 5 ? { resultType: "input_required", inputRequests: samples(1) } : { resultType: "complete", content: [] }));
  const client = await connected(server, { sampling: async () => { await new Promise((resolve) => setTimeout(resolve, 60)); return reply; } });
  // Each round on its own is quick (the server answers at once); the answers take 60 ms each.
  await assert.rejects(client.callTool("x", {}, { timeouts: { maxTotalMs: 100 } }), (e: unknown) => e instanceof InputRoundsTimeoutError && /maximum total time \(100 ms\)/.test(e.message));
  assert.ok(server.sent.filter((m) => m.method === "tools/call").length <= 2, "stopped within the budget");
  await client.close();
});

test("a handler's refusal (an elicitation mode this client lacks) is a local InputRefusedError naming the input, not the server's error", async () => {
  const url = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/login" } };
  const server = roundsServer(() => ({ resultType: "input_required", inputRequests: { login: url } }));
  const client = await connected(server, { elicitation: { form: () => ({ action: "decline" }) } });
  await assert.rejects(client.callTool("x"), (e: unknown) => e instanceof InputRefusedError && !(e instanceof RpcError) && /input "login" \(elicitation\/create\): .*does not support "url" mode/.test(e.message));
  await client.close();
});
