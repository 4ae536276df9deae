// Checks that a JSON Schema is usable before any instance meets it: a supported dialect,
// well-formed keyword values, local `$ref`s that resolve, patterns that compile, known type
// names, and no `$ref` loop that would apply a schema to the same value forever.
// https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage
// The supported keywords are listed once, in the header of json-schema.ts.

import { childPointer, resolveFragment } from "./json-pointer.js";
import { type QuickAccept, quickAcceptFor } from "./json-schema-simple.js";
import { isJsonObject, jsonTypeOf } from "./json-schema-values.js";

/** A JSON Schema: `true` accepts everything, `false` nothing, an object applies its keywords. */
export type JsonSchema = boolean | { [keyword: string]: unknown };

export type Dialect = "2020-12" | "draft-07";

/** A schema that cannot be used; thrown by checkSchema and by validate. Never an instance problem. */
export class SchemaError extends Error {
  override readonly name = "SchemaError";
  /** Where in the schema the problem is, as a URI fragment ("#/properties/a"). */
  readonly pointer: string;

  constructor(pointer: string, problem: string) {
    super(`json schema ${pointer}: ${problem}`);
    this.pointer = pointer;
  }
}

/** What validation needs besides the schema itself, worked out once per schema object. */
export interface PreparedSchema {
  readonly dialect: Dialect;
  /** Every `$ref` string, resolved to the subschema it names. */
  readonly refs: ReadonlyMap<string, JsonSchema>;
  /** Every `pattern` and `patternProperties` key, compiled once. */
  readonly patterns: ReadonlyMap<string, RegExp>;
  /** For a simple object schema, a check that accepts its valid instances without the full walk. */
  readonly quickAccept: QuickAccept | undefined;
}

// Compared without scheme and trailing "#": both spellings circulate in real tool schemas.
const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ["json-schema.org/draft/2020-12/schema", "2020-12"],
  ["json-schema.org/draft-07/schema", "draft-07"],
]);

const TYPES = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);

/** The shape each keyword's value must have; keywords not listed here are ignored. */
type Shape =
  | "schema" | "schemaList" | "schemaMap" | "items" | "dependencies" | "ref" | "type" | "pattern"
  | "number" | "positive" | "count" | "boolean" | "string" | "array" | "stringList" | "stringListMap";

const SHAPES: ReadonlyMap<string, Shape> = new Map<string, Shape>([
  ["type", "type"], ["enum", "array"], ["format", "string"], ["$ref", "ref"],
  ["properties", "schemaMap"], ["patternProperties", "schemaMap"], ["additionalProperties", "schema"],
  ["propertyNames", "schema"], ["required", "stringList"], ["minProperties", "count"],
  ["maxProperties", "count"], ["dependentRequired", "stringListMap"], ["dependentSchemas", "schemaMap"],
  ["dependencies", "dependencies"], ["items", "items"], ["prefixItems", "schemaList"],
  ["additionalItems", "schema"], ["contains", "schema"], ["minContains", "count"], ["maxContains", "count"],
  ["minItems", "count"], ["maxItems", "count"], ["uniqueItems", "boolean"], ["minLength", "count"],
  ["maxLength", "count"], ["pattern", "pattern"], ["minimum", "number"], ["maximum", "number"],
  ["exclusiveMinimum", "number"], ["exclusiveMaximum", "number"], ["multipleOf", "positive"],
  ["allOf", "schemaList"], ["anyOf", "schemaList"], ["oneOf", "schemaList"], ["not", "schema"],
  ["if", "schema"], ["then", "schema"], ["else", "schema"], ["$defs", "schemaMap"], ["definitions", "schemaMap"],
]);

/**
 * Keywords that refuse instances but that this validator does not implement. JSON Schema tells a
 * validator to ignore keywords it does not know; these it knows, and ignoring them would accept
 * what the schema's author meant to refuse, so a schema using one is refused when it is checked.
 */
const UNCHECKED = new Set(["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef"]);

/** Keywords whose subschemas apply to the very value their parent applies to. */
const IN_PLACE = new Set(["$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"]);

const prepared = new WeakMap<object, PreparedSchema>();
const BOOLEAN_SCHEMA: PreparedSchema = { dialect: "2020-12", refs: new Map(), patterns: new Map(), quickAccept: undefined };

/** Checks `schema` (once per object; later calls hit a cache) and returns what validation needs. */
export function prepareSchema(schema: unknown): PreparedSchema {
  if (typeof schema === "boolean") return BOOLEAN_SCHEMA;
  if (!isJsonObject(schema)) throw new SchemaError("#", `must be an object or a boolean, got ${jsonTypeOf(schema)}`);
  let result = prepared.get(schema);
  if (result === undefined) {
    result = prepare(schema);
    prepared.set(schema, result);
  }
  return result;
}

function dialectOf(root: Record<string, unknown>): Dialect {
  // Spec (basic#json-schema-usage): a schema without "$schema" is JSON Schema 2020-12.
  if (!Object.hasOwn(root, "$schema")) return "2020-12";
  const uri = root.$schema;
  if (typeof uri !== "string") throw new SchemaError("#/$schema", `must be a string, got ${jsonTypeOf(uri)}`);
  const dialect = DIALECTS.get(uri.replace(/^https?:\/\//, "").replace(/#$/, ""));
  // Spec (basic#json-schema-usage): a dialect we do not support MUST be answered with an error.
  if (dialect === undefined) throw new SchemaError("#/$schema", `unsupported dialect "${uri}" (supported: 2020-12, draft-07)`);
  return dialect;
}

function prepare(root: Record<string, unknown>): PreparedSchema {
  const dialect = dialectOf(root);
  const refs = new Map<string, JsonSchema>();
  const patterns = new Map<string, RegExp>();
  const pointers = new Map<object, string>();
  const inPlace = new Map<object, object[]>();
  // An explicit work list rather than recursion, so a deeply nested schema cannot overflow the stack.
  const pending: Array<[unknown, string]> = [[root, "#"]];
  while (pending.length > 0) {
    const [schema, pointer] = pending.pop()!;
    if (typeof schema === "boolean") continue;
    if (!isJsonObject(schema)) throw new SchemaError(pointer, `must be an object or a boolean, got ${jsonTypeOf(schema)}`);
    if (pointers.has(schema)) continue;
    pointers.set(schema, pointer);
    const sameValue: object[] = [];
    inPlace.set(schema, sameValue);
    for (const [keyword, value] of Object.entries(schema)) {
      const shape = SHAPES.get(keyword);
      if (shape === undefined) {
        if (UNCHECKED.has(keyword)) throw new SchemaError(childPointer(pointer, keyword), `keyword "${keyword}" is not supported by this validator, so it could not be enforced (express it with additionalProperties or items, or leave it out)`);
        continue;
      }
      const at = childPointer(pointer, keyword);
      const children = subschemas(shape, value, at, root, refs, patterns);
      if (keyword === "patternProperties") for (const key of Object.keys(value as object)) compile(key, at, patterns);
      pending.push(...children);
      if (IN_PLACE.has(keyword)) for (const [child] of children) if (isJsonObject(child)) sameValue.push(child);
    }
  }
  findLoop(inPlace, pointers);
  return { dialect, refs, patterns, quickAccept: quickAcceptFor(root) };
}

/** Checks one keyword's value against its shape and returns the subschemas inside it. */
function subschemas(
  shape: Shape, value: unknown, at: string, root: object,
  refs: Map<string, JsonSchema>, patterns: Map<string, RegExp>,
): Array<[unknown, string]> {
  const fail = (expected: string): never => {
    const text = JSON.stringify(value);
    throw new SchemaError(at, `must be ${expected}, got ${text !== undefined && text.length <= 40 ? text : jsonTypeOf(value)}`);
  };
  const entries = (object: object) =>
    Object.entries(object).map(([key, child]): [unknown, string] => [child, childPointer(at, key)]);
  switch (shape) {
    case "schema":
      return [[value, at]];
    case "items":
      return Array.isArray(value) ? value.map((child, i): [unknown, string] => [child, childPointer(at, i)]) : [[value, at]];
    case "schemaList":
      if (!Array.isArray(value) || value.length === 0) return fail("a non-empty array of schemas");
      return value.map((child, i): [unknown, string] => [child, childPointer(at, i)]);
    case "schemaMap":
      return isJsonObject(value) ? entries(value) : fail("an object of schemas");
    case "dependencies": {
      // draft-07: each value is either a list of property names or a schema.
      if (!isJsonObject(value)) return fail("an object");
      const found: Array<[unknown, string]> = [];
      for (const [key, child] of Object.entries(value)) {
        if (Array.isArray(child)) checkStrings(child, childPointer(at, key));
        else found.push([child, childPointer(at, key)]);
      }
      return found;
    }
    case "ref": {
      if (typeof value !== "string") return fail("a string");
      if (!value.startsWith("#")) throw new SchemaError(at, `$ref "${value}" is not local; only "#..." references inside this schema are supported`);
      const target = resolveFragment(root, value);
      if (target === undefined) throw new SchemaError(at, `$ref "${value}" does not resolve inside this schema`);
      refs.set(value, target.value as JsonSchema);
      return [[target.value, value]];
    }
    case "type": {
      const names = Array.isArray(value) ? value : [value];
      if (names.length === 0) return fail("a type name or a non-empty array of them");
      for (const name of names) if (typeof name !== "string" || !TYPES.has(name)) throw new SchemaError(at, `unknown type ${JSON.stringify(name)}`);
      return [];
    }
    case "pattern":
      if (typeof value !== "string") return fail("a string");
      compile(value, at, patterns);
      return [];
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? [] : fail("a number");
    case "positive":
      return typeof value === "number" && value > 0 && Number.isFinite(value) ? [] : fail("a number greater than 0");
    case "count":
      return Number.isSafeInteger(value) && (value as number) >= 0 ? [] : fail("a non-negative integer");
    case "boolean":
      return typeof value === "boolean" ? [] : fail("a boolean");
    case "string":
      return typeof value === "string" ? [] : fail("a string");
    case "array":
      return Array.isArray(value) ? [] : fail("an array");
    case "stringList":
      checkStrings(value, at);
      return [];
    case "stringListMap":
      if (!isJsonObject(value)) return fail("an object of property-name arrays");
      for (const [key, names] of Object.entries(value)) checkStrings(names, childPointer(at, key));
      return [];
  }
}

function checkStrings(value: unknown, at: string): void {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new SchemaError(at, "must be an array of property names");
  }
}

function compile(pattern: string, at: string, patterns: Map<string, RegExp>): void {
  if (patterns.has(pattern)) return;
  try {
    // JSON Schema patterns are ECMA-262 regexes; the u flag makes "." and classes see code points.
    patterns.set(pattern, new RegExp(pattern, "u"));
  } catch (error) {
    throw new SchemaError(at, `pattern ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message})`);
  }
}

/**
 * Refuses schemas such as {"$ref": "#"} or two $defs whose allOf name each other: applying them
 * never moves into the instance, so validation could only stop by hitting the depth limit.
 * An iterative depth-first search over the "applies to the same value" edges.
 */
function findLoop(inPlace: ReadonlyMap<object, object[]>, pointers: ReadonlyMap<object, string>): void {
  const state = new Map<object, "open" | "done">();
  for (const start of inPlace.keys()) {
    if (state.has(start)) continue;
    state.set(start, "open");
    const stack: Array<[object, number]> = [[start, 0]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const next = inPlace.get(top[0])?.[top[1]++];
      if (next === undefined) {
        state.set(top[0], "done");
        stack.pop();
      } else if (state.get(next) === "open") {
        throw new SchemaError(pointers.get(top[0])!, `reference loop: "${pointers.get(next)}" applies to the same value again without descending into it`);
      } else if (!state.has(next)) {
        state.set(next, "open");
        stack.push([next, 0]);
      }
    }
  }
}
