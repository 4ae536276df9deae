// The checker's JSON-RPC rules: each message's shape, and the ids that pair requests with answers
// (never null, not reused by their sender, each request answered once, no answer to a
// notification or to an id never sent), and batches only where the version has them.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic#messages and
// https://www.jsonrpc.org/specification. The shape is the codec's own (jsonrpc/messages.ts classify).

import { isObject } from "../jsonrpc/messages.js";
import { idKey, other, type Rule } from "./check-state.js";

const BASIC = "https://modelcontextprotocol.io/specification/2025-11-25/basic";

export const JSONRPC_RULES: Rule[] = [
  {
    name: "jsonrpc-shape",
    spec: `${BASIC}#messages`,
    check(event, _dir, state, report) {
      // Spec (basic#messages): every message is a JSON-RPC 2.0 request, response or notification.
      if (event.kind === "unreadable") report("the line is not JSON");
      if (event.kind === "invalid" && !hasNullId(event.value)) report(event.reason.replace(/^invalid request: /, ""));
      // Spec (2025-03-26 basic#batching; JSON-RPC 2.0 "Batch"): a batch holds at least one message,
      // an empty array is an Invalid Request. Where batches do not exist, batch-outside-2025-03-26 says so.
      if (event.kind === "batch" && event.items.length === 0 && (state.version === undefined || state.version === "2025-03-26")) report("an empty batch: a batch holds at least one message");
    },
  },
  {
    name: "id-null",
    spec: `${BASIC}#requests`,
    check(event, _dir, _state, report) {
      // Spec (basic#requests): a request's id MUST NOT be null.
      if (event.kind === "invalid" && hasNullId(event.value)) report("a request's id is null");
    },
  },
  {
    name: "id-reused",
    spec: `${BASIC}#requests`,
    check(event, dir, state, report) {
      if (event.kind !== "request") return;
      const earlier = state.requests[dir].get(idKey(event.id));
      if (!earlier || earlier === event.request) return;
      // Spec (basic#requests): an id MUST NOT have been used before by its sender in the session.
      // A 2026-07-28 request has no session: its id only has to differ from the sender's open ones
      // (2026-07-28 basic#requests). Over HTTP each is a POST of its own and the wire does not say
      // who sent it (two host processes both send "listen:0"), so only stdio shows a reuse.
      const bothModern = event.request.version === "2026-07-28" && earlier.version === "2026-07-28";
      if (bothModern && (earlier.answered || state.http)) return;
      report(`id ${JSON.stringify(event.id)} was already used by ${earlier.method} (#${earlier.index})`);
    },
  },
  {
    name: "answered-twice",
    spec: `${BASIC}#responses`,
    check(event, _dir, _state, report) {
      // Spec (basic#responses): each request gets exactly one response, cancelled or not.
      if (event.kind === "response" && event.request && event.answeredBefore) report(`${event.request.method} (#${event.request.index}) was already answered`);
    },
  },
  {
    name: "answer-to-unknown-id",
    spec: `${BASIC}#responses`,
    check(event, dir, state, report) {
      // Spec (basic#responses): a response carries the id of the request it answers.
      if (event.kind !== "response" || event.request || event.id === undefined || event.id === null) return;
      if (state.unreadable[other(dir)] > 0) return; // an answer to a message too broken to register
      report(`no request with id ${JSON.stringify(event.id)} was sent to this side`);
    },
  },
  {
    name: "answer-to-notification",
    spec: `${BASIC}#notifications`,
    check(event, dir, state, report) {
      if (event.kind !== "response" || (event.id !== undefined && event.id !== null)) return;
      // Spec (basic#notifications): the receiver MUST NOT send a response to a notification. An
      // answer without an id is right only for a message whose id could not be read.
      if (state.unreadable[other(dir)] === 0) report(`an answer without an id, and nothing unreadable to answer${state.lastWasNotification[other(dir)] ? " (after a notification)" : ""}`);
    },
  },
  {
    name: "batch-outside-2025-03-26",
    spec: "https://modelcontextprotocol.io/specification/2025-06-18/changelog",
    check(event, _dir, state, report) {
      // Spec (2025-03-26 basic#batching, removed in 2025-06-18): batches exist in 2025-03-26 only.
      if (event.kind === "batch" && state.version !== undefined && state.version !== "2025-03-26") report(`a batch of ${event.items.length} in a ${state.version} session`);
    },
  },
];

function hasNullId(value: unknown): boolean {
  return isObject(value) && "method" in value && value.id === null;
}
