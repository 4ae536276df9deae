// The client's side of capability negotiation: what it declares (exactly what its handlers can
// answer), and which request it refuses to send because the server did not declare what it needs
// (each request's need is data in mcp/methods.ts, its one version rule in mcp/versions.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation

import { UI_EXTENSION_ID, type McpUiClientCapabilities } from "../mcp/apps.js";
import type { ClientCapabilities, ServerCapabilities } from "../mcp/lifecycle.js";
import { undeclaredServerCapability, type ProtocolVersion } from "../mcp/versions.js";
import { ServerCapabilityError } from "./errors.js";
import type { ClientHandlers } from "./handlers.js";

/** What the client declares besides its handlers: the extensions it supports. */
export interface DeclaredExtensions {
  /**
   * Declares MCP Apps (the extension `io.modelcontextprotocol/ui`) with these settings, e.g.
   * `{ mimeTypes: [UI_MIME_TYPE] }`: this client renders the view types named, so a server shows it
   * its tools' `_meta.ui`, its app-only tools and its `ui://` views. Declared in both generations,
   * under `capabilities.extensions`: in initialize, and in every 2026-07-28 request's envelope.
   * Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
   * (Client<>Server Capability Negotiation)
   */
  apps?: McpUiClientCapabilities;
}

/** The capabilities that follow from the handlers: nothing is declared that cannot be answered. */
export function declaredClientCapabilities(handlers: ClientHandlers & DeclaredExtensions): ClientCapabilities {
  const capabilities: ClientCapabilities = declaredExtensions(handlers);
  if (handlers.roots) capabilities.roots = { listChanged: true };
  if (handlers.sampling) capabilities.sampling = handlers.samplingTools ? { tools: {} } : {};
  // Spec (client/elicitation#capabilities): an empty object means form mode only, which every
  // version with elicitation reads the same way; the mode keys are needed only for URL mode.
  if (handlers.elicitation?.url) capabilities.elicitation = handlers.elicitation.form ? { form: {}, url: {} } : { url: {} };
  else if (handlers.elicitation?.form) capabilities.elicitation = {};
  return capabilities;
}

/** The local refusal of a request the server did not declare the capability for, if it is one. */
export function undeclaredByServer(method: string, version: ProtocolVersion, server: ServerCapabilities): ServerCapabilityError | undefined {
  const need = undeclaredServerCapability(method, version, server);
  return need ? new ServerCapabilityError(method, need.name) : undefined;
}

/**
 * The extensions the client declares, the same in both generations: the handshake's initialize
 * and the 2026-07-28 envelope (modern/envelope.ts) both start from this.
 * Spec (extensions/overview#negotiation): a client advertises an extension under
 * `capabilities.extensions`, its id the key, its settings the value.
 */
export function declaredExtensions(options: DeclaredExtensions): ClientCapabilities {
  if (options.apps === undefined) return {};
  // Spec (MCP Apps, Client<>Server Capability Negotiation): `mimeTypes` is REQUIRED.
  if (!Array.isArray(options.apps.mimeTypes) || options.apps.mimeTypes.length === 0) throw new TypeError("client: apps.mimeTypes must name at least one view type, e.g. text/html;profile=mcp-app");
  return { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [...options.apps.mimeTypes] } } };
}
