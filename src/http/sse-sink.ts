// Where one SSE stream's events are written, whichever HTTP adapter carries them: the sink keeps
// the stream's rules (a bound on what the client has not taken, the end once everything is
// delivered, the client's leaving) and an SseOutput does the writing: a web ReadableStream here
// (`body`, for a Response), or node:http's ServerResponse itself (node-exchange.ts). Events
// written before an adapter takes the stream wait in the sink, under the same bound (a resume's
// replay excepted: the store bounds it already).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http

import { KEEP_ALIVE } from "./sse.js";

/**
 * The most bytes an SSE response may take while the client is not taking any: written after the
 * response's own buffer (and the socket's) filled, and before it had room again. Past it the
 * client is not reading: the stream ends (its events stay in the store, to resume from), rather
 * than growing without bound. An event larger than this, sent to a client that reads, goes out
 * whole and does not count against what follows it.
 */
export const DEFAULT_MAX_BACKLOG_BYTES = 1024 * 1024;

/**
 * The most unread bytes all the SSE streams of one handler may hold together (its BacklogBudget):
 * each stream's own bound times the thousand sessions a handler allows would be a GiB.
 */
export const DEFAULT_MAX_BACKLOG_BYTES_TOTAL = 64 * 1024 * 1024;

/**
 * What every stream of a handler holds unread, together, against one bound. A stream that writes
 * while its client is not reading and finds the total past the bound ends, as at its own bound; a
 * stream that ends, or whose client takes what it held, gives its share back at once.
 */
export class BacklogBudget {
  /** Unread bytes held by all the streams sharing the budget. */
  bytes = 0;

  constructor(readonly maxBytes: number = DEFAULT_MAX_BACKLOG_BYTES_TOTAL) {}
}

export interface SseSinkOptions {
  /** See DEFAULT_MAX_BACKLOG_BYTES. */
  maxBacklogBytes?: number;
  /** Shared with the handler's other streams (see DEFAULT_MAX_BACKLOG_BYTES_TOTAL); none: only the stream's own bound. */
  budget?: BacklogBudget;
}

/** What carries a sink's events to the client: an adapter's response. */
export interface SseOutput {
  /** Bytes written since the response last had room for more (see DEFAULT_MAX_BACKLOG_BYTES). */
  readonly backlog: number;
  write(text: string): void;
  /** No more writes: `onDelivered` runs once the client has taken every byte (never if it left first). */
  end(onDelivered: () => void): void;
  /** Ends the response at once, dropping what it holds. */
  abort(reason: Error): void;
  /** Set by the sink: called when the response has room again (its backlog is back to 0). */
  onRoom?: () => void;
}

/** Where one stream's events are written: the current HTTP response, which a resuming GET may replace. */
export class SseSink {
  #output: SseOutput | undefined;
  /** Events written before an adapter took the stream, and their UTF-8 size. */
  #waiting: string[] = [];
  #waitingBytes = 0;
  #open = true;
  /** Set by end() before an adapter took the stream: what it runs once everything is delivered. */
  #ended: (() => void) | undefined;
  /** Set when the backlog bound ended the stream before an adapter took it. */
  #aborted: Error | undefined;
  readonly #maxBacklog: number;
  readonly #budget: BacklogBudget | undefined;
  /** This stream's share of the budget: its backlog when last counted. */
  #counted = 0;
  readonly #onGone: () => void;
  #web: WebOutput | undefined;

  constructor(onGone: () => void = () => {}, options: SseSinkOptions = {}) {
    this.#onGone = onGone;
    this.#maxBacklog = options.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES;
    this.#budget = options.budget;
  }

  /** Whether events can still be written (not ended, the client not gone). */
  get open(): boolean {
    return this.#open;
  }

  write(text: string): void {
    if (!this.#open) return;
    const output = this.#output;
    const backlog = this.#count();
    const budget = this.#budget;
    const overBudget = budget !== undefined && backlog > 0 && budget.bytes > budget.maxBytes;
    if (backlog > this.#maxBacklog || overBudget) {
      // A backlog bound is passed: the client is not reading. Ending the response frees what it
      // holds at once; the client resumes with Last-Event-ID.
      const reason = new Error(overBudget
        ? `http: this stream's client is not reading, and the streams of this server hold more than ${budget.maxBytes} bytes unread together`
        : `http: the client left more than ${this.#maxBacklog} bytes unread`);
      if (output) output.abort(reason);
      else this.#abortWaiting(reason);
      this.#gone();
      return;
    }
    if (output) output.write(text);
    else {
      this.#waiting.push(text);
      this.#waitingBytes += Buffer.byteLength(text);
    }
    this.#count();
  }

  /** This stream's backlog now, brought up to date in the budget. */
  #count(): number {
    const backlog = !this.#open ? 0 : this.#output ? this.#output.backlog : this.#waitingBytes;
    if (this.#budget) {
      this.#budget.bytes += backlog - this.#counted;
      this.#counted = backlog;
    }
    return backlog;
  }

  /**
   * An event the client missed, written to a resuming stream before anything new. The store holds
   * it already, so it is not held against the backlog bound: a replay larger than the bound would
   * otherwise be cut at every resume and never delivered. Later writes are bounded as usual.
   */
  replay(text: string): void {
    if (!this.#open) return;
    if (this.#output) return this.#output.write(text);
    this.#waiting.push(text);
  }

  keepAlive(): void {
    this.write(KEEP_ALIVE);
  }

  /**
   * Ends the stream once the client has taken what is written; no more writes. `onDelivered`
   * runs when it has (never if the client went away first).
   */
  end(onDelivered: () => void = () => {}): void {
    if (!this.#open) return;
    this.#gone();
    if (this.#output) this.#output.end(onDelivered);
    else this.#ended = onDelivered;
  }

  /** An adapter takes the stream: what waited goes out first, then every later event. */
  connect(output: SseOutput): void {
    this.#output = output;
    output.onRoom = () => void this.#count();
    if (this.#aborted) return output.abort(this.#aborted);
    if (this.#waiting.length > 0) output.write(this.#waiting.length === 1 ? this.#waiting[0]! : this.#waiting.join(""));
    this.#waiting = [];
    this.#waitingBytes = 0;
    if (this.#ended) output.end(this.#ended);
  }

  /**
   * The adapter's word that the client went away. Spec (transports#sending-messages-to-the-server,
   * 2025-11-25): a disconnect is not a cancellation; the work goes on and its events stay in the
   * store for resumption. (In 2026-07-28 it is one: that stream's onGone ends the request, modern-post.ts.)
   */
  clientGone(): void {
    this.#gone();
  }

  /** The stream as a web ReadableStream of UTF-8 bytes, for a Response (made on first use). */
  get body(): ReadableStream<Uint8Array> {
    if (!this.#web) {
      this.#web = new WebOutput(this.#maxBacklog, () => this.clientGone());
      this.connect(this.#web);
    }
    return this.#web.stream;
  }

  #abortWaiting(reason: Error): void {
    this.#aborted = reason;
    this.#waiting = [];
    this.#waitingBytes = 0;
  }

  #gone(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#count();
    this.#onGone();
  }
}

const encoder = new TextEncoder();

/**
 * An SseOutput on a web ReadableStream whose queue counts bytes up to the bound: the backlog is
 * what was written while the queue was full, until the response took enough for it to have room.
 */
class WebOutput implements SseOutput {
  readonly stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly #maxBacklog: number;
  /** After end(): what to run once the response has taken what is still queued. */
  #onDelivered: (() => void) | undefined;
  /** Bytes written while the queue was full. */
  #queued = 0;
  onRoom: (() => void) | undefined;

  readonly #onCancel: () => void;

  constructor(maxBacklog: number, onCancel: () => void) {
    this.#maxBacklog = maxBacklog;
    this.#onCancel = onCancel;
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => void (this.#controller = controller),
      // The response took enough for the queue to have room (the stream calls pull only then); if
      // the sink has ended, this may have been the last of it.
      pull: () => {
        this.#queued = 0;
        this.onRoom?.();
        this.#closeIfDrained();
      },
      // The client went away.
      cancel: () => {
        this.#onDelivered = undefined;
        this.#onCancel();
      },
    }, new ByteLengthQueuingStrategy({ highWaterMark: maxBacklog }));
  }

  get backlog(): number {
    return this.#queued;
  }

  write(text: string): void {
    const bytes = encoder.encode(text);
    if ((this.#controller.desiredSize ?? 0) <= 0) this.#queued += bytes.byteLength;
    try {
      this.#controller.enqueue(bytes);
    } catch {
      // Only a stream already cancelled refuses a chunk: the client is gone.
      this.#onCancel();
    }
  }

  end(onDelivered: () => void): void {
    this.#onDelivered = onDelivered;
    this.#closeIfDrained();
  }

  abort(reason: Error): void {
    this.#controller.error(reason);
  }

  #closeIfDrained(): void {
    const onDelivered = this.#onDelivered;
    if (!onDelivered || this.#controller.desiredSize !== this.#maxBacklog) return;
    this.#onDelivered = undefined;
    this.#controller.close();
    onDelivered();
  }
}
