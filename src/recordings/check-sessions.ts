// The sessions of one recording, for the spec linter (check.ts) to check each on its own. A
// recording made through `record --listen` often holds several: a host's test session before its
// real one, two host processes each with their own, both eras of a dual-era server. They are told
// apart only by what the wire said of each message's HTTP exchange (recording-exchange.ts):
// - a handshake-era message belongs to the session its exchange's Mcp-Session-Id names (the
//   request's, or for initialize the one its answer gave); without one, to the one session of
//   the messages without a session id;
// - a 2026-07-28 request has no session (each is its own POST): those exchanges are checked
//   together, apart from every handshake session;
// - a request the HTTP layer refused (a 401 before a retry with a token, a 404 for a session that
//   ended) never reached the server's JSON-RPC, so it is not checked at all, unless an answer to
//   it came in its exchange. One that is not a JSON-RPC message is checked still: it is the
//   client's to answer for (jsonrpc-shape), refused or not.
// A recording without exchanges (stdio, golden, JSON lines, an HTTP recording made before the
// exchange notes) is one session, as before.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
// and https://modelcontextprotocol.io/specification/2026-07-28/basic#statelessness

import { classify } from "../jsonrpc/messages.js";
import { envelopeVersion } from "./check-state.js";
import { refused } from "./recording-exchange.js";
import type { Recording, WireEntry } from "./recording.js";

/** One session's entries, each with its position in the whole recording (from 1). */
export interface SessionPart {
  /** How findings name the session; undefined when the recording holds only one. */
  name?: string;
  entries: { entry: WireEntry; index: number }[];
}

const MODERN = "2026-07-28 requests (no session)";
const SESSIONLESS = "messages without a session id";

/** The recording's sessions, in the order each first appears. */
export function sessionsOf(recording: Recording): SessionPart[] {
  const all = recording.entries.map((entry, i) => ({ entry, index: i + 1 }));
  if (recording.exchanges.size === 0) return [{ entries: all }];
  const modern = new Set<number>();
  const answered = new Set<number>();
  for (const { entry } of all) {
    if (entry.exchange === undefined) continue;
    if (entry.dir === "c2s" && envelopeVersion(entry.message) === "2026-07-28") modern.add(entry.exchange);
    if (entry.dir === "s2c") answered.add(entry.exchange);
  }
  const parts = new Map<string, SessionPart>();
  for (const item of all) {
    const { entry } = item;
    const exchange = entry.exchange === undefined ? undefined : recording.exchanges.get(entry.exchange);
    if (entry.dir === "c2s" && refused(exchange) && !answered.has(entry.exchange!) && isMessage(entry.message)) continue;
    const key = entry.exchange !== undefined && modern.has(entry.exchange) ? MODERN : exchange?.session !== undefined ? `session ${exchange.session}` : SESSIONLESS;
    const part = parts.get(key) ?? { name: key, entries: [] };
    parts.set(key, part);
    part.entries.push(item);
  }
  const sessions = [...parts.values()];
  if (sessions.length === 1) delete sessions[0]!.name;
  return sessions;
}

function isMessage(value: unknown): boolean {
  if (value === undefined) return false;
  const kind = classify(value).kind;
  return kind !== "invalid";
}
