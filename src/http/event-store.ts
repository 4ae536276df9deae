// The events a Streamable HTTP session sent on its SSE streams, kept so that a client whose
// connection dropped can resume: bounded per session and, through a budget shared by every
// session of a handler, in total; sizes are UTF-8 bytes. What the client confirmed is dropped.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
// (replay is a MAY: an event dropped for a bound makes a resume from it fail with 400).

interface StoredEvent {
  id: string;
  data: string;
  /** UTF-8 bytes of data. */
  size: number;
  stream: string;
  store: EventStore;
  dropped: boolean;
}

/**
 * Stored events in the order they came, with their count and bytes, against limits. Dropping is
 * lazy: an event dropped elsewhere (confirmed, say) leaves the queue when it reaches the front,
 * when dropped entries outnumber live ones, or when none is live any more.
 */
class Ledger {
  #queue: StoredEvent[] = [];
  #head = 0;
  events = 0;
  bytes = 0;
  readonly #maxEvents: number;
  readonly #maxBytes: number;

  constructor(maxEvents: number, maxBytes: number) {
    this.#maxEvents = maxEvents;
    this.#maxBytes = maxBytes;
  }

  get over(): boolean {
    return this.events > this.#maxEvents || this.bytes > this.#maxBytes;
  }

  add(event: StoredEvent): void {
    this.#queue.push(event);
    this.events++;
    this.bytes += event.size;
  }

  release(event: StoredEvent): void {
    this.events--;
    this.bytes -= event.size;
    // Nothing live is left: let go of the dropped entries at once. Each one holds its store, so a
    // queue left to the sweep below would keep up to a thousand ended sessions' stores alive.
    if (this.events === 0) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#queue.length > 2 * this.events + 1024) {
      // Dropped entries still queued: once they outnumber the live ones, sweep them out.
      this.#queue = this.#queue.slice(this.#head).filter((e) => !e.dropped);
      this.#head = 0;
    }
  }

  /** The oldest event not yet dropped (call only while `events` > 0). */
  oldest(): StoredEvent {
    while (this.#queue[this.#head]!.dropped) this.#head++;
    return this.#queue[this.#head]!;
  }
}

/** The default total for all sessions of a handler. */
export const DEFAULT_REPLAY_BUDGET = { maxEvents: 100_000, maxBytes: 64 * 1024 * 1024 };
/** The default for one session. */
export const DEFAULT_SESSION_REPLAY = { maxEvents: 10_000, maxBytes: 4 * 1024 * 1024 };

/** One bound on the events kept by many stores: past it, the oldest of any store go first. */
export class ReplayBudget {
  readonly #ledger: Ledger;

  constructor(limits: { maxEvents?: number; maxBytes?: number } = {}) {
    this.#ledger = new Ledger(limits.maxEvents ?? DEFAULT_REPLAY_BUDGET.maxEvents, limits.maxBytes ?? DEFAULT_REPLAY_BUDGET.maxBytes);
  }

  get size(): { events: number; bytes: number } {
    return { events: this.#ledger.events, bytes: this.#ledger.bytes };
  }

  /** @internal Called by EventStore. */
  add(event: StoredEvent): void {
    this.#ledger.add(event);
    while (this.#ledger.over) {
      const oldest = this.#ledger.oldest();
      oldest.store.drop(oldest);
    }
  }

  /** @internal Called by EventStore. */
  release(event: StoredEvent): void {
    this.#ledger.release(event);
  }
}

/**
 * A copy of one session's events kept elsewhere (fleet/stores.ts SharedEventLog, bound to the
 * session by the handler), for a resume that reaches another process of a fleet.
 */
export interface EventMirror {
  append(stream: string, event: { id: string; data: string }): void;
  forget(stream: string): void;
  clear(): void;
}

/**
 * The events sent on each stream of one session. Event ids are `<stream>:<number>`, so an id
 * names its stream. Spec (transports#resumability-and-redelivery): ids MUST be unique across the
 * session's streams, and a replay MUST NOT carry another stream's messages.
 */
export class EventStore {
  readonly #streams = new Map<string, StoredEvent[]>();
  readonly #ledger: Ledger;
  readonly #budget: ReplayBudget | undefined;
  readonly #mirror: EventMirror | undefined;
  /** One counter for the whole session, so an id is never given twice, even to a stream whose events were dropped. */
  #nextNumber = 1;

  constructor(limits: { maxEvents?: number; maxBytes?: number; budget?: ReplayBudget; mirror?: EventMirror } = {}) {
    this.#ledger = new Ledger(limits.maxEvents ?? DEFAULT_SESSION_REPLAY.maxEvents, limits.maxBytes ?? DEFAULT_SESSION_REPLAY.maxBytes);
    this.#budget = limits.budget;
    this.#mirror = limits.mirror;
  }

  /** Records an event on a stream and returns its id. Empty data marks a priming event. */
  append(stream: string, data: string): string {
    let events = this.#streams.get(stream);
    if (!events) this.#streams.set(stream, (events = []));
    const event: StoredEvent = { id: `${stream}:${this.#nextNumber++}`, data, size: Buffer.byteLength(data), stream, store: this, dropped: false };
    events.push(event);
    this.#mirror?.append(stream, { id: event.id, data });
    this.#ledger.add(event);
    this.#budget?.add(event);
    while (this.#ledger.over) this.drop(this.#ledger.oldest());
    return event.id;
  }

  /** Whether any event of `stream` is kept: one the client can resume after. */
  has(stream: string): boolean {
    return this.#streams.has(stream);
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
    return events.slice(at + 1).filter((event) => event.data !== "").map(({ id, data }) => ({ id, data }));
  }

  /**
   * The client resumed after `eventId`, so it has every earlier event of that stream: they are
   * dropped. The event itself stays, as the point a second resume from the same id starts at.
   */
  confirm(eventId: string): void {
    const stream = this.streamOf(eventId);
    const events = stream === undefined ? undefined : this.#streams.get(stream);
    if (!events?.some((event) => event.id === eventId)) return;
    while (events[0]!.id !== eventId) this.drop(events[0]!);
  }

  /** The client took the whole stream: nothing of it needs replaying. */
  forget(stream: string): void {
    for (const event of [...(this.#streams.get(stream) ?? [])]) this.drop(event);
    this.#mirror?.forget(stream);
  }

  /** The session ended: every event goes. */
  clear(): void {
    for (const stream of [...this.#streams.keys()]) this.forget(stream);
    this.#mirror?.clear();
  }

  get size(): { events: number; bytes: number } {
    return { events: this.#ledger.events, bytes: this.#ledger.bytes };
  }

  /**
   * @internal Drops one event, which is the oldest kept of its stream (events only ever leave a
   * stream from the front, so the oldest of a store or of a budget is the first of its stream).
   */
  drop(event: StoredEvent): void {
    if (event.dropped) return;
    event.dropped = true;
    const events = this.#streams.get(event.stream)!;
    events.shift();
    if (events.length === 0) this.#streams.delete(event.stream);
    this.#ledger.release(event);
    this.#budget?.release(event);
    event.data = "";
  }
}
