// Multi Round-Trip Requests, server side: how a handler written once (it awaits context.elicit(),
// sample() or listRoots()) is served to a 2026-07-28 client, which takes no requests. The handler
// runs from the start on every round. Its n-th ask is answered from the answers of earlier rounds
// (carried in the sealed requestState, request-state.ts) or from this retry's inputResponses, read
// only under the keys the presented requestState says were asked (so a first request, which has
// none, reads no inputResponses at all); the first ask that has no answer sets the handler aside
// (its signal aborts, its pending asks reject, its result is dropped), and the request is answered
// `input_required` with every unanswered ask made by then. The client retries with a new id, the
// answers and the requestState; nothing stays on the server in between.
// Because the handler runs again from the start, its asks must follow from its params and the
// answers to earlier asks only: an ask that changes between runs (a counter, a clock, a nonce) is
// never answered, and such a request ends at maxInputRounds.
// Work a handler starts beside an ask and that ignores its signal runs on after it is set aside, as
// after a cancel: nothing here can stop it, and what it produces reaches nobody.
// Most handlers never ask: serve.ts (serveAsking) makes a request's InputRounds only once needed (a
// requestState to open, a first ask, a first look at the handler's signal), and `run` below is the
// same thing in one call with the rounds made up front.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr.

import { isObject, RpcError } from "../../jsonrpc/messages.js";
import { ErrorCode } from "../../mcp/errors.js";
import { FieldReader } from "../../jsonrpc/field-reader.js";
import type { ClientCapabilities, Implementation } from "../../mcp/lifecycle.js";
import { META, type InputRequest, type InputRequiredResult } from "../../mcp/modern.js";
import type { RequestContext } from "../../protocol/method-table.js";
import type { ModernServed } from "../served.js";
import { askFingerprint, RequestStateTooLargeError, type OpenedState, type RequestStateCodec, type StoredAnswer } from "./request-state.js";

/** Asks per request, over all its rounds: the spec sets no bound, and each answer rides in requestState. */
export const DEFAULT_MAX_INPUT_ASKS = 16;
/** input_required answers per request: the spec sets no bound, and a handler whose asks change never ends. */
export const DEFAULT_MAX_INPUT_ROUNDS = 8;

/** What a handler's unanswered asks reject with once it is set aside. Local: it never reaches the client. */
export class InputRoundSetAsideError extends Error {
  constructor(method: string) {
    super(`${method}: set aside until the client answers (input_required)`);
    this.name = "InputRoundSetAsideError";
  }
}

/** What one run of the handler came to: its result, or the asks it is waiting on. */
export type RoundOutcome = { result: { [key: string]: unknown }; needsInput?: undefined } | { needsInput: Map<string, InputRequest> };

const NO_ANSWERS: readonly StoredAnswer[] = [];
const IGNORE = (): void => {};

/** The short name of each ask in its inputRequests key, for people reading the wire. */
const KEY_PREFIX: Record<InputRequest["method"], string> = { "elicitation/create": "elicit", "sampling/createMessage": "sample", "roots/list": "roots" };

export class InputRounds {
  /** True once the handler is set aside: nothing it does afterwards reaches the client. */
  setAside = false;
  readonly #method: string;
  readonly #params: { [key: string]: unknown };
  readonly #served: ModernServed & Pick<RequestContext, "signal">;
  readonly #codec: RequestStateCodec;
  readonly #maxAsks: number;
  readonly #maxRounds: number;
  /** The retry's requestState, verified; used up only once this run produced an answer (#consume). */
  #opened: OpenedState | undefined;
  /** Whether #opened was claimed in the fleet's shared store (claimShared), and used up since (#consume). */
  #claimed = false;
  #used = false;
  /** Earlier rounds' answers, from requestState, in ask order. */
  #earlier: readonly StoredAnswer[] = NO_ANSWERS;
  /** The answers this run was given, in ask order: the next requestState. */
  readonly #answers: StoredAnswer[] = [];
  /** The asks nobody answered yet; made at the first one, since most handlers never ask. */
  #pending: Map<string, InputRequest> | undefined;
  /** How to reject each pending ask's promise once the handler is stopped. */
  #rejectPending: ((error: Error) => void)[] = [];
  #asks = 0;
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  /** Why the handler was told to stop (set aside, or an ask refused); its signal is aborted with it. */
  #stopped: Error | undefined;
  #settle: ((needsInput: Map<string, InputRequest>) => void) | undefined;
  #fail: ((error: unknown) => void) | undefined;

  constructor(
    method: string, params: { [key: string]: unknown }, served: ModernServed & Pick<RequestContext, "signal">, codec: RequestStateCodec,
    maxAsks = DEFAULT_MAX_INPUT_ASKS, maxRounds = DEFAULT_MAX_INPUT_ROUNDS,
  ) {
    this.#method = method;
    this.#params = params;
    this.#served = served;
    this.#codec = codec;
    this.#maxAsks = maxAsks;
    this.#maxRounds = maxRounds;
  }

  /** The handler's signal: the request's, aborted also when the handler is set aside. One per request. */
  signal(request: AbortSignal): AbortSignal {
    if (!this.#signal) {
      // Made on first use: most handlers never look at their signal.
      this.#controller = new AbortController();
      if (this.#stopped) this.#controller.abort(this.#stopped);
      this.#signal = AbortSignal.any([request, this.#controller.signal]);
    }
    return this.#signal;
  }

  /**
   * Runs the handler to its result, or until it waits on asks nobody answered yet. A forged,
   * expired or used-up requestState is refused (-32602) before the handler runs. serve.ts does the
   * same with rounds made only once needed (serveAsking); this is the whole design in one call.
   */
  async run(handler: () => Promise<{ [key: string]: unknown }> | { [key: string]: unknown }): Promise<RoundOutcome> {
    this.open();
    await this.claimShared();
    // Settled by whichever comes first: the handler's answer, or its asks (#setAside, a refusal).
    const outcome = new Promise<RoundOutcome>((resolve, reject) => {
      this.settleWith((needsInput) => resolve({ needsInput }), reject);
      Promise.resolve(handler()).then((result) => {
        try {
          if (this.answers()) resolve({ result });
        } catch (error) {
          reject(error);
        }
      }, reject);
    });
    return outcome.finally(() => this.settled());
  }

  /**
   * Verifies the retry's requestState, if it has one: forged, expired, used up or sealed for another
   * principal (or for none, when this request has one, and the other way round) is -32602.
   */
  open(): void {
    if (this.#params.requestState === undefined) return;
    this.#opened = this.#codec.open(this.#params.requestState, this.#method, this.#params, this.#served.principal);
    this.#earlier = this.#opened.answers;
  }

  /**
   * Claims the opened requestState in the fleet's shared store (RequestStateOptions.sharedUses), so
   * that no other process accepts it too; undefined when there is nothing to claim. A run that is
   * cancelled releases it (#consume); one that fails must call settled().
   */
  claimShared(): Promise<void> | undefined {
    const opened = this.#opened;
    if (!opened || !this.#codec.shared) return undefined;
    return this.#codec.claimShared(opened, this.#method).then(() => {
      this.#claimed = true;
    });
  }

  /**
   * The run ended without using up its token (it failed, or was cancelled): a claim is released for
   * the client to retry with. A release that fails leaves it refused until it expires.
   */
  settled(): void {
    if (!this.#claimed || this.#used) return;
    this.#claimed = false;
    this.#codec.releaseShared(this.#opened!).catch(() => {});
  }

  /** Where the handler's asks settle the request: with the asks to send (set aside), or a refusal. */
  settleWith(settle: (needsInput: Map<string, InputRequest>) => void, fail: (error: unknown) => void): void {
    this.#settle = settle;
    this.#fail = fail;
  }

  /**
   * Whether the handler's result answers the request, using up the requestState if so. A handler
   * set aside or refused has been answered for: what it returns later is dropped.
   */
  answers(): boolean {
    if (this.#stopped) return false;
    this.#consume();
    return true;
  }

  /**
   * One ask of the handler's (`read` reads its answer, mcp/read.ts): answered at once if an earlier
   * round or this retry has the answer; otherwise rejected when the handler is set aside (or fails
   * at once past maxInputAsks or maxInputRounds, as any failing ask would).
   */
  ask<R>(request: InputRequest, read: (answer: FieldReader) => R): Promise<R> {
    const missing = missingCapability(request, this.#served.clientCapabilities);
    if (missing) {
      // Spec (mrtr): a server MUST NOT ask for input this request's capabilities do not declare.
      const refusal = new RpcError(ErrorCode.MissingRequiredClientCapability, `${this.#method}: cannot ask ${request.method}: this request's client capabilities do not declare it`, { requiredCapabilities: missing });
      // The request is answered with the refusal; like a set-aside handler, this one is told to stop.
      this.#fail?.(refusal);
      this.#stop(refusal);
      return this.#unanswered();
    }
    // A stopped handler (set aside, or refused) that asks again is not answered either.
    if (this.#stopped) return this.#unanswered();
    const index = this.#asks++;
    const ask = askFingerprint(request.method, request.params);
    const earlier = this.#earlier[index];
    // Answers are used in order: a handler that asks something else on replay is asked again.
    if (earlier?.ask === ask && this.#answers.length === index) {
      this.#answers.push(earlier);
      return Promise.resolve(read(new FieldReader(this.#method, earlier.answer, "requestState")));
    }
    if (index >= this.#maxAsks) {
      return Promise.reject(new Error(`${this.#method}: the handler asked the client ${index + 1} times; the most one request may ask is ${this.#maxAsks}`));
    }
    const key = `${KEY_PREFIX[request.method]}-${index + 1}-${ask.slice(0, 8)}`;
    const responses = this.#params.inputResponses;
    // Spec (mrtr): keys the server did not ask under are ignored; so are keys a valid requestState
    // does not name as asked in its round, or any key at all without one (keys are predictable).
    if (this.#opened?.asked.has(key) && isObject(responses) && Object.hasOwn(responses, key) && this.#answers.length === index) {
      const answer = read(new FieldReader(this.#method, responses[key], `inputResponses.${key}`));
      this.#answers.push({ ask, answer });
      return Promise.resolve(answer);
    }
    const rounds = (this.#opened?.round ?? 0) + 1;
    if (!this.#pending && rounds > this.#maxRounds) {
      return Promise.reject(new Error(`${this.#method}: the handler needs input round ${rounds}; the most one request may take is ${this.#maxRounds} (does an ask change from run to run?)`));
    }
    this.#pending ??= new Map();
    this.#pending.set(key, request);
    // Asks made in the same turn (Promise.all) go out in the same round.
    if (this.#pending.size === 1) setImmediate(() => this.#setAside(this.#pending!));
    return this.#unanswered();
  }

  /** The input_required answer for the pending asks, with the answers so far sealed into requestState. */
  inputRequired(pending: Map<string, InputRequest>, serverInfo: Implementation): InputRequiredResult {
    let requestState: string;
    try {
      const round = (this.#opened?.round ?? 0) + 1;
      const { principal } = this.#served;
      requestState = this.#codec.seal({ method: this.#method, params: this.#params, answers: this.#answers, asked: [...pending.keys()], round, principal });
    } catch (error) {
      if (!(error instanceof RequestStateTooLargeError)) throw error;
      // What does not fit is the client's own: its answers so far (or params nested too deeply to bind).
      throw new RpcError(ErrorCode.InvalidParams, `${this.#method}: the answers so far cannot be carried to the next round: ${error.message}`);
    }
    this.#consume();
    return { resultType: "input_required", inputRequests: Object.fromEntries(pending), requestState, _meta: { [META.serverInfo]: serverInfo } };
  }

  #setAside(pending: Map<string, InputRequest>): void {
    this.setAside = true;
    this.#settle?.(pending);
    this.#stop(new InputRoundSetAsideError(this.#method));
  }

  /**
   * Tells the handler to stop: its signal aborts, and its pending asks reject, so a handler awaiting
   * one unwinds now (its finally blocks run) instead of staying suspended until it is collected.
   */
  #stop(reason: Error): void {
    this.#stopped ??= reason;
    this.#controller?.abort(this.#stopped);
    const rejects = this.#rejectPending;
    this.#rejectPending = [];
    for (const reject of rejects) reject(this.#stopped);
  }

  /**
   * An ask with no answer in this run: rejected when the handler is stopped. Marked handled, so a
   * handler that never awaits it (`void context.elicit(...)`) is no unhandled rejection.
   */
  #unanswered<R>(): Promise<R> {
    const promise = new Promise<R>((_resolve, reject) => {
      if (this.#stopped) reject(this.#stopped);
      else this.#rejectPending.push(reject);
    });
    promise.catch(IGNORE);
    return promise;
  }

  /**
   * Uses up the presented requestState, now that this run produced an answer. Not when the request
   * was cancelled (or its stream dropped) meanwhile: that answer reaches nobody, and the client may
   * retry with the same state.
   */
  #consume(): void {
    if (!this.#opened) return;
    if (this.#served.signal.aborted) return this.settled();
    this.#codec.consume(this.#opened, this.#method);
    this.#used = true;
  }
}

/**
 * The capability an ask needs that the request did not declare (spec: basic/patterns/mrtr): URL elicitation
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
