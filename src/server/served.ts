// What every part of the server shares about one request being served, defined here so that the
// features, the 2026-07-28 machinery and the connection that composes them (connection.ts) need not
// import each other: at which version and for whom a request is served (Served, ModernServed), what
// its handler gets (HandlerContext), where a handshake session stands (LifecycleState), and how the
// server sends one of its notifications (Notifier).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (era per request).

import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from "../mcp/client-features.js";
import type { ElicitRequestParams, ElicitResult } from "../mcp/elicitation.js";
import type { ClientCapabilities, Implementation } from "../mcp/lifecycle.js";
import type { LoggingLevel } from "../mcp/logging.js";
import type { ServerNotificationMethod, ServerNotifications } from "../mcp/methods.js";
import type { HandshakeVersion, ModernVersion, ProtocolVersion } from "../mcp/versions.js";
import type { ParamsAndOptions } from "../protocol/method-table.js";
import type { SendOptions } from "../protocol/transport.js";

/** How one request is served: at which version, for which client. A handshake session serves its requests as itself. */
export interface Served {
  readonly protocolVersion: HandshakeVersion | ModernVersion;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
}

/** One 2026-07-28 request, served by what its own envelope says (server/modern/request.ts). */
export interface ModernServed extends Served {
  readonly protocolVersion: ModernVersion;
  /** The lowest level of log message to send for it; none when absent. */
  readonly logLevel: LoggingLevel | undefined;
  /** Whom the request speaks for, when the transport authenticated it (ServerConnectionOptions.principal). */
  readonly principal?: string;
}

/**
 * Where the handshake stands. Requests other than ping wait for `initialize`; the server itself
 * sends nothing but pings and logs until the client confirms with `notifications/initialized`.
 */
export type LifecycleState = "awaiting-initialize" | "awaiting-initialized" | "operating" | "closed";

/**
 * Sends one of the server's notifications (ServerNotifications in mcp/methods.ts): the method
 * names its params' type, so a misspelled method or field does not compile.
 */
export interface Notifier {
  notify<M extends ServerNotificationMethod>(method: M, ...args: ParamsAndOptions<ServerNotifications[M], SendOptions>): Promise<void>;
}

/**
 * What a tool, resource or prompt handler can do while it runs: notice cancellation, report
 * progress, log, and ask the client for things (sampling, elicitation, roots). Made per era by
 * handler-context.ts.
 */
export interface HandlerContext {
  /** Aborted when the client cancels this request or the connection closes; for a 2026-07-28 request also when the handler is set aside for input, or an ask of it is refused (-32021). */
  readonly signal: AbortSignal;
  /** The version this request is served at: the session's, or (2026-07-28) the request's own. */
  readonly protocolVersion: ProtocolVersion;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** Reports progress, if the client asked for it; `progress` must increase each time. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a log message to the client, if it is at or above the level the client set. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the client's model for a completion (sampling/createMessage). */
  sample(params: CreateMessageRequestParams): Promise<CreateMessageResult>;
  /** Asks the user for input through the client (elicitation/create). */
  elicit(params: ElicitRequestParams): Promise<ElicitResult>;
  /** Asks the client for its filesystem roots (roots/list). */
  listRoots(): Promise<ListRootsResult>;
  /**
   * Ends the HTTP connection this request's answer travels on, without ending the answer: the
   * client reconnects after `retryMs` (or the delay the server set) and gets everything sent since,
   * so a long-running handler need not hold a connection open. Spec (2025-11-25,
   * basic/transports#sending-messages-to-the-server): SSE polling. False, and nothing changes,
   * where there is no such connection: stdio, a JSON answer, a 2026-07-28 request (no resuming).
   */
  closeStream(retryMs?: number): boolean;
}
