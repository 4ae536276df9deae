// The stdio transport: newline-delimited JSON over a readable and a writable byte stream
// (our own stdin/stdout when serving; a child's stdout/stdin when a client spawns a server).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// Framing is LineDecoder's job; this file moves bytes and respects backpressure.

import type { Readable, Writable } from "node:stream";
import { LINE_END, LineDecoder } from "../jsonrpc/framing.js";
import { encodeMessage, type JSONRPCMessage } from "../jsonrpc/messages.js";
import type { Transport, TransportHandlers } from "../protocol/transport.js";

export interface StreamTransportOptions {
  /** The largest incoming message, in bytes (default 64 MiB). */
  maxMessageBytes?: number;
}

export class StreamTransport implements Transport {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #decoder: LineDecoder;
  #handlers: TransportHandlers | undefined;
  #closed = false;
  /** Whether writes are being held until the end of this tick. */
  #corked = false;
  /** Resolves when the output drains; shared by every send waiting for it. */
  #drained: Promise<void> | undefined;

  constructor(input: Readable, output: Writable, options: StreamTransportOptions = {}) {
    this.#input = input;
    this.#output = output;
    this.#decoder = new LineDecoder({ maxMessageBytes: options.maxMessageBytes });
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    this.#input.on("data", (chunk: Buffer | string) => this.#receive(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
    this.#input.on("end", () => {
      this.#deliver(this.#decoder.end());
      // No more input: the connection finishes what is in flight, then closes.
      if (handlers.inputEnded) handlers.inputEnded();
      else void this.close();
    });
    this.#input.on("error", (error) => this.#fail(error));
    // A peer that stops reading (EPIPE) has gone away: that is a shutdown, not a crash.
    this.#output.on("error", (error) => this.#fail(error));
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    if (this.#closed) throw new Error("stdio: transport is closed");
    const output = this.#output;
    // Corked until the end of this tick, answers produced together leave in one write (writev)
    // instead of one system call each; the text and its line end are never copied into one string.
    if (!this.#corked) {
      this.#corked = true;
      output.cork();
      process.nextTick(() => {
        this.#corked = false;
        output.uncork();
      });
    }
    output.write(encodeMessage(message));
    const accepted = output.write(LINE_END);
    // Writes are queued in order by the stream; waiting for "drain" keeps memory bounded when the
    // peer reads slower than we write. Every send waiting at once shares one wait.
    if (!accepted) await (this.#drained ??= this.#waitForDrain());
  }

  #waitForDrain(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#output.off("drain", done);
        this.#output.off("close", done);
        this.#drained = undefined;
        resolve();
      };
      this.#output.on("drain", done);
      this.#output.on("close", done);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.pause();
    this.#input.removeAllListeners("data");
    this.#handlers?.close();
  }

  #receive(chunk: Buffer): void {
    this.#deliver(this.#decoder.push(chunk));
  }

  #deliver(frames: ReturnType<LineDecoder["push"]>): void {
    const handlers = this.#handlers;
    if (!handlers || this.#closed) return;
    for (const frame of frames) {
      if (frame.kind === "line") handlers.message(frame.text);
      else if (frame.kind === "invalid-utf8") handlers.unreadable({ kind: "invalid-utf8" });
      else handlers.unreadable({ kind: "too-large", bytes: frame.bytes, limit: this.#decoder.maxMessageBytes, id: frame.id });
    }
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#handlers?.close(error);
  }
}
