// What an McpClient is told when it is made: the handshake's timeout, which generation to speak,
// the bounds of 2026-07-28 input rounds and of listings, where era verdicts are remembered, and the
// handlers of the server's requests (ClientHandlers, handlers.ts). Read by client.ts and the files
// it delegates to; nothing here runs.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#timeouts and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients).

import type { TimeoutPolicy } from "../jsonrpc/pending.js";
import type { ProtocolVersion } from "../mcp/versions.js";
import type { DeclaredExtensions } from "./capabilities.js";
import type { EraCache } from "./modern/era-cache.js";
import type { ClientHandlers } from "./handlers.js";
import type { ListingLimits } from "./lists.js";

/**
 * The era choice when ClientOptions.protocolVersion is not given: dual-era, probe with
 * server/discover and fall back to initialize
 * (basic/versioning#backward-compatibility-with-initialization-based-versions).
 */
export const DEFAULT_PROTOCOL_MODE: "auto" | ProtocolVersion = "auto";

/** ClientOptions.handshakeTimeoutMs when not given; the server/discover probe waits as long. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5000;

export interface ClientOptions extends ClientHandlers, DeclaredExtensions {
  /**
   * How long the handshake may take (default DEFAULT_HANDSHAKE_TIMEOUT_MS, 5 s): the server answers
   * initialize, and takes notifications/initialized, within this long of connect() sending
   * initialize. The server/discover probe, which comes before it, waits as long (unless
   * probeTimeoutMs says otherwise), longer or shorter alike. A person signing in (OAuth,
   * Transport.onHold) counts against none of the client's timeouts: their clocks stand still meanwhile.
   */
  handshakeTimeoutMs?: number;
  /** Refuse locally to call methods the server did not declare (default true). */
  enforceServerCapabilities?: boolean;
  /** Default timeouts for every request; each call may override them. */
  timeouts?: Partial<TimeoutPolicy>;
  /**
   * Which generation and version to speak (default DEFAULT_PROTOCOL_MODE): "auto" probes with
   * server/discover and speaks 2026-07-28 to a server that answers it, the handshake to any other;
   * a modern version probes with no fallback; a handshake version sends initialize only, as before.
   */
  protocolVersion?: "auto" | ProtocolVersion;
  /**
   * How long the server/discover probe waits for each answer (default: the handshake timeout). In
   * auto mode a later answer, after the fallback to initialize, is judged and remembered for the
   * next connect() (this connection keeps the handshake it opened), and noted in eraReason.
   */
  probeTimeoutMs?: number;
  /** Rounds of input (input_required) one 2026-07-28 request may take (default 10). */
  maxInputRounds?: number;
  /**
   * Input requests one round may carry (default 16); a round asking for more fails the call with
   * InputRequestsExceededError, none answered. The client answers them one at a time.
   */
  maxInputRequests?: number;
  /**
   * What one listAll* (every page of a list) may add up to: items, bytes and pages in all (default
   * DEFAULT_LISTING_LIMITS: 10,000, 32 MiB, 10,000); past one it fails with ListingTooLargeError.
   */
  listLimits?: Partial<ListingLimits>;
  /** Where the era verdict of each server is remembered (default: one cache shared by all clients). */
  eraCache?: EraCache;
  /** Local problems: garbage from the server, stray responses, malformed notifications, failed writes. */
  onProblem?: (message: string) => void;
}
