// The handshake's initialize (notifications/initialized is the session's) and ping. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
// and https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping

import { ErrorCode, RpcError } from "../../jsonrpc/messages.js";
import type { InitializeResult } from "../../mcp/lifecycle.js";
import { isSupportedVersion, LATEST_PROTOCOL_VERSION, type ProtocolVersion } from "../../mcp/versions.js";
import { implementationFor } from "../compat.js";
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
