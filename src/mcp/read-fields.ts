// Textbook: need in src/textbook/server.ts; this adds typed field readers shared by every table.
// The field readers every table of the read*.ts files is made of: `_meta`, results' null-as-absent
// leniency, pages, implementations, URIs, a listen's filter, and the one cast from checked JSON to
// an MCP type. The tables are by who sends what: read-client-requests.ts (what a client asks),
// read-server-requests.ts (what a server asks), read-modern.ts (what 2026-07-28 adds); read.ts
// gathers them. Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema

import type { ResultReaders } from "../protocol/method-table.js";
import { FieldReader } from "../jsonrpc/field-reader.js";
import type { SubscriptionFilter } from "./modern.js";

/**
 * The readers of `readers` as functions of a raw result, made once per method rather than per
 * call: a client may make many calls a second. Errors name the field ("result: \"content\" ...");
 * OurRequests.request (protocol/our-requests.ts) turns them into a MalformedResponseError naming the method, since a result we
 * cannot read is our failure, not an error the peer answered.
 */
export function resultReaders<T extends { [method: string]: { params: object; result: { [key: string]: unknown } } }>(
  readers: ResultReaders<T>,
): { [M in keyof T]: (result: { [key: string]: unknown }) => T[M]["result"] } {
  const made: { [method: string]: (result: { [key: string]: unknown }) => unknown } = {};
  for (const method of Object.keys(readers)) {
    const read = readers[method]!;
    made[method] = (result) => read(new FieldReader("result", result));
  }
  return made as { [M in keyof T]: (result: { [key: string]: unknown }) => T[M]["result"] };
}

/** The one cast: `p` has been checked for every field the type declares, as deep as we read it. */
export function checked<T>(p: FieldReader): T {
  return p.value as T;
}

/**
 * Reads `_meta`, which any params or result may carry, as an object. Leniency: a null `_meta`
 * reads as absent (and is deleted, so the value matches its type): peers send it, and a ping
 * carrying it must still be answered, as it was before the readers.
 */
export function meta(p: FieldReader): FieldReader {
  if (p.value._meta === null) delete p.value._meta;
  p.optionalObject("_meta");
  return p;
}

/**
 * Leniency, for results only: an optional field sent as null reads as absent. The spec allows no
 * null there, but real servers send `"nextCursor": null` and the like, and a client that refused
 * them could not list their tools. The result is ours (freshly parsed), so the field is deleted:
 * the value then matches its type. FieldReader stay strict.
 */
export function nullAsAbsent(p: FieldReader, ...fields: string[]): FieldReader {
  for (const field of fields) if (p.value[field] === null) delete p.value[field];
  return p;
}

export function nothing<T>(p: FieldReader): T {
  return checked<T>(meta(p));
}

export function paginated<T>(p: FieldReader): T {
  p.optionalString("cursor");
  return checked<T>(meta(p));
}

/** A list result: its items' array, each item an object with these string fields, and nextCursor. */
export function page<T>(key: string, names: string[]): (p: FieldReader) => T {
  return (p) => {
    p.objectsWith(key, names);
    nullAsAbsent(p, "nextCursor").optionalString("nextCursor");
    return checked<T>(meta(p));
  };
}

export function implementation(p: FieldReader): void {
  p.string("name");
  p.string("version");
}

/** Content blocks are switched on `type`, so each must have one. */
export const TYPE = ["type"];

export function uri<T>(p: FieldReader): T {
  p.string("uri");
  return checked<T>(meta(p));
}

/** A SubscriptionFilter: every field optional, each of its type (strings for the URIs). */
export function subscriptionFilter(p: FieldReader): SubscriptionFilter {
  for (const flag of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"]) p.optionalBoolean(flag);
  p.optionalArray("resourceSubscriptions")?.forEach((uri, i) => {
    if (typeof uri !== "string") throw p.error(`resourceSubscriptions[${i}]`, "must be a string");
  });
  return checked(p);
}
