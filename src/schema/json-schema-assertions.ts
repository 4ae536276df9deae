// The JSON Schema keywords that judge a value without looking at subschemas: type, enum, const,
// the numeric, string, array-size and object-size limits, required and dependentRequired.
// JSON Schema 2020-12 validation §6 (https://json-schema.org/draft/2020-12/json-schema-validation)
// plus draft-07's array form of "dependencies". Each returns messages; the caller adds the path.
// Keyword values are trusted here: json-schema-check.ts has already checked their shapes.

import type { PreparedSchema } from "./json-schema-check.js";
import { checkFormat } from "./json-schema-formats.js";
import {
  TOO_DEEP, canonicalJson, codePointLength, isJsonObject, isMultipleOf, jsonTypeOf, presentKeys,
} from "./json-schema-values.js";

type SchemaObject = Readonly<Record<string, unknown>>;

// Canonical forms of enum and const values, computed once per schema object.
const enumCache = new WeakMap<SchemaObject, Set<string | undefined>>();
const constCache = new WeakMap<SchemaObject, string | undefined>();

/** Problems `instance` has with the non-applicator keywords of `schema`; empty when none. */
export function assertionMessages(schema: SchemaObject, instance: unknown, prepared: PreparedSchema): string[] {
  const messages: string[] = [];
  checkGeneric(schema, instance, messages);
  if (typeof instance === "number") checkNumber(schema, instance, messages);
  else if (typeof instance === "string") checkString(schema, instance, prepared, messages);
  else if (Array.isArray(instance)) checkArray(schema, instance, messages);
  else if (isJsonObject(instance)) checkObject(schema, instance, messages);
  return messages;
}

function hasType(value: unknown, type: string): boolean {
  // "integer" is a number with no fractional part, so 1.0 counts (JSON cannot tell them apart).
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  return jsonTypeOf(value) === type;
}

/** Short JSON text for messages; long values are described instead of dumped. */
function show(value: unknown, fallback: string): string {
  const text = JSON.stringify(value);
  return text !== undefined && text.length <= 80 ? text : fallback;
}

function checkGeneric(schema: SchemaObject, instance: unknown, messages: string[]): void {
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((type) => hasType(instance, type))) messages.push(`must be ${types.join(" or ")}, got ${jsonTypeOf(instance)}`);
  }
  if (Array.isArray(schema.enum) || Object.hasOwn(schema, "const")) {
    const actual = canonicalJson(instance);
    // Comparing a too-deep value would mean recursing without bound; report the limit instead.
    if (actual === undefined) return void messages.push(TOO_DEEP);
    if (Array.isArray(schema.enum)) {
      let allowed = enumCache.get(schema);
      if (allowed === undefined) enumCache.set(schema, (allowed = new Set(schema.enum.map((value) => canonicalJson(value)))));
      if (!allowed.has(actual)) messages.push(`must be one of ${show(schema.enum, `the ${schema.enum.length} allowed values`)}`);
    }
    if (Object.hasOwn(schema, "const")) {
      if (!constCache.has(schema)) constCache.set(schema, canonicalJson(schema.const));
      if (constCache.get(schema) !== actual) messages.push(`must equal ${show(schema.const, "the constant value")}`);
    }
  }
}

function checkNumber(schema: SchemaObject, value: number, messages: string[]): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema as Record<string, number | undefined>;
  if (minimum !== undefined && !(value >= minimum)) messages.push(`must be >= ${minimum}, got ${value}`);
  if (maximum !== undefined && !(value <= maximum)) messages.push(`must be <= ${maximum}, got ${value}`);
  if (exclusiveMinimum !== undefined && !(value > exclusiveMinimum)) messages.push(`must be > ${exclusiveMinimum}, got ${value}`);
  if (exclusiveMaximum !== undefined && !(value < exclusiveMaximum)) messages.push(`must be < ${exclusiveMaximum}, got ${value}`);
  if (multipleOf !== undefined && !isMultipleOf(value, multipleOf)) messages.push(`must be a multiple of ${multipleOf}, got ${value}`);
}

function checkString(schema: SchemaObject, value: string, prepared: PreparedSchema, messages: string[]): void {
  const minLength = schema.minLength as number | undefined;
  const maxLength = schema.maxLength as number | undefined;
  if (minLength !== undefined || maxLength !== undefined) {
    // Lengths are in code points: "😀" is one character although it is two UTF-16 units.
    const length = codePointLength(value);
    if (minLength !== undefined && length < minLength) messages.push(`must have at least ${minLength} characters, got ${length}`);
    if (maxLength !== undefined && length > maxLength) messages.push(`must have at most ${maxLength} characters, got ${length}`);
  }
  if (typeof schema.pattern === "string" && !prepared.patterns.get(schema.pattern)!.test(value)) {
    messages.push(`must match pattern ${JSON.stringify(schema.pattern)}`);
  }
  if (typeof schema.format === "string" && !checkFormat(schema.format, value)) {
    messages.push(`must be a valid ${schema.format}`);
  }
}

function checkArray(schema: SchemaObject, items: readonly unknown[], messages: string[]): void {
  const minItems = schema.minItems as number | undefined;
  const maxItems = schema.maxItems as number | undefined;
  if (minItems !== undefined && items.length < minItems) messages.push(`must have at least ${minItems} items, got ${items.length}`);
  if (maxItems !== undefined && items.length > maxItems) messages.push(`must have at most ${maxItems} items, got ${items.length}`);
  if (schema.uniqueItems === true) {
    // One pass with a map of canonical forms: linear, where comparing every pair would be quadratic.
    const seen = new Map<string, number>();
    for (let i = 0; i < items.length; i++) {
      const key = canonicalJson(items[i], 1);
      if (key === undefined) return void messages.push(TOO_DEEP);
      const first = seen.get(key);
      if (first !== undefined) return void messages.push(`must NOT have duplicate items (items ${first} and ${i} are equal)`);
      seen.set(key, i);
    }
  }
}

function isPresent(object: Record<string, unknown>, name: string): boolean {
  return Object.hasOwn(object, name) && object[name] !== undefined;
}

function checkObject(schema: SchemaObject, object: Record<string, unknown>, messages: string[]): void {
  const count = schema.minProperties !== undefined || schema.maxProperties !== undefined ? presentKeys(object).length : 0;
  const minProperties = schema.minProperties as number | undefined;
  const maxProperties = schema.maxProperties as number | undefined;
  if (minProperties !== undefined && count < minProperties) messages.push(`must have at least ${minProperties} properties, got ${count}`);
  if (maxProperties !== undefined && count > maxProperties) messages.push(`must have at most ${maxProperties} properties, got ${count}`);
  if (Array.isArray(schema.required)) {
    for (const name of schema.required as string[]) if (!isPresent(object, name)) messages.push(`missing required property ${JSON.stringify(name)}`);
  }
  // dependentRequired (2020-12) and the array form of dependencies (draft-07) mean the same thing.
  for (const keyword of ["dependentRequired", "dependencies"]) {
    const rules = schema[keyword];
    if (!isJsonObject(rules)) continue;
    for (const [trigger, needed] of Object.entries(rules)) {
      if (!Array.isArray(needed) || !isPresent(object, trigger)) continue;
      for (const name of needed as string[]) {
        if (!isPresent(object, name)) messages.push(`missing property ${JSON.stringify(name)}, required when ${JSON.stringify(trigger)} is present`);
      }
    }
  }
}
