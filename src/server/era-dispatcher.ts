// Textbook: modern in src/textbook/modern.ts; this adds the era judged where the connection hands
//  over a request, and a handler table per era.
// Where a client's request enters the server: its era is judged here, once, by its own `_meta`, and
// carried from here on. A handshake-era request goes through the ordinary dispatch (the session's
// gate, then its row: params read by the handshake era's readers, then its handler), paying for the
// other era one `_meta` lookup (isModernRequest). A 2026-07-28 request is served by
// modern/serve.ts, whose ModernRequest context carries its era to the handler (ServerConnection.served).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (era per request).

import type { JSONRPCRequest } from "../jsonrpc/messages.js";
import { readClientNotification, readClientRequestParams } from "../mcp/read-client-requests.js";
import type { ClientNotifications, RoleNotifications } from "../mcp/methods.js";
import { Dispatcher, MethodTable, notificationRows, requestRows, type DispatcherOptions } from "../protocol/dispatch.js";
import type { NotificationHandlers, RequestContext } from "../protocol/method-table.js";
import { isModernRequest } from "./modern/envelope.js";
import { serveModernRequest, type ModernServing } from "./modern/serve.js";
import type { ClientRequestHandlers, ServingConnection } from "./serving.js";

type Json = { [key: string]: unknown };

export interface EraHandlers {
  /** The handshake era's methods: one row each. */
  handshake: ClientRequestHandlers;
  /** Every method a 2026-07-28 request may name (modern/serve.ts refuses the handshake-only ones). */
  modern: ClientRequestHandlers;
  /** The client's notifications (of the handshake era; 2026-07-28 defines none a server acts on). */
  notifications: NotificationHandlers<RoleNotifications<ClientNotifications>, ServingConnection>;
}

/** What the rows of both eras are run for: the connection being served. */
export type EraServing = ServingConnection & ModernServing;

/**
 * Both eras' handlers, the handshake era's made into rows: made once, shared by the dispatcher of
 * every connection (a session per HTTP POST makes a connection for each request).
 */
export class EraTable {
  readonly rows: MethodTable<RequestContext, EraServing>;
  readonly modern: ClientRequestHandlers;

  constructor(handlers: EraHandlers) {
    this.rows = new MethodTable<RequestContext, EraServing>([...requestRows(readClientRequestParams, handlers.handshake), ...notificationRows(readClientNotification, handlers.notifications)]);
    this.modern = handlers.modern;
  }
}

export class EraDispatcher extends Dispatcher<RequestContext, EraServing> {
  readonly #connection: EraServing;
  readonly #modern: ClientRequestHandlers;

  /** `options.gate` judges handshake-era requests only: a 2026-07-28 request never reaches it. */
  constructor(connection: EraServing, table: EraTable, options: DispatcherOptions<RequestContext>) {
    super(table.rows, options, connection);
    this.#connection = connection;
    this.#modern = table.modern;
  }

  override run(request: JSONRPCRequest, context: RequestContext): Promise<Json> | Json {
    const meta = context.meta;
    // Spec (2026-07-28 basic/versioning): the era is judged per request, by its own `_meta`.
    if (!isModernRequest(request.method, meta)) return super.run(request, context);
    // As Dispatcher.run: a refusal is a rejected promise, never a throw.
    try {
      return serveModernRequest(this.#connection, this.#modern, request, context, meta);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
