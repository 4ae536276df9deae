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

/** One event in the wire format. Every line of `data` (ended by CR LF, LF or a lone CR, as SSE reads them) gets its own `data:` field. */
export function formatEvent(event: SseEvent): string {
  let text = "";
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
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
 * The events sent on each stream of a session, kept for replay after a dropped connection, up to
 * a bounded number and size: the oldest go first. Event ids are `<stream>:<number>`, so an id
 * names its stream. Spec (transports#resumability-and-redelivery): ids MUST be unique across the
 * session's streams, and a replay MUST NOT carry another stream's messages.
 */
export class EventStore {
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #streams = new Map<string, { id: string; data: string }[]>();
  /** One counter for the whole session, so an id is never given twice, even to a stream whose events were dropped. */
  #nextNumber = 1;
  /** Every stored event, oldest first, to know what to drop. */
  readonly #order: { stream: string; size: number }[] = [];
  #orderHead = 0;
  #bytes = 0;

  constructor(limits: { maxEvents?: number; maxBytes?: number } = {}) {
    this.#maxEvents = limits.maxEvents ?? 10_000;
    this.#maxBytes = limits.maxBytes ?? 16 * 1024 * 1024;
  }

  /** Records an event on a stream and returns its id. Empty data marks a priming event. */
  append(stream: string, data: string): string {
    let events = this.#streams.get(stream);
    if (!events) this.#streams.set(stream, (events = []));
    const id = `${stream}:${this.#nextNumber++}`;
    events.push({ id, data });
    this.#order.push({ stream, size: data.length });
    this.#bytes += data.length;
    while (this.#order.length - this.#orderHead > this.#maxEvents || this.#bytes > this.#maxBytes) this.#dropOldest();
    return id;
  }

  /** The stream an event id belongs to, if its events are still kept. */
  streamOf(eventId: string): string | undefined {
    const at = eventId.lastIndexOf(":");
    const stream = eventId.slice(0, at);
    return at > 0 && this.#streams.has(stream) ? stream : undefined;
  }

  /**
   * The events after `eventId` on its stream (priming events, which carry no data, left out);
   * undefined if the id is unknown or so old that it was already dropped.
   */
  after(eventId: string): { id: string; data: string }[] | undefined {
    const stream = this.streamOf(eventId);
    if (!stream) return undefined;
    const events = this.#streams.get(stream)!;
    const at = events.findIndex((event) => event.id === eventId);
    if (at < 0) return undefined;
    return events.slice(at + 1).filter((event) => event.data !== "");
  }

  get size(): { events: number; bytes: number } {
    return { events: this.#order.length - this.#orderHead, bytes: this.#bytes };
  }

  #dropOldest(): void {
    const oldest = this.#order[this.#orderHead++]!;
    this.#bytes -= oldest.size;
    const events = this.#streams.get(oldest.stream)!;
    events.shift();
    if (events.length === 0) this.#streams.delete(oldest.stream);
    // Drop the consumed front of the queue now and then, not per event.
    if (this.#orderHead > 1024 && this.#orderHead * 2 > this.#order.length) {
      this.#order.splice(0, this.#orderHead);
      this.#orderHead = 0;
    }
  }
}
