// The handshake (initialize, notifications/initialized), ping, and which capability each
// method needs. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
// and https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping

import type { Row } from "../../jsonrpc/dispatcher.js";
import { ErrorCode, RpcError } from "../../jsonrpc/messages.js";
import type { RequestContext } from "../../protocol/connection.js";
import type { ClientCapabilities, Implementation, InitializeResult, ServerCapabilities } from "../../mcp/lifecycle.js";
import { isSupportedVersion, LATEST_PROTOCOL_VERSION, supports, type ProtocolVersion } from "../../mcp/versions.js";
import { wirePolicy } from "../../mcp/capabilities.js";
import { implementationFor } from "../compat.js";
import type { McpServer } from "../definition.js";
import type { ServerSession } from "../session.js";

export function lifecycleRows(session: ServerSession): Row<RequestContext>[] {
  return [
    {
      method: "initialize",
      kind: "request",
      handle(params, context) {
        // Spec (basic#batching, 2025-03-26): initialize MUST NOT be part of a JSON-RPC batch.
        if (context.inBatch) throw new RpcError(ErrorCode.InvalidRequest, "initialize: must not be sent inside a batch");
        if (session.state !== "awaiting-initialize") {
          throw new RpcError(ErrorCode.InvalidRequest, "initialize: the session is already initialized");
        }
        const requested = params.string("protocolVersion");
        const capabilities = params.object("capabilities").value as ClientCapabilities;
        const clientInfo = params.object("clientInfo");
        clientInfo.string("name");
        clientInfo.string("version");

        // Spec (basic/lifecycle#version-negotiation): answer with the client's version if we support
        // it, and otherwise with another version we support, our newest. The client decides then.
        const version: ProtocolVersion = isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
        session.protocolVersion = version;
        session.clientCapabilities = capabilities;
        session.clientInfo = clientInfo.value as unknown as Implementation;
        session.connection.setPolicy(wirePolicy(version));
        session.state = "awaiting-initialized";

        const info = session.server.info;
        const { instructions, ...implementation } = info;
        const result: InitializeResult = {
          protocolVersion: version,
          capabilities: session.declare(),
          serverInfo: implementationFor(implementation, version),
        };
        if (instructions !== undefined) result.instructions = instructions;
        return result as unknown as { [key: string]: unknown };
      },
    },
    {
      method: "notifications/initialized",
      kind: "notification",
      handle() {
        if (session.state === "awaiting-initialized") session.state = "operating";
      },
    },
    {
      // Spec (basic/utilities/ping): the receiver MUST answer promptly with an empty result.
      method: "ping",
      kind: "request",
      handle: () => ({}),
    },
  ];
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
