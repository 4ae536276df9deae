// What the Streamable HTTP client transport does differently for a 2026-07-28 request: its
// cancellation is the closing of its response stream (no notification is POSTed), and a 4xx
// refusal whose body holds a JSON-RPC error is that request's answer, which is how a client
// probing with server/discover tells a modern server (-32022, say) from a legacy one.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
// (#cancellation, #backward-compatibility). The headers such a POST carries: client-messages.ts.

import type { JSONRPCMessage, RequestId } from "../jsonrpc/messages.js";
import { errorBody, statusErrorOf } from "./client-fetch.js";
import { cancelledRequest, errorAnswer, type Outgoing } from "./client-messages.js";

/** Refusals of a 2026-07-28 request that are never its JSON-RPC answer: authorization stays an HTTP matter, as do server faults. */
function isHttpMatter(status: number): boolean {
  return status === 401 || status === 403 || status >= 500;
}

/** The 2026-07-28 requests in flight, each with the controller whose abort closes its response stream. */
export class ModernStreams {
  readonly #streams = new Map<RequestId, AbortController>();

  opened(ids: RequestId[], controller: AbortController): void {
    for (const id of ids) this.#streams.set(id, controller);
  }

  closed(ids: RequestId[], controller: AbortController): void {
    for (const id of ids) if (this.#streams.get(id) === controller) this.#streams.delete(id);
  }

  /**
   * Whether `message` cancels a 2026-07-28 request (one in flight, or any cancel that itself
   * claims the modern era); its stream, if still open, is closed here. The sender's signal has
   * normally closed it already: the connection aborts a request before it sends its cancel.
   * Spec (streamable-http#cancellation): closing the response stream is the cancellation; no notifications/cancelled is POSTed.
   */
  cancels(message: JSONRPCMessage | JSONRPCMessage[], outgoing: Outgoing): boolean {
    const id = cancelledRequest(message);
    if (id === undefined) return false;
    const stream = this.#streams.get(id);
    stream?.abort(new Error(`${outgoing.step}: request ${JSON.stringify(id)} cancelled`));
    return stream !== undefined || outgoing.modern !== undefined;
  }
}

/**
 * A 2026-07-28 request `id` was refused with `response`: a JSON-RPC error in a 4xx body goes to
 * `deliver` as its answer (-32022 says "modern, but not this version"; -32601 from a legacy server
 * says "not modern"); without one, or for 401, 403 and 5xx, the HttpStatusError is thrown. The
 * body is read up to the bound of any error body (client-fetch.ts errorBody): refusals are short.
 * Spec (streamable-http#backward-compatibility): on 400 the client SHOULD inspect the body before falling back.
 */
export async function refusedModern(step: string, response: Response, id: RequestId | undefined, deliver: (text: string) => void): Promise<void> {
  const text = await errorBody(response);
  const answer = id === undefined || isHttpMatter(response.status) ? undefined : errorAnswer(text, id);
  if (answer === undefined) throw statusErrorOf(step, response, text);
  deliver(answer);
}
