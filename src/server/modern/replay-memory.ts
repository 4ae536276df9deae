// The used-up requestStates a server remembers so that none is accepted twice (request-state.ts),
// each until its token expires: after that the expiry check refuses it anyway. The memory has a
// fixed capacity and never forgets a live entry to make room: a forgotten nonce would open once
// more, so when there is no room the new use is refused instead (RequestStateCodec answers it),
// until a remembered one expires. So that one flooding caller is refused before the others, an
// authenticated principal may hold only a share of the memory; callers nobody authenticated cannot
// be told apart, and share the whole of it.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
// (single use, where it matters, is enforced server-side).

/** Why a use does not fit, and until when at least: the bound it would pass. */
export interface NoRoom {
  limit: number;
  /** Nothing that bound counts expires sooner (ms; at least 1). */
  waitMs: number;
  /** The principal's own share is full (rather than the whole memory). */
  perPrincipal: boolean;
}

/** The uses of one principal (or of all the unauthenticated callers), in the order of use. */
class Uses {
  /** Nonce -> expiry (ms since the epoch). */
  readonly expiries = new Map<string, number>();
  /** No entry expires before this (a lower bound; exact after a sweep): until then a full set has nothing to drop. */
  earliestExpiry = Number.POSITIVE_INFINITY;

  /**
   * Drops what expired by `now`. Uses come in about the order their tokens expire (all live for
   * the same ttl), so expired entries are usually at the front, dropped cheaply; with `sweep`, one
   * that expired behind a live one is dropped too, at the cost of reading them all. Returns how
   * many were dropped.
   */
  drop(now: number, sweep: boolean): number {
    const before = this.expiries.size;
    let earliest = Number.POSITIVE_INFINITY;
    for (const [nonce, expiresAt] of this.expiries) {
      if (expiresAt <= now) this.expiries.delete(nonce);
      else if (!sweep) break;
      else earliest = Math.min(earliest, expiresAt);
    }
    if (sweep) this.earliestExpiry = earliest;
    return before - this.expiries.size;
  }
}

export class ReplayMemory {
  readonly capacity: number;
  readonly perPrincipal: number;
  /** Each principal's uses (under undefined, the unauthenticated callers'); a principal with none has no entry. */
  readonly #byPrincipal = new Map<string | undefined, Uses>();
  #size = 0;
  /** No entry of any principal expires before this (a lower bound): until then a full memory has nothing to drop. */
  #earliestExpiry = Number.POSITIVE_INFINITY;

  constructor(capacity: number, perPrincipal: number) {
    this.capacity = capacity;
    this.perPrincipal = Math.min(perPrincipal, capacity);
  }

  get size(): number {
    return this.#size;
  }

  /** Whether `principal` used the token of this nonce (a token opens only for its own principal). */
  has(nonce: string, principal: string | undefined): boolean {
    return this.#byPrincipal.get(principal)?.expiries.has(nonce) ?? false;
  }

  /**
   * Drops what has expired by `now`, then says why one more use by `principal` does not fit, or
   * undefined if it fits. A sweep (reading every entry) is made only when a bound is reached and
   * something it counts has expired, so a flood of refused uses costs no sweep each.
   */
  noRoom(now: number, principal: string | undefined): NoRoom | undefined {
    const uses = this.#byPrincipal.get(principal);
    if (uses) this.#forget(uses, principal, now, false);
    if (uses && principal !== undefined && uses.expiries.size >= this.perPrincipal) {
      if (now >= uses.earliestExpiry) this.#forget(uses, principal, now, true);
      if (uses.expiries.size >= this.perPrincipal) return { limit: this.perPrincipal, waitMs: Math.max(1, uses.earliestExpiry - now), perPrincipal: true };
    }
    if (this.#size >= this.capacity && now >= this.#earliestExpiry) {
      let earliest = Number.POSITIVE_INFINITY;
      for (const [who, theirs] of this.#byPrincipal) {
        this.#forget(theirs, who, now, true);
        earliest = Math.min(earliest, theirs.earliestExpiry);
      }
      this.#earliestExpiry = earliest;
    }
    if (this.#size >= this.capacity) return { limit: this.capacity, waitMs: Math.max(1, this.#earliestExpiry - now), perPrincipal: false };
    return undefined;
  }

  /** Remembers a use; the caller has made sure there is room (noRoom). */
  add(nonce: string, expiresAt: number, principal: string | undefined): void {
    let uses = this.#byPrincipal.get(principal);
    if (!uses) this.#byPrincipal.set(principal, (uses = new Uses()));
    uses.expiries.set(nonce, expiresAt);
    uses.earliestExpiry = Math.min(uses.earliestExpiry, expiresAt);
    this.#earliestExpiry = Math.min(this.#earliestExpiry, expiresAt);
    this.#size++;
  }

  /** Drops `uses`' expired entries, and `uses` itself once empty, so that principals gone cost nothing. */
  #forget(uses: Uses, principal: string | undefined, now: number, sweep: boolean): void {
    this.#size -= uses.drop(now, sweep);
    if (uses.expiries.size === 0) this.#byPrincipal.delete(principal);
  }
}
