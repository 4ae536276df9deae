// A prepared check for the schema most tools declare: an object of named scalar properties, some
// required, perhaps no others allowed ({"type":"object","properties":{"text":{"type":"string"}},
// "required":["text"]}). It only ever says "valid": an instance it cannot accept goes to the full
// validator in json-schema.ts, which finds and words the issues, so both give the same answers.
// Any keyword outside this small set (an assertion, an applicator, a $ref) makes a schema not
// simple, and it is always walked in full.

import { isJsonObject } from "./json-schema-values.js";

/** Accepts an instance only if the full validator would find no issue with it. */
export type QuickAccept = (instance: unknown) => boolean;

/** Keywords that never judge a value (JSON Schema 2020-12 core §7.7, validation §9). */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "$comment", "readOnly", "writeOnly", "deprecated"]);
// "integer" is any number with no fractional part, as the full validator has it.
const SCALARS: ReadonlyMap<string, (value: unknown) => boolean> = new Map([
  ["string", (value: unknown) => typeof value === "string"],
  ["number", (value: unknown) => typeof value === "number"],
  ["integer", (value: unknown) => Number.isInteger(value)],
  ["boolean", (value: unknown) => typeof value === "boolean"],
]);

/**
 * The quick check of `schema`, or undefined when it is not a simple object schema. Call it on a
 * schema prepareSchema has already checked (keyword shapes, dialect): the root may also carry
 * "$schema", which only matters for $ref, not allowed here.
 */
export function quickAcceptFor(schema: Readonly<Record<string, unknown>>): QuickAccept | undefined {
  const { type, properties = {}, required = [], additionalProperties } = schema;
  if (type !== "object" || !isJsonObject(properties) || !Array.isArray(required)) return undefined;
  if (additionalProperties !== undefined && typeof additionalProperties !== "boolean") return undefined;
  const known = new Set(["type", "properties", "required", "additionalProperties", "$schema"]);
  if (Object.keys(schema).some((keyword) => !known.has(keyword) && !ANNOTATIONS.has(keyword))) return undefined;
  const checks = new Map<string, (value: unknown) => boolean>();
  for (const [name, property] of Object.entries(properties)) {
    const check = isJsonObject(property) && typeof property.type === "string" ? SCALARS.get(property.type) : undefined;
    if (check === undefined || Object.keys(property as object).some((keyword) => keyword !== "type" && !ANNOTATIONS.has(keyword))) return undefined;
    checks.set(name, check);
  }
  const names = required as readonly string[];
  const closed = additionalProperties === false;
  return (instance) => {
    if (!isJsonObject(instance)) return false;
    for (const name of names) if (!Object.hasOwn(instance, name) || instance[name] === undefined) return false;
    for (const name in instance) {
      // Own keys only, and an undefined value is absent (it would not survive JSON), as in the walk.
      if (!Object.hasOwn(instance, name) || instance[name] === undefined) continue;
      const check = checks.get(name);
      if (check === undefined ? closed : !check(instance[name])) return false;
    }
    return true;
  };
}
