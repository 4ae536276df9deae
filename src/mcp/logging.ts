// Logging: a server with the `logging` capability streams log records to the client, which may
// choose the minimum severity. Deprecated in 2026-07-28 (stdio servers should log to stderr, others
// use OpenTelemetry), and there the level is chosen per request: `_meta` logLevel (META in modern.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging and
// https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging.
// Unless marked, the same in both generations.

import type { NotificationParams, RequestParams } from "./base.js";

/**
 * Log severities, borrowed from syslog (RFC 5424), least to most severe. A threshold admits its
 * own level and everything after it in this list.
 */
export type LoggingLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** The syslog severities (RFC 5424), least severe first: a threshold lets through its level and those after it. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/**
 * Params of `logging/setLevel`. An unknown level is error -32602. Result: `{}`. Legacy only
 * (removed in 2026-07-28: each request names its level in `_meta`, for that request alone).
 */
export interface SetLevelRequestParams extends RequestParams {
  /**
   * The lowest severity the client wants; the server then sends only this level and above.
   * Until a client sets one, the server MAY pick what to send.
   */
  level: LoggingLevel;
}

/**
 * Params of `notifications/message`, one log record from server to client. Records MUST NOT carry
 * secrets, personal data or internals useful to an attacker, and servers SHOULD rate-limit them.
 * Since 2026-07-28 a record belongs to one request: sent only if that request set a level, only on
 * its response stream, never on a listen stream (server/utilities/logging#per-request-log-level).
 */
export interface LoggingMessageNotificationParams extends NotificationParams {
  /** How severe this record is. */
  level: LoggingLevel;
  /** Which part of the server wrote it. */
  logger?: string;
  /** The record itself: a string, an object, any JSON value. */
  data: unknown;
}
