// What the Streamable HTTP client transport needs to know about the messages it carries, without
// decoding them for the connection: which requests an outgoing message holds (its POST lasts
// until each is answered), and which answers an incoming text holds.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server

import { encodeMessage, isObject, type JSONRPCMessage, type RequestId } from "../jsonrpc/messages.js";

/** One outgoing message, as the transport needs to know it. */
export interface Outgoing {
  text: string;
  /** The method, or "response <id>"; errors name it. */
  step: string;
  /** The requests in it; their POST lasts until each is answered. */
  ids: RequestId[];
  initialize: boolean;
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
