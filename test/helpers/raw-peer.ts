// A test peer that speaks raw text: it hands lines to the side under test through a real
// transport interface and records every message that side sends back.
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import type { Transport, TransportHandlers, UnreadableInput } from "../../src/protocol/transport.js";

export class RawPeer implements Transport {
  readonly sent: (JSONRPCMessage | JSONRPCMessage[])[] = [];
  /** Ids the connection said it will never answer (cancelled requests). */
  readonly unansweredIds: unknown[] = [];
  handlers: TransportHandlers | undefined;
  closed = false;
  /** Whether the connection asked to stop reading (pauseInput) and has not resumed. */
  paused = false;
  #waiters: { count: number; resolve: () => void }[] = [];

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    // Round-trip through JSON, as a wire would, so tests see exactly what would be written.
    this.sent.push(JSON.parse(JSON.stringify(message)));
    for (const waiter of [...this.#waiters]) {
      if (this.sent.length >= waiter.count) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  unanswered(id: unknown): void {
    this.unansweredIds.push(id);
  }

  pauseInput(): void {
    this.paused = true;
  }

  resumeInput(): void {
    this.paused = false;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers?.close();
  }

  /** Delivers raw text from "the peer". */
  write(text: string | object): void {
    this.handlers!.message(typeof text === "string" ? text : JSON.stringify(text));
  }

  unreadable(problem: UnreadableInput): void {
    this.handlers!.unreadable(problem);
  }

  /** Resolves once `count` messages in all have been sent by the side under test. */
  waitForSent(count: number, timeoutMs = 2000): Promise<void> {
    if (this.sent.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`expected ${count} messages, got ${this.sent.length}: ${JSON.stringify(this.sent)}`)), timeoutMs);
      this.#waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}

/** Lets queued promise callbacks and immediates run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Waits until `condition` holds, checking every few milliseconds; fails after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
