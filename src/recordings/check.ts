// mcp-wire check: the spec linter for recordings. One walk over a recording's messages keeps what
// the two sides said so far (the negotiated version, both sides' capabilities, each side's open
// requests, the tools' output schemas) and hands each message to the rules in check-rules-*.ts,
// which report what breaks the spec of the version the session negotiated.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (and each rule's own section)
// Order: the session and JSON-lines forms keep the wire order, so every rule applies. A golden
// transcript keeps each side's order but not the order between them: its requests are all known
// before the walk, and the rules that need the order between the sides skip it (ordered: false).
// Sessions: a recording that holds several (check-sessions.ts, by its HTTP exchanges) has each
// walked on its own, and each finding names its session; the messages keep their numbers.

import { classify, isObject } from "../jsonrpc/messages.js";
import type { ProtocolVersion } from "../mcp/versions.js";
import { deeperThan, MAX_NESTING, printable, type Direction, type ReadOptions, type Recording, type WireEntry } from "./recording.js";
import { envelopeVersion, idKey, inExchange, initializeSucceeded, known, other, type CheckState, type Event, type Finding, type Rule, type SentRequest } from "./check-state.js";
import { JSONRPC_RULES } from "./check-rules-jsonrpc.js";
import { SESSION_RULES } from "./check-rules-session.js";
import { RESULT_RULES } from "./check-rules-results.js";
import { FLOW_RULES } from "./check-rules-flow.js";
import { MODERN_RULES } from "./check-rules-modern.js";
import { sessionsOf } from "./check-sessions.js";

export type { Finding, Rule } from "./check-state.js";

/** Every rule, in the order its findings on one message are listed. */
export const RULES: readonly Rule[] = [...JSONRPC_RULES, ...SESSION_RULES, ...RESULT_RULES, ...FLOW_RULES, ...MODERN_RULES];

/**
 * One finding as a line: where (the source and the message's number), which rule, what, and the
 * spec. A message quotes the recording (a method name), so it is made printable for a terminal.
 */
export function formatFinding(source: string, finding: Finding): string {
  const session = finding.session === undefined ? "" : ` [${printable(finding.session)}]`;
  return `${source}:#${finding.index} ${finding.dir}${session} ${finding.rule}: ${printable(finding.message)} (${finding.spec})`;
}

/** Every violation in `recording`, in the order of its messages; each of its sessions checked on its own. */
export function checkRecording(recording: Recording, options: ReadOptions = {}): Finding[] {
  const findings: Finding[] = [];
  for (const part of sessionsOf(recording)) {
    const checker = new SessionChecker({ ...recording, entries: part.entries.map(({ entry }) => entry) }, options);
    for (const { entry, index } of part.entries) {
      for (const finding of checker.check(entry, index)) findings.push(part.name === undefined ? finding : { ...finding, session: part.name });
    }
  }
  // Stable: one message's findings keep the rules' order.
  return findings.sort((a, b) => a.index - b.index);
}

/**
 * Checks a session a message at a time, as it goes: what `record --check` needs, with no recording
 * yet (the version is then learnt from initialize's answer or the first 2026-07-28 envelope), and
 * what checkRecording runs over a whole one (which knows the version before the walk).
 */
export class SessionChecker {
  readonly #state: CheckState;

  readonly #maxNesting: number;

  /** `options.http`: checked live over HTTP (record --check), with no recording to say so. */
  constructor(recording?: Recording, options: ReadOptions & { http?: boolean } = {}) {
    this.#state = initialState(recording, options.http ?? false);
    this.#maxNesting = options.maxNesting ?? MAX_NESTING;
    if (recording && !this.#state.ordered) knowBothSides(recording, this.#state);
  }

  /** The violations of the next message: numbered from 1 in the order given, unless `index` says its place in the recording. */
  check(entry: WireEntry, index = this.#state.index + 1): Finding[] {
    const state = this.#state;
    state.index = index;
    state.exchange = entry.exchange;
    const findings: Finding[] = [];
    // A line of blanks carries no message: line-delimited transports skip it (a golden keeps one,
    // as its client sent it), so there is nothing to check.
    if (entry.text.trim() === "") return findings;
    // A line that ends in \r (a peer writing CRLF) is not flagged: on stdio, messages are
    // delimited by newlines and MUST NOT contain embedded ones (basic/transports#stdio), and a \r
    // after the message is JSON whitespace outside it, not inside. A \r that splits a message
    // makes a line that is not JSON, which jsonrpc-shape reports.
    // Checked live, no reader refused it first (parseRecording does): the rules' walks would
    // run out of stack, so it is said and left out, not checked.
    if (deeperThan(entry.text, this.#maxNesting)) {
      return [{ index, dir: entry.dir, rule: "not-checked", message: `a message nested deeper than ${this.#maxNesting} levels`, spec: "https://modelcontextprotocol.io/specification/2025-11-25/basic#messages" }];
    }
    for (const event of eventsOf(entry, index, state)) {
      for (const rule of RULES) {
        rule.check(event, entry.dir, state, (message) => findings.push({ index, dir: entry.dir, rule: rule.name, message, spec: rule.spec }));
      }
      learn(event, entry.dir, state);
    }
    return findings;
  }
}

function initialState(recording: Recording | undefined, http: boolean): CheckState {
  const state: CheckState = {
    ordered: recording?.form !== "golden",
    http: http || recording?.header.transport === "http" || (recording?.exchanges.size ?? 0) > 0,
    index: 0,
    requests: { c2s: new Map(), s2c: new Map() },
    unreadable: { c2s: 0, s2c: 0 },
    lastWasNotification: { c2s: false, s2c: false },
    initializeAnswered: false,
    initializedSent: false,
    initializeSent: false,
    outputSchemas: new Map(),
    tools: new Set(),
    toolsComplete: false,
  };
  state.version = recording && negotiatedVersion(recording);
  return state;
}

/**
 * A golden transcript lists the client's lines (its answers to the server's requests among them)
 * before the server's: every request, and initialize's answer, are known before the walk. The
 * first of two requests with one id is the one kept, so the second is the one reported.
 */
function knowBothSides(recording: Recording, state: CheckState): void {
  recording.entries.forEach((entry, i) => {
    if (entry.message === undefined || Array.isArray(entry.message)) return;
    const event = eventOf(entry.message, entry.dir, i + 1, state);
    if (event.kind === "request" && !state.requests[entry.dir].has(idKey(event.id))) state.requests[entry.dir].set(idKey(event.id), event.request);
    if (event.kind !== "response" || !event.request) return;
    event.request.outcome ??= event.result ? "result" : "error";
    if (event.request.method === "initialize" && isObject(event.result?.capabilities)) state.serverCapabilities = event.result.capabilities;
  });
}

/** initialize's answer, else the first 2026-07-28 envelope's version, else "# protocol:". */
function negotiatedVersion(recording: Recording): ProtocolVersion | undefined {
  const initialize = recording.entries.find((entry) => entry.dir === "c2s" && isObject(entry.message) && entry.message.method === "initialize");
  const initializeId = isObject(initialize?.message) ? initialize.message.id : undefined;
  for (const entry of recording.entries) {
    const message = entry.message;
    if (!isObject(message)) continue;
    if (entry.dir === "s2c" && initializeId !== undefined && message.id === initializeId && isObject(message.result)) return known(message.result.protocolVersion);
  }
  for (const entry of recording.entries) {
    const version = entry.dir === "c2s" ? envelopeVersion(entry.message) : undefined;
    if (version) return version;
  }
  return known(recording.header.protocol);
}

/**
 * The events of one entry: a batch is one event for the batch rules, then one per item (only when
 * the version has batches: elsewhere nothing in one is run, so nothing in one is remembered).
 */
function eventsOf(entry: WireEntry, index: number, state: CheckState): Event[] {
  if (entry.message === undefined) return [{ kind: "unreadable" }];
  if (!Array.isArray(entry.message)) return [eventOf(entry.message, entry.dir, index, state)];
  const items = batchRuns(state) ? entry.message.map((item) => eventOf(item, entry.dir, index, state)) : [];
  return [{ kind: "batch", items: entry.message }, ...items];
}

/**
 * The request an answer to this id answers: of the requests that reused one id, the oldest still
 * open (in a golden transcript both answers come after both requests), else the latest.
 */
function oldestOpen(latest: SentRequest): SentRequest {
  let open: SentRequest | undefined;
  for (let sent: SentRequest | undefined = latest; sent; sent = sent.previous) if (!sent.answered) open = sent;
  return open ?? latest;
}

/** Whether a batch sent now is run item by item. Before initialize no version is agreed yet, so one is refused whole. */
function batchRuns(state: CheckState): boolean {
  return state.version === "2025-03-26" && (state.ordered ? state.initializeAnswered : state.initializeSent);
}

function eventOf(value: unknown, dir: Direction, index: number, state: CheckState): Event {
  const incoming = classify(value);
  switch (incoming.kind) {
    case "request": {
      const { id, method, params = {} } = incoming.message;
      const known = state.requests[dir].get(idKey(id));
      // The same message, met before the walk (knowBothSides), is the same request.
      const request: SentRequest = known?.index === index ? known : { id, method, params, index, exchange: state.exchange, version: envelopeVersion(value) ?? state.version, answered: false, cancelled: false };
      return { kind: "request", id, method, params, request };
    }
    case "notification":
      return { kind: "notification", method: incoming.message.method, params: incoming.message.params ?? {} };
    case "response": {
      const message = incoming.message;
      const latest = message.id === undefined || message.id === null ? undefined : state.requests[other(dir)].get(idKey(message.id));
      // Over HTTP an answer comes in its request's exchange (but the legacy transport's, on its stream).
      const request = latest && (inExchange(latest, state.exchange) ?? oldestOpen(latest));
      // Checked live, initialize went out before any version was known: its answer settles one.
      if (request?.method === "initialize" && request.version === undefined && "result" in message) request.version = known(message.result.protocolVersion);
      const answer = "result" in message ? { result: message.result } : { error: message.error };
      return { kind: "response", id: message.id, ...answer, request, answeredBefore: request?.answered ?? false };
    }
    case "invalid":
      return { kind: "invalid", reason: incoming.error.message, value };
    default:
      return { kind: "batch", items: incoming.items };
  }
}

/** What the walk remembers after the rules saw `event`. */
function learn(event: Event, dir: Direction, state: CheckState): void {
  state.lastWasNotification[dir] = event.kind === "notification";
  switch (event.kind) {
    case "request":
      state.version ??= envelopeVersion({ params: event.params });
      if (event.method === "initialize" && dir === "c2s") {
        state.initializeSent = true;
        state.clientCapabilities = isObject(event.params.capabilities) ? event.params.capabilities : {};
      }
      const earlier = state.requests[dir].get(idKey(event.id));
      if (earlier && earlier !== event.request) event.request.previous = earlier;
      state.requests[dir].set(idKey(event.id), event.request);
      return;
    case "notification":
      if (event.method === "notifications/tools/list_changed" && dir === "s2c") state.toolsComplete = false;
      // One sent before initialize succeeded does not count: it is out of order (lifecycle-order).
      if (event.method === "notifications/initialized" && dir === "c2s" && initializeSucceeded(state)) state.initializedSent = true;
      return;
    case "response":
      if (event.request) learnAnswer(event, event.request, state);
      else if (state.unreadable[other(dir)] > 0) state.unreadable[other(dir)]--;
      return;
    case "batch":
      // A batch whose items are not run gets one answer, as an unreadable message does.
      if (!batchRuns(state) || event.items.length === 0) state.unreadable[dir]++;
      return;
    case "invalid":
    case "unreadable":
      state.unreadable[dir]++;
      return;
  }
}

function learnAnswer(event: Extract<Event, { kind: "response" }>, request: SentRequest, state: CheckState): void {
  request.answered = true;
  request.outcome ??= event.result ? "result" : "error";
  const result = event.result;
  if (!result) return;
  if (request.method === "initialize") {
    state.version ??= known(result.protocolVersion);
    state.initializeAnswered = true;
    state.serverCapabilities = isObject(result.capabilities) ? result.capabilities : {};
  }
  if (request.method === "tools/list" && Array.isArray(result.tools)) {
    if (request.params.cursor === undefined) state.tools.clear();
    state.toolsComplete = result.nextCursor === undefined || result.nextCursor === null;
    for (const tool of result.tools) {
      if (!isObject(tool) || typeof tool.name !== "string") continue;
      state.tools.add(tool.name);
      if (tool.outputSchema !== undefined) state.outputSchemas.set(tool.name, tool.outputSchema);
      else state.outputSchemas.delete(tool.name);
    }
  }
}
