// What a tool, resource or prompt handler can do while it runs: notice cancellation, report
// progress, log, and ask the client for things (sampling, elicitation, roots).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress and
// client/sampling, client/elicitation, client/roots. Capability checks live in the session.

import type { RequestContext } from "../protocol/connection.js";
import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from "../mcp/client-features.js";
import type { ElicitRequestParams, ElicitResult } from "../mcp/elicitation.js";
import type { ClientCapabilities, Implementation } from "../mcp/lifecycle.js";
import type { LoggingLevel } from "../mcp/logging.js";
import { supports, type ProtocolVersion } from "../mcp/versions.js";
import type { ServerSession } from "./session.js";

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

/** Builds the context for one request; nested requests to the client share its abort signal. */
export function handlerContext(session: ServerSession, request: RequestContext): HandlerContext {
  return new SessionHandlerContext(session, request);
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
