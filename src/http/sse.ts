// Server-Sent Events as Streamable HTTP uses them: one JSON-RPC message per event, event ids for
// resumption, a `retry` hint, and comment lines as keep-alives. (The events kept for replay are in
// event-store.ts.)
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// and the WHATWG event stream format (https://html.spec.whatwg.org/multipage/server-sent-events.html).

export interface SseEvent {
  id?: string;
  /** The event type; Streamable HTTP leaves it out, the legacy transport uses "endpoint" and "message". */
  event?: string;
  data: string;
  /** How long the client should wait before reconnecting, in milliseconds. */
  retry?: number;
}

/** One event in the wire format. Every line of `data` (ended by CR LF, LF or a lone CR, as SSE reads them) gets its own `data:` field. */
export function formatEvent(event: SseEvent): string {
  let text = "";
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  // A JSON-RPC message as JSON.stringify writes it never holds a line break: one field, no split.
  if (!event.data.includes("\n") && !event.data.includes("\r")) return `${text}data: ${event.data}\n\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return text + "\n";
}

/** An event of only a `retry` field: the client takes it as its reconnection delay, and dispatches nothing. */
export function formatRetry(ms: number): string {
  return `retry: ${ms}\n\n`;
}

/** A comment line: ignored by clients, but it keeps proxies from closing an idle stream. */
export const KEEP_ALIVE = ": keep-alive\n\n";

/** The response headers of an event stream; X-Accel-Buffering stops nginx from holding events back. */
export const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};
