// The 2026-07-28 header mirror: the body fields a POST repeats in headers so that gateways can route
// without parsing JSON (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-{Name}), their
// `=?base64?...?=` form, a tool's `x-mcp-header` declarations, and the server's check that headers
// and body agree. Pure: no I/O, no state. Used by the client (writing) and the server (checking).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata
// and https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header
// Left out: choosing the era and answering 400 + HeaderMismatch (the HTTP server does both), and
// the tasks extension's `Mcp-Name: params.taskId` (a draft extension we do not serve).

import { isObject } from "../jsonrpc/messages.js";
import type { ClientRequestMethod } from "../mcp/methods.js";
import { META } from "../mcp/modern.js";

/** One tool argument that clients mirror into `Mcp-Param-{header}` on every `tools/call`. */
export interface HeaderParam {
  /** The `{Name}` of `Mcp-Param-{Name}` as declared; header names compare case-insensitively. */
  header: string;
  /** The `properties` keys leading from the arguments object to the value. */
  path: string[];
  /** The declared JSON Schema type, the only three a header may mirror. */
  type: "string" | "integer" | "boolean";
}

/** What a server found wrong in a POST's mirrored headers. The caller answers 400 with HeaderMismatch. */
export interface HeaderMismatch {
  /** The header, spelled as the spec spells it (`Mcp-Name`, `Mcp-Param-Region`). */
  header: string;
  /** What a conforming client sends for this body (encoded); absent when the body has nothing to mirror. */
  expected?: string;
  /** The header as received; null when it is missing. */
  got: string | null;
  /** The JSON-RPC error message, in the spec's words. */
  message: string;
}

/** A JSON-RPC request or notification, as far as the mirror reads it. */
export type MirroredMessage = { method: string; params?: unknown };

/** The most `x-mcp-header` declarations one tool may have: each is a header on every call. */
export const DEFAULT_MAX_HEADER_PARAMS = 100;

const ANNOTATION = "x-mcp-header";
const [PREFIX, SUFFIX] = ["=?base64?", "?="];
// RFC 9110 section 5.6.2: token = 1*tchar.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 9110 section 5.5: what a field value may hold as plain text (visible ASCII, space, tab).
const SAFE_TEXT = /^[\t\x20-\x7e]*$/;
// A decimal number, without the hex, padding and `Infinity` that Number() would also accept.
const DECIMAL = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
// ignoreBOM keeps a leading U+FEFF: it is part of the value, not a byte-order mark.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body field `Mcp-Name` mirrors, per method (a Map: "constructor" must find nothing). */
const NAME_FIELD: ReadonlyMap<string, string> = new Map(Object.entries({ "tools/call": "name", "prompts/get": "name", "resources/read": "uri" } satisfies { [M in ClientRequestMethod]?: string }));

/** A value as a header carries it: its text (numbers in decimal), or `=?base64?{UTF-8 in Base64}?=`. */
export function encodeHeaderValue(value: string | number | boolean): string {
  const text = String(value);
  // Spec (streamable-http#value-encoding): non-ASCII, control characters, edge whitespace or a look-alike sentinel MUST be Base64-encoded.
  // Empty text too: an intermediary may drop an empty header, and the body value would look unmirrored.
  if (text !== "" && SAFE_TEXT.test(text) && text.trim() === text && !looksEncoded(text)) return text;
  return PREFIX + Buffer.from(text, "utf8").toString("base64") + SUFFIX;
}

/** The text an `Mcp-Name` or `Mcp-Param-*` value stands for; undefined when it is not a valid one. */
export function decodeHeaderValue(text: string): string | undefined {
  // Spec (streamable-http#server-behavior-for-custom-headers): a value with invalid characters MUST be rejected.
  if (!SAFE_TEXT.test(text)) return undefined;
  // Spec (streamable-http#value-encoding): the markers are exact and lowercase; `=?BASE64?x?=` is plain text.
  if (!looksEncoded(text)) return text;
  if (text.length < PREFIX.length + SUFFIX.length) return undefined;
  const payload = text.slice(PREFIX.length, -SUFFIX.length);
  const bytes = Buffer.from(payload, "base64");
  // Buffer skips what is not Base64; encoding back is the strict test (alphabet, padding, spare bits).
  if (bytes.toString("base64") !== payload) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined; // Not UTF-8.
  }
}

/** The body value `Mcp-Name` mirrors: `params.name` (tools/call, prompts/get) or `params.uri` (resources/read). */
export function mcpNameOf(method: string, params: unknown): string | undefined {
  const field = NAME_FIELD.get(method);
  const value = field !== undefined && isObject(params) ? params[field] : undefined;
  return typeof value === "string" ? value : undefined;
}

// A place in the schema: `node` at `key` of `parent` (a property name when `isProperty`); `reachable`:
// from the root through `properties` alone. Parent links, not copied paths: a deep schema costs its size.
type Place = { node: unknown; parent?: Place; key: string; isProperty: boolean; reachable: boolean };

/**
 * The `x-mcp-header` declarations of a tool's inputSchema, or why they are invalid (a client MUST then
 * leave the tool out of its list). Every object in the schema is searched: a declaration anywhere but
 * on a property reached through `properties` makes the tool invalid.
 */
export function headerParams(inputSchema: unknown, maxHeaderParams = DEFAULT_MAX_HEADER_PARAMS): { ok: true; params: HeaderParam[] } | { ok: false; reason: string } {
  const params: HeaderParam[] = [];
  const seen = new Map<string, string>();
  // A queue rather than recursion: the schema is the server's, and a deep one must not overflow our stack.
  const queue: Place[] = [{ node: inputSchema, key: "", isProperty: false, reachable: true }];
  for (let i = 0; i < queue.length; i++) {
    const place = queue[i]!;
    const { node } = place;
    if (Array.isArray(node)) node.forEach((item, index) => queue.push({ node: item, parent: place, key: String(index), isProperty: false, reachable: false }));
    if (!isObject(node)) continue;
    if (Object.hasOwn(node, ANNOTATION)) {
      const declared = readDeclaration(node, place, seen);
      if (typeof declared === "string") return { ok: false, reason: `${ANNOTATION} at ${pointer(place) || "the schema root"}: ${declared}` };
      if (params.length === maxHeaderParams) return { ok: false, reason: `more than ${maxHeaderParams} ${ANNOTATION} declarations` };
      params.push({ ...declared, path: keysTo(place).map((at) => at.key) });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && isObject(value)) {
        for (const [name, child] of Object.entries(value)) queue.push({ node: child, parent: place, key: name, isProperty: true, reachable: place.reachable });
      } else if (key !== ANNOTATION) queue.push({ node: value, parent: place, key, isProperty: false, reachable: false });
    }
  }
  return { ok: true, params };
}

/** The declaration on `node`, or why it is invalid. A valid one's name goes into `seen`. */
function readDeclaration(node: { [key: string]: unknown }, place: Place, seen: Map<string, string>): Omit<HeaderParam, "path"> | string {
  // Spec (streamable-http#schema-extension): only on a property reached through `properties` alone (no items, oneOf, if, $ref...).
  if (!place.reachable || place.parent === undefined) return `it may only sit on a property reached from the root through "properties" alone`;
  const name = node[ANNOTATION];
  if (typeof name !== "string") return "the value must be a string";
  // Spec (tools#x-mcp-header): the name MUST be a non-empty RFC 9110 token, so without CR, LF or any control character.
  if (!TOKEN.test(name)) return `${JSON.stringify(name)} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~, at least one)`;
  // Spec (tools#x-mcp-header): only on integer, string or boolean properties; never number.
  const type = node.type;
  if (type !== "string" && type !== "integer" && type !== "boolean") return `the property's type must be "string", "integer" or "boolean", not ${JSON.stringify(type) ?? "absent"}`;
  // Spec (tools#x-mcp-header): names MUST be case-insensitively unique within the inputSchema.
  const earlier = seen.get(name.toLowerCase());
  if (earlier !== undefined) return `${JSON.stringify(name)} repeats ${JSON.stringify(earlier)} (header names ignore case)`;
  seen.set(name.toLowerCase(), name);
  return { header: name, type };
}

/** The places from the root (left out) to `place`. */
function keysTo(place: Place): Place[] {
  const places: Place[] = [];
  for (let at: Place | undefined = place; at?.parent !== undefined; at = at.parent) places.push(at);
  return places.reverse();
}

/** The place as a JSON Pointer (RFC 6901), for messages. */
function pointer(place: Place): string {
  return keysTo(place).map((at) => `${at.isProperty ? "/properties" : ""}/${at.key.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** The headers a client sends with `message`; `headerParams` are the called tool's. */
export function mirroredHeaders(message: MirroredMessage, headerParams: readonly HeaderParam[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  const version = versionOf(message.params);
  if (version !== undefined) headers["mcp-protocol-version"] = version;
  headers["mcp-method"] = message.method;
  const name = mcpNameOf(message.method, message.params);
  if (name !== undefined) headers["mcp-name"] = encodeHeaderValue(name);
  const args = argumentsOf(message);
  for (const param of headerParams) {
    const value = mirrorable(valueAt(args, param.path));
    // Spec (streamable-http#server-behavior-for-custom-headers): an argument absent or null sends no header.
    if (value !== undefined) headers[`mcp-param-${param.header.toLowerCase()}`] = encodeHeaderValue(value);
  }
  return headers;
}

/**
 * What is wrong with the mirrored headers of a POST carrying `message`, if anything. `get` reads one
 * header by name (as `Headers.get` does): only the headers the body calls for are ever read, however
 * many the POST carries. A notification needs no header (the spec defines none for it), but one it
 * carries must still agree with its body.
 */
export function headerMismatch(get: (name: string) => string | null, message: MirroredMessage, headerParams: readonly HeaderParam[] = [], kind: "request" | "notification" = "request"): HeaderMismatch | undefined {
  const required = kind === "request";
  const found =
    // Spec (streamable-http#protocol-version-header): MCP-Protocol-Version MUST equal the body's version.
    compare(get, "MCP-Protocol-Version", "mcp-protocol-version", versionOf(message.params), required, false) ??
    // Spec (streamable-http#standard-request-headers): Mcp-Method is required on every request and equals `method`.
    compare(get, "Mcp-Method", "mcp-method", message.method, required, false) ??
    // Spec (streamable-http#standard-request-headers): Mcp-Name is required for tools/call, prompts/get, resources/read.
    compare(get, "Mcp-Name", "mcp-name", mcpNameOf(message.method, message.params), required, true);
  if (found) return found;
  const args = argumentsOf(message);
  for (const param of headerParams) {
    const header = `Mcp-Param-${param.header}`;
    const value = mirrorable(valueAt(args, param.path));
    // Spec (streamable-http#server-behavior-for-custom-headers): a value in the body MUST come with a matching header.
    const mismatch = compare(get, header, header.toLowerCase(), value, required, true);
    if (mismatch) return mismatch;
    // The server MUST NOT expect a header for an absent or null value; one sent all the same mirrors
    // nothing the body holds, and an intermediary may have routed on it.
    const got = value === undefined ? get(header) : null;
    if (got !== null) return { header, got, message: `Header mismatch: ${header} header value '${got}' does not match body value (none)` };
  }
  return undefined;
}

/**
 * One header against its body value. A body without it has nothing to compare (a tools/call without
 * its name is invalid params, answered as such). `encodable`: the header may use the Base64 form.
 */
function compare(get: (name: string) => string | null, header: string, key: string, body: string | number | boolean | undefined, required: boolean, encodable: boolean): HeaderMismatch | undefined {
  if (body === undefined) return undefined;
  // Read by its lowercase name, as node keeps it: the name as written is for the message.
  const got = get(key);
  // The header a sender should have sent, worked out only for a mismatch: every request has three that match.
  const expected = () => (encodable ? encodeHeaderValue(body) : String(body));
  if (got === null) return required ? { header, expected: expected(), got, message: `Header mismatch: ${header} header is missing; body value is '${String(body)}'` } : undefined;
  // Spec (streamable-http#value-encoding): servers MUST decode an encoded value before comparing it.
  const text = encodable ? decodeHeaderValue(got) : got;
  if (text === undefined) return { header, expected: expected(), got, message: `Header mismatch: ${header} header value '${got}' has characters a header may not carry or a malformed =?base64?...?= form` };
  // Spec (streamable-http#server-validation): integers SHOULD compare as numbers, so "42.0" matches 42.
  const same = typeof body === "number" ? DECIMAL.test(text) && Number(text) === body : text === String(body);
  return same ? undefined : { header, expected: expected(), got, message: `Header mismatch: ${header} header value '${text}' does not match body value '${String(body)}'` };
}

/** A body value a header can mirror; undefined for absent, null, and what no header can carry. */
function mirrorable(value: unknown): string | number | boolean | undefined {
  if (typeof value === "string" || typeof value === "boolean") return value;
  // Spec (tools#x-mcp-header): integers stay within ±(2^53-1); past it the decimal text is not the body's number.
  if (typeof value === "number" && Number.isFinite(value) && (Number.isSafeInteger(value) || !Number.isInteger(value))) return value;
  return undefined;
}

function versionOf(params: unknown): string | undefined {
  const version = isObject(params) && isObject(params._meta) ? params._meta[META.protocolVersion] : undefined;
  return typeof version === "string" ? version : undefined;
}

function argumentsOf(message: MirroredMessage): unknown {
  return message.method === "tools/call" && isObject(message.params) ? message.params.arguments : undefined;
}

/** The value at `path` in `root`, by own properties only: what JSON.stringify sends and JSON.parse makes. */
function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function looksEncoded(text: string): boolean {
  return text.startsWith(PREFIX) && text.endsWith(SUFFIX);
}
