// The correlator: requests we sent and are waiting on, keyed by their exact id.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#timeouts
// It only keeps time and settles promises; sending the cancel notification is the caller's job
// (the `giveUp` callback), so this file knows nothing of MCP methods. Its time is a RequestClock
// (request-clock.ts), which stands still while the transport waits on a person.

import { RequestClock, type ClockTimer } from "./request-clock.js";
import { RpcError, type JSONRPCResponse, type RequestId } from "./messages.js";

/** How long to wait for a response. */
export interface TimeoutPolicy {
  /** Give up after this long without a sign of life; progress from the peer restarts the clock. */
  idleMs: number;
  /** Give up after this long in any case, however much progress arrives. */
  maxTotalMs: number;
}

export const DEFAULT_TIMEOUTS: TimeoutPolicy = { idleMs: 60_000, maxTotalMs: 10 * 60_000 };

/** The request outlived its timeout policy. Local: never sent on the wire. */
export class RequestTimeoutError extends Error {
  constructor(readonly method: string, readonly id: RequestId, readonly afterMs: number, which: "idle" | "total") {
    super(`${method}: no response after ${afterMs} ms (${which === "idle" ? "idle timeout" : "maximum total time"})`);
    this.name = "RequestTimeoutError";
  }
}

/** The caller aborted the request through its AbortSignal. Local: never sent on the wire. */
export class RequestAbortedError extends Error {
  constructor(readonly method: string, readonly id: RequestId, readonly reason: unknown) {
    super(`${method}: aborted by the caller${reason instanceof Error ? `: ${reason.message}` : ""}`);
    this.name = "RequestAbortedError";
  }
}

/** The connection closed before the response came. Local: never sent on the wire. */
export class ConnectionClosedError extends Error {
  constructor(readonly method: string, cause?: unknown) {
    const why = cause instanceof Error ? `: ${cause.message}` : "";
    super(`${method}: connection closed before the response arrived${why}`, { cause });
    this.name = "ConnectionClosedError";
  }
}

/**
 * The peer's response to this request could not be read (malformed, or over the size limit).
 * Local: a response is never answered, so the caller hears at once instead of at its timeout.
 */
export class MalformedResponseError extends Error {
  constructor(readonly method: string, readonly id: RequestId, readonly detail: string) {
    super(`${method}: the peer's response was malformed: ${detail}`);
    this.name = "MalformedResponseError";
  }
}

export interface TrackOptions {
  timeouts?: Partial<TimeoutPolicy>;
  signal?: AbortSignal;
  /** Called when we stop waiting (timeout or abort), so the peer can be told to stop too. */
  giveUp?: (reason: Error) => void;
  /**
   * Called whenever the wait ends without a readable response (a timeout, an abort, a failed or
   * malformed answer, the close), so that whatever the transport holds open for it is let go.
   */
  release?: (reason: Error) => void;
}

interface Entry {
  method: string;
  id: RequestId;
  resolve(result: { [key: string]: unknown }): void;
  reject(error: Error): void;
  /** One timer per request, set for whichever deadline comes first; none when both are Infinity. */
  timer: ClockTimer | undefined;
  idleMs: number;
  maxTotalMs: number;
  startedAt: number;
  /** When the peer last showed it is working on this request (sent it, or reported progress). */
  lastSignOfLife: number;
  onAbort?: () => void;
  signal?: AbortSignal;
  giveUp?: (reason: Error) => void;
  release?: (reason: Error) => void;
}

/**
 * Pending requests by id. A Map keeps 1 and "1" apart by itself (SameValueZero), which is exactly
 * the rule for JSON-RPC ids.
 */
export class PendingRequests {
  readonly #entries = new Map<RequestId, Entry>();
  /** Every deadline is kept in this clock's time (see RequestClock). */
  readonly clock: RequestClock;
  /** Set once no response can arrive any more: every later request fails with it at once. */
  #noMoreResponses: ((method: string) => Error) | undefined;

  constructor(clock = new RequestClock()) {
    this.clock = clock;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(id: RequestId): boolean {
    return this.#entries.has(id);
  }

  /** The method of the request waiting on `id`, if one is. */
  methodOf(id: RequestId): string | undefined {
    return this.#entries.get(id)?.method;
  }

  /**
   * Registers a request before its bytes are written, so that even an instant response finds it.
   * The promise settles with the result, the peer's error (as RpcError), or a local error.
   */
  track(id: RequestId, method: string, options: TrackOptions = {}): Promise<{ [key: string]: unknown }> {
    if (this.#entries.has(id)) throw new Error(`${method}: request id ${JSON.stringify(id)} is already in flight`);
    const idleMs = options.timeouts?.idleMs ?? DEFAULT_TIMEOUTS.idleMs;
    const maxTotalMs = options.timeouts?.maxTotalMs ?? DEFAULT_TIMEOUTS.maxTotalMs;
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new RequestAbortedError(method, id, signal.reason));
    if (this.#noMoreResponses) return Promise.reject(this.#noMoreResponses(method));

    return new Promise((resolve, reject) => {
      const now = this.clock.now();
      const entry: Entry = {
        method, id, resolve, reject, idleMs, maxTotalMs, signal,
        startedAt: now,
        lastSignOfLife: now,
        giveUp: options.giveUp,
        release: options.release,
        timer: this.clock.after(Math.min(idleMs, maxTotalMs), () => this.#check(entry)),
      };
      if (signal) {
        entry.onAbort = () => this.#abandon(entry, new RequestAbortedError(method, id, signal.reason));
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      this.#entries.set(id, entry);
    });
  }

  /**
   * Progress arrived for this request: it is alive, so the idle clock starts again. (Only the
   * time is noted; the timer, when it fires, sees it and waits for the rest.)
   */
  touch(id: RequestId): boolean {
    const entry = this.#entries.get(id);
    if (!entry) return false;
    entry.lastSignOfLife = this.clock.now();
    return true;
  }

  /**
   * Delivers a response. Returns false when nobody waits for that id, which is the case for a late
   * response to a request we already gave up on: the caller drops it.
   */
  settle(response: JSONRPCResponse): boolean {
    if (response.id === undefined || response.id === null) return false;
    const entry = this.#entries.get(response.id);
    if (!entry) return false;
    this.#remove(entry);
    if ("result" in response) entry.resolve(response.result);
    else entry.reject(RpcError.fromErrorObject(response.error));
    return true;
  }

  /**
   * The wait ends with a local error (the write failed, or the answer was unreadable): the caller
   * hears why, and the peer is not told to stop (it never got the request, or it has answered).
   */
  fail(id: RequestId, reason: Error): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#reject(entry, reason);
  }

  /** The response to `id` arrived but could not be read: its caller hears so at once. */
  malformed(id: RequestId, detail: string): boolean {
    const entry = this.#entries.get(id);
    if (!entry) return false;
    this.fail(id, new MalformedResponseError(entry.method, id, detail));
    return true;
  }

  /** The connection is gone: every waiting caller hears so at once. */
  rejectAll(error: (method: string) => Error): void {
    for (const entry of this.#entries.values()) {
      this.#reject(entry, error(entry.method));
    }
  }

  /**
   * No response can arrive any more (the peer's output ended), though we may still write: every
   * waiting caller, and every later one, hears `error` at once instead of at its timeout.
   */
  stopWaiting(error: (method: string) => Error): void {
    this.#noMoreResponses = error;
    this.rejectAll(error);
  }

  /** The timer fired: give up if a deadline has passed, or wait for the nearer one left. */
  #check(entry: Entry): void {
    const now = this.clock.now();
    const idleLeft = entry.lastSignOfLife + entry.idleMs - now;
    const totalLeft = entry.startedAt + entry.maxTotalMs - now;
    if (totalLeft <= 0) return this.#abandon(entry, new RequestTimeoutError(entry.method, entry.id, entry.maxTotalMs, "total"));
    if (idleLeft <= 0) return this.#abandon(entry, new RequestTimeoutError(entry.method, entry.id, entry.idleMs, "idle"));
    entry.timer = this.clock.after(Math.min(idleLeft, totalLeft), () => this.#check(entry));
  }

  /** Stops waiting (timeout or abort), tells the caller, and lets the peer know through giveUp. */
  #abandon(entry: Entry, reason: Error): void {
    if (this.#entries.get(entry.id) !== entry) return;
    this.#reject(entry, reason);
    entry.giveUp?.(reason);
  }

  #reject(entry: Entry, reason: Error): void {
    this.#remove(entry);
    entry.reject(reason);
    entry.release?.(reason);
  }

  #remove(entry: Entry): void {
    this.#entries.delete(entry.id);
    this.clock.cancel(entry.timer);
    if (entry.onAbort) entry.signal?.removeEventListener("abort", entry.onAbort);
  }
}
