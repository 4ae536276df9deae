// The 2026-07-28 retry fields (inputResponses, requestState) are params of a modern request only: a
// handshake-era tools/call, prompts/get or resources/read does not have them (2025-11-25 defines
// none), so its reader leaves them alone, while the modern reader checks their types.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr and
// https://modelcontextprotocol.io/specification/2025-11-25/schema (CallToolRequestParams has no such field).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, RpcError } from "../../src/jsonrpc/messages.js";
import { FieldReader } from "../../src/jsonrpc/field-reader.js";
import { readClientRequestParams } from "../../src/mcp/read.js";
import { readModernRequestParams } from "../../src/mcp/read-modern.js";

const cases = [
  { method: "tools/call", params: { name: "add", arguments: {} } },
  { method: "prompts/get", params: { name: "greet" } },
  { method: "resources/read", params: { uri: "demo://a" } },
] as const;

for (const { method, params } of cases) {
  for (const field of ["inputResponses", "requestState"]) {
    const sent = { ...params, [field]: 5 };

    test(`read: a handshake-era ${method} leaves ${field} unread (the field is 2026-07-28's)`, () => {
      assert.deepEqual(readClientRequestParams[method](new FieldReader(method, structuredClone(sent))), sent);
    });

    test(`read: a 2026-07-28 ${method} with a ${field} of the wrong type is -32602 naming it`, () => {
      assert.throws(() => readModernRequestParams[method](new FieldReader(method, structuredClone(sent))), (error: unknown) => {
        assert.ok(error instanceof RpcError);
        assert.equal(error.code, ErrorCode.InvalidParams);
        assert.match(error.message, new RegExp(`^${method}: "${field}"`));
        return true;
      });
    });
  }

  test(`read: a 2026-07-28 ${method} is otherwise read as the handshake era's (a missing field is -32602 first)`, () => {
    const missing = method === "resources/read" ? "uri" : "name";
    for (const read of [readClientRequestParams[method], readModernRequestParams[method]]) {
      assert.throws(() => read(new FieldReader(method, { requestState: 5 })), { message: new RegExp(`^${method}: "${missing}" is required`) });
    }
  });
}

test("read: the modern table reads every other method as the handshake table does", () => {
  for (const method of Object.keys(readClientRequestParams) as (keyof typeof readClientRequestParams)[]) {
    if (cases.some((c) => c.method === method)) continue;
    assert.equal(readModernRequestParams[method], readClientRequestParams[method], method);
  }
});
