// What the connection's parts (PeerRequests in dispatch.ts, OurRequests, BadInput) need of the
// connection, as narrow types they depend on instead of on Connection, which implements them:
// so connection.ts stands above its parts, and protocol/ reads from the wire up.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (messages, responses)

import type { JSONRPCMessage, RequestId } from "../jsonrpc/messages.js";
import type { SendOptions } from "./transport.js";

/** The per-version wire rules a role sets once the version is negotiated. */
export interface WirePolicy {
  /** Whether the peer may send JSON-RPC batches (only 2025-03-26 allows them). */
  batches: boolean;
  /** 2025-11-25 leaves `id` out of errors for unreadable input; older versions send `id: null`. */
  omitUnreadableId: boolean;
}

/** The connection as its parts write to the peer through it (Connection implements it). */
export interface PeerLink {
  /** True once the connection closed: nothing more goes out. */
  readonly isClosed: boolean;
  /** Writes one message; a failed write is reported, never thrown (see Connection.send). */
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void>;
  /** Sends a notification; `options.signal` gives up a write not yet taken. */
  notify(method: string, params?: object, options?: SendOptions): Promise<void>;
  /** A request of the peer's ended without a response (it was cancelled): the transport may stop waiting for one. */
  unanswered(id: RequestId): void;
}
