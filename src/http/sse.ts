// Server-Sent Events as Streamable HTTP uses them: one JSON-RPC message per event, event ids for
// resumption, a `retry` hint, comment lines as keep-alives, and a bounded store for replay.
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

/** One event in the wire format. Every line of `data` gets its own `data:` field. */
export function formatEvent(event: SseEvent): string {
  let text = "";
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  for (const line of event.data.split("\n")) text += `data: ${line}\n`;
  return text + "\n";
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

/**
 * The events sent on each stream of a session, kept for replay after a dropped connection.
 * Event ids are `<stream>:<number>`, so an id names its stream: Spec (transports#resumability-and-redelivery):
 * ids MUST be unique across the session's streams and replay MUST NOT mix streams.
 */
export class EventStore {
  readonly #maxEventsPerStream: number;
  readonly #streams = new Map<string, { next: number; events: { id: string; data: string }[] }>();

  constructor(maxEventsPerStream = 1000) {
    this.#maxEventsPerStream = maxEventsPerStream;
  }

  /** Records an event on a stream and returns its id. */
  append(stream: string, data: string): string {
    let entry = this.#streams.get(stream);
    if (!entry) this.#streams.set(stream, (entry = { next: 1, events: [] }));
    const id = `${stream}:${entry.next++}`;
    entry.events.push({ id, data });
    if (entry.events.length > this.#maxEventsPerStream) entry.events.shift();
    return id;
  }

  /** The stream an event id belongs to, if it is one of ours. */
  streamOf(eventId: string): string | undefined {
    const at = eventId.lastIndexOf(":");
    const stream = eventId.slice(0, at);
    return at > 0 && this.#streams.has(stream) ? stream : undefined;
  }

  /**
   * The events after `eventId` on its stream (priming events, which carry no data, left out);
   * undefined if the id is unknown or so old that events after it were already dropped.
   */
  after(eventId: string): { id: string; data: string }[] | undefined {
    const stream = this.streamOf(eventId);
    if (!stream) return undefined;
    const events = this.#streams.get(stream)!.events;
    const at = events.findIndex((event) => event.id === eventId);
    if (at < 0) return undefined;
    return events.slice(at + 1).filter((event) => event.data !== "");
  }

  forget(stream: string): void {
    this.#streams.delete(stream);
  }
}
