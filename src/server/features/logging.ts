// logging/setLevel: the client chooses how much the server's log notifications carry.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging
// The messages themselves are sent by ServerConnection.log (connection.ts) and, for a
// 2026-07-28 request, by its handler context (handler-context.ts).

import { LOGGING_LEVELS, type LoggingLevel } from "../../mcp/logging.js";
import type { ClientRequestHandlers } from "../serving.js";

/** Each level's place in that order, for comparing two levels. */
export const LEVEL_RANK = Object.fromEntries(LOGGING_LEVELS.map((level, rank) => [level, rank])) as Record<LoggingLevel, number>;

export const loggingHandlers: ClientRequestHandlers = {
  "logging/setLevel"({ level }, _context, connection) {
    // The level was checked by its reader (mcp/read.ts): an invalid one gets -32602 there.
    connection.logLevel = level;
    return {};
  },
};
