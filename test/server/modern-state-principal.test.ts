// A requestState is bound to whom the connection speaks for (ServerConnectionOptions.principal, which
// the HTTP server sets from the access token): another principal's retry with it is refused before
// the handler runs, and so is a state sealed for nobody presented by somebody, or the other way round.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, text } from "../../src/server/definition.js";
import { envelope, errorOf, ModernPeer, resultOf } from "../helpers/modern-peer.js";

type Json = { [key: string]: unknown };
const FORM = { elicitation: { form: {} } };

/** A server whose one tool asks a name, counting the runs that got past the ask. */
function askingServer(): { server: McpServer; greeted: string[] } {
  const server = new McpServer({ name: "s", version: "1" });
  const greeted: string[] = [];
  server.tool({ name: "greet", inputSchema: { type: "object" } }, async (_args, context) => {
    const answer = await context.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
    const name = String(answer.content?.name);
    greeted.push(name);
    return { content: [text(`Hello, ${name}!`)] };
  });
  return { server, greeted };
}

/** The first round's answer: its one ask's key and the state to retry with. */
async function firstRound(peer: ModernPeer): Promise<{ key: string; requestState: string }> {
  const asked = resultOf(await peer.modern("tools/call", { name: "greet", arguments: {} }, envelope(FORM)));
  assert.equal(asked.resultType, "input_required");
  return { key: Object.keys(asked.inputRequests as Json)[0]!, requestState: asked.requestState as string };
}

function retry(peer: ModernPeer, round: { key: string; requestState: string }, name: string): Promise<Json> {
  const inputResponses = { [round.key]: { action: "accept", content: { name } } };
  return peer.modern("tools/call", { name: "greet", arguments: {}, inputResponses, requestState: round.requestState }, envelope(FORM));
}

function assertOtherCaller(response: Json): void {
  const error = errorOf(response);
  assert.equal(error.code, -32602);
  assert.deepEqual(error.data, { reason: "other-request" });
  assert.match(error.message, /another caller/);
}

test("modern state principal: bob's retry with alice's state is refused before the handler runs; alice's completes", async () => {
  const { server, greeted } = askingServer();
  const alice = new ModernPeer(server, { principal: '["https://as.example","alice",null]' });
  const bob = new ModernPeer(server, { principal: '["https://as.example","bob",null]' });
  const round = await firstRound(alice);
  assertOtherCaller(await retry(bob, round, "Mallory"));
  assert.deepEqual(greeted, [], "bob's retry never reached the handler's result");
  const done = resultOf(await retry(alice, round, "Alice"));
  assert.equal(done.resultType, "complete");
  assert.deepEqual(done.content, [{ type: "text", text: "Hello, Alice!" }]);
  assert.deepEqual(greeted, ["Alice"]);
});

test("modern state principal: a state sealed for nobody is refused from a principal, and one sealed for a principal from nobody", async () => {
  const { server, greeted } = askingServer();
  const nobody = new ModernPeer(server);
  const alice = new ModernPeer(server, { principal: "alice" });
  const anonymous = await firstRound(nobody);
  const hers = await firstRound(alice);
  assertOtherCaller(await retry(alice, anonymous, "Mallory"));
  assertOtherCaller(await retry(nobody, hers, "Mallory"));
  assert.deepEqual(greeted, []);
  // Neither refusal used a state up: each still completes for whom it was sealed.
  assert.equal(resultOf(await retry(nobody, anonymous, "Ann")).resultType, "complete");
  assert.equal(resultOf(await retry(alice, hers, "Alice")).resultType, "complete");
  assert.deepEqual(greeted, ["Ann", "Alice"]);
});
