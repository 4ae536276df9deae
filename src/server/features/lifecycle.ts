// The handshake's initialize (notifications/initialized is the session's) and ping. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
// and https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping

import type { InitializeResult } from "../../mcp/lifecycle.js";
import type { Written } from "../../protocol/method-table.js";
import { isSupportedVersion, LATEST_PROTOCOL_VERSION, type HandshakeVersion } from "../../mcp/versions.js";
import { implementationFor } from "../compat.js";
import type { ClientRequestHandlers } from "../serving.js";

export const lifecycleHandlers: ClientRequestHandlers = {
  // Refused before its params are read when sent in a batch or a second time (ServerConnection's gate, connection.ts).
  initialize({ protocolVersion: requested, capabilities, clientInfo }, _context, connection) {
    // Spec (basic/lifecycle#version-negotiation): answer with the client's version if we support
    // it, and otherwise with another version we support, our newest. The client decides then.
    const version: HandshakeVersion = isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
    connection.acceptInitialize(version, clientInfo, capabilities);

    const { instructions, ...implementation } = connection.server.info;
    const result: Written<InitializeResult> = {
      protocolVersion: version,
      capabilities: connection.capabilities,
      serverInfo: implementationFor(implementation, version),
    };
    if (instructions !== undefined) result.instructions = instructions;
    return result;
  },
  // Spec (basic/utilities/ping): the receiver MUST answer promptly with an empty result.
  ping: () => ({}),
};
