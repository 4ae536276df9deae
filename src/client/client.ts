// The client role: opens a session with a server (initialize, version check, initialized), then
// offers one method per server feature, each checked against what the server declared.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and server/*
// The transport (a spawned process, HTTP, a memory pair) is the caller's choice.

import { EventEmitter } from "node:events";
import { describeFailure, Dispatcher, notificationRows, type NotificationHandlers, type ParamsAndOptions } from "../protocol/dispatch.js";
import type { TimeoutPolicy } from "../jsonrpc/pending.js";
import { RequestTimeoutError } from "../jsonrpc/pending.js";
import { Connection, type RequestOptions } from "../protocol/connection.js";
import type { SendOptions, Transport } from "../protocol/transport.js";
import type {
  ClientNotificationMethod, ClientNotifications, ClientRequestMethod, ClientRequests, RoleNotifications, ServerNotifications,
} from "../mcp/methods.js";
import { readClientResult, readServerNotification } from "../mcp/read.js";
import type { Root } from "../mcp/client-features.js";
import type { CompleteRequestParams, CompleteResult } from "../mcp/completion.js";
import type { Implementation, InitializeRequestParams, InitializeResult, ServerCapabilities } from "../mcp/lifecycle.js";
import type { LoggingLevel } from "../mcp/logging.js";
import type { GetPromptResult, ListPromptsResult, Prompt } from "../mcp/prompts.js";
import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult, Resource, ResourceTemplate } from "../mcp/resources.js";
import type { CallToolResult, ListToolsResult, Tool } from "../mcp/tools.js";
import { isSupportedVersion, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, wirePolicy, type HandshakeVersion } from "../mcp/versions.js";
import { HandshakeTimeoutError, NotConnectedError, VersionRefusedError } from "./errors.js";
import { declaredClientCapabilities, undeclaredByServer } from "./capabilities.js";
import { serverRequestRows, type ClientHandlers } from "./handlers.js";
import { collectPages, type ListCache } from "./lists.js";
import { SessionSetup } from "./session-setup.js";

export interface ClientOptions extends ClientHandlers {
  /**
   * How long the handshake may take (default 5 s): the server answers initialize, and takes
   * notifications/initialized, within this long of connect() sending initialize.
   */
  handshakeTimeoutMs?: number;
  /** Refuse locally to call methods the server did not declare (default true). */
  enforceServerCapabilities?: boolean;
  /** Default timeouts for every request; each call may override them. */
  timeouts?: Partial<TimeoutPolicy>;
  /** The version to ask for (default: the newest we speak). */
  protocolVersion?: HandshakeVersion;
  /** Local problems: garbage from the server, stray responses, malformed notifications, failed writes. */
  onProblem?: (message: string) => void;
}

/** Options for one call. */
export type CallOptions = RequestOptions;

/** Methods outside the table: a method of the table must go through the typed signature. */
type NotInTable<M extends string> = M extends ClientRequestMethod ? never : unknown;

function inTable(method: string): method is ClientRequestMethod {
  return Object.hasOwn(readClientResult, method);
}

/**
 * Events: "toolsChanged", "resourcesChanged", "promptsChanged" (the server's lists changed),
 * "resourceUpdated" (uri), "log" (LoggingMessageNotificationParams), "elicitationComplete" (the id
 * of a URL-mode elicitation the user accepted), "close" (cause?), "sessionRenewed" (Error[]: the
 * transport opened a new session after the server ended the old one, and the subscriptions and
 * log level set through this client were sent again; the array lists what could not be restored).
 */
export class McpClient extends EventEmitter {
  readonly info: Implementation;
  readonly #options: ClientOptions;
  #connection: Connection | undefined;
  #initialized: InitializeResult | undefined;
  readonly #lists: ListCache = {};
  /** Counts list_changed notifications, so a listing that raced one is not cached. */
  #listGeneration = 0;
  readonly #openUrlElicitations = new Set<string>();
  readonly #setup = new SessionSetup();

  constructor(info: Implementation, options: ClientOptions = {}) {
    super();
    this.info = info;
    this.#options = options;
  }

  get serverInfo(): Implementation | undefined { return this.#initialized?.serverInfo; }
  get serverCapabilities(): ServerCapabilities | undefined { return this.#initialized?.capabilities; }
  get instructions(): string | undefined { return this.#initialized?.instructions; }
  get protocolVersion(): HandshakeVersion | undefined { return this.#initialized?.protocolVersion as HandshakeVersion | undefined; }
  get isConnected(): boolean { return this.#initialized !== undefined && !this.#connection?.isClosed; }

  /** Opens the session: initialize, check the version, then notifications/initialized. */
  async connect(transport: Transport): Promise<InitializeResult> {
    if (this.isConnected) throw new Error("connect: the client is already connected; close() it first");
    this.#initialized = undefined;
    for (const key of Object.keys(this.#lists)) delete this.#lists[key as keyof ListCache];
    this.#setup.clear();
    const onProblem = this.#options.onProblem;
    const connection = new Connection(transport, {
      dispatcher: new Dispatcher([
        ...serverRequestRows(this.#options, this.#openUrlElicitations),
        ...notificationRows(readServerNotification, this.#notificationHandlers()),
      ], { onInternalError: onProblem && ((method, error) => onProblem(describeFailure(method, error))) }),
      onProblem,
    });
    this.#connection = connection;
    connection.onClose((cause) => this.emit("close", cause));
    transport.onNewSession?.(() => void this.#restoreSetup(connection));
    connection.start();

    const requested = this.#options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
    const handshakeMs = this.#options.handshakeTimeoutMs ?? 5000;
    const deadline = Date.now() + handshakeMs;
    // McpClient.request is for an open session; the handshake types its one request itself.
    const params: InitializeRequestParams = { protocolVersion: requested, capabilities: declaredClientCapabilities(this.#options), clientInfo: this.info };
    let result: InitializeResult;
    try {
      result = await connection.request("initialize", params, { timeouts: { idleMs: handshakeMs, maxTotalMs: handshakeMs } }, readClientResult.initialize);
    } catch (error) {
      await connection.close();
      throw error instanceof RequestTimeoutError ? new HandshakeTimeoutError(handshakeMs, error) : error;
    }
    // Spec (basic/lifecycle#version-negotiation): a client that does not support the server's
    // version SHOULD disconnect (the schema says MUST).
    if (!isSupportedVersion(result.protocolVersion)) {
      await connection.close();
      throw new VersionRefusedError(result.protocolVersion, SUPPORTED_PROTOCOL_VERSIONS, requested);
    }
    connection.setPolicy(wirePolicy(result.protocolVersion));
    this.#initialized = result;
    // Spec (basic/lifecycle#initialization): after a successful initialize, the client MUST send initialized.
    if (!(await this.#sendInitialized(deadline - Date.now()))) {
      this.#initialized = undefined;
      await connection.close();
      throw new HandshakeTimeoutError(handshakeMs, undefined, "notifications/initialized");
    }
    return result;
  }

  /**
   * Sends notifications/initialized, giving up after `leftMs` (what is left of the handshake):
   * over HTTP it is a POST the server may stall, and connect() must end on time whatever the
   * transport does. Resolves to whether it was sent in time.
   */
  async #sendInitialized(leftMs: number): Promise<boolean> {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(new Error(`notifications/initialized: not taken within the handshake timeout`)), Math.max(0, leftMs));
    const expired = new Promise<void>((resolve) => stop.signal.addEventListener("abort", () => resolve(), { once: true }));
    try {
      await Promise.race([this.notify("notifications/initialized", undefined, { signal: stop.signal }), expired]);
    } finally {
      clearTimeout(timer);
    }
    return !stop.signal.aborted;
  }

  /** Ends the session by closing the transport (MCP has no shutdown message). */
  async close(): Promise<void> {
    await this.#connection?.close();
  }

  /**
   * Sends one of the client's requests (ClientRequests in mcp/methods.ts) and reads its result as
   * its type claims (mcp/read.ts). The typed methods below are all made of this.
   */
  request<M extends ClientRequestMethod>(method: M, ...args: ParamsAndOptions<ClientRequests[M]["params"], CallOptions>): Promise<ClientRequests[M]["result"]>;
  /**
   * The untyped escape, for a method outside the table (the CLI sends whatever it is given): the
   * params go as they are and the result comes back unread.
   */
  request<M extends string>(method: M & NotInTable<M>, params?: object, options?: CallOptions): Promise<{ [key: string]: unknown }>;
  request(method: string, params?: object, options: CallOptions = {}): Promise<{ [key: string]: unknown }> {
    const connection = this.#connection;
    // Failures are rejections, never synchronous throws, whichever method the caller used.
    if (!connection || !this.#initialized || connection.isClosed) return Promise.reject(new NotConnectedError(method));
    const refusal = this.#options.enforceServerCapabilities === false ? undefined : undeclaredByServer(method, this.protocolVersion!, this.#initialized.capabilities);
    if (refusal) return Promise.reject(refusal);
    const defaults = this.#options.timeouts;
    const merged = defaults ? { ...options, timeouts: { ...defaults, ...options.timeouts } } : options;
    if (!inTable(method)) return connection.request(method, params, merged);
    return connection.request(method, params, merged, readClientResult[method]);
  }

  async ping(options?: CallOptions): Promise<void> {
    await this.request("ping", undefined, options);
  }

  listTools(cursor?: string, options?: CallOptions): Promise<ListToolsResult> {
    return this.request("tools/list", cursor === undefined ? undefined : { cursor }, options);
  }

  /** Every page of tools/list, cached until the server says the list changed. */
  async listAllTools(options?: CallOptions): Promise<Tool[]> {
    return this.#cached("tools", () => collectPages((cursor) => this.request("tools/list", cursor, options), "tools"));
  }

  callTool(name: string, args?: { [key: string]: unknown }, options?: CallOptions): Promise<CallToolResult> {
    return this.request("tools/call", args === undefined ? { name } : { name, arguments: args }, options);
  }

  listResources(cursor?: string, options?: CallOptions): Promise<ListResourcesResult> {
    return this.request("resources/list", cursor === undefined ? undefined : { cursor }, options);
  }

  async listAllResources(options?: CallOptions): Promise<Resource[]> {
    return this.#cached("resources", () => collectPages((cursor) => this.request("resources/list", cursor, options), "resources"));
  }

  listResourceTemplates(cursor?: string, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    return this.request("resources/templates/list", cursor === undefined ? undefined : { cursor }, options);
  }

  async listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.#cached("resourceTemplates", () =>
      collectPages((cursor) => this.request("resources/templates/list", cursor, options), "resourceTemplates"));
  }

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.request("resources/read", { uri }, options);
  }

  /** Subscribes to a resource; "resourceUpdated" events then carry its URI. */
  async subscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.request("resources/subscribe", { uri }, options);
    this.#setup.subscribed(uri);
  }

  async unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.request("resources/unsubscribe", { uri }, options);
    this.#setup.unsubscribed(uri);
  }

  listPrompts(cursor?: string, options?: CallOptions): Promise<ListPromptsResult> {
    return this.request("prompts/list", cursor === undefined ? undefined : { cursor }, options);
  }

  async listAllPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.#cached("prompts", () => collectPages((cursor) => this.request("prompts/list", cursor, options), "prompts"));
  }

  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return this.request("prompts/get", args === undefined ? { name } : { name, arguments: args }, options);
  }

  complete(params: CompleteRequestParams, options?: CallOptions): Promise<CompleteResult> {
    return this.request("completion/complete", params, options);
  }

  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    await this.request("logging/setLevel", { level }, options);
    this.#setup.levelSet(level);
  }

  /** Tells the server the roots changed, so it asks again (roots/list). */
  async rootsChanged(): Promise<void> {
    // Spec (client/roots#root-list-changes): sent when roots change, if listChanged was declared.
    if (this.#options.roots && this.isConnected) await this.notify("notifications/roots/list_changed");
  }

  /**
   * Sends one of the client's notifications (ClientNotifications in mcp/methods.ts): the method
   * names its params' type, so a misspelled method or field does not compile. Rejects with
   * NotConnectedError before connect(); once the session closed it is dropped, as Connection.notify
   * drops it (nothing waits for a notification; the handshake sends initialized through here).
   */
  notify<M extends ClientNotificationMethod>(method: M, ...args: ParamsAndOptions<ClientNotifications[M], SendOptions>): Promise<void>;
  notify(method: string, params?: object, options?: SendOptions): Promise<void> {
    if (!this.#connection) return Promise.reject(new NotConnectedError(method));
    return this.#connection.notify(method, params, options);
  }

  /** The transport started a new session by itself: set up again what the application had. */
  async #restoreSetup(connection: Connection): Promise<void> {
    if (connection !== this.#connection || !this.isConnected) return;
    const failures = await this.#setup.restore(this);
    this.emit("sessionRenewed", failures);
  }

  /** A whole list from the cache, or fetched and cached unless the list changed meanwhile. */
  async #cached<K extends keyof ListCache>(key: K, fetch: () => Promise<NonNullable<ListCache[K]>>): Promise<NonNullable<ListCache[K]>> {
    const cached = this.#lists[key];
    if (cached) return cached as NonNullable<ListCache[K]>;
    const generation = this.#listGeneration;
    const fresh = await fetch();
    if (generation === this.#listGeneration) this.#lists[key] = fresh;
    return fresh;
  }

  /** What the client does when the server tells it something (its params read by mcp/read.ts). */
  #notificationHandlers(): NotificationHandlers<RoleNotifications<ServerNotifications>> {
    const changed = (list: (keyof ListCache)[], event: string) => () => {
      this.#listGeneration++;
      for (const key of list) delete this.#lists[key];
      this.emit(event);
    };
    return {
      "notifications/tools/list_changed": changed(["tools"], "toolsChanged"),
      "notifications/resources/list_changed": changed(["resources", "resourceTemplates"], "resourcesChanged"),
      "notifications/prompts/list_changed": changed(["prompts"], "promptsChanged"),
      "notifications/resources/updated": ({ uri }) => void this.emit("resourceUpdated", uri),
      "notifications/elicitation/complete": ({ elicitationId }) => {
        // Spec (client/elicitation#completion-notifications): unknown or completed ids MUST be ignored.
        if (this.#openUrlElicitations.delete(elicitationId)) this.emit("elicitationComplete", elicitationId);
      },
      "notifications/message": (params) => void this.emit("log", params),
    };
  }
}

export type { Root };
