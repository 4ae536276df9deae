// What a server offers a client (server/capabilities.ts, offerOf): worked out once per version,
// connection kind and the kinds the definition has, and shared by every connection offered it,
// which is why it must follow the definition as it changes and why no connection may change it.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/jsonrpc/messages.js";
import { offerOf } from "../../src/server/capabilities.js";
import { McpServer, text } from "../../src/server/definition.js";

const addTool = (server: McpServer) => server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [text("ok")] }));

test("offerOf: a server without tools refuses tools/call with -32601 naming the capability; with one, it offers tools and refuses nothing of them", () => {
  const server = new McpServer({ name: "offers", version: "1" });
  const bare = offerOf(server, "2025-11-25");
  assert.equal(bare.capabilities.tools, undefined);
  assert.equal(bare.refused.get("tools/call")?.code, ErrorCode.MethodNotFound);
  assert.match(bare.refused.get("tools/call")!.message, /^tools\/call: this server does not offer tools/);
  addTool(server);
  const withTools = offerOf(server, "2025-11-25");
  assert.deepEqual(withTools.capabilities.tools, { listChanged: true });
  assert.equal(withTools.refused.get("tools/call"), undefined);
  assert.equal(withTools.refused.get("tools/list"), undefined);
  // The definition lost its tool again: the offer follows it.
  server.removeTool("echo");
  assert.equal(offerOf(server, "2025-11-25").refused.get("tools/call")?.code, ErrorCode.MethodNotFound);
});

test("offerOf: a connection for one request is offered no list changes; two servers that have the same kinds share one frozen offer", () => {
  const one = addTool(new McpServer({ name: "one", version: "1" }));
  const other = addTool(new McpServer({ name: "other", version: "1" }));
  assert.deepEqual(offerOf(one, "2025-11-25", true).capabilities.tools, {});
  assert.equal(offerOf(one, "2025-11-25"), offerOf(other, "2025-11-25"));
  const capabilities = offerOf(one, "2025-11-25").capabilities;
  assert.ok(Object.isFrozen(capabilities) && Object.isFrozen(capabilities.tools));
  assert.throws(() => {
    (capabilities as { logging?: object }).logging = undefined;
  }, TypeError);
});
