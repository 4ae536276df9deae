// -32042, URLElicitationRequiredError (2025-11-25): a server that needs the user to finish a URL
// elicitation first throws it with its data; the peer receives the spec's error response exactly,
// and our client hands the code and `data.elicitations` to the caller.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { ErrorCode } from "../../src/mcp/errors.js";
import type { URLElicitationRequiredErrorData } from "../../src/mcp/elicitation.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { McpServer } from "../../src/server/definition.js";
import { RawPeer } from "../helpers/raw-peer.js";

// The example of the spec's section client/elicitation#url-elicitation-required-error.
const MESSAGE = "This request requires more information.";
const DATA = {
  elicitations: [{
    mode: "url",
    elicitationId: "550e8400-e29b-41d4-a716-446655440000",
    url: "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
    message: "Authorization is required to access your Example Co files.",
  }],
} satisfies URLElicitationRequiredErrorData;

function server(): McpServer {
  return new McpServer({ name: "t", version: "1" }).tool({ name: "list_files", inputSchema: { type: "object" } }, () => {
    throw new RpcError(ErrorCode.URLElicitationRequired, MESSAGE, DATA);
  });
}

test("elicitation: ErrorCode.URLElicitationRequired is -32042", () => {
  assert.equal(ErrorCode.URLElicitationRequired, -32042);
});

test("elicitation: a tool that throws URLElicitationRequired answers with the spec's error response, data included", async () => {
  const peer = new RawPeer();
  server().connect(peer);
  peer.write({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { url: {} } }, clientInfo: { name: "t", version: "1" } } });
  await peer.waitForSent(1);
  peer.write({ jsonrpc: "2.0", method: "notifications/initialized" });
  peer.write({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_files", arguments: {} } });
  await peer.waitForSent(2);
  assert.deepEqual(peer.sent[1], { jsonrpc: "2.0", id: 2, error: { code: -32042, message: MESSAGE, data: DATA } });
});

test("elicitation: our client rejects the call with an RpcError that carries the code and data.elicitations", async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  server().connect(serverEnd);
  const client = new McpClient({ name: "t", version: "1" });
  await client.connect(clientEnd);
  try {
    await assert.rejects(client.callTool("list_files", {}), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, ErrorCode.URLElicitationRequired);
      assert.deepEqual(error.data, DATA);
      return true;
    });
  } finally {
    await client.close();
  }
});

test("elicitation: the data type admits URL-mode elicitations only (checked by the compiler)", () => {
  const wrong: URLElicitationRequiredErrorData = {
    // @ts-expect-error: a form-mode elicitation cannot be completed at a URL, so it does not belong here.
    elicitations: [{ mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: {} } }],
  };
  assert.equal(wrong.elicitations.length, 1);
});
