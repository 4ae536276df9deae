// Reading a 2026-07-28 result by its `resultType`, and Multi Round-Trip Requests from the client's
// side: an `input_required` result is answered with the application's own handlers (the same ones
// that answer a handshake-era server's requests, client/handlers.ts), then the request is sent
// again with the answers, until the server completes it or the rounds run out. Since 2026-07-28.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr and
// basic/index#result-responses (resultType).

import type { RequestHandlers } from "../../protocol/method-table.js";
import type { ClientRequestMethod, ServerRequests } from "../../mcp/methods.js";
import { INPUT_REQUIRED_METHODS } from "../../mcp/methods.js";
import type { InputRequest, InputResponse } from "../../mcp/modern.js";
import { readInputRequest } from "../../mcp/read.js";
import type { ServerRequestContext } from "../handlers.js";
import { RpcError } from "../../jsonrpc/messages.js";
import { InputRefusedError, InputRequestsExceededError, InputRoundsExceededError, InputRoundsTimeoutError, NoInputHandlerError } from "../errors.js";

/** Rounds of input one request may take before the client gives up (ClientOptions.maxInputRounds). */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** Input requests one round may carry (ClientOptions.maxInputRequests); past it none is answered. */
export const DEFAULT_MAX_INPUT_REQUESTS = 16;

/** A modern result, read: the final one, or the server's questions. */
export type ModernOutcome<R> =
  | { resultType: "complete"; result: R }
  | { resultType: "input_required"; inputRequests: [string, InputRequest][]; requestState: string | undefined };

type Json = { [key: string]: unknown };

/**
 * A reader of `method`'s modern result, for Connection.request: its errors become a
 * MalformedResponseError naming the method. Our decision is strict (PROTOCOL_NOTES.md, "Decisions
 * where the spec is silent or disagrees"): a server that
 * answered server/discover speaks 2026-07-28, so a result without `resultType` is broken, not
 * "complete" (the spec's "absent means complete" covers servers of earlier revisions, which this
 * client talks to in the handshake era, where results are read without it).
 */
export function modernReader<R>(method: ClientRequestMethod, read: (result: Json) => R): (result: Json) => ModernOutcome<R> {
  return (result) => {
    const resultType = result.resultType;
    if (resultType === "complete") return { resultType, result: read(result) };
    // Spec (basic/index#results): a resultType the client does not know MUST be treated as an invalid result.
    if (resultType === undefined) throw new Error(`result: "resultType" is missing; a 2026-07-28 result must carry it`);
    if (resultType !== "input_required") throw new Error(`result: unknown "resultType" ${JSON.stringify(resultType)}`);
    // Spec (basic/patterns/mrtr): only tools/call, prompts/get and resources/read may ask for input.
    if (!INPUT_REQUIRED_METHODS.includes(method)) throw new Error(`result: "input_required" is not allowed for ${method}`);
    const requests = result.inputRequests;
    if (requests !== undefined && (typeof requests !== "object" || requests === null || Array.isArray(requests))) {
      throw new Error(`result: "inputRequests" must be an object`);
    }
    const state = result.requestState;
    if (state !== undefined && typeof state !== "string") throw new Error(`result: "requestState" must be a string`);
    // Spec (basic/patterns/mrtr): an input_required result has inputRequests, requestState or both.
    if (requests === undefined && state === undefined) throw new Error(`result: "input_required" without inputRequests or requestState`);
    const inputRequests = Object.entries(requests ?? {}).map(([key, value]): [string, InputRequest] => [key, readInputRequest(key, value)]);
    return { resultType, inputRequests, requestState: state };
  };
}

export interface InputRoundsOptions {
  maxRounds: number;
  maxRequests: number;
  /** The application's handlers (client/handlers.ts serverRequestHandlers). */
  answers: RequestHandlers<ServerRequests, ServerRequestContext>;
  signal?: AbortSignal;
  /** The call's maximum total time: all its rounds (and the answers between) share it. */
  maxTotalMs?: number;
  /** What the deadline is kept in: the connection's clock, which stands still while a person signs in (default Date). */
  clock?: { now(): number };
}

/**
 * Sends `params` and, while the server answers input_required, fulfils every input request and
 * sends again. `send` makes a new request each time, so each round has a new id; it is given
 * what is left of the call's maxTotalMs, when one is set, for its own total.
 */
export async function withInputRounds<R>(
  method: string,
  params: Json,
  send: (params: Json, leftMs: number | undefined) => Promise<ModernOutcome<R>>,
  options: InputRoundsOptions,
): Promise<R> {
  const total = options.maxTotalMs;
  const clock = options.clock ?? Date;
  const deadline = total !== undefined && Number.isFinite(total) ? clock.now() + total : undefined;
  let outcome = await send(params, total);
  for (let round = 1; outcome.resultType === "input_required"; round++) {
    if (round > options.maxRounds) throw new InputRoundsExceededError(method, options.maxRounds);
    const asked = outcome.inputRequests;
    if (asked.length > options.maxRequests) throw new InputRequestsExceededError(method, asked.length, options.maxRequests);
    // Spec (basic/patterns/mrtr): the client MUST fulfil every input request before it retries.
    // One after another: a user answers one form at a time, and a server's fifty sampling
    // requests are not fifty model runs at once (the spec asks for every answer, not concurrency).
    const answered: [string, InputResponse][] = [];
    for (const [key, request] of asked) answered.push([key, await answer(method, key, request, options)]);
    // Spec (basic/patterns/mrtr): the retry repeats the original params, answers under the same
    // keys, and echoes requestState byte for byte, or sends none when none was given. Both belong
    // to this request alone: they are built here, per call, and never kept.
    const retry: Json = { ...params };
    if (answered.length > 0) retry.inputResponses = Object.fromEntries(answered);
    if (outcome.requestState !== undefined) retry.requestState = outcome.requestState;
    const leftMs = deadline === undefined ? undefined : deadline - clock.now();
    if (leftMs !== undefined && leftMs <= 0) throw new InputRoundsTimeoutError(method, total!, round);
    outcome = await send(retry, leftMs);
  }
  return outcome.result;
}

/**
 * One input request, answered by the application's handler for its method. A JSON-RPC error the
 * handler throws (client/handlers.ts refuses so what it cannot do) would go to the server in the
 * handshake era; here it is the caller's, as a local InputRefusedError, never taken for the server's.
 */
async function answer(method: string, key: string, request: InputRequest, options: InputRoundsOptions): Promise<InputResponse> {
  try {
    return await dispatch(method, key, request, options);
  } catch (error) {
    if (error instanceof RpcError) throw new InputRefusedError(method, key, request.method, error.message, error);
    throw error;
  }
}

async function dispatch(method: string, key: string, request: InputRequest, options: InputRoundsOptions): Promise<InputResponse> {
  const context: ServerRequestContext = { signal: options.signal ?? new AbortController().signal };
  const handlers = options.answers;
  switch (request.method) {
    case "roots/list": {
      const roots = handlers["roots/list"];
      if (roots) return roots(request.params ?? {}, context);
      break;
    }
    case "sampling/createMessage": {
      const sampling = handlers["sampling/createMessage"];
      if (sampling) return sampling(request.params, context);
      break;
    }
    case "elicitation/create": {
      const elicit = handlers["elicitation/create"];
      const params = request.params;
      // 2026-07-28 URL elicitations have no elicitationId (the retry tells the outcome); the
      // handler, written for both eras, gets the input request's key in its place.
      if (elicit) return elicit(params.mode === "url" ? { ...params, elicitationId: key } : params, context);
      break;
    }
  }
  throw new NoInputHandlerError(method, key, request.method);
}
