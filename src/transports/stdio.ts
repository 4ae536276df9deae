// Textbook: Connection (its constructor and #send) in src/textbook/connection.ts; this adds
//  byte-exact framing with a line bound, backpressure, write batching at the end of a tick, and the
//  stdout guard.
// The stdio transport: newline-delimited JSON over a readable and a writable byte stream
// (our own stdin/stdout when serving; a child's stdout/stdin when a client spawns a server).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// Framing is LineDecoder's job; this file moves bytes and respects backpressure both ways: it
// stops reading while the connection has its fill of work in flight and, when serving, while
// the output is backed up.

import type { Readable, Writable } from "node:stream";
import { LINE_END, LineDecoder, type Frame } from "../jsonrpc/framing.js";
import { encodeMessage, type JSONRPCMessage } from "../jsonrpc/messages.js";
import { SENT_AT_ONCE, type Transport, type TransportHandlers } from "../protocol/transport.js";

export interface StreamTransportOptions {
  /** The largest incoming message, in bytes (default DEFAULT_MAX_MESSAGE_BYTES: 64 MiB of content + 1 MiB). */
  maxMessageBytes?: number;
  /**
   * Stop reading input while the output is backed up (default false). Right for a server, whose
   * input makes output (answers): a peer that sends requests but reads no answers stops being
   * read. Wrong for both ends of one pipe pair at once: if neither reads while its writes wait,
   * each waits for the other for ever. serveStdio turns it on; a client keeps reading.
   */
  pauseWhileOutputBlocked?: boolean;
}

/** A message text of up to this many UTF-16 units is joined to its line end and to the others of its tick. */
const JOINED_TEXT_LIMIT = 16 * 1024;

export class StreamTransport implements Transport {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #decoder: LineDecoder;
  #handlers: TransportHandlers | undefined;
  #closed = false;
  /** Short messages sent in this tick, each with its line end, written together when it ends (#flush). */
  #unwritten = "";
  /** Resolves when the output drains; shared by every send waiting for it. */
  #drained: Promise<void> | undefined;
  /** Why input is not being read now: the output is backed up, or the connection asked. */
  #holds = { output: false, connection: false };
  /** Frames of the last chunk read, not yet delivered because a hold began half-way through it. */
  #backlog: Frame[] = [];
  /** Set when the input ended while frames were still held back. */
  #endPending = false;
  readonly #pauseWhileOutputBlocked: boolean;

  constructor(input: Readable, output: Writable, options: StreamTransportOptions = {}) {
    this.#input = input;
    this.#output = output;
    this.#decoder = new LineDecoder({ maxMessageBytes: options.maxMessageBytes });
    this.#pauseWhileOutputBlocked = options.pauseWhileOutputBlocked ?? false;
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    this.#input.on("data", (chunk: Buffer | string) => this.#deliver(this.#decoder.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)));
    this.#input.on("end", () => {
      this.#deliver(this.#decoder.end());
      this.#endPending = true;
      this.#endIfDelivered();
    });
    this.#input.on("error", (error) => this.#fail(error));
    // A peer that stops reading (EPIPE) has gone away: that is a shutdown, not a crash.
    this.#output.on("error", (error) => this.#fail(error));
  }

  /**
   * Not an async function: every answer passes here, and a message the stream took at once is
   * answered with the shared SENT_AT_ONCE, which the connection need not watch (see Transport.send).
   * Failures are still rejections, never throws.
   */
  send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("stdio: transport is closed"));
    let text: string;
    try {
      text = encodeMessage(message);
    } catch (error) {
      return Promise.reject(error);
    }
    const output = this.#output;
    let accepted: boolean;
    if (text.length > JOINED_TEXT_LIMIT) {
      // A long text is never copied: what is held goes first, then the text, then its line end.
      this.#flush();
      output.write(text);
      accepted = output.write(LINE_END);
    } else {
      if (this.#unwritten.length === 0) process.nextTick(() => this.#flush());
      this.#unwritten += text + LINE_END;
      // The stream's own mark, counting what is held: past it, write now and wait as it says.
      accepted = this.#unwritten.length + output.writableLength < output.writableHighWaterMark || this.#flush();
    }
    // Waiting for "drain" keeps memory bounded when the peer reads slower than we write. Every
    // send waiting at once shares one wait.
    return accepted ? SENT_AT_ONCE : (this.#drained ??= this.#waitForDrain());
  }

  /**
   * Writes the short messages held since the tick began, in one write: the answers a chunk of
   * input produced leave together, as one system call, not one each. Returns write()'s verdict.
   */
  #flush(): boolean {
    const unwritten = this.#unwritten;
    if (unwritten.length === 0) return true;
    this.#unwritten = "";
    return this.#output.write(unwritten);
  }

  /** Ends the output once what is held is written: the peer reads everything sent before it. */
  endOutput(): void {
    this.#flush();
    this.#output.end();
  }

  pauseInput(): void {
    this.#hold("connection", true);
  }

  resumeInput(): void {
    this.#hold("connection", false);
  }

  #waitForDrain(): Promise<void> {
    if (this.#pauseWhileOutputBlocked) this.#hold("output", true);
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#output.off("drain", done);
        this.#output.off("close", done);
        this.#drained = undefined;
        if (this.#pauseWhileOutputBlocked) this.#hold("output", false);
        resolve();
      };
      this.#output.on("drain", done);
      this.#output.on("close", done);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // What was sent before the close goes out before whoever closes the stream next (serveStdio's end()).
    this.#flush();
    this.#input.pause();
    this.#input.removeAllListeners("data");
    this.#handlers?.close();
  }

  #hold(reason: "output" | "connection", on: boolean): void {
    this.#holds[reason] = on;
    if (this.#closed) return;
    if (this.#held()) {
      this.#input.pause();
      return;
    }
    // Frames held back go first; reading resumes only if none of them started a new hold.
    this.#deliver(this.#backlog.splice(0));
    if (!this.#held()) {
      this.#input.resume();
      this.#endIfDelivered();
    }
  }

  #held(): boolean {
    return this.#holds.output || this.#holds.connection;
  }

  /** Hands frames to the connection in order, keeping back the rest once a hold begins. */
  #deliver(frames: Frame[]): void {
    const handlers = this.#handlers;
    if (!handlers || this.#closed) return;
    for (let i = 0; i < frames.length; i++) {
      if (this.#held()) {
        this.#backlog.push(...frames.slice(i));
        this.#input.pause();
        return;
      }
      const frame = frames[i]!;
      if (frame.kind === "line") handlers.message(frame.text);
      else if (frame.kind === "invalid-utf8") handlers.unreadable({ kind: "invalid-utf8" });
      else handlers.unreadable({ kind: "too-large", bytes: frame.bytes, limit: this.#decoder.maxMessageBytes, id: frame.id, looksLike: frame.looksLike });
    }
  }

  /** No more input: once every frame is delivered, the connection finishes its work, then closes. */
  #endIfDelivered(): void {
    const handlers = this.#handlers;
    if (!this.#endPending || this.#backlog.length > 0 || !handlers || this.#closed) return;
    this.#endPending = false;
    if (handlers.inputEnded) handlers.inputEnded();
    else void this.close();
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#handlers?.close(error);
  }
}
