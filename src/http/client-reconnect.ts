// Following an SSE stream on the client, resumed when it drops: when to reconnect and when to
// stop (the server's `retry`, which the client MUST wait, a floor under it, backoff for streams
// that end without bringing a message, and a bound on those for a response stream, whose caller
// is waiting). Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
// How the stream is opened again (a GET with the session's headers) is the transport's part.
// A 2026-07-28 stream has no resumption: it is read once, and a break fails its request.

import { setTimeout as sleep } from "node:timers/promises";
import { HttpProtocolError, MessageTooLargeError, ResponseStreamBrokenError } from "./client-fetch.js";
import { readEvents, SseLimitError, SseParser } from "./sse-parser.js";

export interface ReconnectOptions {
  /** The wait before reconnecting a dropped stream when the server sent no `retry` (default 1000 ms). */
  retryMs?: number;
  /** The least wait before reconnecting, whatever `retry` the server sent (default 250 ms). */
  minRetryMs?: number;
  /** The longest wait that backing off grows to, unless the server's `retry` or minRetryMs is longer (default 30 s). */
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
   * ends at once would spin), doubled for each quiet stream in a row up to maxRetryMs; the floor
   * and `retry` both outrank that cap.
   */
  ended(delivered: boolean, retry: number | undefined): number | undefined {
    this.#retryMs = retry ?? this.#retryMs;
    this.#quiet = delivered ? 0 : this.#quiet + 1;
    if (this.#bounded && this.#quiet > (this.#options.maxQuietReconnects ?? 5)) return undefined;
    const base = Math.max(this.#retryMs, this.#options.minRetryMs ?? 250);
    const backedOff = Math.min(base * 2 ** Math.max(0, this.#quiet - 1), this.#options.maxRetryMs ?? 30_000);
    return Math.max(backedOff, base);
  }
}

/** One stream to follow, and what its transport does for it. */
export interface FollowedStream {
  /** Names the stream in errors: the request it answers, or "GET stream". */
  step: string;
  /** For a response stream: whether every answer has come. The GET stream has none, and runs until stopped. */
  answered?: () => boolean;
  deliver(text: string): void;
  /** Opens the stream again where it broke off; absent for a 2026-07-28 response stream, which is never resumed. */
  resume?(lastEventId: string): Promise<Response>;
  isClosed(): boolean;
  signal: AbortSignal;
  maxEventBytes: number;
}

/**
 * Reads an event stream; when the connection drops before the answers came (or, for the GET
 * stream, at any time), waits the server's `retry` delay and resumes with Last-Event-ID.
 */
export async function followStream(response: Response, stream: FollowedStream, options: ReconnectOptions): Promise<void> {
  const { step, signal } = stream;
  const answered = () => stream.answered?.() ?? false;
  let lastEventId: string | undefined;
  const reconnects = new Reconnects(options, stream.answered !== undefined);
  for (;;) {
    const parser = new SseParser({ maxEventBytes: stream.maxEventBytes });
    let delivered = false;
    try {
      // Streamable HTTP sends unnamed events; a priming event (an id, empty data) carries no message.
      await readEvents(response.body!, parser, (event) => {
        if (event.event !== "message" || event.data === "") return;
        delivered = true;
        stream.deliver(event.data);
      }, answered);
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof SseLimitError) throw new MessageTooLargeError(step, error.what, error.limit);
      // A dropped connection is not the end of the stream (and never a cancellation): resume below.
    }
    lastEventId = parser.lastEventId ?? lastEventId;
    if (answered() || stream.isClosed()) return;
    // Spec (2026-07-28 streamable-http#receiving-messages, changelog 9): streams are not resumable; a broken one
    // loses its request, which the client MUST re-issue with a new id. Ids are the connection's (its correlator's), so the re-issue is the sender's.
    if (stream.resume === undefined) throw new ResponseStreamBrokenError(step);
    if (stream.answered !== undefined && lastEventId === undefined) {
      throw new HttpProtocolError(`${step}: the server ended the response stream before answering, with no event id to resume from`);
    }
    const delay = reconnects.ended(delivered, parser.retry);
    if (delay === undefined) {
      throw new HttpProtocolError(`${step}: the server ended the response stream ${reconnects.quiet} times in a row without a message; gave up`);
    }
    // Spec (transports#sending-messages-to-the-server, SEP-1699): the client MUST wait `retry` ms before reconnecting.
    await sleep(delay, undefined, { signal });
    response = await stream.resume(lastEventId!);
  }
}
