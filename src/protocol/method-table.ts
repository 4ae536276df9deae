// The types a role's method table is written in: the rows the dispatcher runs, each method's
// typed handler and readers (over a table such as mcp/methods.ts), and the context a request
// handler gets. Types only: dispatch.ts builds the rows from typed handlers and runs them.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (requests, notifications)

import type { RequestId } from "../jsonrpc/messages.js";
import type { FieldReader } from "../jsonrpc/field-reader.js";

/**
 * A row for a request: its handler returns the `result` object, or throws. `owner` is what the
 * dispatcher serves for (the server's connection), so that one table of rows serves every connection.
 */
export interface RequestRow<C, O = void> {
  method: string;
  kind: "request";
  handle(params: FieldReader, context: C, owner: O): Promise<{ [key: string]: unknown }> | { [key: string]: unknown };
}

/** A row for a notification: it returns nothing, and nothing is ever sent back. */
export interface NotificationRow<O = void> {
  method: string;
  kind: "notification";
  handle(params: FieldReader, owner: O): void | Promise<void>;
}

export type Row<C, O = void> = RequestRow<C, O> | NotificationRow<O>;

type Json = { [key: string]: unknown };

/** A method table: each request method's params and result types (see mcp/methods.ts). */
export type RequestTable = { [method: string]: { params: object; result: Json } };

/**
 * A result as its writer sees it: the declared fields only. The spec's Result ends in
 * `[key: string]: unknown`, which is right for reading (a peer's result may carry fields we do not
 * know, and the readers keep them, see mcp/read.ts) but lets any misspelled field through when
 * writing. Without it, a result literal that is annotated or `satisfies` this type cannot misspell
 * a field; `_meta` is declared, so it stays. (A literal returned from an unannotated arrow is not
 * checked for extra fields whatever the type: TypeScript compares the arrow's inferred return type,
 * see microsoft/TypeScript#241.)
 */
export type Written<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** Handlers keyed by method: each gets the table's params type and must return its result type, as written. */
export type RequestHandlers<T extends RequestTable, C, O = void> = {
  [M in keyof T]?: (params: T[M]["params"], context: C, owner: O) => Written<T[M]["result"]> | Promise<Written<T[M]["result"]>>;
};
export type NotificationHandlers<T, O = void> = { [M in keyof T]?: (params: T[M], owner: O) => void | Promise<void> };

/**
 * The arguments after the method of a role's typed request or notify: params of type `P`, which
 * may be left out when every field of `P` is optional, then options `O`.
 */
export type ParamsAndOptions<P, O> = {} extends P ? [params?: P, options?: O] : [params: P, options?: O];

/** One reader per request method, for its params (as the receiver reads them); throws -32602. */
export type ParamsReaders<T extends RequestTable> = { [M in keyof T]: (params: FieldReader) => T[M]["params"] };
/** One reader per request method, for its result (as the requester reads it). */
export type ResultReaders<T extends RequestTable> = { [M in keyof T]: (result: FieldReader) => T[M]["result"] };
/** One reader per notification method, for its params. */
export type NotificationReaders<T> = { [M in keyof T]: (params: FieldReader) => T[M] };

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
  /** True once the request is answered or cancelled: nothing more may be sent for it. */
  readonly ended: boolean;
  /**
   * Reports progress on this request. Does nothing when the requester asked for none or the
   * request is already answered; throws if `progress` does not increase.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}
