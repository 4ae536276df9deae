// One client's connection to a server definition: the lifecycle state machine, the negotiated
// version and capabilities, and everything the server sends on its own (list changes, resource
// updates, log messages, requests to the client).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle

import { Dispatcher } from "../jsonrpc/dispatcher.js";
import { ErrorCode, RpcError } from "../jsonrpc/messages.js";
import { Connection, type RequestContext, type RequestOptions } from "../protocol/connection.js";
import type { Transport } from "../protocol/transport.js";
import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from "../mcp/client-features.js";
import type { ElicitRequestParams, ElicitResult } from "../mcp/elicitation.js";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "../mcp/lifecycle.js";
import type { LoggingLevel } from "../mcp/logging.js";
import { LATEST_PROTOCOL_VERSION, supports, type ProtocolVersion } from "../mcp/versions.js";
import { requireClientCapability } from "./client-requests.js";
import type { ListKind, McpServer } from "./definition.js";
import { completionRows } from "./features/completion.js";
import { capabilityOfMethod, wirePolicy } from "../mcp/capabilities.js";
import { lifecycleRows, declaredCapabilities } from "./features/lifecycle.js";
import { LEVEL_RANK, loggingRows } from "./features/logging.js";
import { promptRows } from "./features/prompts.js";
import { resourceRows } from "./features/resources.js";
import { toolRows } from "./features/tools.js";

/**
 * Where the handshake stands. Requests other than ping wait for `initialize`; the server itself
 * sends nothing but pings and logs until the client confirms with `notifications/initialized`.
 */
export type LifecycleState = "awaiting-initialize" | "awaiting-initialized" | "operating" | "closed";

export interface ServerSessionOptions {
  /** Local problems (bad input, failed writes, handler crashes), for the server's own log. */
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

/** A settled promise, for the many log calls that send nothing. */
const NOTHING: Promise<void> = Promise.resolve();

export class ServerSession {
  readonly server: McpServer;
  readonly connection: Connection;
  state: LifecycleState = "awaiting-initialize";
  /** Until negotiation, the newest version's rules apply. */
  protocolVersion: ProtocolVersion = LATEST_PROTOCOL_VERSION;
  clientInfo: Implementation = { name: "unknown", version: "unknown" };
  clientCapabilities: ClientCapabilities = {};
  /** What this session offers, fixed when initialize is answered. */
  capabilities: ServerCapabilities = {};
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
    const dispatcher = new Dispatcher(
      [...lifecycleRows(this), ...toolRows(this), ...resourceRows(this), ...promptRows(this), ...completionRows(this), ...loggingRows(this)],
      {
        gate: (method, kind) => this.#gate(method, kind),
        onInternalError: (method, error) => this.#onProblem(`${method}: handler failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
      },
    );
    this.connection = new Connection(transport, { dispatcher, onProblem: this.#onProblem, maxBatchItems: options.maxBatchItems, maxInFlight: options.maxInFlight });
    this.connection.onClose(() => {
      this.state = "closed";
    });
    this.stateless = options.stateless !== undefined;
    if (options.stateless?.protocolVersion) {
      this.protocolVersion = options.stateless.protocolVersion;
      this.connection.setPolicy(wirePolicy(this.protocolVersion));
      this.declare();
      this.state = "operating";
    }
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

  /** Fixes the capabilities this session declares; called while answering initialize. */
  declare(): ServerCapabilities {
    this.capabilities = declaredCapabilities(this.server, this.protocolVersion, this.stateless);
    return this.capabilities;
  }

  /** The definition changed: tell the client, if it asked to hear about it. */
  listChanged(kind: ListKind): void {
    // Spec (basic/lifecycle#initialization): nothing but pings and logs before initialized.
    if (this.state !== "operating") return;
    // Spec (server/tools#list-changed-notification): only when listChanged was declared.
    if (!this.capabilities[kind]?.listChanged) return;
    void this.connection.notify(`notifications/${kind}/list_changed`);
  }

  resourceUpdated(uri: string): void {
    // Spec (server/resources#subscriptions): updates go only to clients subscribed to that URI.
    if (this.state !== "operating" || !this.subscriptions.has(uri)) return;
    void this.connection.notify("notifications/resources/updated", { uri });
  }

  /**
   * Sends notifications/message if logging is declared and the level passes the client's
   * threshold; `related` is the request being handled, if the message belongs to one.
   */
  log(level: LoggingLevel, data: unknown, logger?: string, related?: RequestContext): Promise<void> {
    // Spec (server/utilities/logging): a server that sends log messages MUST declare logging.
    if (!this.capabilities.logging || this.state === "closed") return NOTHING;
    if (LEVEL_RANK[level] < LEVEL_RANK[this.logLevel]) return NOTHING;
    const params: { [key: string]: unknown } = { level, data };
    if (logger !== undefined) params.logger = logger;
    return related ? related.notify("notifications/message", params) : this.connection.notify("notifications/message", params);
  }

  async createMessage(params: CreateMessageRequestParams, options?: RequestOptions): Promise<CreateMessageResult> {
    requireClientCapability(this, "sampling/createMessage", params as unknown as { [key: string]: unknown });
    return (await this.connection.request("sampling/createMessage", params as unknown as { [key: string]: unknown }, options)) as unknown as CreateMessageResult;
  }

  async elicit(params: ElicitRequestParams, options?: RequestOptions): Promise<ElicitResult> {
    const wire = { ...params } as { [key: string]: unknown };
    requireClientCapability(this, "elicitation/create", wire);
    // `mode` came with URL mode in 2025-11-25; a 2025-06-18 client knows only the form it implies.
    if (!supports(this.protocolVersion, "urlElicitation")) delete wire.mode;
    return (await this.connection.request("elicitation/create", wire, options)) as unknown as ElicitResult;
  }

  async listRoots(options?: RequestOptions): Promise<ListRootsResult> {
    requireClientCapability(this, "roots/list", {});
    return (await this.connection.request("roots/list", undefined, options)) as unknown as ListRootsResult;
  }

  #gate(method: string, kind: "request" | "notification"): RpcError | undefined {
    // Notifications are never refused (nor answered): the one this role handles,
    // notifications/initialized, checks the lifecycle state itself.
    if (kind === "notification") return undefined;
    if (method === "ping" || method === "initialize") return undefined;
    if (this.state === "awaiting-initialize") {
      return new RpcError(ErrorCode.InvalidRequest, `${method}: the session is not initialized: send initialize first`);
    }
    if (this.state === "awaiting-initialized" && method !== "logging/setLevel") {
      return new RpcError(ErrorCode.InvalidRequest, `${method}: the session is not initialized: send notifications/initialized first`);
    }
    const capability = capabilityOfMethod(method, this.protocolVersion);
    // Spec (basic/lifecycle#operation): only negotiated capabilities may be used; -32601 otherwise.
    if (capability && !capability.declared(this.capabilities)) {
      return new RpcError(ErrorCode.MethodNotFound, `${method}: this server does not offer ${capability.name}`);
    }
    return undefined;
  }
}
