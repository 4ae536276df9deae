// --trace: a transport wrapper that writes each message as it crosses, with its direction and the
// milliseconds since the run started. → is ours, going to the server; ← is the server's.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
// It wraps any Transport, so tracing will work unchanged over Streamable HTTP.

import { encodeMessage, type JSONRPCMessage } from "../jsonrpc/messages.js";
import type { Transport, TransportHandlers } from "../protocol/transport.js";

export class TraceTransport implements Transport {
  readonly #inner: Transport;
  readonly #write: (line: string) => void;
  readonly #elapsedMs: () => number;

  /** `write` receives one line (no newline); `elapsedMs` says how long the run has lasted. */
  constructor(inner: Transport, write: (line: string) => void, elapsedMs: () => number) {
    this.#inner = inner;
    this.#write = write;
    this.#elapsedMs = elapsedMs;
  }

  start(handlers: TransportHandlers): void {
    const inputEnded = handlers.inputEnded;
    this.#inner.start({
      message: (text) => {
        this.#line("←", text);
        handlers.message(text);
      },
      unreadable: (problem) => {
        this.#line("←", `(unreadable input: ${JSON.stringify(problem)})`);
        handlers.unreadable(problem);
      },
      // Kept absent when the connection did not ask for it, so the inner transport behaves the same.
      ...(inputEnded && {
        inputEnded: () => {
          this.#line("←", "(end of input)");
          inputEnded.call(handlers);
        },
      }),
      close: (cause) => {
        this.#line("×", `closed${cause ? `: ${cause.message.split("\n")[0]}` : ""}`);
        handlers.close(cause);
      },
    });
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    // Written before sending, so a response can never be traced ahead of its request.
    this.#line("→", encodeMessage(message));
    await this.#inner.send(message);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #line(direction: string, text: string): void {
    this.#write(`[trace +${this.#elapsedMs().toFixed(1)}ms] ${direction} ${text}`);
  }
}
