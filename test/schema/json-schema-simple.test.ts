import { test } from "node:test";
import assert from "node:assert/strict";
import { validate } from "../../src/schema/json-schema.js";
import { prepareSchema } from "../../src/schema/json-schema-check.js";
import { quickAcceptFor } from "../../src/schema/json-schema-simple.js";

const echo = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  description: "what the echo tool takes",
  properties: { text: { type: "string", description: "The text." }, times: { type: "integer" }, loud: { type: "boolean" }, gain: { type: "number" } },
  required: ["text"],
};
const closed = { ...echo, additionalProperties: false };

const inherited = Object.create({ extra: 1 }) as Record<string, unknown>;
inherited.text = "x";
const INSTANCES: unknown[] = [
  { text: "a" }, { text: "a", times: 2, loud: true, gain: 0.5 }, { text: "a", times: 2.0 }, { text: "a", other: [1, 2] },
  { text: "a", times: undefined }, { text: "a", other: undefined }, inherited, JSON.parse('{"text":"a","__proto__":1}'),
  {}, { text: 1 }, { text: undefined }, { text: "a", times: 1.5 }, { text: "a", loud: "yes" }, { text: "a", gain: "1" },
  { constructor: 1, text: "a" }, null, [], "text", 3,
];

// The same schema with a keyword that changes nothing but makes it not simple, so it is walked in full.
const walked = (schema: Record<string, unknown>) => ({ ...schema, minProperties: 0 });

test("simple schema: the quick check accepts exactly what the full walk finds valid", () => {
  for (const schema of [echo, closed] as Record<string, unknown>[]) {
    const quick = quickAcceptFor(schema);
    assert.ok(quick, "an object of scalar properties is simple");
    assert.equal(quickAcceptFor(walked(schema)), undefined);
    for (const instance of INSTANCES) {
      const valid = validate(walked(schema), instance).length === 0;
      assert.equal(quick(instance), valid, `${JSON.stringify(schema.additionalProperties)} ${JSON.stringify(instance)}`);
    }
  }
  assert.equal(quickAcceptFor(closed)!({ text: "a", other: 1 }), false);
  assert.equal(quickAcceptFor(echo)!({ text: "a", other: 1 }), true);
});

test("simple schema: validate still words the issues of an instance the quick check turns down", () => {
  assert.deepEqual(validate(closed, { text: 1, other: 2 }), [
    { path: "/text", message: "must be string, got number" },
    { path: "", message: 'must NOT have additional property "other"' },
  ]);
  assert.deepEqual(validate(echo, {}), [{ path: "", message: 'missing required property "text"' }]);
});

test("simple schema: any keyword that judges a value, or a nested schema, means the full walk", () => {
  const notSimple: Record<string, unknown>[] = [
    { type: "object", properties: { a: { type: "string", minLength: 1 } } },
    { type: "object", properties: { a: { type: ["string", "null"] } } },
    { type: "object", properties: { a: { type: "object" } } },
    { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } },
    { type: "object", properties: { a: true } },
    { type: "object", additionalProperties: { type: "string" } },
    { type: "object", patternProperties: { "^x": { type: "string" } } },
    { type: "object", anyOf: [{ required: ["a"] }] },
    { properties: { a: { type: "string" } } },
  ];
  for (const schema of notSimple) {
    assert.equal(quickAcceptFor(schema), undefined, JSON.stringify(schema));
    assert.equal(prepareSchema(schema).quickAccept, undefined, JSON.stringify(schema));
  }
  assert.ok(prepareSchema({ type: "object" }).quickAccept);
});
