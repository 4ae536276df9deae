// What the client transport reads off a message to carry it in the 2026-07-28 era (issue 9):
// modernHeaders() (the era is the message's own claim in `_meta`), cancelledRequest() (the request
// a cancel names) and errorAnswer() (a refusal's body as the request's response, or not).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import { META } from "../../src/mcp/modern.js";
import { cancelledRequest, errorAnswer, modernHeaders } from "../../src/http/client-messages.js";

const claim = { [META.protocolVersion]: "2026-07-28", [META.clientCapabilities]: {} };

const eras: { name: string; message: JSONRPCMessage | JSONRPCMessage[]; want: Record<string, string> | undefined }[] = [
  { name: "a request claiming a version: the mirror", message: { jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "p", _meta: claim } }, want: { "mcp-protocol-version": "2026-07-28", "mcp-method": "prompts/get", "mcp-name": "p" } },
  { name: "a claim with a version that is not a string: the method only (the server answers -32602)", message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [META.protocolVersion]: 7 } } }, want: { "mcp-method": "tools/list" } },
  { name: "a legacy request (a progress token in _meta, no claim)", message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { progressToken: 1 } } }, want: undefined },
  { name: "a legacy request without params", message: { jsonrpc: "2.0", id: 1, method: "tools/list" }, want: undefined },
  { name: "a response", message: { jsonrpc: "2.0", id: 1, result: { _meta: claim } }, want: undefined },
  { name: "a batch (the modern era has none)", message: [{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: claim } }], want: undefined },
];
for (const c of eras) test(`modernHeaders: ${c.name}`, () => assert.deepEqual(modernHeaders(c.message), c.want));

const cancels: { name: string; message: JSONRPCMessage | JSONRPCMessage[]; want: string | number | undefined }[] = [
  { name: "a numeric id", message: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } }, want: 3 },
  { name: "a string id stays a string", message: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "3" } }, want: "3" },
  { name: "no requestId", message: { jsonrpc: "2.0", method: "notifications/cancelled", params: {} }, want: undefined },
  { name: "another notification", message: { jsonrpc: "2.0", method: "notifications/progress", params: { requestId: 3 } }, want: undefined },
  { name: "in a batch", message: [{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } }], want: undefined },
];
for (const c of cancels) test(`cancelledRequest: ${c.name}`, () => assert.equal(cancelledRequest(c.message), c.want));

test("errorAnswer: the error is re-addressed to the request, with its data; anything else is no answer", () => {
  const error = { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"] } };
  assert.deepEqual(JSON.parse(errorAnswer(JSON.stringify({ jsonrpc: "2.0", error }), "p-1")!), { jsonrpc: "2.0", id: "p-1", error });
  // A string id is not the number: the answer must be this request's own.
  assert.equal(errorAnswer(JSON.stringify({ jsonrpc: "2.0", id: "1", error }), 1), undefined);
  for (const text of ["", "not json", "[]", JSON.stringify({ error: { code: 1.5, message: "x" } }), JSON.stringify({ error: { code: 1 } }), JSON.stringify({ result: {} })]) {
    assert.equal(errorAnswer(text, 1), undefined, text);
  }
});
