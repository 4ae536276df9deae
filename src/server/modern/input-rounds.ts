// Multi Round-Trip Requests, server side: how a handler written once (it awaits context.elicit(),
// sample() or listRoots()) is served to a 2026-07-28 client, which takes no requests. The handler
// runs from the start on every round. Its n-th ask is answered from the answers of earlier rounds
// (carried in the sealed requestState, request-state.ts) or from this round's inputResponses; the
// first ask that has no answer sets the handler aside (its signal aborts, its promise is dropped),
// and the request is answered `input_required` with every unanswered ask made by then. The client
// retries with a new id, the answers and the requestState; nothing stays on the server in between.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr (SPEC_2026.md §4).

import { ErrorCode, RpcError } from "../../jsonrpc/messages.js";
import { Params } from "../../jsonrpc/params.js";
import type { ClientCapabilities, Implementation } from "../../mcp/lifecycle.js";
import { META, type InputRequest, type InputRequiredResult } from "../../mcp/modern.js";
import type { ModernServed } from "../session.js";
import { askFingerprint, RequestStateTooLargeError, type RequestStateCodec, type StoredAnswer } from "./request-state.js";

/** Asks per request, over all its rounds: the spec sets no bound, and each answer rides in requestState. */
export const DEFAULT_MAX_INPUT_ASKS = 16;

/** What one run of the handler came to: its result, or the asks it is waiting on. */
export type RoundOutcome = { result: { [key: string]: unknown }; needsInput?: undefined } | { needsInput: Map<string, InputRequest> };

const NO_ANSWERS: readonly StoredAnswer[] = [];

/** The short name of each ask in its inputRequests key, for people reading the wire. */
const KEY_PREFIX: Record<InputRequest["method"], string> = { "elicitation/create": "elicit", "sampling/createMessage": "sample", "roots/list": "roots" };

export class InputRounds {
  /** True once the handler is set aside: nothing it does afterwards reaches the client. */
  setAside = false;
  readonly #method: string;
  readonly #params: { [key: string]: unknown };
  readonly #served: ModernServed;
  readonly #codec: RequestStateCodec;
  readonly #maxAsks: number;
  /** Earlier rounds' answers, from requestState, in ask order. */
  #earlier: readonly StoredAnswer[] = NO_ANSWERS;
  /** The answers this run was given, in ask order: the next requestState. */
  readonly #answers: StoredAnswer[] = [];
  /** The asks nobody answered yet; made at the first one, since most handlers never ask. */
  #pending: Map<string, InputRequest> | undefined;
  #asks = 0;
  #controller: AbortController | undefined;
  /** Why the handler was told to stop (set aside, or an ask refused); its signal is aborted with it. */
  #stopped: Error | undefined;
  #settle: ((outcome: RoundOutcome) => void) | undefined;
  #fail: ((error: unknown) => void) | undefined;

  constructor(method: string, params: { [key: string]: unknown }, served: ModernServed, codec: RequestStateCodec, maxAsks = DEFAULT_MAX_INPUT_ASKS) {
    this.#method = method;
    this.#params = params;
    this.#served = served;
    this.#codec = codec;
    this.#maxAsks = maxAsks;
  }

  /** The handler's signal: the request's, aborted also when the handler is set aside. */
  signal(request: AbortSignal): AbortSignal {
    if (!this.#controller) {
      // Made on first use: most handlers never look at their signal.
      this.#controller = new AbortController();
      if (this.#stopped) this.#controller.abort(this.#stopped);
    }
    return AbortSignal.any([request, this.#controller.signal]);
  }

  /**
   * Runs the handler to its result, or until it waits on asks nobody answered yet. A forged,
   * expired or replayed requestState is refused (-32602) before the handler runs.
   */
  run(handler: () => Promise<{ [key: string]: unknown }> | { [key: string]: unknown }): Promise<RoundOutcome> {
    if (this.#params.requestState !== undefined) this.#earlier = this.#codec.open(this.#params.requestState, this.#method, this.#params);
    // Settled by whichever comes first: the handler's answer, or its asks (#setAside, a refusal).
    // One promise rather than a race of two: this runs for every tools/call (npm run bench).
    return new Promise<RoundOutcome>((resolve, reject) => {
      this.#settle = resolve;
      this.#fail = reject;
      Promise.resolve(handler()).then((result) => resolve({ result }), reject);
    });
  }

  /**
   * One ask of the handler's (`read` reads its answer, mcp/read.ts): answered at once if an earlier
   * round or this one has the answer; otherwise never, since the handler is then set aside.
   */
  ask<R>(request: InputRequest, read: (answer: Params) => R): Promise<R> {
    const missing = missingCapability(request, this.#served.clientCapabilities);
    if (missing) {
      // Spec (mrtr): a server MUST NOT ask for input this request's capabilities do not declare.
      const refusal = new RpcError(ErrorCode.MissingRequiredClientCapability, `${this.#method}: cannot ask ${request.method}: this request's client capabilities do not declare it`, { requiredCapabilities: missing });
      // The request is answered with the refusal; like a set-aside handler, this one is told to stop.
      this.#stop(refusal);
      this.#fail?.(refusal);
      return new Promise(() => {});
    }
    const index = this.#asks++;
    const ask = askFingerprint(request.method, request.params);
    const earlier = this.#earlier[index];
    // Answers are used in order: a handler that asks something else on replay is asked again.
    if (earlier?.ask === ask && this.#answers.length === index) {
      this.#answers.push(earlier);
      return Promise.resolve(read(new Params(this.#method, earlier.answer, "requestState")));
    }
    if (index >= this.#maxAsks) {
      return Promise.reject(new Error(`${this.#method}: the handler asked the client ${index + 1} times; the most one request may ask is ${this.#maxAsks}`));
    }
    const key = `${KEY_PREFIX[request.method]}-${index + 1}-${ask.slice(0, 8)}`;
    const responses = this.#params.inputResponses as { [key: string]: unknown } | undefined;
    // Spec (mrtr): keys the server did not ask under are ignored.
    if (responses && Object.hasOwn(responses, key) && this.#answers.length === index) {
      const answer = read(new Params(this.#method, responses[key], `inputResponses.${key}`));
      this.#answers.push({ ask, answer });
      return Promise.resolve(answer);
    }
    this.#pending ??= new Map();
    this.#pending.set(key, request);
    // Asks made in the same turn (Promise.all) go out in the same round.
    if (this.#pending.size === 1) setImmediate(() => this.#setAside(this.#pending!));
    return new Promise(() => {});
  }

  /** The input_required answer for the pending asks, with the answers so far sealed into requestState. */
  inputRequired(pending: Map<string, InputRequest>, serverInfo: Implementation): InputRequiredResult {
    let requestState: string;
    try {
      requestState = this.#codec.seal({ method: this.#method, params: this.#params, answers: this.#answers });
    } catch (error) {
      if (!(error instanceof RequestStateTooLargeError)) throw error;
      // What does not fit is the client's own: its answers so far (or params nested too deeply to bind).
      throw new RpcError(ErrorCode.InvalidParams, `${this.#method}: the answers so far cannot be carried to the next round: ${error.message}`);
    }
    return { resultType: "input_required", inputRequests: Object.fromEntries(pending), requestState, _meta: { [META.serverInfo]: serverInfo } };
  }

  #setAside(pending: Map<string, InputRequest>): void {
    this.setAside = true;
    this.#stop(new Error(`${this.#method}: set aside until the client answers (input_required)`));
    this.#settle?.({ needsInput: pending });
  }

  #stop(reason: Error): void {
    this.#stopped ??= reason;
    this.#controller?.abort(this.#stopped);
  }
}

/**
 * The capability an ask needs that the request did not declare (SPEC_2026.md §4.4): URL elicitation
 * needs elicitation.url, form (or no mode) elicitation.form or a bare elicitation {}, sampling with
 * tools sampling.tools, roots/list roots.
 */
export function missingCapability(request: InputRequest, client: ClientCapabilities): ClientCapabilities | undefined {
  switch (request.method) {
    case "elicitation/create": {
      const mode = request.params.mode === "url" ? "url" : "form";
      const declared = client.elicitation;
      const formOnly = declared !== undefined && Object.keys(declared).length === 0;
      if (mode === "url") return declared?.url ? undefined : { elicitation: { url: {} } };
      return declared?.form || formOnly ? undefined : { elicitation: { form: {} } };
    }
    case "sampling/createMessage": {
      const tools = request.params.tools !== undefined || request.params.toolChoice !== undefined;
      if (!client.sampling) return { sampling: tools ? { tools: {} } : {} };
      return tools && !client.sampling.tools ? { sampling: { tools: {} } } : undefined;
    }
    case "roots/list":
      return client.roots ? undefined : { roots: {} };
  }
}
