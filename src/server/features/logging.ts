// logging/setLevel: the client chooses how much the server's log notifications carry.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging
// The messages themselves are sent by ServerSession.log.

import type { Row } from "../../jsonrpc/dispatcher.js";
import type { RequestContext } from "../../protocol/connection.js";
import type { LoggingLevel } from "../../mcp/logging.js";
import type { ServerSession } from "../session.js";

/** The syslog severities (RFC 5424), least severe first: a threshold lets through its level and those after it. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** Each level's place in that order, for comparing two levels. */
export const LEVEL_RANK = Object.fromEntries(LOGGING_LEVELS.map((level, rank) => [level, rank])) as Record<LoggingLevel, number>;

export function loggingRows(session: ServerSession): Row<RequestContext>[] {
  return [
    {
      method: "logging/setLevel",
      kind: "request",
      handle(params) {
        // Spec (server/utilities/logging#error-handling): an invalid level SHOULD get -32602.
        session.logLevel = params.choice("level", LOGGING_LEVELS);
        return {};
      },
    },
  ];
}
