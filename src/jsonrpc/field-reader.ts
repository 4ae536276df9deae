// Textbook: need in src/textbook/server.ts; this adds every JSON type, nested paths, optional
//  fields and bounds.
// Reading the fields of an untrusted JSON object with clear errors: a request's params, and (read
// the same way) a result. Every failure is an Invalid params (-32602) error whose message names the
// method and the field, e.g. `tools/call: "name" must be a string`; for a result, the caller turns
// it into a failure of its own call (protocol/our-requests.ts: MalformedResponseError).
// Spec: https://www.jsonrpc.org/specification#error_object (code -32602).

import { ErrorCode, isObject, RpcError } from "./messages.js";

type Json = { [key: string]: unknown };

export class FieldReader {
  readonly method: string;
  readonly value: Json;
  readonly #path: string;

  /** `params` may be absent on the wire; that reads as an empty object. */
  constructor(method: string, params: unknown, path = "") {
    if (params !== undefined && !isObject(params)) {
      throw new RpcError(ErrorCode.InvalidParams, `${method}: ${path ? `"${path}"` : "params"} must be an object`);
    }
    this.method = method;
    this.value = params ?? {};
    this.#path = path;
  }

  /** The -32602 error for a field of this object, for the caller to throw. */
  error(field: string, problem: string, data?: unknown): RpcError {
    return invalidParams(this.method, this.#name(field), problem, data);
  }

  string(field: string): string {
    const value = this.value[field];
    if (value === undefined) throw this.error(field, "is required");
    if (typeof value !== "string") throw this.error(field, `must be a string, got ${typeName(value)}`);
    return value;
  }

  optionalString(field: string): string | undefined {
    return this.value[field] === undefined ? undefined : this.string(field);
  }

  /** One of a fixed set of strings, such as a logging level. */
  choice<T extends string>(field: string, allowed: readonly T[]): T {
    const value = this.string(field);
    if (!allowed.includes(value as T)) throw this.error(field, `must be one of ${allowed.join(", ")}, got "${value}"`);
    return value as T;
  }

  optionalChoice<T extends string>(field: string, allowed: readonly T[]): T | undefined {
    return this.value[field] === undefined ? undefined : this.choice(field, allowed);
  }

  number(field: string): number {
    const value = this.value[field];
    if (value === undefined) throw this.error(field, "is required");
    if (typeof value !== "number") throw this.error(field, `must be a number, got ${typeName(value)}`);
    return value;
  }

  optionalNumber(field: string): number | undefined {
    return this.value[field] === undefined ? undefined : this.number(field);
  }

  optionalBoolean(field: string): boolean | undefined {
    const value = this.value[field];
    if (value !== undefined && typeof value !== "boolean") throw this.error(field, `must be a boolean, got ${typeName(value)}`);
    return value;
  }

  /** A field that must be there, whatever its type (such as a log record's `data`). */
  present(field: string): unknown {
    if (this.value[field] === undefined) throw this.error(field, "is required");
    return this.value[field];
  }

  array(field: string): unknown[] {
    const value = this.value[field];
    if (value === undefined) throw this.error(field, "is required");
    if (!Array.isArray(value)) throw this.error(field, `must be an array, got ${typeName(value)}`);
    return value;
  }

  optionalArray(field: string): unknown[] | undefined {
    return this.value[field] === undefined ? undefined : this.array(field);
  }

  /** An array of objects, each read with the same rules (named `field[i]` in errors). */
  objects(field: string): FieldReader[] {
    return this.array(field).map((item, i) => new FieldReader(this.method, item ?? null, `${this.#name(field)}[${i}]`));
  }

  /**
   * An array of objects that each have these string fields (named `field[i].name` in errors),
   * such as content blocks and their `type`. Checked in place: a result may hold many items, and
   * only a failure needs an object to describe it.
   */
  objectsWith(field: string, strings: readonly string[]): unknown[] {
    const items = this.array(field);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      let ok = isObject(item);
      for (let k = 0; ok && k < strings.length; k++) ok = typeof (item as Json)[strings[k]!] === "string";
      if (ok) continue;
      const at = new FieldReader(this.method, item ?? null, `${this.#name(field)}[${i}]`);
      for (const name of strings) at.string(name);
    }
    return items;
  }

  /** A nested object, read with the same rules. */
  object(field: string): FieldReader {
    const value = this.value[field];
    if (value === undefined) throw this.error(field, "is required");
    return new FieldReader(this.method, value, this.#name(field));
  }

  optionalObject(field: string): FieldReader | undefined {
    return this.value[field] === undefined ? undefined : this.object(field);
  }

  /** A free-form object, such as tool arguments. */
  optionalRecord(field: string): Json | undefined {
    const value = this.value[field];
    if (value === undefined) return undefined;
    if (!isObject(value)) throw this.error(field, `must be an object, got ${typeName(value)}`);
    return value;
  }

  /** An object whose values must all be strings, such as prompt arguments. */
  optionalStringRecord(field: string): Record<string, string> | undefined {
    const record = this.optionalRecord(field);
    if (!record) return undefined;
    for (const [key, value] of Object.entries(record)) {
      if (typeof value !== "string") throw this.error(`${field}.${key}`, `must be a string, got ${typeName(value)}`);
    }
    return record as Record<string, string>;
  }

  #name(field: string): string {
    return this.#path ? `${this.#path}.${field}` : field;
  }
}

/** The -32602 error for a field of `method`'s params, e.g. `tools/call: "name" names no tool`. */
export function invalidParams(method: string, field: string, problem: string, data?: unknown): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `${method}: "${field}" ${problem}`, data);
}

/** A short, human name for a JSON value's type, for error messages. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}
