// The checker's flow rules, about messages that refer to a request: progress (a token its
// request carried, unique among the open ones and naming the open one that holds it, values that
// only grow, nothing after the answer) and cancellation (only one's own requests, never
// initialize; an answer after an honoured cancel may be missing, but a second answer is still a
// violation: answered-twice).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress and
// https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation

import { isObject } from "../jsonrpc/messages.js";
import { idKey, other, type Rule, type SentRequest } from "./check-state.js";

const UTILITIES = "https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities";

export const FLOW_RULES: Rule[] = [
  {
    name: "progress",
    spec: `${UTILITIES}/progress`,
    check(event, dir, state, report) {
      if (event.kind === "request") {
        const token = tokenOf(event.request);
        // Spec (basic/utilities/progress): a progress token is unique among the sender's active requests.
        const twin = token === undefined ? undefined : [...state.requests[dir].values()].find((sent) => !sent.answered && sent !== event.request && tokenOf(sent) === token);
        if (twin) report(`progress token ${JSON.stringify(token)} is already used by ${twin.method} (#${twin.index}), still open`);
        return;
      }
      if (event.kind !== "notification" || event.method !== "notifications/progress") return;
      const { progressToken: token, progress } = event.params;
      // Spec (basic/utilities/progress): a progress token names a request the other side is
      // still handling, and the progress value increases with each notification.
      const request = holderOf(state.requests[other(dir)], token);
      if (!request) return report(`progress token ${JSON.stringify(token)} names no request sent with it`);
      if (request.answered) report(`progress for ${request.method} (#${request.index}) after its answer`);
      if (typeof progress !== "number") return report(`"progress" must be a number, got ${JSON.stringify(progress)}`);
      if (request.progress !== undefined && progress <= request.progress) report(`progress ${progress} does not increase on ${request.progress}`);
      request.progress = progress;
    },
  },
  {
    name: "cancellation",
    spec: `${UTILITIES}/cancellation`,
    check(event, dir, state, report) {
      if (event.kind !== "notification" || event.method !== "notifications/cancelled") return;
      const id = event.params.requestId;
      if (typeof id !== "string" && typeof id !== "number") return;
      const request = state.requests[dir].get(idKey(id));
      // Spec (basic/utilities/cancellation): only requests the sender issued, and never initialize.
      if (!request) return report(`cancels request ${JSON.stringify(id)}, which this side never sent`);
      if (request.method === "initialize") report("initialize MUST NOT be cancelled");
      request.cancelled = true;
    },
  },
];

/**
 * The request a progress token names: a token is unique among the active requests only, so an
 * answered request may have passed it on. The open one that holds it, else the last that did.
 */
function holderOf(requests: Map<string, SentRequest>, token: unknown): SentRequest | undefined {
  if (typeof token !== "string" && typeof token !== "number") return undefined;
  let latest: SentRequest | undefined;
  for (const newest of requests.values()) {
    for (let sent: SentRequest | undefined = newest; sent; sent = sent.previous) {
      if (tokenOf(sent) !== token) continue;
      if (!sent.answered) return sent;
      if (!latest || sent.index > latest.index) latest = sent;
    }
  }
  return latest;
}

function tokenOf(request: SentRequest): unknown {
  return isObject(request.params._meta) ? request.params._meta.progressToken : undefined;
}
