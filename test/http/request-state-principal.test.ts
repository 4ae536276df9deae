// Over Streamable HTTP with the OAuth resource server (both adapters): a 2026-07-28 requestState
// answers only the principal (issuer and subject) whose access token got it. Bob, with his own
// valid token for the same issuer and audience, retrying with alice's state is refused with the
// misbound state's -32602; alice's own retry still completes. Spec:
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
import { test } from "node:test";
import assert from "node:assert/strict";
import { withAuthorizedServer } from "../helpers/authorized-http.js";
import type { Message } from "../helpers/http-peer.js";
import { modernRequest, postModern } from "../helpers/http-modern-peer.js";

const SCOPES = ["mcp:read", "mcp:write"];
const FORM = { elicitation: { form: {} } };
const peers = withAuthorizedServer(SCOPES);

const bearerFor = (sub: string) => ({ authorization: `Bearer ${peers.as.mint({ audience: peers.served.url, scope: SCOPES.join(" "), claims: { sub } })}` });

async function call(headers: Record<string, string>, id: number, retry: object = {}): Promise<{ status: number; message: Message }> {
  const response = await postModern(peers.served.url, modernRequest(id, "tools/call", { name: "greet", arguments: {}, ...retry }, {}, FORM), headers);
  return { status: response.status, message: (await response.json()) as Message };
}

test("request state principal: bob's retry with alice's requestState is refused; alice's own retry completes", async () => {
  const alice = bearerFor("alice");
  const bob = bearerFor("bob");
  const first = await call(alice, 1);
  assert.equal(first.status, 200);
  assert.equal(first.message.result.resultType, "input_required");
  const key = Object.keys(first.message.result.inputRequests)[0]!;
  const requestState = first.message.result.requestState as string;

  const stolen = await call(bob, 2, { inputResponses: { [key]: { action: "accept", content: { name: "Mallory" } } }, requestState });
  assert.equal(stolen.message.result, undefined, `bob must get no result, got ${JSON.stringify(stolen.message.result)}`);
  assert.equal(stolen.message.error.code, -32602);
  assert.deepEqual(stolen.message.error.data, { reason: "other-request" });

  const own = await call(alice, 3, { inputResponses: { [key]: { action: "accept", content: { name: "Alice" } } }, requestState });
  assert.equal(own.status, 200);
  assert.equal(own.message.result.resultType, "complete");
  assert.match(own.message.result.content[0].text, /Alice/);
});

test("request state principal: alice with a fresh token (another jti, same subject) still completes her round", async () => {
  const first = await call(bearerFor("alice"), 1);
  const key = Object.keys(first.message.result.inputRequests)[0]!;
  const own = await call(bearerFor("alice"), 2, { inputResponses: { [key]: { action: "accept", content: { name: "Alice" } } }, requestState: first.message.result.requestState });
  assert.equal(own.message.result?.resultType, "complete", JSON.stringify(own.message));
});
