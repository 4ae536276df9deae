// A transport wrapper that reports everything crossing it, for the walkthrough and the CLI's
// --trace. It changes nothing on the wire: messages, unreadable input, the end of input and the
// close all pass through to the connection exactly as they came, and the connection's calls
// (unanswered, pauseInput, resumeInput, onNewSession, onHold) to the transport.

import { encodeMessage, type JSONRPCMessage } from "../jsonrpc/messages.js";
import type { Transport, UnreadableInput } from "./transport.js";

export type TraceEvent =
  /** A message we are about to send; reported before it is written, so never after its answer. */
  | { kind: "sent"; text: string; message: JSONRPCMessage | JSONRPCMessage[] }
  /** A JSON text from the peer (`message` is undefined when it does not parse). */
  | { kind: "received"; text: string; message: JSONRPCMessage | JSONRPCMessage[] | undefined }
  | { kind: "unreadable"; problem: UnreadableInput }
  | { kind: "input-ended" }
  | { kind: "closed"; cause?: Error };

export type TraceListener = (event: TraceEvent) => void;

export function traceTransport(inner: Transport, listener: TraceListener): Transport {
  return {
    start(handlers) {
      const inputEnded = handlers.inputEnded;
      inner.start({
        message(text, value, classified) {
          listener({ kind: "received", text, message: parseOrUndefined(text) });
          handlers.message(text, value, classified);
        },
        unreadable(problem) {
          listener({ kind: "unreadable", problem });
          handlers.unreadable(problem);
        },
        // Present only when the connection asked for it, so the inner transport behaves the same.
        ...(inputEnded && {
          inputEnded() {
            listener({ kind: "input-ended" });
            inputEnded.call(handlers);
          },
        }),
        close(cause) {
          listener(cause ? { kind: "closed", cause } : { kind: "closed" });
          handlers.close(cause);
        },
      });
    },
    async send(message, options) {
      listener({ kind: "sent", text: encodeMessage(message), message });
      await inner.send(message, options);
    },
    close: () => inner.close(),
    // What the connection tells the transport passes through too.
    unanswered: (id) => inner.unanswered?.(id),
    pauseInput: () => inner.pauseInput?.(),
    resumeInput: () => inner.resumeInput?.(),
    onNewSession: (listener) => inner.onNewSession?.(listener),
    onHold: (listener) => inner.onHold?.(listener),
  };
}

function parseOrUndefined(text: string): JSONRPCMessage | JSONRPCMessage[] | undefined {
  try {
    return JSON.parse(text) as JSONRPCMessage;
  } catch {
    return undefined;
  }
}
