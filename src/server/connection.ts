// Textbook: Server.route, Server.hear in src/textbook/server.ts; this adds every version's
//  lifecycle, the negotiated capabilities, the era of each request.
// The server's side of one connection to a client. Dual-era: each request's era is judged once,
// where it enters (era-dispatcher.ts), and it is served either in the connection's handshake
// session (the lifecycle state machine, the negotiated version and capabilities) or, when it
// carries the 2026-07-28 envelope, on its own (server/modern/). It composes the features
// (features/*.ts, written against serving.ts), and does everything the server sends on its own
// (list changes, resource updates, log messages, requests to the client, listen streams).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (era per message).

import { describeFailure } from "../protocol/dispatch.js";
import type { ParamsAndOptions } from "../protocol/method-table.js";
import { ErrorCode, RpcError } from "../jsonrpc/messages.js";
import { Connection, type RequestContext, type RequestOptions } from "../protocol/connection.js";
import type { SendOptions, Transport } from "../protocol/transport.js";
import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from "../mcp/client-features.js";
import type { ElicitRequestParams, ElicitResult } from "../mcp/elicitation.js";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "../mcp/lifecycle.js";
import type { LoggingLevel, LoggingMessageNotificationParams } from "../mcp/logging.js";
import type { ChangingList, ServerNotificationMethod, ServerNotifications, ServerRequestMethod, ServerRequests } from "../mcp/methods.js";
import { readServerResult } from "../mcp/read-server-requests.js";
import { LATEST_MODERN_VERSION, LATEST_PROTOCOL_VERSION, supports, wirePolicy, type HandshakeVersion } from "../mcp/versions.js";
import { ClientRequestError, offerOf, requireClientCapability, type Offer } from "./capabilities.js";
import type { Catalog } from "./catalog.js";
import { EraDispatcher, EraTable } from "./era-dispatcher.js";
import { completionHandlers } from "./features/completion.js";
import { lifecycleHandlers } from "./features/lifecycle.js";
import { LEVEL_RANK, loggingHandlers } from "./features/logging.js";
import { modernHandlers } from "./features/modern.js";
import { promptHandlers } from "./features/prompts.js";
import { resourceHandlers } from "./features/resources.js";
import { toolHandlers } from "./features/tools.js";
import { ModernHandlerContext, SessionHandlerContext } from "./handler-context.js";
import { checkModernRequest, type CheckedEnvelope, type CheckedRequest } from "./modern/envelope.js";
import { Listens } from "./modern/listen.js";
import { ModernRequest } from "./modern/request.js";
import type { HandlerContext, LifecycleState, Served } from "./served.js";
import type { ClientRequestHandlers, ServingConnection } from "./serving.js";

export type { HandlerContext, LifecycleState, ModernServed, Served } from "./served.js";
export type { ClientRequestHandlers } from "./serving.js";

export interface ServerConnectionOptions {
  /** Local problems (bad input, malformed notifications, failed writes, handler crashes), for the server's own log. */
  onProblem?: (message: string) => void;
  /**
   * A connection made for one Streamable HTTP request (a POST of a session-per-POST server, or a
   * 2026-07-28 request): it cannot send the client requests, and,
   * given a protocolVersion, starts operating at it without a handshake (for any request but
   * initialize, which it answers as usual). `checked`: its 2026-07-28 request's envelope, checked
   * already by the transport, which checkModern then returns for that request rather than reading it again.
   */
  singleRequest?: { protocolVersion?: HandshakeVersion; checked?: CheckedRequest };
  /** The most messages one JSON-RPC batch may hold (see batchRefusal in jsonrpc/messages.ts). */
  maxBatchItems?: number;
  /** The most of the client's messages taken in and not yet finished (see ConnectionOptions.maxInFlight). */
  maxInFlight?: number;
  /** Whom its requests speak for, if the transport authenticated them (HTTP: Gate.owner); requestState binds to it. */
  principal?: string;
}

/**
 * Every feature's handlers, made into dispatch rows once for all connections: each handler gets
 * the connection it serves with each request (ClientRequestHandlers), so opening a connection
 * builds no tables (with a session per HTTP POST, one is opened for each request).
 */
const HANDSHAKE_HANDLERS: ClientRequestHandlers = {
  ...lifecycleHandlers, ...toolHandlers, ...resourceHandlers, ...promptHandlers, ...completionHandlers, ...loggingHandlers,
};
const ERA_TABLE = new EraTable({
  handshake: HANDSHAKE_HANDLERS,
  modern: { ...HANDSHAKE_HANDLERS, ...modernHandlers },
  notifications: { "notifications/initialized": (_params, connection) => connection.confirmInitialized() },
});

/** Before initialize is answered: nothing is offered, and the gate refuses every method itself. */
const NOTHING_OFFERED: Offer = { capabilities: Object.freeze({}), refused: new Map() };

/** A settled promise, for the many log calls that send nothing. */
const NOTHING: Promise<void> = Promise.resolve();

export class ServerConnection implements ServingConnection {
  readonly server: Catalog;
  readonly connection: Connection;
  /** Where the handshake is; "closed" is not kept here but read from the connection (the state getter). */
  #state: Exclude<LifecycleState, "closed"> = "awaiting-initialize";
  /** Until negotiation, the newest version's rules apply. */
  #protocolVersion: HandshakeVersion = LATEST_PROTOCOL_VERSION;
  #clientInfo: Implementation = { name: "unknown", version: "unknown" };
  #clientCapabilities: ClientCapabilities = {};
  /** What this session offers, and so refuses, fixed when initialize is answered. */
  #offer: Offer = NOTHING_OFFERED;
  /** Messages below this level are not sent; the client moves it with logging/setLevel. */
  logLevel: LoggingLevel = "info";
  /** URIs this client subscribed to with resources/subscribe; made at the first (most connections never subscribe). */
  get subscriptions(): Set<string> { return (this.#subscriptions ??= new Set()); }
  #subscriptions: Set<string> | undefined;
  /** True for a connection made for one HTTP request: there is no channel back to the client. */
  readonly singleRequest: boolean;
  /** ServerConnectionOptions.principal: undefined when nobody authenticated its requests. */
  readonly principal: string | undefined;
  /** What a 2026-07-28 request is offered (modernCapabilities), looked up at first use. */
  #modernOffer: Offer | undefined;
  #listens: Listens | undefined;
  /** ServerConnectionOptions.singleRequest.checked. */
  readonly #checked: CheckedRequest | undefined;
  readonly #onProblem: (message: string) => void;

  constructor(server: Catalog, transport: Transport, options: ServerConnectionOptions = {}) {
    this.server = server;
    this.#onProblem = options.onProblem ?? (() => {});
    const dispatcher = new EraDispatcher(
      this,
      ERA_TABLE,
      {
        gate: (method, kind, context) => this.#gate(method, kind, context),
        onInternalError: (method, error) => this.#onProblem(describeFailure(method, error)),
      },
    );
    this.connection = new Connection(transport, { dispatcher, onProblem: this.#onProblem, maxBatchItems: options.maxBatchItems, maxInFlight: options.maxInFlight });
    // The client will send nothing more, so it cannot cancel its listens: they end gracefully,
    // with their results, and the connection can finish what it owes (basic/lifecycle#shutdown).
    this.connection.onInputEnd(() => this.#listens?.endAll());
    this.singleRequest = options.singleRequest !== undefined;
    this.principal = options.principal;
    this.#checked = options.singleRequest?.checked;
    if (options.singleRequest?.protocolVersion) {
      this.#negotiated(options.singleRequest.protocolVersion);
      this.#state = "operating";
    }
  }

  /** Closed once the connection is (read from it, not kept: one close listener fewer per connection). */
  get state(): LifecycleState { return this.connection.isClosed ? "closed" : this.#state; }
  get protocolVersion(): HandshakeVersion { return this.#protocolVersion; }
  get clientInfo(): Implementation { return this.#clientInfo; }
  get clientCapabilities(): ClientCapabilities { return this.#clientCapabilities; }
  get capabilities(): ServerCapabilities { return this.#offer.capabilities; }

  /** What the server offers a 2026-07-28 request: listens carry changes on any transport, so list changes and subscriptions too. */
  get modernCapabilities(): ServerCapabilities { return (this.#modernOffer ??= offerOf(this.server, LATEST_MODERN_VERSION)).capabilities; }

  /**
   * This connection's open listens (2026-07-28). A connection made for one HTTP request starts
   * hearing of the catalog's changes here (McpServer.connect), forgetting the offer it may have
   * looked up before, which a change since would have made stale.
   */
  get listens(): Listens {
    if (this.#listens === undefined && this.singleRequest && !this.connection.isClosed) {
      this.server.listen(this);
      this.#modernOffer = undefined;
    }
    return (this.#listens ??= new Listens(this));
  }

  /** How `request` is served: by its own envelope (its context, made by modern/serve.ts, carries its era), or as part of this session. */
  served(request: RequestContext): Served { return request instanceof ModernRequest ? request : this; }

  /**
   * initialize is being answered (not yet confirmed: that is notifications/initialized): the
   * version and both sides' capabilities are fixed now.
   */
  acceptInitialize(version: HandshakeVersion, clientInfo: Implementation, clientCapabilities: ClientCapabilities): void {
    this.#clientInfo = clientInfo;
    this.#clientCapabilities = clientCapabilities;
    this.#negotiated(version);
    this.#state = "awaiting-initialized";
  }

  /** notifications/initialized: the handshake is over (a stray one later changes nothing). */
  confirmInitialized(): void {
    if (this.#state === "awaiting-initialized") this.#state = "operating";
  }

  #negotiated(version: HandshakeVersion): void {
    this.#protocolVersion = version;
    this.connection.setPolicy(wirePolicy(version));
    this.#offer = offerOf(this.server, version, this.singleRequest, this.#clientCapabilities);
  }

  start(): void {
    this.connection.start();
  }

  onClose(listener: () => void): void {
    this.connection.onClose(listener);
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** Tells ServerConnectionOptions.onProblem, the server's own log. */
  reportProblem(message: string): void { this.#onProblem(message); }

  /** The context a handler of `request` gets; requests it makes of the client share its abort signal. */
  handlerContext(request: RequestContext): HandlerContext {
    return request instanceof ModernRequest ? new ModernHandlerContext(this, request, request) : new SessionHandlerContext(this, request);
  }

  /** The definition changed: tell the client, if it asked to hear about it. */
  listChanged(kind: ChangingList): void {
    // What a 2026-07-28 request is offered depends on what the definition has: look it up again.
    this.#modernOffer = undefined;
    this.#listens?.listChanged(kind);
    // Spec (basic/lifecycle#initialization): nothing but pings and logs before initialized.
    if (this.state !== "operating") return;
    // Spec (server/tools#list-changed-notification): only when listChanged was declared.
    if (!this.capabilities[kind]?.listChanged) return;
    void this.notify(`notifications/${kind}/list_changed`);
  }

  resourceUpdated(uri: string): void {
    this.#listens?.resourceUpdated(uri);
    // Spec (server/resources#subscriptions): updates go only to clients subscribed to that URI.
    if (this.state !== "operating" || !this.#subscriptions?.has(uri)) return;
    void this.notify("notifications/resources/updated", { uri });
  }

  /**
   * Sends notifications/message if logging is declared and the level passes the client's
   * threshold; `related` is the request being handled, if the message belongs to one.
   */
  log(level: LoggingLevel, data: unknown, logger?: string, related?: RequestContext): Promise<void> {
    // Spec (server/utilities/logging): a server that sends log messages MUST declare logging.
    if (!this.capabilities.logging || this.state === "closed") return NOTHING;
    if (LEVEL_RANK[level] < LEVEL_RANK[this.logLevel]) return NOTHING;
    const params: LoggingMessageNotificationParams = { level, data };
    if (logger !== undefined) params.logger = logger;
    return this.notify("notifications/message", params, related && { relatedRequestId: related.id });
  }

  /**
   * Sends one of the server's notifications (ServerNotifications in mcp/methods.ts): the method
   * names its params' type, so a misspelled method or field does not compile. Sent as it is: the
   * rules on when (lifecycle, capabilities, subscriptions) are the callers' above.
   */
  notify<M extends ServerNotificationMethod>(method: M, ...args: ParamsAndOptions<ServerNotifications[M], SendOptions>): Promise<void>;
  notify(method: string, params?: object, options?: SendOptions): Promise<void> {
    return this.connection.notify(method, params, options);
  }

  /**
   * Sends one of the server's requests to the client, once the client declared what it needs,
   * and reads the result as its type claims (mcp/read.ts). The client's error answer rejects as
   * a ClientRequestError: it answers this request, not the one a handler is working on.
   */
  request<M extends ServerRequestMethod>(method: M, ...args: ParamsAndOptions<ServerRequests[M]["params"], RequestOptions>): Promise<ServerRequests[M]["result"]>;
  async request<M extends ServerRequestMethod>(method: M, params?: ServerRequests[ServerRequestMethod]["params"], options?: RequestOptions): Promise<ServerRequests[M]["result"]> {
    requireClientCapability(this, method, params);
    try {
      return await this.connection.request(method, params, options, readServerResult[method]);
    } catch (error) {
      throw error instanceof RpcError ? new ClientRequestError(method, error) : error;
    }
  }

  createMessage(params: CreateMessageRequestParams, options?: RequestOptions): Promise<CreateMessageResult> {
    return this.request("sampling/createMessage", params, options);
  }

  elicit(params: ElicitRequestParams, options?: RequestOptions): Promise<ElicitResult> {
    // `mode` came with URL mode in 2025-11-25; a 2025-06-18 client knows only the form it implies.
    if (params.mode === "form" && !supports(this.protocolVersion, "urlElicitation")) {
      const { mode: _implied, ...form } = params;
      return this.request("elicitation/create", form, options);
    }
    return this.request("elicitation/create", params, options);
  }

  listRoots(options?: RequestOptions): Promise<ListRootsResult> {
    return this.request("roots/list", undefined, options);
  }

  /**
   * The handshake session's gate, for handshake-era requests only (era-dispatcher.ts serves a
   * 2026-07-28 request without it). A 2026-07-28 method has no row here: it is -32601, as it was
   * before mcp-wire spoke 2026-07-28 (the goldens hold that answer byte for byte).
   */
  #gate(method: string, kind: "request" | "notification", context?: RequestContext): RpcError | undefined {
    // Never refused: notifications (notifications/initialized checks the state itself).
    if (kind === "notification") return undefined;
    if (method === "ping") return undefined;
    if (method === "initialize") return this.#initializeRefusal(context!);
    if (this.#state === "awaiting-initialize") {
      return new RpcError(ErrorCode.InvalidRequest, `${method}: the session is not initialized: send initialize first`);
    }
    if (this.#state === "awaiting-initialized" && method !== "logging/setLevel") {
      return new RpcError(ErrorCode.InvalidRequest, `${method}: the session is not initialized: send notifications/initialized first`);
    }
    return this.#offer.refused.get(method);
  }

  /**
   * A 2026-07-28 request's envelope, checked on its own whatever state the session is in; throws
   * the RpcError to answer with (server/modern/envelope.ts). Called by modern/serve.ts. The very
   * `_meta` the transport checked (the same object, so the same request) is not read twice.
   */
  checkModern(method: string, meta: { [key: string]: unknown }): CheckedEnvelope {
    if (this.#checked?.meta === meta && this.#checked.method === method) return this.#checked.envelope;
    return checkModernRequest(method, meta, (this.#modernOffer ??= offerOf(this.server, LATEST_MODERN_VERSION)).refused);
  }

  /** Checked here, before initialize's params are read, so these answers do not depend on them. */
  #initializeRefusal(context: RequestContext): RpcError | undefined {
    // Spec (basic#batching, 2025-03-26): initialize MUST NOT be part of a JSON-RPC batch.
    if (context.inBatch) return new RpcError(ErrorCode.InvalidRequest, "initialize: must not be sent inside a batch");
    if (this.#state !== "awaiting-initialize") return new RpcError(ErrorCode.InvalidRequest, "initialize: the session is already initialized");
    return undefined;
  }
}
