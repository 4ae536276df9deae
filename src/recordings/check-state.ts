// What the spec linter's walk (recordings/check.ts) knows and hands to its rules (recordings/check-rules-*.ts):
// the findings, the requests each side sent, each message as an event, the state of the session so
// far, and the few questions several rules ask of it. Its own file so that the rules and the walk
// import it, not each other.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic#messages

import { isObject, type RequestId } from "../jsonrpc/messages.js";
import type { ClientCapabilities, ServerCapabilities } from "../mcp/lifecycle.js";
import { META } from "../mcp/modern.js";
import { isModernVersion, isSupportedVersion, type ProtocolVersion } from "../mcp/versions.js";
import type { Direction } from "./recording.js";

/** One violation: the message's position (1-based, in the recording's entries), its direction, the rule. */
export interface Finding {
  index: number;
  dir: Direction;
  rule: string;
  message: string;
  spec: string;
  /** Which of the recording's sessions, when it holds several (check-sessions.ts). */
  session?: string;
}

/** A request one side sent, as the checker remembers it until (and after) its answer. */
export interface SentRequest {
  id: RequestId;
  method: string;
  params: { [key: string]: unknown };
  index: number;
  /** The HTTP exchange it was sent in, when the recording says. */
  exchange?: number;
  /** The version this request is under: its own 2026-07-28 envelope's, else the session's. */
  version?: ProtocolVersion;
  answered: boolean;
  /** How it was answered, once it was (a golden transcript's: known before the walk). */
  outcome?: "result" | "error";
  cancelled: boolean;
  /** The last progress value reported for it, if any. */
  progress?: number;
  /** Its input_required answer (2026-07-28): the keys it asked under, its requestState, and whether a retry came. */
  inputRound?: { keys: string[]; requestState?: string; retried: boolean };
  /** An earlier request of the same sender with the same id (a reuse, reported by id-reused). */
  previous?: SentRequest;
}

/** One message as the rules see it. */
export type Event =
  | { kind: "request"; method: string; id: RequestId; params: { [key: string]: unknown }; request: SentRequest }
  | { kind: "notification"; method: string; params: { [key: string]: unknown } }
  /** `request` is the one it answers, when the id names one of the other side's requests. */
  | { kind: "response"; id: RequestId | null | undefined; result?: { [key: string]: unknown }; error?: { code: number; message: string }; request?: SentRequest; answeredBefore: boolean }
  | { kind: "invalid"; reason: string; value: unknown }
  | { kind: "batch"; items: unknown[] }
  | { kind: "unreadable" };

/** What the walk knows when it hands a message to the rules. */
export interface CheckState {
  ordered: boolean;
  /** Recorded over HTTP: each 2026-07-28 request is a POST of its own, whose sender the wire does not name. */
  http: boolean;
  /** The position of the message being checked (1-based). */
  index: number;
  /** The HTTP exchange of the message being checked, when the recording says. */
  exchange?: number;
  /** The version the session negotiated, when the recording shows it. */
  version?: ProtocolVersion;
  serverCapabilities?: ServerCapabilities;
  clientCapabilities?: ClientCapabilities;
  /** Each side's requests by id key (see idKey), the requester's direction first. */
  requests: Record<Direction, Map<string, SentRequest>>;
  /** Unreadable or invalid messages from each side that may still get an answer without an id. */
  unreadable: Record<Direction, number>;
  /** The last message each side sent that was a notification (for an id-less answer to it). */
  lastWasNotification: Record<Direction, boolean>;
  initializeAnswered: boolean;
  initializedSent: boolean;
  initializeSent: boolean;
  /** The output schema of each tool, from the tools/list results so far. */
  outputSchemas: Map<string, unknown>;
  /** The tools the server listed so far. */
  tools: Set<string>;
  /** Whether `tools` is the whole list: its last page came, and no list_changed since. */
  toolsComplete: boolean;
}

export interface Rule {
  name: string;
  spec: string;
  /** Reports each violation of `event`, sent in direction `dir`, with `report`. */
  check(event: Event, dir: Direction, state: CheckState, report: (message: string) => void): void;
}

/** `1` and `"1"` are different requests, so the key keeps the type. */
export function idKey(id: RequestId): string {
  return `${typeof id}:${id}`;
}

export function other(dir: Direction): Direction {
  return dir === "c2s" ? "s2c" : "c2s";
}

/** `version` if it is one mcp-wire knows, of either generation. */
export function known(version: unknown): ProtocolVersion | undefined {
  return isSupportedVersion(version) || isModernVersion(version) ? version : undefined;
}

/** The version a request's 2026-07-28 envelope names, if it has one. */
export function envelopeVersion(message: unknown): ProtocolVersion | undefined {
  if (!isObject(message) || !isObject(message.params) || !isObject(message.params._meta)) return undefined;
  return known(message.params._meta[META.protocolVersion]);
}

/**
 * Whether an initialize sent before the current message succeeded (a golden transcript's answers
 * are known before the walk: its client's order is what counts).
 */
export function initializeSucceeded(state: CheckState): boolean {
  return [...state.requests.c2s.values()].some((sent) => sent.method === "initialize" && sent.index < state.index && sent.outcome === "result");
}

/** Of the requests that reused one id (`latest` and its previous ones), the one sent in `exchange`, if any. */
export function inExchange(latest: SentRequest, exchange: number | undefined): SentRequest | undefined {
  if (exchange === undefined) return undefined;
  for (let sent: SentRequest | undefined = latest; sent; sent = sent.previous) if (sent.exchange === exchange) return sent;
  return undefined;
}
