// The options of a Streamable HTTP handler and their defaults: the bounds it keeps against
// misbehaving or hostile clients (each enforced in one place, named at its option; the batch size
// alone is also checked by the connection, see maxBatchItems), its timers, and the security
// checks. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http

import { DEFAULT_MAX_BATCH_ITEMS } from "../jsonrpc/messages.js";
import { DEFAULT_KEEP_ALIVE_MS, DEFAULT_MAX_BODY_BYTES, DEFAULT_SESSION_IDLE_MS } from "./responses.js";
import type { SecurityOptions } from "./security.js";
import type { SharedEventLog } from "../fleet/stores.js";

export interface StreamableHttpOptions extends SecurityOptions {
  /** The endpoint path (default "/mcp"). */
  path?: string;
  /**
   * No MCP-Session-Id (default false): each handshake-era POST is served by a session of its own,
   * opened for it under the MCP-Protocol-Version header's rules and closed once answered; answers
   * are JSON, GET and DELETE are 405, and nothing reaches the client outside an answer. Meant for
   * load-balanced deployments. 2026-07-28 requests are served one by one whatever this says.
   */
  sessionPerPost?: boolean;
  /**
   * @deprecated The old name of sessionPerPost, which wins when both are given. Renamed because
   * "stateless" is also what the 2026-07-28 generation is called, and this is not that.
   */
  stateless?: boolean;
  /** Answer requests with application/json instead of an SSE stream (default false; sessionPerPost implies it). */
  jsonResponses?: boolean;
  /**
   * Sessions idle longer than this (no request, no open stream) are ended (default 30 minutes).
   * Legacy HTTP+SSE sessions count it from the client's last POST only (see LegacySseOptions).
   */
  sessionIdleMs?: number;
  /**
   * Sessions still without notifications/initialized this long after initialize are ended
   * (default 10 s). (Not the client's handshakeTimeoutMs, which waits for the initialize answer.)
   */
  initializedTimeoutMs?: number;
  /**
   * The most sessions alive at once (default 1000). When full, initialize evicts the session in
   * its handshake or idle longest; if every session is in use it gets 503, with Retry-After when
   * a handshake deadline will free a slot.
   */
  maxSessions?: number;
  /** The largest request body, in bytes (default 4 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /**
   * The most messages one batch may hold (default DEFAULT_MAX_BATCH_ITEMS); more get 400 with
   * -32600. Enforced for HTTP in post-body.ts, before any session sees the body, so the POST
   * itself is refused; the connection is given the same limit (its check serves stdio and can
   * never fire here first).
   */
  maxBatchItems?: number;
  /**
   * The most requests of one session awaiting their answers at once (default the larger of 100
   * and maxBatchItems, so that one full batch always fits); a POST that would pass it gets 429
   * and none of it runs.
   */
  maxRequestsInFlight?: number;
  /** The same for all sessions together, per-POST ones included (default 10,000); past it, 503. */
  maxRequestsInFlightTotal?: number;
  /** Bytes an SSE response may hold that the client has not read; past it the stream ends (default DEFAULT_MAX_BACKLOG_BYTES, 1 MiB). */
  maxStreamBacklogBytes?: number;
  /**
   * The same for every SSE response of the handler together, listens and a McpHttpServer's legacy
   * streams included (default DEFAULT_MAX_BACKLOG_BYTES_TOTAL, 64 MiB): past it, a stream whose
   * client is not reading ends when it is next written to (BacklogBudget, sse-sink.ts).
   */
  maxStreamBacklogBytesTotal?: number;
  /**
   * Events kept for resumption, in UTF-8 bytes and in number: per session (default 4 MiB, 10,000)
   * and for all sessions together (default 64 MiB, 100,000). Past a bound the oldest go first.
   */
  maxReplayBytesPerSession?: number;
  maxReplayEventsPerSession?: number;
  maxReplayBytes?: number;
  maxReplayEvents?: number;
  /**
   * This process's name in a fleet: session ids start with it and a dot (`<instance>.<random>`),
   * so that a load balancer can send each session's requests to the process that holds it (the
   * nginx configuration of scripts/fleet/nginx.ts). 1-64 characters of A-Z a-z 0-9 _ -.
   */
  instance?: string;
  /**
   * A fleet's shared copy of the sessions' SSE events (fleet/stores.ts; RedisEventLog): a resume of
   * a session whose process is gone is served from it by another (shared-resume.ts).
   */
  sharedEvents?: SharedEventLog;
  /** How often open SSE streams get a keep-alive comment (default 15 s). */
  keepAliveMs?: number;
  /** The `retry` hint on SSE streams, in ms (default 1000). */
  retryMs?: number;
  onProblem?: (message: string) => void;
}

const DEFAULTS = {
  path: "/mcp",
  sessionIdleMs: DEFAULT_SESSION_IDLE_MS,
  initializedTimeoutMs: 10_000,
  maxSessions: 1000,
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  maxBatchItems: DEFAULT_MAX_BATCH_ITEMS,
  maxRequestsInFlight: 100,
  maxRequestsInFlightTotal: 10_000,
  keepAliveMs: DEFAULT_KEEP_ALIVE_MS,
  retryMs: 1000,
};

/** An instance name: it goes into session ids, which must be visible ASCII; the dot ends it. */
export const INSTANCE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The options with every bound and timer the handler reads directly filled in. */
export type ResolvedOptions = typeof DEFAULTS & StreamableHttpOptions & { sessionPerPost: boolean };

/** Whether `options` ask for a session per POST, under its name or its deprecated one. */
export function servesSessionPerPost(options: StreamableHttpOptions): boolean {
  return options.sessionPerPost ?? options.stateless ?? false;
}

export function withDefaults(options: StreamableHttpOptions): ResolvedOptions {
  if (options.instance !== undefined && !INSTANCE_NAME.test(options.instance)) {
    throw new RangeError(`StreamableHttpHandler: instance must be 1-64 characters of A-Z a-z 0-9 _ -, got ${JSON.stringify(options.instance)}`);
  }
  const resolved = { ...DEFAULTS, ...options, sessionPerPost: servesSessionPerPost(options) };
  // A batch larger than the session may have in flight could never run: the bound follows it.
  if (options.maxRequestsInFlight === undefined) resolved.maxRequestsInFlight = Math.max(DEFAULTS.maxRequestsInFlight, resolved.maxBatchItems);
  return resolved;
}
