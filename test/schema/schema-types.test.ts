// FromSchema (src/schema/schema-types.ts): each rule as a compile-time check (tsc -p test/tsconfig.json,
// which npm test runs) that the inferred type is exactly the one expected, and at run time that a
// value of that type is one the schema accepts, so the type never promises what the validator refuses.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { FromSchema } from "../../src/schema/schema-types.js";
import { validate, type JsonSchema } from "../../src/schema/json-schema.js";
import { exact } from "../helpers/typed-handlers.js";

/** Keeps the schema literal as written, as McpServer.tool's `const` type parameter does. */
function schema<const S>(value: S): S {
  return value;
}

/** A value the inferred type accepts must be one the schema accepts. */
function accepted<S>(value: S, sample: FromSchema<S>): void {
  assert.deepEqual(validate(value as JsonSchema, sample), []);
}

/** A value the compiler refuses (each call carries @ts-expect-error) that the validator refuses too. */
function refused<S>(value: S, sample: FromSchema<S>): void {
  assert.notDeepEqual(validate(value as JsonSchema, sample), []);
}

test("types: string, number, integer (a number), boolean and null", () => {
  const s = schema({ type: "string" }), n = schema({ type: "number" }), i = schema({ type: "integer" }), b = schema({ type: "boolean" }), z = schema({ type: "null" });
  exact<FromSchema<typeof s>, string>(true);
  exact<FromSchema<typeof n>, number>(true);
  exact<FromSchema<typeof i>, number>(true);
  exact<FromSchema<typeof b>, boolean>(true);
  exact<FromSchema<typeof z>, null>(true);
  accepted(s, "a"), accepted(i, 3), accepted(b, false), accepted(z, null);
});

test("types: a type array is a union; enum and const are literal types, narrowing the type beside them", () => {
  const nullable = schema({ type: ["string", "null"] });
  const unit = schema({ type: "string", enum: ["c", "f"] });
  const fixed = schema({ const: 42 });
  exact<FromSchema<typeof nullable>, string | null>(true);
  exact<FromSchema<typeof unit>, "c" | "f">(true);
  exact<FromSchema<typeof fixed>, 42>(true);
  accepted(nullable, null), accepted(unit, "f"), accepted(fixed, 42);
  // @ts-expect-error -- "k" is not one of the enum's values
  refused(unit, "k");
});

test("types: an object's required properties are required, the others optional, the unlisted unknown to the compiler", () => {
  const city = schema({ type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] });
  exact<FromSchema<typeof city>, { city: string; days?: number }>(true);
  accepted(city, { city: "Oslo" });
  // @ts-expect-error -- a misspelled key: the schema lists its properties, so no other key is typed
  refused(city, { cty: "Oslo" });
  // @ts-expect-error -- a wrong type
  refused(city, { city: 7 });
  const nested = schema({ type: "object", properties: { at: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"] } }, required: ["at"] });
  exact<FromSchema<typeof nested>, { at: { lat: number } }>(true);
});

test("types: additionalProperties true or a schema adds an index signature; false or absent (with properties) adds none", () => {
  const open = schema({ type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: { type: "number" } });
  const closed = schema({ type: "object", properties: { a: { type: "string" } }, additionalProperties: false });
  const empty = schema({ type: "object", additionalProperties: false });
  const anything = schema({ type: "object" });
  exact<FromSchema<typeof open>, { [key: string]: unknown; a: string }>(true);
  exact<FromSchema<typeof closed>, { a?: string }>(true);
  exact<FromSchema<typeof empty>, {}>(true);
  exact<FromSchema<typeof anything>, { [key: string]: unknown }>(true);
  accepted(open, { a: "x", b: 1 }), accepted(anything, { z: 1 });
});

test("types: items makes a list, prefixItems a tuple whose places past minItems are optional", () => {
  const list = schema({ type: "array", items: { type: "string" } });
  const pair = schema({ type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2, items: false });
  const loose = schema({ type: "array", prefixItems: [{ type: "string" }], items: { type: "boolean" } });
  const any = schema({ type: "array" });
  exact<FromSchema<typeof list>, string[]>(true);
  exact<FromSchema<typeof pair>, [number, number]>(true);
  exact<FromSchema<typeof loose>, [string?, ...boolean[]]>(true);
  exact<FromSchema<typeof any>, unknown[]>(true);
  accepted(list, ["a"]), accepted(pair, [1, 2]), accepted(loose, []), accepted(loose, ["a", true]);
});

test("types: anyOf and oneOf are unions, allOf an intersection", () => {
  const either = schema({ anyOf: [{ type: "string" }, { type: "object", properties: { n: { type: "number" } }, required: ["n"] }] });
  const one = schema({ oneOf: [{ const: "a" }, { const: 1 }] });
  const both = schema({ allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { type: "object", properties: { b: { type: "boolean" } }, required: ["b"] }] });
  exact<FromSchema<typeof either>, string | { n: number }>(true);
  exact<FromSchema<typeof one>, "a" | 1>(true);
  exact<FromSchema<typeof both>, { a: string; b: boolean }>(true);
  accepted(either, { n: 1 }), accepted(one, 1), accepted(both, { a: "x", b: true });
});

test("types: $ref, a schema without type, and true are unknown; false is never; an as-const schema reads the same", () => {
  const ref = schema({ $ref: "#/$defs/x", $defs: { x: { type: "string" } } });
  const untyped = schema({ description: "anything" });
  exact<FromSchema<typeof ref>, unknown>(true);
  exact<FromSchema<typeof untyped>, unknown>(true);
  exact<FromSchema<true>, unknown>(true);
  exact<FromSchema<false>, never>(true);
  const frozen = { type: "object", properties: { q: { type: "string" } }, required: ["q"] } as const;
  exact<FromSchema<typeof frozen>, { q: string }>(true);
  accepted(ref, "x"), accepted(untyped, 5);
});

test("types: a schema nested past the depth bound degrades to unknown instead of failing the build", () => {
  type Nest<Levels extends unknown[]> = Levels["length"] extends 40 ? { type: "string" } : { type: "object"; properties: { x: Nest<[...Levels, 0]> }; required: ["x"] };
  type Deep = FromSchema<Nest<[]>>;
  // Ten levels are typed; the eleventh is unknown, not an error "excessively deep".
  exact<Deep["x"]["x"]["x"]["x"]["x"]["x"]["x"]["x"]["x"]["x"], unknown>(true);
  exact<Deep["x"]["x"]["x"]["x"]["x"]["x"]["x"]["x"]["x"] extends { x: unknown } ? true : false, true>(true);
  const sample: Deep = { x: { x: { x: { x: { x: { x: { x: { x: { x: { x: "anything below is unchecked by the type" } } } } } } } } } };
  assert.equal(JSON.stringify(sample).split("{").length - 1, 10);
});
