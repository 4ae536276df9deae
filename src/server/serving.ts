// What the feature handlers (features/*.ts) are written against: the method table's handler type,
// and the narrow view of the connection that serves them. The connection (connection.ts) composes
// the features and is this view; the features never import it.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (era per request).

import type { ClientCapabilities, Implementation, ServerCapabilities } from "../mcp/lifecycle.js";
import type { LoggingLevel } from "../mcp/logging.js";
import type { ClientRequests } from "../mcp/methods.js";
import type { HandshakeVersion } from "../mcp/versions.js";
import type { RequestContext, RequestHandlers } from "../protocol/method-table.js";
import type { Catalog } from "./catalog.js";
import type { Listens } from "./modern/listen.js";
import type { HandlerContext, Served } from "./served.js";

/**
 * The server's handlers for the client's requests, over the method table: params typed, results
 * checked. Each gets the connection it serves as its third argument, so that one table serves all.
 */
export type ClientRequestHandlers = RequestHandlers<ClientRequests, RequestContext, ServingConnection>;

/** What the features use of the connection serving a request; each takes the part it needs. */
export interface ServingConnection {
  readonly server: Catalog;
  /** How `request` is served: by its own envelope (2026-07-28), or as part of the handshake session. */
  served(request: RequestContext): Served;
  /** The context a handler of `request` gets. */
  handlerContext(request: RequestContext): HandlerContext;
  /** Tells the server's own log (ServerConnectionOptions.onProblem) of a bug of its own, such as a tool's broken output. */
  reportProblem(message: string): void;
  /** What the handshake session offers, fixed when initialize is answered. */
  readonly capabilities: ServerCapabilities;
  /** initialize is being answered: the version and both sides' capabilities are fixed now. */
  acceptInitialize(version: HandshakeVersion, clientInfo: Implementation, clientCapabilities: ClientCapabilities): void;
  /** notifications/initialized: the handshake is over (a stray one later changes nothing). */
  confirmInitialized(): void;
  /** The handshake session's log threshold, which logging/setLevel moves. */
  logLevel: LoggingLevel;
  /** URIs the handshake session's client subscribed to. */
  readonly subscriptions: Set<string>;
  /** What the server offers a 2026-07-28 request. */
  readonly modernCapabilities: ServerCapabilities;
  /** This connection's open 2026-07-28 listens. */
  readonly listens: Listens;
}
