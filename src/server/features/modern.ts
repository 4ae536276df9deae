// The two methods 2026-07-28 added: server/discover, which says what initialize once said without
// opening a session, and subscriptions/listen (server/modern/listen.ts). Both exist only for
// requests carrying the modern envelope (METHOD_ERA in mcp/methods.ts): the handshake era has no
// row for them (era-dispatcher.ts), so there they are -32601.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/discover

import type { DiscoverResult } from "../../mcp/modern.js";
import { MODERN_PROTOCOL_VERSIONS } from "../../mcp/versions.js";
import type { Written } from "../../protocol/method-table.js";
import type { ClientRequestHandlers } from "../serving.js";
import { appsExtension } from "../../apps/server.js";

export const modernHandlers: ClientRequestHandlers = {
  "server/discover"(_params, context, connection) {
    // MCP Apps, for a request whose envelope declares it (apps/server.ts; capabilities.ts says why).
    const extensions = appsExtension(connection.server.resources(), connection.served(context).clientCapabilities);
    const capabilities = extensions ? { ...connection.modernCapabilities, extensions } : connection.modernCapabilities;
    // Spec (server/discover): the modern versions only; the handshake versions are initialize's to offer.
    const result: Written<DiscoverResult> = { supportedVersions: [...MODERN_PROTOCOL_VERSIONS], capabilities };
    const instructions = connection.server.info.instructions;
    if (instructions !== undefined) result.instructions = instructions;
    return result;
  },
  "subscriptions/listen"({ notifications }, context, connection) {
    return connection.listens.listen(notifications, context, connection.modernCapabilities);
  },
};
