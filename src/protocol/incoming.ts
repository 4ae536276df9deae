// Requests from the peer that we are still working on: their abort signals (for cancellation),
// their progress reporting, and the rule that each gets exactly one response, or none if cancelled.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation and
// https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress

import type { Dispatcher } from "../jsonrpc/dispatcher.js";
import { ErrorCode, isObject, RpcError, type JSONRPCRequest, type JSONRPCResponse, type RequestId } from "../jsonrpc/messages.js";
import type { Connection, RequestOptions } from "./connection.js";

/** What a request handler gets besides its params. */
export interface RequestContext {
  readonly id: RequestId;
  readonly method: string;
  /** Aborted when the peer cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** True when the request arrived inside a JSON-RPC batch. */
  readonly inBatch: boolean;
  /** The requester's `_meta`, if any. */
  readonly meta: { [key: string]: unknown } | undefined;
  /** The token the requester asked progress to be reported under, if any. */
  readonly progressToken: string | number | undefined;
  /**
   * Reports progress on this request. Does nothing when the requester asked for none or the
   * request is already answered; throws if `progress` does not increase.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a notification to the peer (for example a log message) that belongs to this request. */
  notify(method: string, params?: { [key: string]: unknown }): Promise<void>;
  /** Sends a request to the peer on behalf of this one (sampling, elicitation, roots). */
  request(method: string, params?: { [key: string]: unknown }, options?: RequestOptions): Promise<{ [key: string]: unknown }>;
}

/**
 * One request in progress: its state, and the context its handler gets. (One object for both,
 * with methods on the prototype: a server may have thousands of these a second.)
 */
class IncomingRequest implements RequestContext {
  readonly id: RequestId;
  readonly method: string;
  readonly inBatch: boolean;
  readonly meta: { [key: string]: unknown } | undefined;
  readonly progressToken: string | number | undefined;
  /** Set once the peer cancelled (or the connection closed): the response is then dropped. */
  cancelled = false;
  /** Set once the response exists: progress must stop. */
  finished = false;
  #reason: Error | undefined;
  /** Made only when the handler asks for its signal: most requests finish without one. */
  #controller: AbortController | undefined;
  #lastProgress = -Infinity;
  readonly #connection: Connection;

  constructor(request: JSONRPCRequest, inBatch: boolean, connection: Connection) {
    this.id = request.id;
    this.method = request.method;
    this.inBatch = inBatch;
    this.meta = isObject(request.params?._meta) ? request.params._meta : undefined;
    const token = this.meta?.progressToken;
    this.progressToken = typeof token === "string" || Number.isSafeInteger(token) ? (token as string | number) : undefined;
    this.#connection = connection;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.#reason && !this.#controller.signal.aborted) this.#controller.abort(this.#reason);
    return this.#controller.signal;
  }

  stop(reason: Error): void {
    this.cancelled = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    // Spec (basic/utilities/progress): notifications MUST stop once the operation is complete.
    if (this.progressToken === undefined || this.finished || this.cancelled) return;
    // Spec (basic/utilities/progress): the progress value MUST increase with each notification.
    if (!(progress > this.#lastProgress)) {
      throw new Error(`${this.method}: progress must increase (got ${progress} after ${this.#lastProgress})`);
    }
    this.#lastProgress = progress;
    const params: { [key: string]: unknown } = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    await this.#connection.notify("notifications/progress", params, { relatedRequestId: this.id });
  }

  notify(method: string, params?: { [key: string]: unknown }): Promise<void> {
    return this.#connection.notify(method, params, { relatedRequestId: this.id });
  }

  request(method: string, params?: { [key: string]: unknown }, options?: RequestOptions): Promise<{ [key: string]: unknown }> {
    return this.#connection.request(method, params, { ...options, relatedRequestId: this.id });
  }
}

export class IncomingRequests {
  readonly #connection: Connection;
  /** By id: a Map keeps 1 and "1" apart, as JSON-RPC does. */
  readonly #inFlight = new Map<RequestId, IncomingRequest>();

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  /** Runs one request to its one response (returned inside a batch, sent otherwise). */
  async handle(request: JSONRPCRequest, inBatch: boolean, dispatcher: Dispatcher<RequestContext>): Promise<JSONRPCResponse | undefined> {
    const key = request.id;
    if (this.#inFlight.has(key)) {
      // Spec (basic#requests): a sender MUST NOT reuse an id within a session.
      const error = new RpcError(ErrorCode.InvalidRequest, `invalid request: id ${JSON.stringify(request.id)} is already in use by a request in progress`);
      return this.#deliver({ jsonrpc: "2.0", id: request.id, error: error.toErrorObject() }, inBatch);
    }
    const incoming = new IncomingRequest(request, inBatch, this.#connection);
    this.#inFlight.set(key, incoming);
    const response = await dispatcher.handleRequest(request, incoming);
    incoming.finished = true;
    this.#inFlight.delete(key);
    // Spec (basic/utilities/cancellation): the receiver of a cancellation SHOULD NOT send a response.
    if (incoming.cancelled) {
      this.#connection.unanswered(key);
      return undefined;
    }
    return this.#deliver(response, inBatch);
  }

  /** The peer cancelled one of its requests. */
  cancel(id: RequestId, reason: unknown): void {
    const incoming = this.#inFlight.get(id);
    // Spec (basic/utilities/cancellation): initialize MUST NOT be cancelled; unknown ids are ignored.
    if (!incoming || incoming.method === "initialize") return;
    incoming.stop(new Error(typeof reason === "string" ? `cancelled by the peer: ${reason}` : "cancelled by the peer"));
  }

  /** The connection closed: every running handler is told to stop. */
  abortAll(): void {
    for (const incoming of this.#inFlight.values()) incoming.stop(new Error("connection closed"));
  }

  #deliver(response: JSONRPCResponse, inBatch: boolean): Promise<JSONRPCResponse | undefined> | JSONRPCResponse {
    if (inBatch) return response;
    return this.#connection.send(response).then(() => undefined);
  }
}
