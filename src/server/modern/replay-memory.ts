// The used-up requestStates a server remembers so that none is accepted twice (request-state.ts),
// each until its token expires: after that the expiry check refuses it anyway. The memory has a
// fixed capacity and never forgets a live entry to make room: a forgotten nonce would open once
// more, so when every entry is live the new use is refused instead (RequestStateCodec answers it),
// until the earliest of them expires.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
// (single use, where it matters, is enforced server-side).

export class ReplayMemory {
  readonly capacity: number;
  /** Nonce -> expiry (ms since the epoch) of every remembered use, in the order of use. */
  readonly #used = new Map<string, number>();
  /** No entry expires before this (a lower bound; exact after a sweep): until then a full memory has nothing to drop. */
  #earliestExpiry = Number.POSITIVE_INFINITY;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.#used.size;
  }

  has(nonce: string): boolean {
    return this.#used.has(nonce);
  }

  /**
   * Drops what has expired by `now`, then says how long until one more use fits: 0 if it fits now.
   * Uses come in about the order their tokens expire (all live for the same ttl), so expired
   * entries are usually at the front, dropped cheaply; one that expired behind a live one is found
   * by a sweep of the whole memory, made only when it is full and something in it has expired
   * (#earliestExpiry), so a flood of refused uses costs no sweep each.
   */
  msUntilRoom(now: number): number {
    for (const [nonce, expiresAt] of this.#used) {
      if (expiresAt > now) break;
      this.#used.delete(nonce);
    }
    if (this.#used.size >= this.capacity && now >= this.#earliestExpiry) this.#sweep(now);
    return this.#used.size < this.capacity ? 0 : Math.max(1, this.#earliestExpiry - now);
  }

  /** Remembers a use; the caller has made sure there is room (msUntilRoom). */
  add(nonce: string, expiresAt: number): void {
    this.#used.set(nonce, expiresAt);
    this.#earliestExpiry = Math.min(this.#earliestExpiry, expiresAt);
  }

  #sweep(now: number): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const [nonce, expiresAt] of this.#used) {
      if (expiresAt <= now) this.#used.delete(nonce);
      else earliest = Math.min(earliest, expiresAt);
    }
    this.#earliestExpiry = earliest;
  }
}
