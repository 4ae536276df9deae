// The 2026-07-28 request envelope as the client writes it: the version, the client's
// capabilities in their 2026 shape (only for handlers the application has) and its identity,
// added to every request's `params._meta`. Since 2026-07-28.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/index (request metadata)
// and client/* (capabilities). The handshake era declares capabilities once, in client/capabilities.ts.

import type { ClientCapabilities, Implementation } from "../../mcp/lifecycle.js";
import type { LoggingLevel } from "../../mcp/logging.js";
import { META } from "../../mcp/modern.js";
import type { ModernVersion } from "../../mcp/versions.js";
import { declaredExtensions, type DeclaredExtensions } from "../capabilities.js";
import type { ClientHandlers } from "../handlers.js";

/**
 * The capabilities that follow from the handlers, in the 2026-07-28 shape: `roots: {}` (no
 * listChanged: notifications/roots/list_changed is gone), `elicitation` with its modes named.
 */
export function modernClientCapabilities(handlers: ClientHandlers & DeclaredExtensions): ClientCapabilities {
  const capabilities: ClientCapabilities = declaredExtensions(handlers);
  if (handlers.roots) capabilities.roots = {};
  if (handlers.sampling) capabilities.sampling = handlers.samplingTools ? { tools: {} } : {};
  const elicitation: { form?: object; url?: object } = {};
  if (handlers.elicitation?.form) elicitation.form = {};
  if (handlers.elicitation?.url) elicitation.url = {};
  if (elicitation.form || elicitation.url) capabilities.elicitation = elicitation;
  return capabilities;
}

/** What stays the same on every request of one client: made once, read per request. */
export class Envelope {
  readonly #capabilities: ClientCapabilities;
  readonly #clientInfo: Implementation;
  /** Set by setLoggingLevel: 2026-07-28 has no logging/setLevel, each request names its level. */
  logLevel: LoggingLevel | undefined;

  constructor(handlers: ClientHandlers & DeclaredExtensions, clientInfo: Implementation) {
    this.#capabilities = modernClientCapabilities(handlers);
    this.#clientInfo = clientInfo;
  }

  /**
   * `params` with the envelope in its `_meta`. The caller's own `_meta` keys (a progressToken,
   * a trace context) are kept, but cannot replace the version: that one decides how the server
   * reads the request, so it is always the version this client chose.
   */
  wrap(version: ModernVersion, params: object | undefined): { [key: string]: unknown; _meta: { [key: string]: unknown } } {
    const given: { [key: string]: unknown } = { ...params };
    const callerMeta = typeof given._meta === "object" && given._meta !== null ? given._meta : {};
    const meta: { [key: string]: unknown } = {
      // Spec (basic/index#request-metadata): every request carries protocolVersion and clientCapabilities.
      [META.clientCapabilities]: this.#capabilities,
      // Spec (basic/index#request-metadata): clients SHOULD send clientInfo.
      [META.clientInfo]: this.#clientInfo,
      ...callerMeta,
      [META.protocolVersion]: version,
    };
    // Spec (server/utilities/logging): without logLevel the server sends no log messages for the request.
    if (this.logLevel !== undefined && meta[META.logLevel] === undefined) meta[META.logLevel] = this.logLevel;
    return { ...given, _meta: meta };
  }
}
