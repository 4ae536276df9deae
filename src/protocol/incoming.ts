// Requests from the peer that we are still working on: their abort signals (for cancellation),
// their progress reporting, and the rule that each gets exactly one response, or none if cancelled.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation and
// https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress

import type { Dispatcher } from "../jsonrpc/dispatcher.js";
import { ErrorCode, idKey, isObject, RpcError, type JSONRPCRequest, type JSONRPCResponse, type RequestId } from "../jsonrpc/messages.js";
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
  /** Sends a notification to the peer (for example a log message) while handling this request. */
  notify(method: string, params?: { [key: string]: unknown }): Promise<void>;
  /** Sends a request to the peer while handling this one (sampling, elicitation, roots). */
  request(method: string, params?: { [key: string]: unknown }, options?: RequestOptions): Promise<{ [key: string]: unknown }>;
}

interface InFlight {
  method: string;
  /** Made only when a handler asks for its signal: most requests finish without one. */
  controller?: AbortController;
  /** Set once the peer cancelled (or the connection closed): the response is then dropped. */
  cancelled: boolean;
  reason?: Error;
}

export class IncomingRequests {
  readonly #connection: Connection;
  readonly #inFlight = new Map<string, InFlight>();

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  /** Runs one request to its one response (returned inside a batch, sent otherwise). */
  async handle(request: JSONRPCRequest, inBatch: boolean, dispatcher: Dispatcher<RequestContext>): Promise<JSONRPCResponse | undefined> {
    const key = idKey(request.id);
    if (this.#inFlight.has(key)) {
      // Spec (basic#requests): a sender MUST NOT reuse an id within a session.
      const error = new RpcError(ErrorCode.InvalidRequest, `invalid request: id ${JSON.stringify(request.id)} is already in use by a request in progress`);
      return this.#deliver({ jsonrpc: "2.0", id: request.id, error: error.toErrorObject() }, inBatch);
    }
    const entry: InFlight = { method: request.method, cancelled: false };
    this.#inFlight.set(key, entry);
    const finished = { value: false };
    const response = await dispatcher.handleRequest(request, this.#context(request, inBatch, entry, finished));
    finished.value = true;
    this.#inFlight.delete(key);
    // Spec (basic/utilities/cancellation): the receiver of a cancellation SHOULD NOT send a response.
    if (entry.cancelled) return undefined;
    return this.#deliver(response, inBatch);
  }

  /** The peer cancelled one of its requests. */
  cancel(id: RequestId, reason: unknown): void {
    const entry = this.#inFlight.get(idKey(id));
    // Spec (basic/utilities/cancellation): initialize MUST NOT be cancelled; unknown ids are ignored.
    if (!entry || entry.method === "initialize") return;
    stop(entry, new Error(typeof reason === "string" ? `cancelled by the peer: ${reason}` : "cancelled by the peer"));
  }

  /** The connection closed: every running handler is told to stop. */
  abortAll(): void {
    for (const entry of this.#inFlight.values()) stop(entry, new Error("connection closed"));
  }

  async #deliver(response: JSONRPCResponse, inBatch: boolean): Promise<JSONRPCResponse | undefined> {
    if (inBatch) return response;
    await this.#connection.send(response);
    return undefined;
  }

  #context(request: JSONRPCRequest, inBatch: boolean, entry: InFlight, finished: { value: boolean }): RequestContext {
    const connection = this.#connection;
    const meta = isObject(request.params?._meta) ? request.params._meta : undefined;
    const token = meta?.progressToken;
    const progressToken = typeof token === "string" || Number.isSafeInteger(token) ? (token as string | number) : undefined;
    let lastProgress = -Infinity;
    return {
      id: request.id,
      method: request.method,
      get signal() {
        entry.controller ??= new AbortController();
        if (entry.reason && !entry.controller.signal.aborted) entry.controller.abort(entry.reason);
        return entry.controller.signal;
      },
      inBatch,
      meta,
      progressToken,
      async progress(progress, total, message) {
        // Spec (basic/utilities/progress): notifications MUST stop once the operation is complete.
        if (progressToken === undefined || finished.value || entry.cancelled) return;
        // Spec (basic/utilities/progress): the progress value MUST increase with each notification.
        if (!(progress > lastProgress)) {
          throw new Error(`${request.method}: progress must increase (got ${progress} after ${lastProgress})`);
        }
        lastProgress = progress;
        const params: { [key: string]: unknown } = { progressToken, progress };
        if (total !== undefined) params.total = total;
        if (message !== undefined) params.message = message;
        await connection.notify("notifications/progress", params);
      },
      notify: (method, params) => connection.notify(method, params),
      request: (method, params, options) => connection.request(method, params, options),
    };
  }
}

function stop(entry: InFlight, reason: Error): void {
  entry.cancelled = true;
  entry.reason = reason;
  entry.controller?.abort(reason);
}
