// The correlator: requests we sent and are waiting on, keyed by their exact id.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#timeouts
// It only keeps time and settles promises; sending the cancel notification is the caller's job
// (the `giveUp` callback), so this file knows nothing of MCP methods.

import { idKey, RpcError, type JSONRPCResponse, type RequestId } from "./messages.js";

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

export interface TrackOptions {
  timeouts?: Partial<TimeoutPolicy>;
  signal?: AbortSignal;
  /** Called when we stop waiting (timeout or abort), so the peer can be told to stop too. */
  giveUp?: (reason: Error) => void;
}

interface Entry {
  method: string;
  id: RequestId;
  resolve(result: { [key: string]: unknown }): void;
  reject(error: Error): void;
  idleTimer: ReturnType<typeof setTimeout>;
  totalTimer: ReturnType<typeof setTimeout>;
  idleMs: number;
  onAbort?: () => void;
  signal?: AbortSignal;
  giveUp?: (reason: Error) => void;
}

export class PendingRequests {
  #entries = new Map<string, Entry>();

  get size(): number {
    return this.#entries.size;
  }

  has(id: RequestId): boolean {
    return this.#entries.has(idKey(id));
  }

  /**
   * Registers a request before its bytes are written, so that even an instant response finds it.
   * The promise settles with the result, the peer's error (as RpcError), or a local error.
   */
  track(id: RequestId, method: string, options: TrackOptions = {}): Promise<{ [key: string]: unknown }> {
    const key = idKey(id);
    if (this.#entries.has(key)) throw new Error(`${method}: request id ${JSON.stringify(id)} is already in flight`);
    const idleMs = options.timeouts?.idleMs ?? DEFAULT_TIMEOUTS.idleMs;
    const maxTotalMs = options.timeouts?.maxTotalMs ?? DEFAULT_TIMEOUTS.maxTotalMs;
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new RequestAbortedError(method, id, signal.reason));

    return new Promise((resolve, reject) => {
      const entry: Entry = {
        method,
        id,
        resolve,
        reject,
        idleMs,
        signal,
        giveUp: options.giveUp,
        idleTimer: setTimeout(() => this.#abandon(key, new RequestTimeoutError(method, id, idleMs, "idle")), idleMs),
        totalTimer: setTimeout(
          () => this.#abandon(key, new RequestTimeoutError(method, id, maxTotalMs, "total")),
          maxTotalMs,
        ),
      };
      if (signal) {
        entry.onAbort = () => this.#abandon(key, new RequestAbortedError(method, id, signal.reason));
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      this.#entries.set(key, entry);
    });
  }

  /** Progress arrived for this request: it is alive, so the idle clock starts again. */
  touch(id: RequestId): boolean {
    const entry = this.#entries.get(idKey(id));
    if (!entry) return false;
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(
      () => this.#abandon(idKey(id), new RequestTimeoutError(entry.method, id, entry.idleMs, "idle")),
      entry.idleMs,
    );
    return true;
  }

  /**
   * Delivers a response. Returns false when nobody waits for that id, which is the case for a late
   * response to a request we already gave up on: the caller drops it.
   */
  settle(response: JSONRPCResponse): boolean {
    if (response.id === undefined || response.id === null) return false;
    const key = idKey(response.id);
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#remove(key, entry);
    if ("result" in response) entry.resolve(response.result);
    else entry.reject(RpcError.fromErrorObject(response.error));
    return true;
  }

  /** The request never reached the peer (its write failed): the caller hears why, and no one is told to stop. */
  fail(id: RequestId, reason: Error): void {
    const key = idKey(id);
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#remove(key, entry);
    entry.reject(reason);
  }

  /** The connection is gone: every waiting caller hears so at once. */
  rejectAll(error: (method: string) => Error): void {
    for (const [key, entry] of this.#entries) {
      this.#remove(key, entry);
      entry.reject(error(entry.method));
    }
  }

  /** Stops waiting (timeout or abort), tells the caller, and lets the peer know through giveUp. */
  #abandon(key: string, reason: Error): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#remove(key, entry);
    entry.reject(reason);
    entry.giveUp?.(reason);
  }

  #remove(key: string, entry: Entry): void {
    this.#entries.delete(key);
    clearTimeout(entry.idleTimer);
    clearTimeout(entry.totalTimer);
    if (entry.onAbort) entry.signal?.removeEventListener("abort", entry.onAbort);
  }
}
