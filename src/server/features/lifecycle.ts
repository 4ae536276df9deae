// The handshake's initialize (notifications/initialized is the session's), ping, and the
// capabilities this server declares. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
// and https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping

import { ErrorCode, RpcError } from "../../jsonrpc/messages.js";
import type { InitializeResult, ServerCapabilities } from "../../mcp/lifecycle.js";
import { isSupportedVersion, LATEST_PROTOCOL_VERSION, supports, type ProtocolVersion } from "../../mcp/versions.js";
import { implementationFor } from "../compat.js";
import type { McpServer } from "../definition.js";
import type { ClientRequestHandlers, ServerSession } from "../session.js";

export function lifecycleHandlers(session: ServerSession): ClientRequestHandlers {
  return {
    initialize({ protocolVersion: requested, capabilities, clientInfo }, context) {
      // Spec (basic#batching, 2025-03-26): initialize MUST NOT be part of a JSON-RPC batch.
      if (context.inBatch) throw new RpcError(ErrorCode.InvalidRequest, "initialize: must not be sent inside a batch");
      if (session.state !== "awaiting-initialize") {
        throw new RpcError(ErrorCode.InvalidRequest, "initialize: the session is already initialized");
      }
      // Spec (basic/lifecycle#version-negotiation): answer with the client's version if we support
      // it, and otherwise with another version we support, our newest. The client decides then.
      const version: ProtocolVersion = isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
      session.initialized(version, clientInfo, capabilities);

      const { instructions, ...implementation } = session.server.info;
      const result: InitializeResult = {
        protocolVersion: version,
        capabilities: session.capabilities,
        serverInfo: implementationFor(implementation, version),
      };
      if (instructions !== undefined) result.instructions = instructions;
      return result;
    },
    // Spec (basic/utilities/ping): the receiver MUST answer promptly with an empty result.
    ping: () => ({}),
  };
}

/**
 * What this server offers a client of `version`: each primitive the definition has, with
 * listChanged (the definition may change at run time), plus logging and, where the version has
 * the flag, completions. A `stateless` session has no channel to send anything on its own, so it
 * offers neither list_changed notifications nor resource subscriptions: it could not deliver them.
 */
export function declaredCapabilities(server: McpServer, version: ProtocolVersion, stateless = false): ServerCapabilities {
  const capabilities: ServerCapabilities = { logging: {} };
  const hasPrompts = server.prompts().length > 0;
  const hasResources = server.resources().length > 0 || server.templates().length > 0;
  if (hasPrompts || hasResources) {
    // 2024-11-05 has completion/complete but no capability flag for it.
    if (supports(version, "completionsCapability")) capabilities.completions = {};
  }
  const changes = stateless ? {} : { listChanged: true };
  if (hasPrompts) capabilities.prompts = { ...changes };
  if (hasResources) capabilities.resources = stateless ? {} : { subscribe: true, listChanged: true };
  if (server.tools().length > 0) capabilities.tools = { ...changes };
  return capabilities;
}
