import { test } from "node:test";
import assert from "node:assert/strict";
import { type JsonSchema, type SchemaIssue, SchemaError, checkSchema, validate } from "../../src/schema/json-schema.js";

interface Case {
  name: string;
  schema: JsonSchema;
  instance: unknown;
  /** Expected issues; [] means valid. */
  issues: SchemaIssue[];
}

const root = (message: string): SchemaIssue => ({ path: "", message });
const at = (path: string, message: string): SchemaIssue => ({ path, message });
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

const mcpAdd = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
};

const tree = {
  $defs: { node: { type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["value"] } },
  $ref: "#/$defs/node",
};

const cases: Case[] = [
  // Boolean schemas and the MCP shapes.
  { name: "true accepts anything", schema: true, instance: { any: [1] }, issues: [] },
  { name: "false rejects everything", schema: false, instance: 1, issues: [root("no value is allowed here")] },
  { name: "mcp add: valid", schema: mcpAdd, instance: { a: 1, b: 2 }, issues: [] },
  { name: "mcp add: missing b", schema: mcpAdd, instance: { a: 1 }, issues: [root('missing required property "b"')] },
  { name: "mcp add: wrong type", schema: mcpAdd, instance: { a: "1", b: 2 }, issues: [at("/a", "must be number, got string")] },
  { name: "mcp add: not an object", schema: mcpAdd, instance: [1, 2], issues: [root("must be object, got array")] },
  { name: "mcp empty: valid", schema: { type: "object", additionalProperties: false }, instance: {}, issues: [] },
  { name: "mcp empty: extra property", schema: { type: "object", additionalProperties: false }, instance: { x: 1 }, issues: [root('must NOT have additional property "x"')] },

  // type
  { name: "type string ok", schema: { type: "string" }, instance: "s", issues: [] },
  { name: "type null vs object", schema: { type: "object" }, instance: null, issues: [root("must be object, got null")] },
  { name: "type array form ok", schema: { type: ["string", "null"] }, instance: null, issues: [] },
  { name: "type array form fails", schema: { type: ["string", "null"] }, instance: true, issues: [root("must be string or null, got boolean")] },
  { name: "integer accepts 1.0", schema: { type: "integer" }, instance: 1.0, issues: [] },
  { name: "integer rejects 1.5", schema: { type: "integer" }, instance: 1.5, issues: [root("must be integer, got number")] },
  { name: "number accepts integers", schema: { type: "number" }, instance: 3, issues: [] },

  // enum and const (deep equality)
  { name: "enum ok", schema: { enum: ["a", 1, { x: [1] }] }, instance: { x: [1] }, issues: [] },
  { name: "enum fails", schema: { enum: ["a", "b"] }, instance: "c", issues: [root('must be one of ["a","b"]')] },
  { name: "enum is type-strict", schema: { enum: [1] }, instance: "1", issues: [root("must be one of [1]")] },
  { name: "const object ignores key order", schema: { const: { a: 1, b: [2] } }, instance: { b: [2], a: 1 }, issues: [] },
  { name: "const 1 equals 1.0", schema: { const: 1 }, instance: 1.0, issues: [] },
  { name: "const fails", schema: { const: { a: 1 } }, instance: { a: 2 }, issues: [root('must equal {"a":1}')] },
  { name: "const null", schema: { const: null }, instance: 0, issues: [root("must equal null")] },

  // numbers
  { name: "minimum ok (inclusive)", schema: { minimum: 5 }, instance: 5, issues: [] },
  { name: "minimum fails", schema: { minimum: 5 }, instance: 3, issues: [root("must be >= 5, got 3")] },
  { name: "maximum fails", schema: { maximum: 5 }, instance: 6, issues: [root("must be <= 5, got 6")] },
  { name: "exclusiveMinimum fails at the bound", schema: { exclusiveMinimum: 5 }, instance: 5, issues: [root("must be > 5, got 5")] },
  { name: "exclusiveMaximum ok", schema: { exclusiveMaximum: 5 }, instance: 4.9, issues: [] },
  { name: "exclusiveMaximum fails", schema: { exclusiveMaximum: 5 }, instance: 5, issues: [root("must be < 5, got 5")] },
  { name: "number keywords ignore strings", schema: { minimum: 5 }, instance: "3", issues: [] },
  { name: "multipleOf 0.1 accepts 0.3", schema: { multipleOf: 0.1 }, instance: 0.3, issues: [] },
  { name: "multipleOf 0.01 accepts 4.02", schema: { multipleOf: 0.01 }, instance: 4.02, issues: [] },
  { name: "multipleOf 0.1 rejects 0.35", schema: { multipleOf: 0.1 }, instance: 0.35, issues: [root("must be a multiple of 0.1, got 0.35")] },
  { name: "multipleOf 3 rejects 10", schema: { multipleOf: 3 }, instance: 10, issues: [root("must be a multiple of 3, got 10")] },
  { name: "multipleOf 0.0001 accepts 1e-7 * 1000", schema: { multipleOf: 1e-4 }, instance: 0.0003, issues: [] },
  { name: "multipleOf 0.5 with huge integer", schema: { multipleOf: 0.5 }, instance: 1e308, issues: [] },

  // strings
  { name: "minLength counts code points", schema: { minLength: 2 }, instance: "😀", issues: [root("must have at least 2 characters, got 1")] },
  { name: "maxLength counts emoji once", schema: { maxLength: 2 }, instance: "😀😀", issues: [] },
  { name: "maxLength fails", schema: { maxLength: 2 }, instance: "abc", issues: [root("must have at most 2 characters, got 3")] },
  { name: "lone surrogate counts once", schema: { maxLength: 1 }, instance: "\ud800", issues: [] },
  { name: "pattern is a search, not anchored", schema: { pattern: "b+" }, instance: "abbc", issues: [] },
  { name: "pattern fails", schema: { pattern: "^[a-z]+$" }, instance: "abc1", issues: [root('must match pattern "^[a-z]+$"')] },
  { name: "pattern uses the u flag", schema: { pattern: "^.$" }, instance: "😀", issues: [] },
  { name: "pattern ignores numbers", schema: { pattern: "^a$" }, instance: 5, issues: [] },

  // arrays
  { name: "items ok", schema: { items: { type: "number" } }, instance: [1, 2], issues: [] },
  { name: "items fails with index path", schema: { items: { type: "number" } }, instance: [1, "x"], issues: [at("/1", "must be number, got string")] },
  { name: "prefixItems + items", schema: { prefixItems: [{ type: "string" }], items: { type: "number" } }, instance: ["a", 1, "b"], issues: [at("/2", "must be number, got string")] },
  { name: "prefixItems + items:false", schema: { prefixItems: [{ type: "string" }], items: false }, instance: ["a", 1], issues: [root("must have at most 1 items, got 2")] },
  { name: "prefixItems allows shorter arrays", schema: { prefixItems: [{ type: "string" }, { type: "number" }] }, instance: ["a"], issues: [] },
  { name: "draft-07 items array", schema: { $schema: DRAFT_07, items: [{ type: "string" }, { type: "number" }] }, instance: ["a", "b"], issues: [at("/1", "must be number, got string")] },
  { name: "draft-07 additionalItems schema", schema: { $schema: DRAFT_07, items: [{ type: "string" }], additionalItems: { type: "boolean" } }, instance: ["a", true, 3], issues: [at("/2", "must be boolean, got number")] },
  { name: "draft-07 additionalItems false", schema: { $schema: DRAFT_07, items: [{}], additionalItems: false }, instance: [1, 2, 3], issues: [root("must have at most 1 items, got 3")] },
  { name: "additionalItems without array items is ignored", schema: { $schema: DRAFT_07, items: {}, additionalItems: false }, instance: [1, 2], issues: [] },
  { name: "minItems fails", schema: { minItems: 2 }, instance: [1], issues: [root("must have at least 2 items, got 1")] },
  { name: "maxItems fails", schema: { maxItems: 1 }, instance: [1, 2], issues: [root("must have at most 1 items, got 2")] },
  { name: "uniqueItems ok", schema: { uniqueItems: true }, instance: [1, "1", [1], { a: 1 }], issues: [] },
  { name: "uniqueItems deep duplicate", schema: { uniqueItems: true }, instance: [{ a: 1, b: 2 }, 0, { b: 2, a: 1 }], issues: [root("must NOT have duplicate items (items 0 and 2 are equal)")] },
  { name: "uniqueItems false allows duplicates", schema: { uniqueItems: false }, instance: [1, 1], issues: [] },
  { name: "contains ok", schema: { contains: { type: "string" } }, instance: [1, "a"], issues: [] },
  { name: "contains fails", schema: { contains: { type: "string" } }, instance: [1, 2], issues: [root("must contain at least 1 matching items, got 0")] },
  { name: "minContains fails", schema: { contains: { const: 1 }, minContains: 2 }, instance: [1, 2], issues: [root("must contain at least 2 matching items, got 1")] },
  { name: "maxContains fails", schema: { contains: { const: 1 }, maxContains: 1 }, instance: [1, 1, 2], issues: [root("must contain at most 1 matching items, got 2")] },
  { name: "minContains 0 accepts none", schema: { contains: { const: 1 }, minContains: 0 }, instance: [2], issues: [] },

  // objects
  { name: "properties only apply when present", schema: { properties: { a: { type: "string" } } }, instance: {}, issues: [] },
  { name: "undefined property counts as absent", schema: { required: ["a"] }, instance: { a: undefined }, issues: [root('missing required property "a"')] },
  { name: "required on non-object is ignored", schema: { required: ["a"] }, instance: "x", issues: [] },
  { name: "property named constructor", schema: { properties: { a: {} }, additionalProperties: false }, instance: { constructor: 1 }, issues: [root('must NOT have additional property "constructor"')] },
  { name: "additionalProperties schema", schema: { properties: { a: {} }, additionalProperties: { type: "number" } }, instance: { a: "x", b: "y" }, issues: [at("/b", "must be number, got string")] },
  { name: "patternProperties", schema: { patternProperties: { "^n_": { type: "number" } } }, instance: { n_a: "x", other: "y" }, issues: [at("/n_a", "must be number, got string")] },
  { name: "patternProperties exempt from additionalProperties", schema: { patternProperties: { "^x-": {} }, additionalProperties: false }, instance: { "x-a": 1, b: 2 }, issues: [root('must NOT have additional property "b"')] },
  { name: "propertyNames", schema: { propertyNames: { maxLength: 3 } }, instance: { abc: 1, abcd: 2 }, issues: [root('property name "abcd" does not match propertyNames')] },
  { name: "minProperties", schema: { minProperties: 2 }, instance: { a: 1 }, issues: [root("must have at least 2 properties, got 1")] },
  { name: "maxProperties", schema: { maxProperties: 1 }, instance: { a: 1, b: 2 }, issues: [root("must have at most 1 properties, got 2")] },
  { name: "dependentRequired ok when trigger absent", schema: { dependentRequired: { a: ["b"] } }, instance: { c: 1 }, issues: [] },
  { name: "dependentRequired fails", schema: { dependentRequired: { a: ["b"] } }, instance: { a: 1 }, issues: [root('missing property "b", required when "a" is present')] },
  { name: "dependentSchemas", schema: { dependentSchemas: { a: { required: ["b"] } } }, instance: { a: 1 }, issues: [root('missing required property "b"')] },
  { name: "draft-07 dependencies (array)", schema: { $schema: DRAFT_07, dependencies: { a: ["b"] } }, instance: { a: 1 }, issues: [root('missing property "b", required when "a" is present')] },
  { name: "draft-07 dependencies (schema)", schema: { $schema: DRAFT_07, dependencies: { a: { properties: { b: { type: "string" } } } } }, instance: { a: 1, b: 2 }, issues: [at("/b", "must be string, got number")] },
  { name: "path escapes ~ and /", schema: { additionalProperties: { type: "string" } }, instance: { "a/b~c": 1 }, issues: [at("/a~1b~0c", "must be string, got number")] },

  // combinators
  { name: "allOf collects all issues", schema: { allOf: [{ minimum: 5 }, { multipleOf: 2 }] }, instance: 3, issues: [root("must be >= 5, got 3"), root("must be a multiple of 2, got 3")] },
  { name: "anyOf ok", schema: { anyOf: [{ type: "string" }, { type: "number" }] }, instance: 1, issues: [] },
  { name: "anyOf fails", schema: { anyOf: [{ type: "string" }, { type: "number" }] }, instance: null, issues: [root("must match at least one schema in anyOf")] },
  { name: "oneOf ok", schema: { oneOf: [{ type: "string" }, { type: "number" }] }, instance: 1, issues: [] },
  { name: "oneOf matches two", schema: { oneOf: [{ type: "integer" }, { type: "number" }] }, instance: 1, issues: [root("must match exactly one schema in oneOf, matched 2")] },
  { name: "oneOf matches none", schema: { oneOf: [{ type: "string" }] }, instance: 1, issues: [root("must match exactly one schema in oneOf, matched 0")] },
  { name: "not ok", schema: { not: { type: "string" } }, instance: 1, issues: [] },
  { name: "not fails", schema: { not: { type: "string" } }, instance: "s", issues: [root("must NOT match the schema in not")] },
  { name: "if/then applies then", schema: { if: { properties: { kind: { const: "n" } } }, then: { required: ["n"] }, else: { required: ["s"] } }, instance: { kind: "n" }, issues: [root('missing required property "n"')] },
  { name: "if/else applies else", schema: { if: { properties: { kind: { const: "n" } } }, then: { required: ["n"] }, else: { required: ["s"] } }, instance: { kind: "x" }, issues: [root('missing required property "s"')] },
  { name: "then without if is ignored", schema: { then: false }, instance: 1, issues: [] },

  // $ref
  { name: "$ref to $defs", schema: { $defs: { n: { type: "number" } }, properties: { a: { $ref: "#/$defs/n" } } }, instance: { a: "x" }, issues: [at("/a", "must be number, got string")] },
  { name: "$ref to definitions (draft-07)", schema: { $schema: DRAFT_07, definitions: { n: { type: "number" } }, items: { $ref: "#/definitions/n" } }, instance: [1, true], issues: [at("/1", "must be number, got boolean")] },
  { name: "$ref with ~1 and %25 escapes", schema: { $defs: { "a/b": { type: "null" }, "50%": { type: "string" } }, properties: { x: { $ref: "#/$defs/a~1b" }, y: { $ref: "#/$defs/50%25" } } }, instance: { x: 1, y: 2 }, issues: [at("/x", "must be null, got number"), at("/y", "must be string, got number")] },
  { name: "$ref '#' recursion ok", schema: { type: "array", items: { $ref: "#" } }, instance: [[[]], []], issues: [] },
  { name: "$ref '#' recursion fails deep", schema: { type: "array", items: { $ref: "#" } }, instance: [[[1]]], issues: [at("/0/0/0", "must be array, got number")] },
  { name: "recursive tree ok", schema: tree, instance: { value: 1, children: [{ value: 2, children: [] }] }, issues: [] },
  { name: "recursive tree fails deep", schema: tree, instance: { value: 1, children: [{ value: 2, children: [{}] }] }, issues: [at("/children/0/children/0", 'missing required property "value"')] },
  { name: "2020-12 applies $ref siblings", schema: { $defs: { s: { type: "string" } }, $ref: "#/$defs/s", maxLength: 1 }, instance: "ab", issues: [root("must have at most 1 characters, got 2")] },
  { name: "draft-07 ignores $ref siblings", schema: { $schema: DRAFT_07, definitions: { s: { type: "string" } }, $ref: "#/definitions/s", maxLength: 1 }, instance: "ab", issues: [] },

  // annotations and unknown keywords
  { name: "annotations are ignored", schema: { title: "t", description: "d", default: 1, examples: [1], $comment: "c", readOnly: true, "x-custom": { type: "string" } }, instance: 5, issues: [] },
  { name: "unknown format passes", schema: { format: "color" }, instance: "not-a-color", issues: [] },
  { name: "dialect URI without '#' and over https", schema: { $schema: "https://json-schema.org/draft-07/schema", type: "string" }, instance: 1, issues: [root("must be string, got number")] },
  { name: "explicit 2020-12 dialect", schema: { $schema: "https://json-schema.org/draft/2020-12/schema", prefixItems: [{ type: "string" }] }, instance: [1], issues: [at("/0", "must be string, got number")] },
];

for (const c of cases) {
  test(`validate: ${c.name}`, () => {
    checkSchema(c.schema);
    assert.deepEqual(validate(c.schema, c.instance), c.issues);
  });
}

const formats: Array<[format: string, valid: string[], invalid: string[]]> = [
  ["email", ["a@example.com", "first.last+tag@sub.example.org", '"odd local"@example.com', "x@[192.168.0.1]"], ["plain", "@example.com", "a@", "a..b@example.com", "a b@example.com", "a@-bad.com", `${"a".repeat(65)}@example.com`]],
  ["uri", ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "file:///tmp/x%20y", "mailto:a@b.c"], ["/relative/path", "no-scheme", "http://exa mple.com", "http://x/%zz", "1http://x"]],
  ["date", ["2024-02-29", "2023-12-31", "2000-02-29"], ["2023-02-29", "1900-02-29", "2024-13-01", "2024-1-01", "2024-04-31", "20240101"]],
  ["time", ["12:34:56Z", "23:59:60Z", "12:34:56.789+02:00", "08:00:00z", "15:59:60-08:00"], ["24:00:00Z", "12:60:00Z", "12:34:56", "22:59:60Z", "12:34Z"]],
  ["date-time", ["2024-01-02T03:04:05Z", "2024-01-02t03:04:05.5+01:00"], ["2024-01-02 03:04:05Z", "2024-01-02T03:04:05", "2024-02-30T00:00:00Z"]],
  ["uuid", ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"], ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"]],
  ["ipv4", ["192.168.0.1", "0.0.0.0", "255.255.255.255"], ["256.0.0.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "a.b.c.d"]],
];

for (const [format, valid, invalid] of formats) {
  test(`format ${format}`, () => {
    for (const value of valid) assert.deepEqual(validate({ format }, value), [], `${format} should accept ${JSON.stringify(value)}`);
    for (const value of invalid) assert.deepEqual(validate({ format }, value), [root(`must be a valid ${format}`)], `${format} should reject ${JSON.stringify(value)}`);
    assert.deepEqual(validate({ format }, 42), [], "format applies to strings only");
  });
}

const badSchemas: Array<[name: string, schema: unknown, message: RegExp]> = [
  ["not an object or boolean", "string", /^json schema #: must be an object or a boolean, got string$/],
  ["null schema", null, /got null/],
  ["draft-04 dialect", { $schema: "http://json-schema.org/draft-04/schema#" }, /^json schema #\/\$schema: unsupported dialect "http:\/\/json-schema.org\/draft-04\/schema#"/],
  ["custom dialect", { $schema: "http://example.com/custom" }, /unsupported dialect "http:\/\/example.com\/custom"/],
  ["non-string $schema", { $schema: 7 }, /#\/\$schema: must be a string/],
  ["bad regex", { properties: { a: { pattern: "([" } } }, /^json schema #\/properties\/a\/pattern: pattern "\(\[" is not a valid regular expression/],
  ["regex only invalid with u flag", { pattern: "\\-" }, /is not a valid regular expression/],
  ["bad patternProperties key", { patternProperties: { "a{": {} } }, /#\/patternProperties: pattern "a\{"/],
  ["dangling $ref", { items: { $ref: "#/$defs/missing" } }, /^json schema #\/items\/\$ref: \$ref "#\/\$defs\/missing" does not resolve/],
  ["remote $ref", { $ref: "https://example.com/schema.json" }, /is not local/],
  ["anchor $ref", { $ref: "#node" }, /does not resolve/],
  ["unknown type name", { type: "strng" }, /^json schema #\/type: unknown type "strng"$/],
  ["unknown type in array", { properties: { a: { type: ["string", "float"] } } }, /#\/properties\/a\/type: unknown type "float"/],
  ["empty type array", { type: [] }, /non-empty array/],
  ["negative minLength", { minLength: -1 }, /#\/minLength: must be a non-negative integer, got -1/],
  ["zero multipleOf", { multipleOf: 0 }, /must be a number greater than 0/],
  ["required not an array", { required: "a" }, /#\/required: must be an array of property names/],
  ["subschema is a string", { properties: { a: "string" } }, /#\/properties\/a: must be an object or a boolean, got string/],
  ["empty anyOf", { anyOf: [] }, /#\/anyOf: must be a non-empty array of schemas/],
  ["draft-04 exclusiveMinimum", { exclusiveMinimum: true }, /#\/exclusiveMinimum: must be a number, got true/],
  // Keywords that assert but that this validator does not check: ignoring them would accept what
  // the schema's author meant to refuse, so registration fails instead, naming the keyword.
  ["unevaluatedProperties", { unevaluatedProperties: false }, /^json schema #\/unevaluatedProperties: keyword "unevaluatedProperties" is not supported/],
  ["unevaluatedItems deep inside", { properties: { a: { items: { unevaluatedItems: false } } } }, /^json schema #\/properties\/a\/items\/unevaluatedItems: keyword "unevaluatedItems" is not supported/],
  ["$dynamicRef", { $defs: { n: { $dynamicAnchor: "n" } }, items: { $dynamicRef: "#n" } }, /#\/items\/\$dynamicRef: keyword "\$dynamicRef" is not supported/],
  ["$recursiveRef under draft-07", { $schema: DRAFT_07, $recursiveRef: "#" }, /#\/\$recursiveRef: keyword "\$recursiveRef" is not supported/],
  ["$ref loop on itself", { $ref: "#" }, /reference loop/],
  ["$ref loop through allOf", { $defs: { a: { allOf: [{ $ref: "#/$defs/b" }] }, b: { anyOf: [{ $ref: "#/$defs/a" }] } } }, /reference loop/],
];

for (const [name, schema, message] of badSchemas) {
  test(`checkSchema rejects: ${name}`, () => {
    assert.throws(() => checkSchema(schema), (error: unknown) => error instanceof SchemaError && message.test(error.message));
    // validate refuses the same schema rather than guessing.
    assert.throws(() => validate(schema as JsonSchema, {}), SchemaError);
  });
}

test("checkSchema accepts recursion that descends into the instance", () => {
  assert.doesNotThrow(() => checkSchema({ type: "array", items: { $ref: "#" } }));
  assert.doesNotThrow(() => checkSchema(tree));
});

test("checkSchema does not follow $ref-like text inside const, enum or default", () => {
  assert.doesNotThrow(() => checkSchema({ const: { $ref: "#/nowhere" }, default: { pattern: "([" }, enum: [{ type: "bogus" }] }));
});

test("SchemaError names the schema location", () => {
  try {
    checkSchema({ properties: { a: { type: "bogus" } } });
    assert.fail("expected a SchemaError");
  } catch (error) {
    assert.ok(error instanceof SchemaError);
    assert.equal(error.name, "SchemaError");
    assert.equal(error.pointer, "#/properties/a/type");
  }
});

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

test("depth limit: 100,000 nested arrays give an issue, not a RangeError", () => {
  const issues = validate({ type: "array", items: { $ref: "#" } }, nestedArrays(100_000));
  assert.equal(issues.length, 1);
  assert.equal(issues[0]!.message, "nesting deeper than 256 levels");
  assert.equal(issues[0]!.path, "/0".repeat(257));
});

test("depth limit: 256 levels are still validated", () => {
  assert.deepEqual(validate({ type: "array", items: { $ref: "#" } }, nestedArrays(255)), []);
});

test("depth limit: a cut-off branch cannot make not or anyOf pass", () => {
  const schema = { not: { type: "array", items: { $ref: "#/not" } } };
  assert.deepEqual(validate(schema, nestedArrays(100_000)).map((issue) => issue.message), ["nesting deeper than 256 levels"]);
  const either = { anyOf: [{ type: "array", items: { $ref: "#" } }, { type: "string" }] };
  assert.deepEqual(validate(either, nestedArrays(100_000)).map((issue) => issue.message), ["nesting deeper than 256 levels"]);
});

test("depth limit: const, enum and uniqueItems on deep or cyclic values", () => {
  const deep = nestedArrays(100_000);
  assert.deepEqual(validate({ const: [1] }, deep), [root("nesting deeper than 256 levels")]);
  assert.deepEqual(validate({ enum: [1, 2] }, deep), [root("nesting deeper than 256 levels")]);
  assert.deepEqual(validate({ uniqueItems: true }, [deep, deep]), [root("nesting deeper than 256 levels")]);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.deepEqual(validate({ const: {} }, cyclic), [root("nesting deeper than 256 levels")]);
  assert.equal(validate({ additionalProperties: { $ref: "#" } }, cyclic)[0]!.message, "nesting deeper than 256 levels");
});

test("depth limit: a schema nested thousands of levels deep gives an issue", () => {
  let schema: JsonSchema = { type: "number" };
  for (let i = 0; i < 5000; i++) schema = { allOf: [schema] };
  const issues = validate(schema, 1);
  assert.equal(issues.length, 1);
  assert.match(issues[0]!.message, /^schemas nested deeper than 1024 levels$|call stack exhausted/);
});

test("large instances validate in linear time", () => {
  const text = "a".repeat(5_000_000);
  const items = Array.from({ length: 200_000 }, (_, i) => i);
  const started = performance.now();
  assert.deepEqual(validate({ maxLength: 10, pattern: "^a+$", format: "email" }, text), [
    root("must have at most 10 characters, got 5000000"),
    root("must be a valid email"),
  ]);
  assert.deepEqual(validate({ uniqueItems: true, items: { type: "integer" }, contains: { const: -1 }, minContains: 0 }, items), []);
  assert.ok(performance.now() - started < 5000, "validation of large values took too long");
});

test("validate caches compiled patterns per schema (same result on reuse)", () => {
  const schema = { patternProperties: { "^x": { type: "string" } } };
  assert.deepEqual(validate(schema, { xa: 1 }), [at("/xa", "must be string, got number")]);
  assert.deepEqual(validate(schema, { xb: "ok" }), []);
});
