// One client's connection to a server definition: the lifecycle state machine, the negotiated
// version and capabilities, everything the server sends on its own (list changes, resource
// updates, log messages, requests to the client), and the context its handlers get.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle, and for the
// handlers' context basic/utilities/progress, client/sampling, client/elicitation, client/roots.

import { describeFailure, Dispatcher, notificationRows, requestRows, type ParamsAndOptions, type RequestHandlers } from "../protocol/dispatch.js";
import { ErrorCode, RpcError } from "../jsonrpc/messages.js";
import { Connection, type RequestContext, type RequestOptions } from "../protocol/connection.js";
import type { SendOptions, Transport } from "../protocol/transport.js";
import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from "../mcp/client-features.js";
import type { ElicitRequestParams, ElicitResult } from "../mcp/elicitation.js";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "../mcp/lifecycle.js";
import type { LoggingLevel, LoggingMessageNotificationParams } from "../mcp/logging.js";
import type {
  ChangingList, ClientRequests, ServerNotificationMethod, ServerNotifications, ServerRequestMethod, ServerRequests,
} from "../mcp/methods.js";
import { readClientNotification, readClientRequestParams, readServerResult } from "../mcp/read.js";
import { LATEST_PROTOCOL_VERSION, supports, wirePolicy, type ProtocolVersion } from "../mcp/versions.js";
import { ClientRequestError, declaredCapabilities, refusedMethods, requireClientCapability } from "./capabilities.js";
import type { McpServer } from "./definition.js";
import { completionHandlers } from "./features/completion.js";
import { lifecycleHandlers } from "./features/lifecycle.js";
import { LEVEL_RANK, loggingHandlers } from "./features/logging.js";
import { promptHandlers } from "./features/prompts.js";
import { resourceHandlers } from "./features/resources.js";
import { toolHandlers } from "./features/tools.js";

/** The server's handlers for the client's requests, over the method table: params typed, results checked. */
export type ClientRequestHandlers = RequestHandlers<ClientRequests, RequestContext>;

/**
 * Where the handshake stands. Requests other than ping wait for `initialize`; the server itself
 * sends nothing but pings and logs until the client confirms with `notifications/initialized`.
 */
export type LifecycleState = "awaiting-initialize" | "awaiting-initialized" | "operating" | "closed";

export interface ServerSessionOptions {
  /** Local problems (bad input, malformed notifications, failed writes, handler crashes), for the server's own log. */
  onProblem?: (message: string) => void;
  /**
   * One stateless Streamable HTTP request: the session cannot send the client requests, and,
   * given a protocolVersion, starts operating at it without a handshake (for any request but
   * initialize, which it answers as usual).
   */
  stateless?: { protocolVersion?: ProtocolVersion };
  /** The most messages one JSON-RPC batch may hold (see batchRefusal in jsonrpc/messages.ts). */
  maxBatchItems?: number;
  /** The most of the client's messages taken in and not yet finished (see ConnectionOptions.maxInFlight). */
  maxInFlight?: number;
}

/**
 * What a tool, resource or prompt handler can do while it runs: notice cancellation, report
 * progress, log, and ask the client for things (sampling, elicitation, roots).
 */
export interface HandlerContext {
  /** Aborted when the client cancels this request or the connection closes. */
  readonly signal: AbortSignal;
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
}

/** A settled promise, for the many log calls that send nothing. */
const NOTHING: Promise<void> = Promise.resolve();

export class ServerSession {
  readonly server: McpServer;
  readonly connection: Connection;
  #state: LifecycleState = "awaiting-initialize";
  /** Until negotiation, the newest version's rules apply. */
  #protocolVersion: ProtocolVersion = LATEST_PROTOCOL_VERSION;
  #clientInfo: Implementation = { name: "unknown", version: "unknown" };
  #clientCapabilities: ClientCapabilities = {};
  /** What this session offers, fixed when initialize is answered. */
  #capabilities: ServerCapabilities = {};
  /** The client requests refused for want of a declared capability, with their errors (server/capabilities.ts). */
  #refused = new Map<string, RpcError>();
  /** Messages below this level are not sent; the client moves it with logging/setLevel. */
  logLevel: LoggingLevel = "info";
  /** URIs this client subscribed to with resources/subscribe. */
  readonly subscriptions = new Set<string>();
  /** True for a stateless HTTP request's session: there is no channel back to the client. */
  readonly stateless: boolean;
  readonly #onProblem: (message: string) => void;

  constructor(server: McpServer, transport: Transport, options: ServerSessionOptions = {}) {
    this.server = server;
    this.#onProblem = options.onProblem ?? (() => {});
    const handlers: ClientRequestHandlers = {
      ...lifecycleHandlers(this), ...toolHandlers(this), ...resourceHandlers(this),
      ...promptHandlers(this), ...completionHandlers(this), ...loggingHandlers(this),
    };
    const dispatcher = new Dispatcher(
      [
        ...requestRows(readClientRequestParams, handlers),
        ...notificationRows(readClientNotification, { "notifications/initialized": () => this.#confirmInitialized() }),
      ],
      {
        gate: (method, kind, context) => this.#gate(method, kind, context),
        onInternalError: (method, error) => this.#onProblem(describeFailure(method, error)),
      },
    );
    this.connection = new Connection(transport, { dispatcher, onProblem: this.#onProblem, maxBatchItems: options.maxBatchItems, maxInFlight: options.maxInFlight });
    this.connection.onClose(() => {
      this.#state = "closed";
    });
    this.stateless = options.stateless !== undefined;
    if (options.stateless?.protocolVersion) {
      this.#negotiated(options.stateless.protocolVersion);
      this.#state = "operating";
    }
  }

  get state(): LifecycleState { return this.#state; }
  get protocolVersion(): ProtocolVersion { return this.#protocolVersion; }
  get clientInfo(): Implementation { return this.#clientInfo; }
  get clientCapabilities(): ClientCapabilities { return this.#clientCapabilities; }
  get capabilities(): ServerCapabilities { return this.#capabilities; }

  /**
   * initialize is being answered (not yet confirmed: that is notifications/initialized): the
   * version and both sides' capabilities are fixed now.
   */
  acceptInitialize(version: ProtocolVersion, clientInfo: Implementation, clientCapabilities: ClientCapabilities): void {
    this.#clientInfo = clientInfo;
    this.#clientCapabilities = clientCapabilities;
    this.#negotiated(version);
    this.#state = "awaiting-initialized";
  }

  /** notifications/initialized: the handshake is over (a stray one later changes nothing). */
  #confirmInitialized(): void {
    if (this.#state === "awaiting-initialized") this.#state = "operating";
  }

  #negotiated(version: ProtocolVersion): void {
    this.#protocolVersion = version;
    this.connection.setPolicy(wirePolicy(version));
    this.#capabilities = declaredCapabilities(this.server, version, this.stateless);
    this.#refused = refusedMethods(version, this.#capabilities);
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

  /** The context a handler of `request` gets; requests it makes of the client share its abort signal. */
  handlerContext(request: RequestContext): HandlerContext {
    return new SessionHandlerContext(this, request);
  }

  /** The definition changed: tell the client, if it asked to hear about it. */
  listChanged(kind: ChangingList): void {
    // Spec (basic/lifecycle#initialization): nothing but pings and logs before initialized.
    if (this.state !== "operating") return;
    // Spec (server/tools#list-changed-notification): only when listChanged was declared.
    if (!this.capabilities[kind]?.listChanged) return;
    void this.notify(`notifications/${kind}/list_changed`);
  }

  resourceUpdated(uri: string): void {
    // Spec (server/resources#subscriptions): updates go only to clients subscribed to that URI.
    if (this.state !== "operating" || !this.subscriptions.has(uri)) return;
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

  #gate(method: string, kind: "request" | "notification", context?: RequestContext): RpcError | undefined {
    // Never refused: ping, and notifications (notifications/initialized checks the state itself).
    if (kind === "notification" || method === "ping") return undefined;
    if (method === "initialize") return this.#initializeRefusal(context!);
    if (this.#state === "awaiting-initialize") {
      return new RpcError(ErrorCode.InvalidRequest, `${method}: the session is not initialized: send initialize first`);
    }
    if (this.#state === "awaiting-initialized" && method !== "logging/setLevel") {
      return new RpcError(ErrorCode.InvalidRequest, `${method}: the session is not initialized: send notifications/initialized first`);
    }
    return this.#refused.get(method);
  }

  /** Checked here, before initialize's params are read, so these answers do not depend on them. */
  #initializeRefusal(context: RequestContext): RpcError | undefined {
    // Spec (basic#batching, 2025-03-26): initialize MUST NOT be part of a JSON-RPC batch.
    if (context.inBatch) return new RpcError(ErrorCode.InvalidRequest, "initialize: must not be sent inside a batch");
    if (this.#state !== "awaiting-initialize") return new RpcError(ErrorCode.InvalidRequest, "initialize: the session is already initialized");
    return undefined;
  }
}

/** Methods on the prototype, not closures per request: a busy server makes many of these. */
class SessionHandlerContext implements HandlerContext {
  readonly protocolVersion: ProtocolVersion;
  readonly #session: ServerSession;
  readonly #request: RequestContext;

  constructor(session: ServerSession, request: RequestContext) {
    this.#session = session;
    this.#request = request;
    this.protocolVersion = session.protocolVersion;
  }

  /** A getter: an AbortSignal costs a little to make, and most handlers never look at it. */
  get signal(): AbortSignal { return this.#request.signal; }
  get clientInfo(): Implementation { return this.#session.clientInfo; }
  get clientCapabilities(): ClientCapabilities { return this.#session.clientCapabilities; }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    return this.#request.progress(progress, total, supports(this.protocolVersion, "progressMessage") ? message : undefined);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.#session.log(level, data, logger, this.#request);
  }

  sample(params: CreateMessageRequestParams): Promise<CreateMessageResult> {
    return this.#session.createMessage(params, { signal: this.#request.signal, relatedRequestId: this.#request.id });
  }

  elicit(params: ElicitRequestParams): Promise<ElicitResult> {
    return this.#session.elicit(params, { signal: this.#request.signal, relatedRequestId: this.#request.id });
  }

  listRoots(): Promise<ListRootsResult> {
    return this.#session.listRoots({ signal: this.#request.signal, relatedRequestId: this.#request.id });
  }
}
