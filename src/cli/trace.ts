// --trace: every message as it crosses, with its direction and the milliseconds since the run
// started, one line each on stderr. → is ours, going to the server; ← is the server's. Notes
// between them (the era chosen, and why) have no arrow.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
// Built on protocol/trace.ts, so it wraps any Transport: stdio and Streamable HTTP alike.

import { traceTransport, type TraceEvent } from "../protocol/trace.js";
import type { Transport } from "../protocol/transport.js";

/** `write` receives one line (no newline); `elapsedMs` says how long the run has lasted. */
export function cliTrace(inner: Transport, write: (line: string) => void, elapsedMs: () => number): Transport {
  return traceTransport(inner, (event) => write(cliTraceNote(describe(event), elapsedMs)));
}

/** One trace line: `text` after the time stamp. */
export function cliTraceNote(text: string, elapsedMs: () => number): string {
  return `[trace +${elapsedMs().toFixed(1)}ms] ${text}`;
}

function describe(event: TraceEvent): string {
  switch (event.kind) {
    case "sent":
      return `→ ${event.text}`;
    case "received":
      return `← ${event.text}`;
    case "unreadable":
      return `← (unreadable input: ${JSON.stringify(event.problem)})`;
    case "input-ended":
      return "← (end of input)";
    case "closed":
      return `× closed${event.cause ? `: ${event.cause.message.split("\n")[0]}` : ""}`;
  }
}
