// What the client remembers of each server's era, so that the next connect() to a handshake-era
// server skips the server/discover probe: keyed by what the transport says identifies the server
// (an optional `peerKey`: the origin and path for HTTP), or, for transports that say nothing (stdio, a
// memory pair), kept by the McpClient instance itself. Only the era is kept, never what the
// server discovered: a DiscoverResult may be "private" to one authorisation and is often stale at
// once (ttlMs 0), so a modern server is asked server/discover on every connect (that is the probe
// anyway). Forgotten when a call, or initialize, says the server changed.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions
// (clients SHOULD cache the era per process or origin, MAY re-probe on failure).

import type { Transport } from "../../protocol/transport.js";
import type { ModernVersion } from "../../mcp/versions.js";
import type { EraVerdict } from "./probe.js";

/**
 * What is remembered of one server: its era and why, or the modern version it took. Spec
 * (server/utilities/caching#cache-scope-field): a "private" DiscoverResult MUST NOT be shared across authorisation
 * contexts, and clients sharing this cache may hold different tokens, so it never holds one.
 */
export type RememberedEra = { era: "handshake"; reason: string } | { era: "modern"; version: ModernVersion };

/** How many servers the shared cache remembers (the oldest is forgotten first). */
export const DEFAULT_ERA_CACHE_SIZE = 256;

export class EraCache {
  readonly #max: number;
  /** A Map keeps insertion order: the first key is the one remembered longest ago. */
  readonly #verdicts = new Map<string, RememberedEra>();

  constructor(maxServers = DEFAULT_ERA_CACHE_SIZE) {
    this.#max = maxServers;
  }

  get(key: string): RememberedEra | undefined {
    return this.#verdicts.get(key);
  }

  set(key: string, verdict: RememberedEra): void {
    this.#verdicts.delete(key);
    this.#verdicts.set(key, verdict);
    for (const oldest of this.#verdicts.keys()) {
      if (this.#verdicts.size <= this.#max) break;
      this.#verdicts.delete(oldest);
    }
  }

  forget(key: string): void {
    this.#verdicts.delete(key);
  }
}

/**
 * One client's view of the cache: the transport it is connected through says which server it
 * talks to (peerKey); without one, the verdict is this client's own (stdio: per McpClient).
 */
export class EraMemory {
  readonly #cache: EraCache;
  #key: string | undefined;
  #own: RememberedEra | undefined;

  constructor(cache: EraCache) {
    this.#cache = cache;
  }

  attach(transport: Transport): void {
    this.#key = peerKeyOf(transport);
  }

  recall(): RememberedEra | undefined {
    return this.#key === undefined ? this.#own : this.#cache.get(this.#key);
  }

  /**
   * Keeps the era the probe found (never its DiscoverResult). A verdict reached by a timeout says
   * only that the server was slow: forgotten, so the next connect() probes again.
   */
  learn(verdict: EraVerdict): void {
    if (verdict.era === "modern") this.#remember({ era: "modern", version: verdict.version });
    else if (!verdict.unsure) this.#remember({ era: "handshake", reason: verdict.reason });
    else this.forget();
  }

  #remember(era: RememberedEra): void {
    if (this.#key === undefined) this.#own = era;
    else this.#cache.set(this.#key, era);
  }

  /** A call's failure says the server is no longer what the probe found: the next connect() probes. */
  forget(): void {
    this.#own = undefined;
    if (this.#key !== undefined) this.#cache.forget(this.#key);
  }
}

/** The cache every McpClient shares unless ClientOptions.eraCache gives it another. */
export const sharedEraCache = new EraCache();

/** The transport's name for its server, if it has one (an HTTP transport's origin and path). */
export function peerKeyOf(transport: Transport): string | undefined {
  return "peerKey" in transport && typeof transport.peerKey === "string" ? transport.peerKey : undefined;
}
