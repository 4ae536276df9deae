// The correlator's clock (RequestClock, used by pending.ts): Date.now() that stands still while it is held, and timers
// kept in its time. Nothing of JSON-RPC or MCP in it; it is here because the correlator's
// deadlines are kept in it, and a role's own deadlines that measure the peer too (the
// handshake's, through Connection.clock).

/** A timer of a RequestClock: when it is due, in the clock's time, and what it does then. */
export interface ClockTimer {
  readonly at: number;
  readonly fire: () => void;
  handle: ReturnType<typeof setTimeout> | undefined;
  cancelled: boolean;
}

/**
 * The time our deadlines are kept in: Date.now(), less every moment spent held. Whoever makes a
 * request wait on something other than the peer holds it meanwhile (a transport waiting on a
 * person, see Transport.onHold in protocol/transport.ts): the deadlines measure the peer, and
 * nobody is waiting on the peer then. A timer that comes due while held does nothing but wait for
 * the release, then is set again for what it had left. Every hold must be released, also when the
 * wait fails. (No registry of timers: a request costs one object more than a bare setTimeout, and
 * holds are rare.)
 */
export class RequestClock {
  #holds = 0;
  #heldSince = 0;
  /** Milliseconds spent held, before the current hold. */
  #heldFor = 0;
  /** Timers that came due while held. */
  #deferred: ClockTimer[] = [];

  /** Like Date.now(), but standing still while held. */
  now(): number {
    return (this.#holds > 0 ? this.#heldSince : Date.now()) - this.#heldFor;
  }

  get held(): boolean {
    return this.#holds > 0;
  }

  /**
   * Calls `fire` once `ms` of this clock's time have passed. Infinity sets no timer (a request with
   * no deadline may wait forever; setTimeout would clamp Infinity to 1 ms and fire at once).
   */
  after(ms: number, fire: () => void): ClockTimer | undefined {
    if (!Number.isFinite(ms)) return undefined;
    const timer: ClockTimer = { at: this.now() + ms, fire, handle: undefined, cancelled: false };
    this.#arm(timer);
    return timer;
  }

  cancel(timer: ClockTimer | undefined): void {
    if (timer === undefined) return;
    timer.cancelled = true;
    clearTimeout(timer.handle);
  }

  /** Stops the clock until as many release() calls as hold() calls have come (holds nest). */
  hold(): void {
    if (this.#holds++ === 0) this.#heldSince = Date.now();
  }

  release(): void {
    if (this.#holds === 0 || --this.#holds > 0) return;
    this.#heldFor += Date.now() - this.#heldSince;
    for (const timer of this.#deferred.splice(0)) if (!timer.cancelled) this.#arm(timer);
  }

  #arm(timer: ClockTimer): void {
    timer.handle = setTimeout(() => {
      if (this.#holds > 0) this.#deferred.push(timer);
      else timer.fire();
    }, Math.max(0, timer.at - this.now()));
  }
}
