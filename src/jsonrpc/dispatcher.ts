// The method table: one row per method, and the rules that turn any failure into exactly one
// well-formed error response. Spec: https://www.jsonrpc.org/specification#error_object and
// https://modelcontextprotocol.io/specification/2025-11-25/basic#responses
// Which methods exist and when they may be called is the role's business (server or client): a
// role writes its handlers over a method table (mcp/methods.ts), and requestRows/notificationRows
// turn them into rows that read the params (mcp/read.ts) before the handler sees them.

import { ErrorCode, RpcError, type JSONRPCNotification, type JSONRPCRequest, type JSONRPCResponse } from "./messages.js";
import { Params } from "./params.js";

/** A row for a request: its handler returns the `result` object, or throws. */
export interface RequestRow<C> {
  method: string;
  kind: "request";
  handle(params: Params, context: C): Promise<{ [key: string]: unknown }> | { [key: string]: unknown };
}

/** A row for a notification: it returns nothing, and nothing is ever sent back. */
export interface NotificationRow {
  method: string;
  kind: "notification";
  handle(params: Params): void | Promise<void>;
}

export type Row<C> = RequestRow<C> | NotificationRow;

type Json = { [key: string]: unknown };

/** A method table: each request method's params and result types (see mcp/methods.ts). */
export type RequestTable = { [method: string]: { params: object; result: Json } };

/** Handlers keyed by method: each gets the table's params type and must return its result type. */
export type RequestHandlers<T extends RequestTable, C> = {
  [M in keyof T]?: (params: T[M]["params"], context: C) => T[M]["result"] | Promise<T[M]["result"]>;
};
export type NotificationHandlers<T> = { [M in keyof T]?: (params: T[M]) => void | Promise<void> };

/** One reader per request method, for its params (as the receiver reads them); throws -32602. */
export type ParamsReaders<T extends RequestTable> = { [M in keyof T]: (params: Params) => T[M]["params"] };
/** One reader per request method, for its result (as the requester reads it). */
export type ResultReaders<T extends RequestTable> = { [M in keyof T]: (result: Params) => T[M]["result"] };
/** One reader per notification method, for its params. */
export type NotificationReaders<T> = { [M in keyof T]: (params: Params) => T[M] };

/** The rows for typed request handlers: each reads its params with the method's reader first. */
export function requestRows<T extends RequestTable, C>(read: ParamsReaders<T>, handlers: RequestHandlers<T, C>): RequestRow<C>[] {
  return (Object.keys(handlers) as (keyof T & string)[]).map((method) => requestRow(method, read[method], handlers[method]!));
}

function requestRow<P, R extends Json, C>(method: string, read: (params: Params) => P, handle: (params: P, context: C) => R | Promise<R>): RequestRow<C> {
  return { method, kind: "request", handle: (params, context) => handle(read(params), context) };
}

/** The rows for typed notification handlers, likewise. */
export function notificationRows<T>(read: NotificationReaders<T>, handlers: NotificationHandlers<T>): NotificationRow[] {
  return (Object.keys(handlers) as (keyof T & string)[]).map((method) => notificationRow(method, read[method], handlers[method]!));
}

function notificationRow<P>(method: string, read: (params: Params) => P, handle: (params: P) => void | Promise<void>): NotificationRow {
  return { method, kind: "notification", handle: (params) => handle(read(params)) };
}

export interface DispatcherOptions {
  /**
   * Decides, before the handler runs, whether the method may be called now; returns the error if
   * not. For a notification a refusal only means it is dropped: notifications are never answered.
   */
  gate?: (method: string, kind: "request" | "notification") => RpcError | undefined;
  /** Hears about failures that the peer only sees as a generic internal error. */
  onInternalError?: (method: string, error: unknown) => void;
}

export class Dispatcher<C> {
  #rows = new Map<string, Row<C>>();
  readonly #options: DispatcherOptions;

  constructor(rows: Row<C>[], options: DispatcherOptions = {}) {
    for (const row of rows) {
      if (this.#rows.has(row.method)) throw new Error(`dispatcher: two rows for method "${row.method}"`);
      this.#rows.set(row.method, row);
    }
    this.#options = options;
  }

  /** Runs a request's handler and always produces its one response. Never throws. */
  async handleRequest(request: JSONRPCRequest, context: C): Promise<JSONRPCResponse> {
    try {
      return { jsonrpc: "2.0", id: request.id, result: await this.#run(request, context) };
    } catch (error) {
      return { jsonrpc: "2.0", id: request.id, error: this.#toRpcError(request.method, error).toErrorObject() };
    }
  }

  /** Refusals and results take the same path through the event loop, so answers keep their order. */
  async #run(request: JSONRPCRequest, context: C): Promise<{ [key: string]: unknown }> {
    const row = this.#rows.get(request.method);
    // Spec (basic#responses): an unknown method is answered with -32601.
    if (!row || row.kind !== "request") throw new RpcError(ErrorCode.MethodNotFound, `method not found: ${request.method}`);
    const refusal = this.#options.gate?.(request.method, "request");
    if (refusal) throw refusal;
    return row.handle(new Params(request.method, request.params), context);
  }

  /**
   * Runs a notification's handler. Unknown notifications are ignored; a handler that fails is
   * reported locally (onInternalError) and otherwise ignored. Spec (basic#notifications): the receiver MUST NOT send a response.
   */
  async handleNotification(notification: JSONRPCNotification): Promise<void> {
    const row = this.#rows.get(notification.method);
    if (!row || row.kind !== "notification") return;
    try {
      if (this.#options.gate?.(notification.method, "notification")) return;
      await row.handle(new Params(notification.method, notification.params));
    } catch (error) {
      this.#options.onInternalError?.(notification.method, error);
    }
  }

  #toRpcError(method: string, error: unknown): RpcError {
    if (error instanceof RpcError) return error;
    // Anything else is a bug or a failure inside the handler: the peer learns that it failed, but
    // not the stack or the message, which may hold paths or secrets.
    this.#options.onInternalError?.(method, error);
    return new RpcError(ErrorCode.InternalError, `${method}: internal error`);
  }
}
