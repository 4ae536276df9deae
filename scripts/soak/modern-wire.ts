// The 2026-07-28 wire as the soak speaks it, shared by the stdio and HTTP cases: the per-request
// envelope in `params._meta`, an answer summed up in a few words, and the table of hostile
// envelopes with the error each must get. Written out by hand, like wire.ts, so that nothing of
// mcp-wire's own client stands between the soak and the server.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions.

import type { Message } from "./wire.js";

export const MODERN = "2026-07-28";
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const INFO_KEY = "io.modelcontextprotocol/clientInfo";
const LEVEL_KEY = "io.modelcontextprotocol/logLevel";

/** A valid envelope (a client that can answer form elicitations), with `changes` applied; an undefined value removes its key. */
export function envelope(changes: { [key: string]: unknown } = {}): { [key: string]: unknown } {
  const meta: { [key: string]: unknown } = { [VERSION_KEY]: MODERN, [CAPABILITIES_KEY]: { elicitation: {} }, [INFO_KEY]: { name: "soak", version: "1" } };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete meta[key];
    else meta[key] = value;
  }
  return meta;
}

/** A 2026-07-28 request: `params` plus the envelope (changed by `meta`). */
export function modernRequest(id: string | number, method: string, params: object = {}, meta: { [key: string]: unknown } = {}): Message {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope(meta) } };
}

/** greet asks one form elicitation: the demo's tool for input rounds. */
export const greet = (id: string | number, retry: object = {}): Message => modernRequest(id, "tools/call", { name: "greet", arguments: {}, ...retry });

/** An answer in a few words: `error <code>[/<reason>]`, or `result <resultType>` (complete when absent). */
export function summarize(answer: Message): string {
  if (answer.error !== undefined) return `error ${answer.error.code}${answer.error.data?.reason ? `/${answer.error.data.reason}` : ""}`;
  return `result ${answer.result?.resultType ?? "complete"}`;
}

/** One hostile request and the summary its answer must have. */
export interface Attack {
  name: string;
  message: Message;
  expect: string;
  /** Refused before any handler runs (the envelope, the version, the method); over HTTP that is 400 or 404, not 200. */
  early: boolean;
}

const MALFORMED = "error -32602";
const UNSUPPORTED = "error -32022";
const WRONG_TYPES: [string, unknown][] = [["a number", 7], ["null", null], ["true", true], ["an object", {}], ["an array", []]];

/**
 * Every envelope key with every wrong type, the envelope partial, and versions we do not speak:
 * each is refused before any handler runs, with the same code on stdio and HTTP.
 */
export function envelopeAttacks(): Attack[] {
  const attacks: Attack[] = [];
  const add = (name: string, expect: string, meta: { [key: string]: unknown }, method = "tools/list", params: object = {}) =>
    attacks.push({ name, expect, early: Object.keys(params).length === 0, message: modernRequest(name, method, params, meta) });
  for (const [what, value] of WRONG_TYPES) {
    add(`protocolVersion is ${what}`, MALFORMED, { [VERSION_KEY]: value });
    if (what !== "an object") add(`clientCapabilities is ${what}`, MALFORMED, { [CAPABILITIES_KEY]: value });
    add(`clientInfo is ${what}`, MALFORMED, { [INFO_KEY]: value });
    add(`logLevel is ${what}`, MALFORMED, { [LEVEL_KEY]: value });
  }
  add("clientCapabilities is a string", MALFORMED, { [CAPABILITIES_KEY]: "all" });
  add("clientCapabilities is missing", MALFORMED, { [CAPABILITIES_KEY]: undefined });
  add("clientInfo lacks its version", MALFORMED, { [INFO_KEY]: { name: "soak" } });
  add("clientInfo.name is a number", MALFORMED, { [INFO_KEY]: { name: 1, version: "1" } });
  add("logLevel is not a level", MALFORMED, { [LEVEL_KEY]: "loud" });
  // The method's own params are the handler's to read: its -32602 is an answer like a result.
  add("tools/call without a name", MALFORMED, {}, "tools/call", { arguments: {} });
  add("tools/call with arguments a string", MALFORMED, {}, "tools/call", { name: "echo", arguments: "x" });
  add("listen with notifications a string", MALFORMED, {}, "subscriptions/listen", { notifications: "x" });
  add("version 2099-01-01", UNSUPPORTED, { [VERSION_KEY]: "2099-01-01" });
  // The spec is silent; we answer as SDK v2 does (PROTOCOL_NOTES.md, "Decisions where the spec is silent or disagrees").
  add("a handshake version in the envelope", UNSUPPORTED, { [VERSION_KEY]: "2025-11-25" });
  add("an empty version", UNSUPPORTED, { [VERSION_KEY]: "" });
  add("a 1 MB version", UNSUPPORTED, { [VERSION_KEY]: "9".repeat(1024 * 1024) });
  add("ping, a handshake-era method", "error -32601", {}, "ping");
  return attacks;
}

/**
 * Bodies that do not claim the era at all (`_meta` not an object, or without a protocolVersion).
 * They are the handshake era's: on stdio without a session that is a -32600; over HTTP a modern
 * MCP-Protocol-Version header makes them a -32602 (spec: basic#meta). Params that are not
 * an object are not JSON-RPC: -32600 on both.
 */
export function unclaimedAttacks(expect: string): Attack[] {
  const attacks: [string, unknown, string][] = [
    ["_meta is a string", { _meta: "x" }, expect],
    ["_meta lacks protocolVersion", { _meta: envelope({ [VERSION_KEY]: undefined }) }, expect],
    ["params is a string", "x", "error -32600"],
  ];
  return attacks.map(([name, params, want]) => ({ name, expect: want, early: true, message: { jsonrpc: "2.0", id: name, method: "tools/list", params } }));
}
