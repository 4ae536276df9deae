// Textbook: Server.#call (the tool context it builds) in src/textbook/server.ts; this adds asks of
//  the client (sampling, elicitation, roots), and logs per era.
// What a tool, resource or prompt handler gets besides its arguments: one interface, two ways of
// serving it. In a handshake session the asks (sampling, elicitation, roots) are real requests to the
// client and logs follow the session's level. For a 2026-07-28 request there is no channel for
// requests: each ask becomes a question of an `input_required` result (server/modern/input-rounds.ts),
// and logs go out only if the request's envelope asked for them. Handlers are written once for both.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress, client/sampling,
// client/elicitation, client/roots; https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr

import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from "../mcp/client-features.js";
import type { ElicitRequestParams, ElicitRequestURLParams, ElicitResult } from "../mcp/elicitation.js";
import { readServerRequestResult } from "../mcp/read.js";
import type { ClientCapabilities, Implementation } from "../mcp/lifecycle.js";
import type { LoggingLevel, LoggingMessageNotificationParams } from "../mcp/logging.js";
import { supports, type ProtocolVersion } from "../mcp/versions.js";
import type { RequestContext } from "../protocol/method-table.js";
import type { Connection, RequestOptions } from "../protocol/connection.js";
import { LEVEL_RANK } from "./features/logging.js";
import type { InputRounds } from "./modern/input-rounds.js";
import type { ModernRequest } from "./modern/request.js";
import type { HandlerContext, Notifier, Served } from "./served.js";

export type { HandlerContext } from "./served.js";

/** What a handshake session's handler context uses of its connection (ServerConnection is one). */
export interface SessionAsks extends Served {
  readonly connection: Pick<Connection, "closeStream">;
  log(level: LoggingLevel, data: unknown, logger?: string, related?: RequestContext): Promise<void>;
  createMessage(params: CreateMessageRequestParams, options?: RequestOptions): Promise<CreateMessageResult>;
  elicit(params: ElicitRequestParams, options?: RequestOptions): Promise<ElicitResult>;
  listRoots(options?: RequestOptions): Promise<ListRootsResult>;
}

/** A settled promise, for the many log calls that send nothing. */
const NOTHING: Promise<void> = Promise.resolve();

/** In a handshake session. Methods on the prototype, not closures per request: a busy server makes many of these. */
export class SessionHandlerContext implements HandlerContext {
  readonly protocolVersion: ProtocolVersion;
  readonly #session: SessionAsks;
  readonly #request: RequestContext;

  constructor(session: SessionAsks, request: RequestContext) {
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

  closeStream(retryMs?: number): boolean {
    return this.#session.connection.closeStream(this.#request.id, retryMs);
  }
}

/** For one 2026-07-28 request: everything comes from its envelope, and asks go through its input rounds. */
export class ModernHandlerContext implements HandlerContext {
  readonly #session: Notifier;
  readonly #request: RequestContext;
  readonly #served: ModernRequest;
  constructor(session: Notifier, request: RequestContext, served: ModernRequest) {
    this.#session = session;
    this.#request = request;
    this.#served = served;
  }

  /** Aborted also when the handler is set aside for an input_required answer (input-rounds.ts). */
  get signal(): AbortSignal { return this.#served.inputRounds()?.signal(this.#request.signal) ?? this.#request.signal; }
  get protocolVersion(): ProtocolVersion { return this.#served.protocolVersion; }
  get clientInfo(): Implementation { return this.#served.clientInfo; }
  get clientCapabilities(): ClientCapabilities { return this.#served.clientCapabilities; }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    return this.#request.progress(progress, total, message);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = this.#served.logLevel;
    // Spec (2026-07-28, server/utilities/logging): no notifications/message for a request whose
    // envelope named no logLevel; with one, only at or above it, and only on this request's stream.
    if (threshold === undefined || LEVEL_RANK[level] < LEVEL_RANK[threshold]) return NOTHING;
    // Spec (basic/transports/stdio): nothing more for a request once it is cancelled or answered
    // (input_required is an answer too: a set-aside handler's logs go nowhere).
    if (this.#request.ended || this.#served.rounds?.setAside) return NOTHING;
    const params: LoggingMessageNotificationParams = { level, data };
    if (logger !== undefined) params.logger = logger;
    return this.#session.notify("notifications/message", params, { relatedRequestId: this.#request.id });
  }

  /** Only tools/call, prompts/get and resources/read may answer input_required: only their handlers have rounds. */
  get #rounds(): InputRounds {
    const rounds = this.#served.inputRounds();
    if (!rounds) throw new Error(`${this.#request.method}: only tools/call, prompts/get and resources/read can ask the client for input`);
    return rounds;
  }

  sample(params: CreateMessageRequestParams): Promise<CreateMessageResult> {
    return this.#rounds.ask({ method: "sampling/createMessage", params }, readServerRequestResult["sampling/createMessage"]);
  }

  elicit(params: ElicitRequestParams): Promise<ElicitResult> {
    // A URL-mode elicitation has no elicitationId in 2026-07-28: the retry tells how it went.
    const asked = params.mode === "url" ? withoutElicitationId(params) : params;
    return this.#rounds.ask({ method: "elicitation/create", params: asked }, readServerRequestResult["elicitation/create"]);
  }

  listRoots(): Promise<ListRootsResult> {
    return this.#rounds.ask({ method: "roots/list" }, readServerRequestResult["roots/list"]);
  }

  /** Spec (2026-07-28 transports/streamable-http): a stream cannot be resumed, so it is never closed early. */
  closeStream(): boolean {
    return false;
  }
}

function withoutElicitationId({ elicitationId: _legacyOnly, ...rest }: ElicitRequestURLParams): Omit<ElicitRequestURLParams, "elicitationId"> {
  return rest;
}
