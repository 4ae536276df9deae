// What the client remembers of each server's era, so that the next connect() skips the
// server/discover probe: keyed by what the transport says identifies the server (an optional
// `peerKey`: the origin for HTTP), or, for transports that say nothing (stdio, a memory pair),
// kept by the McpClient instance itself. Forgotten when a call says the server changed.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (clients SHOULD
// cache the era per process or origin, MAY re-probe on failure); SPEC_2026.md §8.3.

import type { Transport } from "../../protocol/transport.js";
import type { EraVerdict } from "./probe.js";

/** How many servers the shared cache remembers (the oldest is forgotten first). */
export const DEFAULT_ERA_CACHE_SIZE = 256;

export class EraCache {
  readonly #max: number;
  /** A Map keeps insertion order: the first key is the one remembered longest ago. */
  readonly #verdicts = new Map<string, EraVerdict>();

  constructor(maxServers = DEFAULT_ERA_CACHE_SIZE) {
    this.#max = maxServers;
  }

  get(key: string): EraVerdict | undefined {
    return this.#verdicts.get(key);
  }

  set(key: string, verdict: EraVerdict): void {
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
  #own: EraVerdict | undefined;

  constructor(cache: EraCache) {
    this.#cache = cache;
  }

  attach(transport: Transport): void {
    this.#key = peerKeyOf(transport);
  }

  recall(): EraVerdict | undefined {
    return this.#key === undefined ? this.#own : this.#cache.get(this.#key);
  }

  remember(verdict: EraVerdict): void {
    if (this.#key === undefined) this.#own = verdict;
    else this.#cache.set(this.#key, verdict);
  }

  /** A call's failure says the server is no longer what the probe found: the next connect() probes. */
  forget(): void {
    this.#own = undefined;
    if (this.#key !== undefined) this.#cache.forget(this.#key);
  }
}

/** The cache every McpClient shares unless ClientOptions.eraCache gives it another. */
export const sharedEraCache = new EraCache();

/** The transport's name for its server, if it has one (an HTTP transport's origin). */
export function peerKeyOf(transport: Transport): string | undefined {
  return "peerKey" in transport && typeof transport.peerKey === "string" ? transport.peerKey : undefined;
}
