// --trace: every message as it crosses, with its direction and the milliseconds since the run
// started, one line each on stderr. → is ours, going to the server; ← is the server's. Notes
// between them (the era chosen, and why) have no arrow.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
// Built on protocol/trace.ts, so it wraps any Transport: stdio and Streamable HTTP alike. Over
// HTTP, each request and its status are traced too (`http →`, `http ←`), the OAuth ones included,
// with credentials redacted (cli/redact.ts): a header's scheme shows, its token never.

import { traceTransport, type TraceEvent } from "../protocol/trace.js";
import type { Transport } from "../protocol/transport.js";
import type { Redactor } from "./redact.js";

/** `write` receives one line (no newline); `elapsedMs` says how long the run has lasted. */
export function cliTrace(inner: Transport, write: (line: string) => void, elapsedMs: () => number): Transport {
  return traceTransport(inner, (event) => write(cliTraceNote(describe(event), elapsedMs)));
}

/** One trace line: `text` after the time stamp. */
export function cliTraceNote(text: string, elapsedMs: () => number): string {
  return `[trace +${elapsedMs().toFixed(1)}ms] ${text}`;
}

/** `inner`, writing a line for each HTTP request (method, URL, credential headers) and its answer (status, challenge). */
export function cliHttpTrace(inner: typeof fetch, write: (line: string) => void, elapsedMs: () => number, redactor: Redactor): typeof fetch {
  return async (input, init) => {
    // Not `new Request(input, init)`: that would take a streamed body away from the real request.
    const given = input instanceof Request ? input : undefined;
    const method = init?.method ?? given?.method ?? "GET";
    const url = given?.url ?? String(input);
    const credentials: string[] = [];
    new Headers(init?.headers ?? given?.headers).forEach((value, name) => {
      if (name === "authorization" || name === "cookie") credentials.push(redactor.header(name, value));
    });
    const shown = credentials.length === 0 ? "" : ` (${credentials.join("; ")})`;
    write(cliTraceNote(`http → ${method} ${redactor.redactUrl(url)}${shown}`, elapsedMs));
    try {
      const response = await inner(input, init);
      // The challenge says why a 401 or 403 came, and where to find the authorization server.
      const challenge = response.headers.get("www-authenticate");
      write(cliTraceNote(`http ← ${response.status}${challenge === null ? "" : ` www-authenticate: ${challenge}`}`, elapsedMs));
      return response;
    } catch (error) {
      write(cliTraceNote(`http × ${error instanceof Error ? error.message : String(error)}`, elapsedMs));
      throw error;
    }
  };
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
