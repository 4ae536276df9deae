// The minimal transport interface a connection runs over, and an in-memory pair for tests.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
// A transport moves JSON texts; it never interprets them. The connection does the decoding, so
// parse errors are answered the same way whatever the transport.

import type { Incoming, RequestId } from "../jsonrpc/messages.js";
import { encodeMessage, type JSONRPCMessage } from "../jsonrpc/messages.js";

/** What a transport reports to its connection. */
export interface TransportHandlers {
  /**
   * One JSON text: a message, or a batch array. `value` is that text already parsed, where the
   * transport had to parse it for its own rules (an HTTP POST body): the connection then reads
   * it from there rather than parsing the same bytes twice; `classified` is that value classified,
   * where the transport had to classify it too (one HTTP POST message), so that is not done twice either.
   */
  message(text: string, value?: unknown, classified?: Incoming): void;
  /** Input that never became a JSON text: a line over the size limit, or invalid UTF-8. */
  unreadable(problem: UnreadableInput): void;
  /**
   * The peer will send nothing more, but may still read: finish the work in flight, then close.
   * (On stdio, the end of stdin. `cat requests | server` must still get every answer.)
   */
  inputEnded?(): void;
  /** The transport is gone (peer closed, process ended, or close() was called). */
  close(cause?: Error): void;
}

export type UnreadableInput =
  /** `id` and `looksLike` are what the message's first and last bytes show (see jsonrpc/sniff.ts). */
  | { kind: "too-large"; bytes: number; limit: number; id?: RequestId; looksLike?: "request" | "response" }
  | { kind: "invalid-utf8" };

/** What the connection knows about a message it sends, for transports that route messages. */
export interface SendOptions {
  /**
   * The peer's request this message belongs to (a progress or log notification sent while
   * handling it, or a request made on its behalf). Streamable HTTP sends such messages on that
   * request's own response stream; stdio has one stream and ignores it.
   */
  relatedRequestId?: RequestId | undefined;
  /**
   * For a request: aborted when the sender stops waiting for its answer (a timeout, the caller's
   * abort, a failed write, an unreadable answer, or the connection closing). For a notification: aborted when the sender gives up on a
   * write not yet taken. A transport that holds something open for the answer or the write (an
   * HTTP POST and its response stream) stops it locally; stdio has nothing to stop and ignores it.
   */
  signal?: AbortSignal;
  /**
   * Extra HTTP headers for this message: the `Mcp-Param-*` headers of a 2026-07-28 tools/call,
   * which mirror arguments its tool marked `x-mcp-header` (http/mcp-headers.ts). Only the HTTP
   * client transport reads them.
   */
  headers?: Record<string, string> | undefined;
}

/**
 * The SendOptions of one request, whose `signal` is made only when the transport reads it: stdio
 * never does, and an AbortController per call would cost more than the rest of a small call's
 * bookkeeping. `stop()` aborts it, whether the transport read it before or reads it after.
 */
export class RequestSendOptions implements SendOptions {
  readonly relatedRequestId: RequestId | undefined;
  readonly headers: Record<string, string> | undefined;
  #controller: AbortController | undefined;
  #stopped: { reason: unknown } | undefined;

  constructor(relatedRequestId: RequestId | undefined, headers?: Record<string, string>) {
    this.relatedRequestId = relatedRequestId;
    this.headers = headers;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#stopped) this.#controller.abort(this.#stopped.reason);
    }
    return this.#controller.signal;
  }

  stop(reason: unknown): void {
    if (this.#stopped) return;
    this.#stopped = { reason };
    this.#controller?.abort(reason);
  }
}

/**
 * What a transport's send returns for a message it took at once (stdio: the stream accepted it
 * without waiting to drain): already resolved, and one shared promise, so that a sender that
 * watches sends for failure (Connection.send) can tell by identity that there is nothing to watch.
 */
export const SENT_AT_ONCE: Promise<void> = Promise.resolve();

/**
 * What a transport's close returns when it stopped at once, its close handler run already (an
 * HTTP session's: a connection made per HTTP request closes once per request). Shared and settled,
 * like SENT_AT_ONCE, so that Connection.close can tell by identity that there is nothing to wait for.
 */
export const CLOSED_AT_ONCE: Promise<void> = Promise.resolve();

export interface Transport {
  /** Starts delivering input to the handlers. Called once, by the connection. */
  start(handlers: TransportHandlers): void;
  /**
   * Writes one message (or batch). Resolves once the transport has taken it; rejects (never
   * throws) when it cannot. SENT_AT_ONCE, when it took the message at once and nothing can fail later.
   */
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void>;
  /** Stops the transport; the close handler runs once. CLOSED_AT_ONCE when it has stopped, and run it, already. */
  close(): Promise<void>;
  /**
   * The peer's request `id` will get no response (the peer cancelled it). A transport that holds
   * something open for that answer (an HTTP POST's response stream) lets it go; others ignore it.
   */
  unanswered?(id: RequestId): void;
  /**
   * Ends the connection that carries the answer to the peer's request `id`, but not the answer's
   * stream: the peer reconnects (after `retryMs`, if given) and gets what was sent meanwhile.
   * Streamable HTTP's SSE polling (2025-11-25); false where a transport cannot (stdio has one
   * connection, a JSON answer or a 2026-07-28 stream cannot be resumed), and then nothing changes.
   */
  closeStream?(id: RequestId, retryMs?: number): boolean;
  /**
   * Stop delivering input until resumeInput: the connection has as much work in flight as it
   * may take. A transport whose input cannot wait (or is bounded by itself) ignores it.
   */
  pauseInput?(): void;
  resumeInput?(): void;
  /**
   * For transports that may open a new session on their own (Streamable HTTP, after the server
   * ended the old one with a 404): `listener` runs each time they do, since a new session starts
   * empty and whatever the application set up there must be set up again.
   */
  onNewSession?(listener: () => void): void;
  /**
   * For transports that may wait on a person in the middle of a request (HTTP with OAuth: the
   * authorization code grant waits for someone to approve in a browser): `listener(true)` when such
   * a wait starts, `listener(false)` when it ends, always. The connection holds its clocks meanwhile
   * (jsonrpc/request-clock.ts RequestClock), so that the person's time counts against no timeout;
   * the wait's own bound is the user agent's timeout (auth/user-agent.ts).
   */
  onHold?(listener: (held: boolean) => void): void;
}

/**
 * Two transports wired to each other, for tests and for running a client and a server in one
 * process. Messages cross as JSON text, asynchronously and in order, just as over a pipe.
 */
export function createMemoryPair(): [Transport, Transport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class MemoryTransport implements Transport {
  peer: MemoryTransport | undefined;
  #handlers: TransportHandlers | undefined;
  /** Texts that arrived before start(). */
  #early: string[] = [];
  #closed = false;

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    for (const text of this.#early.splice(0)) handlers.message(text);
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    if (this.#closed) throw new Error("memory transport: closed");
    const text = encodeMessage(message);
    const peer = this.peer;
    setImmediate(() => peer?.deliver(text));
  }

  /** Hands raw text to this end's connection, as if it arrived from the peer. */
  deliver(text: string): void {
    if (this.#closed) return;
    if (this.#handlers) this.#handlers.message(text);
    else this.#early.push(text);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#handlers?.close();
    const peer = this.peer;
    setImmediate(() => void peer?.close());
  }
}
