// The checker's 2026-07-28 rules: what a server may send for one request (only the kinds of input
// its own clientCapabilities declare, never a request of its own, log messages only as its logLevel
// asks), the rounds of Multi Round-Trip Requests (an input_required result only where the method
// allows one, and each retry bringing the round's answers and its requestState back byte for
// byte), and subscriptions/listen (on a listen only the notifications it asked for, while it is open).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr and
// basic/patterns/subscriptions, and basic#meta for the envelope.
// A golden transcript keeps no order between its sides: a retry cannot be placed after its round,
// nor a notification before its listen's end, so those checks need the wire order (state.ordered).
// The project's own tables decide: missingCapability (server/modern/input-rounds.ts), the reader
// of input requests (mcp/read.ts) and INPUT_REQUIRED_METHODS (mcp/methods.ts).

import { isObject } from "../jsonrpc/messages.js";
import { LOGGING_LEVELS } from "../mcp/logging.js";
import { INPUT_REQUIRED_METHODS } from "../mcp/methods.js";
import { META } from "../mcp/modern.js";
import { readInputRequest } from "../mcp/read.js";
import { missingCapability } from "../server/modern/input-rounds.js";
import { idKey, inExchange, type CheckState, type Rule, type SentRequest } from "./check-state.js";

const PATTERNS = "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns";

/** The flag of a listen's filter that asks for each list's changes. */
const LIST_FLAG: { [method: string]: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged" } = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};
const UPDATED = "notifications/resources/updated";
const ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

export const MODERN_RULES: Rule[] = [
  {
    name: "request-capabilities",
    spec: `${PATTERNS}/mrtr`,
    check(event, dir, state, report) {
      // Spec (basic/patterns/mrtr): a 2026-07-28 server asks only inside an input_required result.
      if (event.kind === "request" && dir === "s2c" && modernSession(state)) report(`${event.method} sent as a request of the server's: in 2026-07-28 it asks only inside inputRequests`);
      // Spec (basic/index#meta, 2026-07-28): no notifications/message for a request without logLevel, none below it.
      if (event.kind === "notification" && dir === "s2c" && event.method === "notifications/message" && modernSession(state) && state.ordered) {
        const why = unaskedLog(event.params.level, state);
        if (why) report(why);
      }
      const round = inputRequiredOf(event);
      if (!round || !isObject(round.result.inputRequests)) return;
      const meta = isObject(round.request.params._meta) ? round.request.params._meta : {};
      const capabilities = meta[META.clientCapabilities];
      const declared = isObject(capabilities) ? capabilities : {};
      for (const [key, value] of Object.entries(round.result.inputRequests)) {
        let asked;
        try {
          asked = readInputRequest(key, value);
        } catch {
          continue; // input-rounds reports a malformed input request
        }
        // Spec (basic/patterns/mrtr): a server MUST NOT ask for input this request's clientCapabilities lack.
        const missing = missingCapability(asked, declared);
        if (missing) report(`inputRequests "${key}" asks ${asked.method}, but ${round.request.method} (#${round.request.index}) declared no ${JSON.stringify(missing)}`);
      }
    },
  },
  {
    name: "input-rounds",
    spec: `${PATTERNS}/mrtr`,
    check(event, dir, state, report) {
      if (event.kind === "request" && dir === "c2s" && state.ordered) return checkRetry(event.request, state, report);
      const round = inputRequiredOf(event);
      if (!round) return;
      const { request, result } = round;
      // Spec (basic/patterns/mrtr): only tools/call, prompts/get and resources/read may ask for
      // input; an input_required result holds inputRequests, requestState or both.
      if (!INPUT_REQUIRED_METHODS.some((method) => method === request.method)) report(`input_required is not allowed for ${request.method}`);
      const requests = isObject(result.inputRequests) ? result.inputRequests : undefined;
      const requestState = typeof result.requestState === "string" ? result.requestState : undefined;
      if (!requests && requestState === undefined) report("input_required without inputRequests or requestState");
      for (const [key, value] of Object.entries(requests ?? {})) {
        try {
          readInputRequest(key, value);
        } catch (error) {
          report(error instanceof Error ? error.message : String(error));
        }
      }
      request.inputRound = { keys: Object.keys(requests ?? {}), requestState, retried: false };
    },
  },
  {
    name: "listen-filter",
    spec: `${PATTERNS}/subscriptions`,
    check(event, dir, state, report) {
      if (event.kind !== "notification" || dir !== "s2c") return;
      const meta = isObject(event.params._meta) ? event.params._meta : {};
      const id = meta[META.subscriptionId];
      const change = event.method in LIST_FLAG || event.method === UPDATED;
      if (id === undefined) {
        // Spec (basic/patterns/subscriptions): in 2026-07-28 change notifications come only on a listen.
        if (change && modernSession(state)) report(`${event.method} outside any subscriptions/listen`);
        return;
      }
      const latest = typeof id === "string" || typeof id === "number" ? state.requests.c2s.get(idKey(id)) : undefined;
      // Over HTTP a listen's notifications come on its own exchange's stream: two open listens may share an id.
      const listen = latest && (inExchange(latest, state.exchange) ?? latest);
      if (listen?.method !== "subscriptions/listen") return report(`subscriptionId ${JSON.stringify(id)} names no subscriptions/listen of the client's`);
      const asked = isObject(listen.params.notifications) ? listen.params.notifications : {};
      // Spec (basic/patterns/subscriptions): a listen carries only what it asked for, until it ends.
      if (state.ordered && (listen.answered || listen.cancelled)) report(`${event.method} on the listen #${listen.index} after it ended`);
      if (event.method === ACKNOWLEDGED) {
        const got = isObject(event.params.notifications) ? event.params.notifications : {};
        const extra = Object.entries(got).filter(([flag, on]) => flag !== "resourceSubscriptions" && on === true && asked[flag] !== true).map(([flag]) => flag);
        extra.push(...uris(got).filter((uri) => !uris(asked).includes(uri)));
        if (extra.length > 0) report(`the acknowledgement grants ${extra.join(", ")}, which the listen #${listen.index} did not ask for`);
      } else if (event.method in LIST_FLAG) {
        if (asked[LIST_FLAG[event.method]!] !== true) report(`${event.method} on the listen #${listen.index}, which did not ask for ${LIST_FLAG[event.method]}`);
      } else if (event.method === UPDATED) {
        const uri = event.params.uri;
        // A sub-resource of a subscribed URI counts (spec: schema#resourceupdatednotificationparams).
        if (typeof uri !== "string" || !uris(asked).some((subscribed) => uri === subscribed || uri.startsWith(subscribed.endsWith("/") ? subscribed : `${subscribed}/`))) {
          report(`${UPDATED} for ${JSON.stringify(uri)} on the listen #${listen.index}, which did not subscribe to it`);
        }
      } else report(`${event.method} on the listen #${listen.index}: a listen carries change notifications only`);
    },
  },
];

/** A 2026-07-28 session: a version from the envelopes, and no handshake (a dual-era server's other clients may have one). */
function modernSession(state: CheckState): boolean {
  return state.version === "2026-07-28" && !state.initializeSent;
}

/**
 * Why a log message breaks the open requests' envelopes, if it does: it belongs to a request whose
 * logLevel asked for it. Over stdio it names no request, so some open request must have asked for
 * its level or a lower one.
 */
function unaskedLog(level: unknown, state: CheckState): string | undefined {
  const asked: number[] = [];
  for (const latest of state.requests.c2s.values()) {
    for (let sent: SentRequest | undefined = latest; sent; sent = sent.previous) {
      const meta = isObject(sent.params._meta) ? sent.params._meta : {};
      const rank = LOGGING_LEVELS.findIndex((known) => known === meta[META.logLevel]);
      if (!sent.answered && rank >= 0) asked.push(rank);
    }
  }
  if (asked.length === 0) return "notifications/message, but no open request asked for log messages (logLevel)";
  const rank = LOGGING_LEVELS.findIndex((known) => known === level);
  if (rank >= 0 && rank < Math.min(...asked)) return `notifications/message at ${String(level)}, below the level every open request asked for`;
  return undefined;
}

/** The input_required result an event is, with the request it answers. */
function inputRequiredOf(event: Parameters<Rule["check"]>[0]): { request: SentRequest; result: { [key: string]: unknown } } | undefined {
  if (event.kind !== "response" || !event.request || !event.result || event.result.resultType !== "input_required") return undefined;
  return { request: event.request, result: event.result };
}

function uris(filter: { [key: string]: unknown }): string[] {
  const list = filter.resourceSubscriptions;
  return Array.isArray(list) ? list.filter((uri): uri is string => typeof uri === "string") : [];
}

/**
 * A request that carries inputResponses or requestState is a retry: of the latest round (an
 * input_required result) of the same method and subject not yet retried.
 */
function checkRetry(retry: SentRequest, state: CheckState, report: (message: string) => void): void {
  const { inputResponses, requestState } = retry.params;
  if (inputResponses === undefined && requestState === undefined) return;
  const round = lastRound(retry, state);
  if (!round?.inputRound) return report(`${retry.method} carries ${requestState === undefined ? "inputResponses" : "requestState"}, but answers no input_required round`);
  const asked = round.inputRound;
  asked.retried = true;
  // Spec (basic/patterns/mrtr): the retry echoes requestState byte for byte, or sends none when
  // the round gave none, and answers every input request under its key.
  if (asked.requestState === undefined && requestState !== undefined) report(`requestState sent, but the input_required answer to #${round.index} gave none`);
  if (asked.requestState !== undefined && requestState !== asked.requestState) report(`requestState is not the one the input_required answer to #${round.index} gave, byte for byte`);
  const answered = isObject(inputResponses) ? inputResponses : {};
  const missing = asked.keys.filter((key) => !Object.hasOwn(answered, key));
  if (missing.length > 0) report(`inputResponses lacks ${missing.map((key) => JSON.stringify(key)).join(", ")}, asked in the input_required answer to #${round.index}`);
}

function lastRound(retry: SentRequest, state: CheckState): SentRequest | undefined {
  const subject = (request: SentRequest) => request.params.name ?? request.params.uri;
  let last: SentRequest | undefined;
  for (const latest of state.requests.c2s.values()) {
    for (let sent: SentRequest | undefined = latest; sent; sent = sent.previous) {
      if (sent === retry || !sent.inputRound || sent.inputRound.retried || sent.method !== retry.method || subject(sent) !== subject(retry)) continue;
      if (!last || sent.index > last.index) last = sent;
    }
  }
  return last;
}
