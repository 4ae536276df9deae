// The fleet stores kept in this process's memory: for several servers in one process (and tests).
// A fleet of processes needs the Redis ones (redis-*.ts); a single server needs none, since each
// server keeps its own state in memory anyway (request-state.ts, event-store.ts, catalog.ts).

import type { CatalogChange, ChangeFanout, LoggedEvent, SharedEventLog, SharedStateUses } from "./stores.js";

export class MemoryStateUses implements SharedStateUses {
  /** Nonce -> expiry (ms since the epoch). */
  readonly #uses = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async claim(nonce: string, expiresAt: number): Promise<boolean> {
    const now = this.#now();
    // Uses come in about the order they expire (every state lives as long): the expired are at the front.
    for (const [known, expiry] of this.#uses) {
      if (expiry > now) break;
      this.#uses.delete(known);
    }
    if (this.#uses.has(nonce)) return false;
    this.#uses.set(nonce, expiresAt);
    return true;
  }

  async release(nonce: string): Promise<void> {
    this.#uses.delete(nonce);
  }
}

export class MemoryChangeFanout implements ChangeFanout {
  readonly #listeners = new Set<(origin: string, change: CatalogChange) => void>();

  publish(origin: string, change: CatalogChange): void {
    // Delivered later, as a message through Redis would be: a publisher is never re-entered.
    queueMicrotask(() => {
      for (const listener of this.#listeners) listener(origin, change);
    });
  }

  subscribe(listener: (origin: string, change: CatalogChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

export class MemoryEventLog implements SharedEventLog {
  readonly #sessions = new Map<string, { owner: string | undefined; streams: Map<string, LoggedEvent[]> }>();

  opened(session: string, owner: string | undefined): void {
    if (!this.#sessions.has(session)) this.#sessions.set(session, { owner, streams: new Map() });
  }

  append(session: string, stream: string, event: LoggedEvent): void {
    const streams = this.#sessions.get(session)?.streams;
    if (!streams) return;
    let events = streams.get(stream);
    if (!events) streams.set(stream, (events = []));
    events.push(event);
  }

  forget(session: string, stream: string): void {
    this.#sessions.get(session)?.streams.delete(stream);
  }

  ended(session: string): void {
    this.#sessions.delete(session);
  }

  async after(session: string, eventId: string, owner: string | undefined): Promise<LoggedEvent[] | undefined> {
    const kept = this.#sessions.get(session);
    if (!kept || kept.owner !== owner) return undefined;
    const events = kept.streams.get(eventId.slice(0, eventId.lastIndexOf(":"))) ?? [];
    const from = events.findIndex((event) => event.id === eventId);
    return from < 0 ? undefined : events.slice(from + 1).filter((event) => event.data !== "");
  }
}
