// What the Streamable HTTP client transport needs to know about the messages it carries, without
// decoding them for the connection: which requests an outgoing message holds (its POST lasts
// until each is answered), which era it belongs to (a 2026-07-28 message carries the header
// mirror instead of the session), and which answers an incoming text holds.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
// and https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http

import { encodeMessage, isObject, type JSONRPCMessage, type RequestId } from "../jsonrpc/messages.js";
import { META } from "../mcp/modern.js";
import { mirroredHeaders } from "./mcp-headers.js";

/** One outgoing message, as the transport needs to know it. */
export interface Outgoing {
  text: string;
  /** The method, or "response <id>"; errors name it. */
  step: string;
  /** The requests in it; their POST lasts until each is answered. */
  ids: RequestId[];
  initialize: boolean;
  /**
   * Set (by the transport) for a 2026-07-28 message: the headers its POST carries in place of the
   * session's (the header mirror, and the sender's Mcp-Param-*).
   */
  modern?: Record<string, string>;
}

export function describe(message: JSONRPCMessage | JSONRPCMessage[]): Outgoing {
  const items = Array.isArray(message) ? message : [message];
  const ids = items.flatMap((item) => ("method" in item && "id" in item ? [item.id] : []));
  const first = items[0];
  const step = first === undefined ? "batch" : "method" in first ? first.method : `response ${JSON.stringify(first.id)}`;
  return { text: encodeMessage(message), step, ids, initialize: !Array.isArray(message) && step === "initialize" && ids.length === 1 };
}

/** A response from the server, as far as the transport looks at it. */
export interface Answer {
  id: RequestId;
  result: unknown;
  error: unknown;
}

/** The responses in a text from the server (a message or a batch), by id; nothing if it does not parse. */
export function answersIn(text: string): Answer[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  return (Array.isArray(value) ? value : [value]).flatMap((item) =>
    !isObject(item) || "method" in item || (typeof item.id !== "string" && typeof item.id !== "number") ? [] : [{ id: item.id, result: item.result, error: item.error }]);
}

/**
 * The mirrored headers of a 2026-07-28 message (MCP-Protocol-Version, Mcp-Method, Mcp-Name), or
 * undefined for a message of the handshake era. The era is the message's own: a request whose
 * `params._meta` claims a protocol version is modern, whatever the connection did before.
 */
export function modernHeaders(message: JSONRPCMessage | JSONRPCMessage[]): Record<string, string> | undefined {
  if (Array.isArray(message) || !("method" in message)) return undefined;
  const meta = isObject(message.params) ? message.params._meta : undefined;
  return isObject(meta) && Object.hasOwn(meta, META.protocolVersion) ? mirroredHeaders(message) : undefined;
}

/** The request a `notifications/cancelled` names, or undefined for any other message. */
export function cancelledRequest(message: JSONRPCMessage | JSONRPCMessage[]): RequestId | undefined {
  if (Array.isArray(message) || !("method" in message) || "id" in message || message.method !== "notifications/cancelled") return undefined;
  const id = isObject(message.params) ? message.params.requestId : undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/**
 * The body of an HTTP error as the response to request `id`, if it holds a JSON-RPC error that is
 * not another request's (no id, a null id, or `id` itself); undefined otherwise. Its text is made
 * anew with `id`, so the connection settles the request with the server's code and message.
 */
export function errorAnswer(text: string, id: RequestId): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(body) || !isObject(body.error) || (body.id !== undefined && body.id !== null && body.id !== id)) return undefined;
  const { code, message, data } = body.error;
  if (!Number.isInteger(code) || typeof message !== "string") return undefined;
  return JSON.stringify({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
}
