// A transport wrapper that reports every message crossing it, in both directions, for the
// walkthrough and the CLI's --trace. It changes nothing on the wire.

import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import type { Transport } from "./transport.js";

export type TraceDirection = "sent" | "received";

/** Called for each message: `text` is the JSON as it crossed (received) or will cross (sent). */
export type TraceListener = (direction: TraceDirection, text: string, message: JSONRPCMessage | JSONRPCMessage[] | undefined) => void;

export function traceTransport(inner: Transport, listener: TraceListener): Transport {
  return {
    start(handlers) {
      inner.start({
        ...handlers,
        message(text) {
          listener("received", text, parseOrUndefined(text));
          handlers.message(text);
        },
      });
    },
    async send(message) {
      listener("sent", JSON.stringify(message), message);
      await inner.send(message);
    },
    close: () => inner.close(),
  };
}

function parseOrUndefined(text: string): JSONRPCMessage | JSONRPCMessage[] | undefined {
  try {
    return JSON.parse(text) as JSONRPCMessage;
  } catch {
    return undefined;
  }
}
