// A tool whose schema uses a keyword the validator cannot enforce fails when it is registered,
// naming the keyword, instead of accepting on every call what the schema meant to refuse.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "../../src/server/definition.js";
import { SchemaError } from "../../src/schema/json-schema.js";

const server = () => new McpServer({ name: "t", version: "1" });
const handler = () => ({ content: [] });

test("an inputSchema with unevaluatedProperties is refused at registration", () => {
  assert.throws(
    () => server().tool({ name: "strict", inputSchema: { type: "object", properties: { a: {} }, unevaluatedProperties: false } }, handler),
    (error: unknown) => error instanceof SchemaError && /#\/unevaluatedProperties: keyword "unevaluatedProperties" is not supported/.test(error.message),
  );
});

test("an outputSchema with $dynamicRef is refused at registration", () => {
  assert.throws(
    () => server().tool({ name: "tree", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { kids: { $dynamicRef: "#node" } } } }, handler),
    (error: unknown) => error instanceof SchemaError && error.pointer === "#/properties/kids/$dynamicRef",
  );
});

test("the same keywords inside an annotation are data, not schema, and pass", () => {
  assert.doesNotThrow(() => server().tool({ name: "doc", inputSchema: { type: "object", examples: [{ unevaluatedProperties: false }], default: { $dynamicRef: "#x" } } }, handler));
});
