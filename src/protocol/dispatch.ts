// Textbook: lookup, Connection.#serve in src/textbook/connection.ts; this adds typed rows per
//  direction, the role's gate, params read by mcp/read.ts, one answer guaranteed.
// Dispatching what the peer sends: the method table (one row per method), and the peer's requests
// in flight. One stop answers each request exactly once: it looks up the method, applies the
// role's gate, reads the params (mcp/read.ts, through the role's typed rows), runs the handler,
// turns any throw into one error response, and delivers it unless the peer cancelled the request.
// Spec: https://www.jsonrpc.org/specification#error_object, https://modelcontextprotocol.io/specification/2025-11-25/basic#responses,
// basic/utilities/cancellation and basic/utilities/progress. Which methods exist and when they may
// be called is the role's business (server or client): it writes handlers over a method table
// (mcp/methods.ts, in the types of method-table.ts), and requestRows/notificationRows turn them into rows.

import { ErrorCode, isObject, RpcError, type JSONRPCErrorResponse, type JSONRPCNotification, type JSONRPCRequest, type JSONRPCResponse, type RequestId } from "../jsonrpc/messages.js";
import { FieldReader } from "../jsonrpc/field-reader.js";
import type { PeerLink } from "./link.js";
import { SENT_AT_ONCE } from "./transport.js";
import type { NotificationHandlers, NotificationReaders, NotificationRow, ParamsReaders, RequestContext, RequestHandlers, RequestRow, RequestTable, Row } from "./method-table.js";

type Json = { [key: string]: unknown };

/** The rows for typed request handlers: each reads its params with the method's reader first. */
export function requestRows<T extends RequestTable, C, O = void>(read: ParamsReaders<T>, handlers: RequestHandlers<T, C, O>): RequestRow<C, O>[] {
  return (Object.keys(handlers) as (keyof T & string)[]).map((method) => requestRow(method, read[method], handlers[method]!));
}

function requestRow<P, R extends Json, C, O>(method: string, read: (params: FieldReader) => P, handle: (params: P, context: C, owner: O) => R | Promise<R>): RequestRow<C, O> {
  return { method, kind: "request", handle: (params, context, owner) => handle(read(params), context, owner) };
}

/** The rows for typed notification handlers, likewise. */
export function notificationRows<T, O = void>(read: NotificationReaders<T>, handlers: NotificationHandlers<T, O>): NotificationRow<O>[] {
  return (Object.keys(handlers) as (keyof T & string)[]).map((method) => notificationRow(method, read[method], handlers[method]!));
}

function notificationRow<P, O>(method: string, read: (params: FieldReader) => P, handle: (params: P, owner: O) => void | Promise<void>): NotificationRow<O> {
  return { method, kind: "notification", handle: (params, owner) => handle(readNotification(read, params), owner) };
}

/**
 * Rows by method, checked once: one table serves every dispatcher made with it (a server makes one
 * for each connection, and with a session per HTTP POST that is one for each request).
 */
export class MethodTable<C, O = void> {
  /** Read by the dispatcher itself, so that finding a request's row is one Map lookup, not a call more. */
  readonly rows: ReadonlyMap<string, Row<C, O>>;

  constructor(rows: Row<C, O>[]) {
    const byMethod = new Map<string, Row<C, O>>();
    for (const row of rows) {
      if (byMethod.has(row.method)) throw new Error(`dispatcher: two rows for method "${row.method}"`);
      byMethod.set(row.method, row);
    }
    this.rows = byMethod;
  }
}

/** A notification whose params its reader refused: dropped, and reported as that, not as a handler's failure. */
class MalformedNotificationError extends Error {}

function readNotification<P>(read: (params: FieldReader) => P, params: FieldReader): P {
  try {
    return read(params);
  } catch (error) {
    throw new MalformedNotificationError(error instanceof Error ? error.message : String(error));
  }
}

export interface DispatcherOptions<C> {
  /**
   * Decides, before the params are read and the handler runs, whether the method may be called
   * now (a request comes with its context); returns the error if not. For a notification a
   * refusal only means it is dropped: notifications are never answered.
   */
  gate?: (method: string, kind: "request" | "notification", context?: C) => RpcError | undefined;
  /**
   * Hears about failures the peer never learns of in detail: a handler's (the peer gets a generic
   * internal error), or a notification's that was dropped (see describeFailure).
   */
  onInternalError?: (method: string, error: unknown) => void;
  /**
   * The refusal of a request for a method no row serves, when the role has one that comes first
   * (a 2026-07-28 request's bad envelope or version is judged before its method); else -32601.
   */
  unknownMethod?: (method: string, context: C) => RpcError | undefined;
}

/**
 * One line for a failure onInternalError heard: a notification its reader refused (tagged by
 * readNotification), or else a handler's failure.
 */
export function describeFailure(method: string, error: unknown): string {
  if (error instanceof MalformedNotificationError) return `dropped a malformed notification: ${error.message}`;
  return `${method}: handler failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}

/** What a connection asks of its dispatcher, whatever its rows are run for. */
export type Dispatching<C> = Pick<Dispatcher<C>, "run" | "errorResponse" | "handleNotification">;

export class Dispatcher<C, O = void> {
  readonly #rows: ReadonlyMap<string, Row<C, O>>;
  readonly #options: DispatcherOptions<C>;
  /** What every row is run for (RequestRow.owner). */
  readonly #owner: O;

  /** The rows, as a list or as a table shared with other dispatchers; `owner` is what they run for. */
  constructor(rows: Row<C, void>[] | MethodTable<C, void>, options?: DispatcherOptions<C>);
  constructor(rows: Row<C, O>[] | MethodTable<C, O>, options: DispatcherOptions<C>, owner: O);
  constructor(rows: Row<C, O>[] | MethodTable<C, O>, options: DispatcherOptions<C> = {}, owner?: O) {
    this.#rows = (rows instanceof MethodTable ? rows : new MethodTable(rows)).rows;
    this.#options = options;
    // Left out only by the first signature, whose rows take no owner (O is void).
    this.#owner = owner as O;
  }

  /**
   * The row's result, or its promise. Never throws: a refusal, or a handler's failure before its
   * first await, is a rejected promise for errorResponse to word, awaited like a result. So no
   * handler's answer or refusal leaves within the call that delivered its request, where a
   * transport may still be setting up where answers go (the connection's own refusals, such as a
   * reused id, may), and refusals and results take the same path through the loop.
   */
  run(request: JSONRPCRequest, context: C): Promise<{ [key: string]: unknown }> | { [key: string]: unknown } {
    try {
      const row = this.#rows.get(request.method);
      // Spec (basic#responses): an unknown method is answered with -32601.
      if (!row || row.kind !== "request") throw this.#options.unknownMethod?.(request.method, context) ?? new RpcError(ErrorCode.MethodNotFound, `method not found: ${request.method}`);
      const refusal = this.#options.gate?.(request.method, "request", context);
      if (refusal) throw refusal;
      return row.handle(new FieldReader(request.method, request.params), context, this.#owner);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The response to `request` when its handling threw `error`. */
  errorResponse(request: JSONRPCRequest, error: unknown): JSONRPCErrorResponse {
    return { jsonrpc: "2.0", id: request.id, error: this.#toRpcError(request.method, error).toErrorObject() };
  }

  /**
   * Runs a notification's handler. Unknown notifications are ignored; one whose params its reader
   * refuses, or whose handler fails, is reported locally (onInternalError) and otherwise ignored.
   * Spec (basic#notifications): the receiver MUST NOT send a response.
   */
  async handleNotification(notification: JSONRPCNotification): Promise<void> {
    const row = this.#rows.get(notification.method);
    if (!row || row.kind !== "notification") return;
    try {
      if (this.#options.gate?.(notification.method, "notification")) return;
      await row.handle(new FieldReader(notification.method, notification.params), this.#owner);
    } catch (error) {
      this.#report(notification.method, error);
    }
  }

  #toRpcError(method: string, error: unknown): RpcError {
    if (error instanceof RpcError) return error;
    // Anything else is a bug or a failure inside the handler: the peer learns that it failed, but
    // not the stack or the message, which may hold paths or secrets.
    this.#report(method, error);
    return new RpcError(ErrorCode.InternalError, `${method}: internal error`);
  }

  /** Tells onInternalError; a hook that throws must not cost the peer its answer. */
  #report(method: string, error: unknown): void {
    try {
      this.#options.onInternalError?.(method, error);
    } catch {
      // The hook's own failure has nowhere better to go: the answer still goes out.
    }
  }
}

/**
 * One request in progress: its state, and the context its handler gets. (One object for both,
 * with methods on the prototype: a server may have thousands of these a second.)
 */
class PeerRequest implements RequestContext {
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
  readonly #connection: PeerLink;

  constructor(request: JSONRPCRequest, inBatch: boolean, connection: PeerLink) {
    this.id = request.id;
    this.method = request.method;
    this.inBatch = inBatch;
    this.meta = isObject(request.params?._meta) ? request.params._meta : undefined;
    const token = this.meta?.progressToken;
    this.progressToken = typeof token === "string" || Number.isSafeInteger(token) ? (token as string | number) : undefined;
    this.#connection = connection;
  }

  get ended(): boolean {
    return this.finished || this.cancelled;
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
    const params: { progressToken: RequestId; progress: number; total?: number; message?: string } = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    await this.#connection.notify("notifications/progress", params, { relatedRequestId: this.id });
  }
}

/** The peer's requests we are still working on, by id: each gets exactly one response, or none if cancelled. */
export class PeerRequests {
  readonly #connection: PeerLink;
  /**
   * The oldest request in flight, kept out of the Map: most connections never have two at once
   * (one made per HTTP request has one in all), and in V8 a Map's delete of its last entry
   * allocates it a new table, a cost paid per request.
   */
  #first: PeerRequest | undefined;
  /** The others in flight, by id (a Map keeps 1 and "1" apart, as JSON-RPC does, and so does ===); made when two are in flight at once. */
  #others: Map<RequestId, PeerRequest> | undefined;
  /** Set when the connection closes: requests still waiting in the inbox then never start. */
  #closed = false;

  constructor(connection: PeerLink) {
    this.#connection = connection;
  }

  /**
   * Runs one request to its one response, which it sends (inside a batch: returns, for the batch's
   * one answer). An async function that awaits the send rather than returning its promise: the
   * inbox counts the request as in flight until its answer is taken, and a returned promise would
   * cost one more promise and a thenable resolution per call. A send taken at once (SENT_AT_ONCE)
   * is not awaited: the answer is taken already, and a tick is saved.
   */
  async handle(request: JSONRPCRequest, inBatch: boolean, dispatcher: Dispatching<RequestContext>): Promise<JSONRPCResponse | undefined> {
    // The connection closed while this request waited its turn: no answer can reach the peer, and
    // a handler started now would run for nobody, with nothing left to tell it to stop.
    if (this.#closed) return undefined;
    let response: JSONRPCResponse;
    if (this.#first?.id === request.id || this.#others?.has(request.id)) {
      // Spec (basic#requests): a sender MUST NOT reuse an id within a session.
      response = { jsonrpc: "2.0", id: request.id, error: new RpcError(ErrorCode.InvalidRequest, `invalid request: id ${JSON.stringify(request.id)} is already in use by a request in progress`).toErrorObject() };
    } else {
      const peer = new PeerRequest(request, inBatch, this.#connection);
      if (this.#first === undefined) this.#first = peer;
      else (this.#others ??= new Map()).set(request.id, peer);
      try {
        response = { jsonrpc: "2.0", id: request.id, result: await dispatcher.run(request, peer) };
      } catch (error) {
        response = dispatcher.errorResponse(request, error);
      }
      peer.finished = true;
      if (this.#first === peer) this.#first = undefined;
      else this.#others!.delete(request.id);
      // Spec (basic/utilities/cancellation): the receiver of a cancellation SHOULD NOT send a response.
      if (peer.cancelled) {
        this.#connection.unanswered(request.id);
        return undefined;
      }
    }
    if (inBatch) return response;
    const sent = this.#connection.send(response);
    if (sent !== SENT_AT_ONCE) await sent;
    return undefined;
  }

  /** The peer cancelled one of its requests; false when none of its requests in flight has that id. */
  cancel(id: RequestId, reason: unknown): boolean {
    const request = this.#find(id);
    if (!request) return false;
    // Spec (basic/utilities/cancellation): initialize MUST NOT be cancelled.
    if (request.method !== "initialize") request.stop(new Error(typeof reason === "string" ? `cancelled by the peer: ${reason}` : "cancelled by the peer"));
    return true;
  }

  /** The connection closed: every running handler is told to stop. */
  abortAll(): void {
    this.#closed = true;
    this.#first?.stop(new Error("connection closed"));
    for (const request of this.#others?.values() ?? []) request.stop(new Error("connection closed"));
  }

  #find(id: RequestId): PeerRequest | undefined {
    return this.#first?.id === id ? this.#first : this.#others?.get(id);
  }
}
