// The client role, dual-era: it finds out which generation the server speaks (era-choice.ts),
// then either opens a handshake session (initialize, version check, initialized) or talks
// 2026-07-28 without one (modern/session.ts); every request goes through request(), which checks
// it against what the server declared. Its options are options.ts, the typed method per feature
// features.ts, the server's notifications notifications.ts.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle, server/*, and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients).
// The transport (a spawned process, HTTP, a memory pair) is the caller's choice.

import { describeFailure, Dispatcher, notificationRows } from "../protocol/dispatch.js";
import type { ParamsAndOptions } from "../protocol/method-table.js";
import { Connection } from "../protocol/connection.js";
import type { SendOptions, Transport } from "../protocol/transport.js";
import type {
  ClientNotificationMethod, ClientNotifications, ClientRequestMethod, ClientRequests,
} from "../mcp/methods.js";
import { readClientResult, readServerNotification } from "../mcp/read.js";
import type { Root } from "../mcp/client-features.js";
import type { Implementation, InitializeRequestParams, InitializeResult, ServerCapabilities } from "../mcp/lifecycle.js";
import type { LoggingLevel } from "../mcp/logging.js";
import { isModernVersion, isSupportedVersion, LATEST_PROTOCOL_VERSION, type ProtocolVersion } from "../mcp/versions.js";
import { METHOD_ERA, SERVER_CAPABILITY_NEEDED } from "../mcp/methods.js";
import { RpcError } from "../jsonrpc/messages.js";
import { ErrorCode } from "../mcp/errors.js";
import { NotConnectedError, RemovedMethodError } from "./errors.js";
import { Envelope } from "./modern/envelope.js";
import { sharedEraCache } from "./modern/era-cache.js";
import { handshake } from "./handshake.js";
import { DEFAULT_MAX_INPUT_REQUESTS, DEFAULT_MAX_INPUT_ROUNDS } from "./modern/input-rounds.js";
import { initializeSaysModern, type EraVerdict } from "./modern/probe.js";
import { ModernSession } from "./modern/session.js";
import { declaredClientCapabilities, undeclaredByServer } from "./capabilities.js";
import { serverRequestRows } from "./handlers.js";
import { ClientFeatures, type CallOptions } from "./features.js";
import { serverNotificationHandlers } from "./notifications.js";
import { SessionSetup } from "./session-setup.js";
import type { ListingLimits } from "./lists.js";
import { EraChoice } from "./era-choice.js";
import { DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_PROTOCOL_MODE, type ClientOptions } from "./options.js";

export { DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_PROTOCOL_MODE, type ClientOptions };

export type { CallOptions };

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
 * log level set through this client were sent again; the array lists what could not be restored),
 * "subscriptionsAcknowledged" (SubscriptionFilter: 2026-07-28, what the server's listen took).
 * In 2026-07-28 the list and resource events come from the listen (modern/listen.ts).
 */
export class McpClient extends ClientFeatures {
  readonly info: Implementation;
  readonly #options: ClientOptions;
  #connection: Connection | undefined;
  #initialized: InitializeResult | undefined;
  readonly #openUrlElicitations = new Set<string>();
  readonly #setup = new SessionSetup();
  readonly #envelope: Envelope;
  #modern: ModernSession | undefined;
  readonly #era: EraChoice;

  constructor(info: Implementation, options: ClientOptions = {}) {
    super();
    this.info = info;
    this.#options = options;
    this.#envelope = new Envelope(options, info);
    this.#era = new EraChoice(options.eraCache ?? sharedEraCache);
  }

  protected get listLimits(): Partial<ListingLimits> | undefined { return this.#options.listLimits; }

  get serverInfo(): Implementation | undefined { return this.#modern ? this.#modern.serverInfo : this.#initialized?.serverInfo; }
  get serverCapabilities(): ServerCapabilities | undefined { return this.#initialized?.capabilities; }
  get instructions(): string | undefined { return this.#initialized?.instructions; }
  /** The version in use: a modern one, or the one the handshake settled on (checked, so a ProtocolVersion). */
  get protocolVersion(): ProtocolVersion | undefined {
    const version = this.#initialized?.protocolVersion;
    return isSupportedVersion(version) || isModernVersion(version) ? version : undefined;
  }
  /** "modern" (2026-07-28, no session) or "handshake" (initialize), once connected. */
  get era(): "modern" | "handshake" | undefined { return this.#era.verdict?.era; }
  /** One line saying why the client chose its era (what the probe heard, or the pinned version). */
  get eraReason(): string | undefined { return this.#era.verdict?.reason; }
  get isConnected(): boolean { return this.#initialized !== undefined && !this.#connection?.isClosed; }

  /**
   * Opens the conversation. Probes first unless a handshake version is pinned; a 2026-07-28 server
   * is then talked to without a session, any other gets initialize, the version check, then
   * notifications/initialized. Returns an InitializeResult in both eras: for a modern server it is
   * made of the DiscoverResult (protocolVersion is the modern version, serverInfo is the result's
   * `_meta` serverInfo, or empty strings when the server sent none).
   */
  async connect(transport: Transport): Promise<InitializeResult> {
    if (this.isConnected) throw new Error("connect: the client is already connected; close() it first");
    this.#initialized = undefined;
    this.#modern = undefined;
    this.#era.attach(transport);
    this.lists.clear();
    this.#setup.clear();
    const onProblem = this.#options.onProblem;
    const connection = new Connection(transport, {
      dispatcher: new Dispatcher([
        ...serverRequestRows(this.#options, this.#openUrlElicitations),
        ...notificationRows(readServerNotification, serverNotificationHandlers({
          lists: this.lists, listen: () => this.#modern?.listen, openUrlElicitations: this.#openUrlElicitations, emit: this.emit.bind(this),
        })),
      ], { onInternalError: onProblem && ((method, error) => onProblem(describeFailure(method, error))) }),
      onProblem,
    });
    this.#connection = connection;
    connection.onClose((cause) => this.emit("close", cause));
    transport.onNewSession?.(() => void this.#restoreSetup(connection));
    connection.start();

    const handshakeMs = this.#options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
    const mode = this.#options.protocolVersion ?? DEFAULT_PROTOCOL_MODE;
    let verdict: EraVerdict;
    try {
      verdict = await this.#era.choose(connection, mode, this.#envelope, this.#options.probeTimeoutMs ?? handshakeMs);
    } catch (error) {
      await connection.close();
      throw error;
    }
    if (verdict.era === "modern") return this.#startModern(connection, verdict);
    const requested = isSupportedVersion(mode) ? mode : LATEST_PROTOCOL_VERSION;
    // McpClient.request is for an open session; the handshake types its one request itself.
    const params: InitializeRequestParams = { protocolVersion: requested, capabilities: declaredClientCapabilities(this.#options), clientInfo: this.info };
    const reprobing = mode === "auto" && verdict.unsure === true;
    try {
      this.#initialized = await handshake(connection, params, handshakeMs, (error) => reprobing && initializeSaysModern(error));
    } catch (error) {
      if (!initializeSaysModern(error)) throw error;
      // Spec (basic/versioning): -32022 is a modern server's answer. After a probe that timed out
      // it is a server slow to start that has read the probe since (the Python SDK's does): this
      // connect() probes it again, once. Any other time a remembered verdict may be stale (the
      // server was upgraded; a client MAY re-probe on failure): the next connect() probes again.
      if (!reprobing) {
        this.#era.forget();
        throw error;
      }
      const again = await this.#era.reprobe(connection, this.#envelope, this.#options.probeTimeoutMs ?? handshakeMs, `initialize answered ${error instanceof RpcError ? `${error.code} (${error.message})` : String(error)}`);
      if (again?.era === "modern") return this.#startModern(connection, again);
      await connection.close();
      throw error;
    }
    return this.#initialized;
  }

  #startModern(connection: Connection, verdict: Extract<EraVerdict, { era: "modern" }>): InitializeResult {
    const onProblem = this.#options.onProblem ?? (() => {});
    const modern = new ModernSession(connection, this.#envelope, verdict.version, verdict.discover, {
      handlers: this.#options,
      rounds: {
        maxRounds: this.#options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
        maxRequests: this.#options.maxInputRequests ?? DEFAULT_MAX_INPUT_REQUESTS,
      },
      onProblem,
      onAcknowledged: (filter) => this.emit("subscriptionsAcknowledged", filter),
      listLimits: this.#options.listLimits,
    });
    this.#modern = modern;
    this.#initialized = modern.asInitializeResult();
    void modern.listen.open();
    return this.#initialized;
  }

  /** Ends the session by closing the transport (MCP has no shutdown message). */
  async close(): Promise<void> {
    this.#modern?.listen.close();
    await this.#connection?.close();
  }

  /**
   * Sends one of the client's requests (ClientRequests in mcp/methods.ts) and reads its result as
   * its type claims (mcp/read.ts). The typed methods (features.ts) are all made of this.
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
    const modern = this.#modern;
    if (modern && inTable(method) && METHOD_ERA[method] === "legacy") return Promise.reject(new RemovedMethodError(method, "not sent: the server speaks 2026-07-28"));
    const refusal = this.#refusal(method);
    if (refusal) return Promise.reject(refusal);
    const defaults = this.#options.timeouts;
    const merged = defaults ? { ...options, timeouts: { ...defaults, ...options.timeouts } } : options;
    if (modern) {
      return modern.request(method, params, merged).catch((error: unknown) => {
        // Spec (basic/versioning): a client MAY re-probe when a call says the server changed:
        // -32022 (it no longer speaks our version), or -32601 for a method the server advertised
        // (any other -32601 says it lacks one method, not that it changed: nothing forgotten).
        if (error instanceof RpcError && (error.code === ErrorCode.UnsupportedProtocolVersion || (error.code === ErrorCode.MethodNotFound && this.#advertised(method)))) this.#era.forget();
        throw error;
      });
    }
    if (!inTable(method)) return connection.request(method, params, merged);
    return connection.request(method, params, merged, readClientResult[method]);
  }

  /**
   * Checks that the server is alive. 2026-07-28 has no ping: a modern server is asked
   * server/discover instead, which every modern server MUST answer and which changes nothing.
   */
  async ping(options?: CallOptions): Promise<void> {
    if (this.#modern) await this.request("server/discover", undefined, options);
    else await this.request("ping", undefined, options);
  }

  /**
   * Subscribes to a resource; "resourceUpdated" events then carry its URI. In 2026-07-28 there is
   * no resources/subscribe: the listen is opened again with the URI among its resourceSubscriptions
   * (resolved once the server acknowledged the new listen; the "subscriptionsAcknowledged" event
   * tells what it took).
   */
  async subscribe(uri: string, options?: CallOptions): Promise<void> {
    if (this.#modern) return this.#modernSetup("resources/subscribe", () => this.#modern?.listen.subscribe(uri));
    await this.request("resources/subscribe", { uri }, options);
    this.#setup.subscribed(uri);
  }

  async unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    if (this.#modern) return this.#modernSetup("resources/unsubscribe", () => this.#modern?.listen.unsubscribe(uri));
    await this.request("resources/unsubscribe", { uri }, options);
    this.#setup.unsubscribed(uri);
  }

  /** A legacy setup call in 2026-07-28: checked as the request would be, then done locally (no request exists). */
  async #modernSetup(method: "resources/subscribe" | "resources/unsubscribe" | "logging/setLevel", apply: () => Promise<void> | void): Promise<void> {
    if (!this.isConnected) throw new NotConnectedError(method);
    const refusal = this.#refusal(method);
    if (refusal) throw refusal;
    await apply();
  }

  /**
   * Whether the server said it has `method`: server/discover (every modern server answers it), or a
   * method needing a capability the server declared. Methods needing none prove nothing.
   */
  #advertised(method: string): boolean {
    const declared = this.#initialized?.capabilities;
    if (method === "server/discover") return true;
    return declared !== undefined && inTable(method) && SERVER_CAPABILITY_NEEDED[method] !== null && undeclaredByServer(method, this.protocolVersion!, declared) === undefined;
  }

  /** The local refusal of `method` when the server did not declare what it needs (unless the check is off). */
  #refusal(method: string): Error | undefined {
    const declared = this.#initialized?.capabilities;
    if (this.#options.enforceServerCapabilities === false || !declared) return undefined;
    return undeclaredByServer(method, this.protocolVersion!, declared);
  }

  /** Sets the lowest log level wanted. In 2026-07-28 nothing is sent: every later request names the level in its `_meta`. */
  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    if (this.#modern) return this.#modernSetup("logging/setLevel", () => { this.#envelope.logLevel = level; });
    await this.request("logging/setLevel", { level }, options);
    this.#setup.levelSet(level);
  }

  /** Tells the server the roots changed, so it asks again (roots/list). */
  async rootsChanged(): Promise<void> {
    // Spec (client/roots#root-list-changes): sent when roots change, if listChanged was declared.
    // 2026-07-28 removed the notification: a modern server asks for the roots each time it needs them.
    if (this.#options.roots && this.isConnected && !this.#modern) await this.notify("notifications/roots/list_changed");
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
}

export type { Root };
