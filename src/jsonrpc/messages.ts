// Textbook: decode, encode in src/textbook/wire.ts; this adds the id read from lines that are not
//  valid JSON, batches where a version has them, the typed shapes.
// JSON-RPC 2.0 wire shapes, the standard error codes, and the codec that turns one JSON text into
// one classified message. No MCP in this file beyond the id rules MCP tightens; the error codes
// MCP adds to JSON-RPC's are in mcp/errors.ts.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic#messages and
// https://www.jsonrpc.org/specification. Batches are classified here but handled by the connection.

import type { RequestId } from "./id.js";
import { sniffText } from "./sniff.js";

export type { RequestId } from "./id.js";

/** Asks the peer to do something; the peer MUST answer with exactly one response carrying `id`. */
export interface JSONRPCRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  /** Named parameters. MCP always uses an object here, never a positional array. */
  params?: { [key: string]: unknown };
}

/** A one-way message. It has no `id`, and the receiver MUST NOT answer it, not even with an error. */
export interface JSONRPCNotification {
  jsonrpc: "2.0";
  method: string;
  params?: { [key: string]: unknown };
}

/** The successful answer to a request. `result` is always an object in MCP; `{}` when empty. */
export interface JSONRPCResultResponse {
  jsonrpc: "2.0";
  id: RequestId;
  result: { [key: string]: unknown };
}

/**
 * The failed answer to a request. `id` is left out (2025-11-25) or `null` (base JSON-RPC and older
 * MCP versions) when the request's id could not be read, for example after a parse error.
 */
export interface JSONRPCErrorResponse {
  jsonrpc: "2.0";
  id?: RequestId | null;
  error: ErrorObject;
}

/** What went wrong: an integer `code`, a one-sentence `message`, and optional free-form `data`. */
export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;

/**
 * JSON-RPC 2.0's own codes (https://www.jsonrpc.org/specification#error_object). It leaves
 * -32000 to -32099 to implementations: the codes MCP defines there are in mcp/errors.ts, with
 * what MCP means by each of these five.
 */
export const ErrorCode = {
  /** The text was not valid JSON (or not valid UTF-8). */
  ParseError: -32700,
  /** Valid JSON, but not a valid JSON-RPC message. */
  InvalidRequest: -32600,
  /** No such method, or one the receiver does not offer. */
  MethodNotFound: -32601,
  /** The method exists but its params are wrong. */
  InvalidParams: -32602,
  /** The receiver failed while handling a valid request. */
  InternalError: -32603,
} as const;

/**
 * An error that is meant to be sent to the peer. Handlers throw it; the dispatcher renders it as the
 * `error` member of a response. Any other thrown value becomes a generic internal error.
 */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }

  toErrorObject(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error received from the peer, so callers can `catch` it and read its code. */
  static fromErrorObject(error: ErrorObject): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }
}

/**
 * The error response to a message whose id is `id` (undefined: it could not be read). Every layer
 * that answers bad input builds it here, so the unreadable-id rule lives in one place.
 */
export function errorResponseTo(id: RequestId | undefined, error: RpcError, omitUnreadableId: boolean): JSONRPCErrorResponse {
  // Spec (basic#responses, 2025-11-25): an unreadable id is left out; JSON-RPC 2.0 (older versions) says null.
  const readable = id !== undefined ? { id } : omitUnreadableId ? {} : { id: null };
  return { jsonrpc: "2.0", ...readable, error: error.toErrorObject() };
}

/** One incoming JSON text, classified. `invalid` carries the error to answer with. */
export type Incoming =
  | { kind: "request"; message: JSONRPCRequest }
  | { kind: "notification"; message: JSONRPCNotification }
  | { kind: "response"; message: JSONRPCResponse }
  | { kind: "batch"; items: unknown[] }
  /**
   * Not a valid message. `id` is the id to answer with, if it could be read. `looksLike` is its
   * shape when that shows: "request" (it has "method") is answered even when its id is also one
   * of ours, as each side numbers its own requests; "response" ("result" or "error", no "method")
   * is never answered, so the connection hands it to the call waiting on `id`.
   */
  | { kind: "invalid"; error: RpcError; id?: RequestId; looksLike?: "request" | "response" };

/** Parses one JSON text (a line on stdio, a body on HTTP) and classifies it. Never throws. */
export function decodeMessage(text: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The engine's own message (with a position) is left out: it differs between Node versions,
    // and it would echo parts of the input back.
    const error = new RpcError(ErrorCode.ParseError, "parse error: the message is not valid JSON");
    // Spec (basic#responses): a parse error is answered without an id; only a broken response's
    // id is kept, for the call that waits on it (a response is never answered).
    const { id, looksLike } = sniffText(text);
    return looksLike === "response" ? { kind: "invalid", error, id, looksLike } : { kind: "invalid", error };
  }
  if (Array.isArray(value)) return { kind: "batch", items: value };
  return classify(value);
}

/** The codec's one cast: classify has checked every field the message type declares. */
function checked<T>(value: object): T {
  return value as T;
}

/** Classifies an already-parsed value: one message, or the reason it is not one. */
export function classify(value: unknown): Incoming {
  if (!isObject(value)) return invalid("message must be a JSON object");
  const hasId = "id" in value;
  const id = readableId(value.id);
  const looksLike = "method" in value ? "request" : "result" in value || "error" in value ? "response" : undefined;
  // Spec (basic#messages): every message carries "jsonrpc": "2.0" exactly.
  if (value.jsonrpc !== "2.0") return invalid('"jsonrpc" must be exactly "2.0"', id, looksLike);

  if ("method" in value) {
    if (typeof value.method !== "string") return invalid('"method" must be a string', id, "request");
    if ("params" in value && !isObject(value.params)) {
      return invalid(`${value.method}: "params" must be an object`, id, "request");
    }
    if (!hasId) return { kind: "notification", message: checked<JSONRPCNotification>(value) };
    // Spec (basic#requests): the id MUST be a string or integer and MUST NOT be null.
    if (id === undefined) return invalid(`${value.method}: "id" must be a string or an integer`, undefined, "request");
    return { kind: "request", message: checked<JSONRPCRequest>(value) };
  }

  if ("result" in value) {
    if (id === undefined) return invalid('a response\'s "id" must be a string or an integer', undefined, "response");
    if (!isObject(value.result)) return invalid('"result" must be an object', id, "response");
    return { kind: "response", message: checked<JSONRPCResultResponse>(value) };
  }

  if ("error" in value) {
    const error = value.error;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== "string") {
      return invalid('"error" must be an object with an integer "code" and a string "message"', id, "response");
    }
    // A tolerant reader: error responses to unreadable requests arrive with no id or id null.
    if (hasId && value.id !== null && id === undefined) return invalid('"id" must be a string or an integer', undefined, "response");
    return { kind: "response", message: checked<JSONRPCErrorResponse>(value) };
  }

  return invalid('message has neither "method", "result" nor "error"', id);
}

/**
 * An id we can echo back exactly, or undefined. Numbers must be safe integers: a fraction is not a
 * valid id, and a larger integer would not survive JSON.parse unchanged, so echoing it would answer
 * a request the peer never sent.
 */
function readableId(id: unknown): RequestId | undefined {
  if (typeof id === "string") return id;
  if (typeof id === "number" && Number.isSafeInteger(id)) return id;
  return undefined;
}

function invalid(message: string, id?: RequestId, looksLike?: "request" | "response"): Incoming {
  const error = new RpcError(ErrorCode.InvalidRequest, `invalid request: ${message}`);
  return looksLike ? { kind: "invalid", error, id, looksLike } : { kind: "invalid", error, id };
}

/**
 * The most messages one batch may hold. A batch is one read but fans out into one handler and one
 * answer per item, all held until the last is done: without a bound, a body of a few MiB becomes
 * gigabytes of answers. JSON-RPC sets no limit; ours is generous for real clients (which send a
 * handful) and small enough that a batch costs at most this many answers at once.
 */
export const DEFAULT_MAX_BATCH_ITEMS = 100;

/**
 * Why a batch is refused as a whole, or undefined when its items may be handled. Spec (JSON-RPC
 * 2.0 #batch): an empty array is one Invalid Request error; an over-long one gets the same code,
 * with the limit in `data`, and none of its items is handled. Every transport asks here.
 */
export function batchRefusal(count: number, limit: number): RpcError | undefined {
  if (count === 0) return new RpcError(ErrorCode.InvalidRequest, "invalid request: empty batch");
  if (count > limit) return new RpcError(ErrorCode.InvalidRequest, `invalid request: a batch of ${count} messages exceeds the limit of ${limit}`, { limit });
  return undefined;
}

export function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Serializes a message (or a batch) as compact JSON. Spec (basic/transports#stdio): no embedded
 * newlines. JSON.stringify escapes every control character inside strings and, without an indent
 * argument, puts no whitespace between tokens, so the text never contains a raw "\n".
 */
export function encodeMessage(message: JSONRPCMessage | JSONRPCMessage[]): string {
  return JSON.stringify(message);
}
