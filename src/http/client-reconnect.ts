// When to reconnect a dropped SSE stream on the client, and when to stop: the server's `retry`
// (which the client MUST wait), a floor under it, backoff for streams that end without bringing
// a message, and a bound on those for a response stream, whose caller is waiting.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery

export interface ReconnectOptions {
  /** The wait before reconnecting a dropped stream when the server sent no `retry` (default 1000 ms). */
  retryMs?: number;
  /** The least wait before reconnecting, whatever `retry` the server sent (default 250 ms). */
  minRetryMs?: number;
  /** The longest wait that backing off grows to, unless the server's `retry` is longer (default 30 s). */
  maxRetryMs?: number;
  /**
   * How many reconnects in a row may end without bringing a message before a response stream
   * is given up and its call fails (default 5). The GET stream only backs off.
   */
  maxQuietReconnects?: number;
}

/** The reconnects of one stream. */
export class Reconnects {
  readonly #options: ReconnectOptions;
  /** Whether quiet streams in a row are bounded (a response stream) or only slowed (the GET stream). */
  readonly #bounded: boolean;
  #retryMs: number;
  /** Streams in a row that ended without a message: each doubles the wait before the next. */
  #quiet = 0;

  constructor(options: ReconnectOptions, bounded: boolean) {
    this.#options = options;
    this.#bounded = bounded;
    this.#retryMs = options.retryMs ?? 1000;
  }

  get quiet(): number {
    return this.#quiet;
  }

  /**
   * A stream ended, having brought a message or not, with the `retry` it set (if any). Returns
   * the wait before reconnecting, or undefined when a bounded stream has been quiet too often.
   * The wait is the server's `retry`, but never under minRetryMs (`retry: 0` and a stream that
   * ends at once would spin), doubled for each quiet stream in a row up to maxRetryMs, and never
   * under `retry`.
   */
  ended(delivered: boolean, retry: number | undefined): number | undefined {
    this.#retryMs = retry ?? this.#retryMs;
    this.#quiet = delivered ? 0 : this.#quiet + 1;
    if (this.#bounded && this.#quiet > (this.#options.maxQuietReconnects ?? 5)) return undefined;
    const base = Math.max(this.#retryMs, this.#options.minRetryMs ?? 250);
    const backedOff = Math.min(base * 2 ** Math.max(0, this.#quiet - 1), this.#options.maxRetryMs ?? 30_000);
    return Math.max(backedOff, this.#retryMs);
  }
}
