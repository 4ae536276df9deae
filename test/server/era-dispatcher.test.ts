// The era of a request is judged once, where it enters the server (server/era-dispatcher.ts), and
// carried: a handshake-era tools/call is read by the handshake era's readers, which know nothing of
// 2026-07-28's retry fields, and a 2026-07-28 one by the modern readers, which check them.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (era per request)
// and basic/patterns/mrtr; https://modelcontextprotocol.io/specification/2025-11-25/server/tools.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/jsonrpc/messages.js";
import { McpServer, text } from "../../src/server/definition.js";
import { envelope, errorOf, ModernPeer, resultOf } from "../helpers/modern-peer.js";

function server(): McpServer {
  return new McpServer({ name: "s", version: "1" }).tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [text("ran")] }));
}

const RETRY_FIELDS = { inputResponses: 5, requestState: 5 };

test("era: a handshake-era tools/call carrying 2026-07-28's retry fields is served: they are not its fields", async () => {
  const peer = new ModernPeer(server());
  await peer.initialize();
  const result = resultOf(await peer.request("tools/call", { name: "t", ...RETRY_FIELDS }));
  assert.deepEqual(result.content, [{ type: "text", text: "ran" }]);
});

test("era: a 2026-07-28 tools/call with inputResponses of the wrong type is -32602 naming it", async () => {
  const error = errorOf(await new ModernPeer(server()).modern("tools/call", { name: "t", inputResponses: 5 }, envelope()));
  assert.equal(error.code, ErrorCode.InvalidParams);
  assert.match(String(error.message), /^tools\/call: "inputResponses"/);
});

test("era: one connection serves both eras side by side, each by its own readers", async () => {
  const peer = new ModernPeer(server());
  await peer.initialize();
  assert.equal(errorOf(await peer.modern("tools/call", { name: "t", requestState: 5 }, envelope())).code, ErrorCode.InvalidParams);
  assert.deepEqual(resultOf(await peer.request("tools/call", { name: "t", requestState: 5 })).isError, undefined);
});
