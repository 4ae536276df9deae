// Params of the small messages either side may send at any time: ping, cancellation, progress.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping
// https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
// https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
// 2026-07-28 (no ping): https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/cancellation
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/progress
// Unless marked, the same in both generations; in 2026-07-28 only the client sends requests, so a
// cancellation always names a client's request and only the client hands out progress tokens.
// Task cancellation (`tasks/cancel`, 2025-11-25, experimental) is shown in tasks.ts: mcp-wire offers no tasks.

import type { NotificationParams, ProgressToken, RequestParams } from "./base.js";

/**
 * Params of `ping`: nothing beyond the optional `_meta`. The receiver MUST reply promptly with an
 * empty result `{}`; a sender that gets no reply may treat the connection as dead. Legacy only
 * (removed in 2026-07-28, along with the session it kept alive; nothing replaces it).
 */
export type PingRequestParams = RequestParams;

/**
 * Params of `notifications/cancelled`: the sender no longer wants the answer to one of its own
 * earlier requests. The receiver SHOULD stop the work and send no response, but the request may
 * already be done, so both sides must tolerate a response arriving anyway.
 * Since 2026-07-28: over HTTP closing the response stream cancels instead (no notification); a server
 * sends it only to end a `subscriptions/listen` stream (basic/patterns/cancellation).
 */
export interface CancelledNotificationParams extends NotificationParams {
  /**
   * The id (`string | number`, exactly as sent) of a request issued earlier in the same direction.
   * Required before 2025-11-25; since then optional only because task cancellation leaves it out,
   * so for an ordinary request it MUST be present. `initialize` MUST NOT be cancelled.
   * Required again since 2026-07-28 (tasks moved to an extension); optional here for 2025-11-25.
   */
  requestId?: string | number;
  /** Why the request was cancelled, for logs or the user. */
  reason?: string;
}

/**
 * Params of `notifications/progress`, sent by whoever is handling a request that carried
 * `_meta.progressToken`. Notifications MUST stop once that request has finished.
 */
export interface ProgressNotificationParams extends NotificationParams {
  /** The token from the request's `_meta.progressToken`. */
  progressToken: ProgressToken;
  /** Work done so far. MUST grow with each notification, even when `total` is unknown; may be fractional. */
  progress: number;
  /** The amount of work in all, if known. */
  total?: number;
  /** A human-readable status line. Since 2025-03-26. */
  message?: string;
}
