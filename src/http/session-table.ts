// The live sessions of one Streamable HTTP handler and the rules that free their slots: a session
// that never finishes its handshake expires quickly, an idle one (no request, no open stream)
// expires after the idle time, and a full table makes room by evicting the least useful session.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
// (a server MAY end a session at any time; its id then gets 404 and the client starts over).

import type { ServerConnection } from "../server/connection.js";
import type { HttpSessionTransport } from "./session-transport.js";

export interface LiveSession {
  /** The MCP-Session-Id ("" with sessionPerPost: the client never sees one). */
  id: string;
  session: ServerConnection;
  transport: HttpSessionTransport;
  /** When the session was created, for the handshake deadline. */
  opened: number;
  /** The last request, or the last moment a stream of the session was open. */
  lastSeen: number;
  /** Whom the access token that opened it speaks for (Gate.owner), when the server is a resource server. */
  owner?: string;
}

export interface SessionLimits {
  maxSessions: number;
  /** Sessions idle longer than this end. */
  idleMs: number;
  /** Sessions not operating (no notifications/initialized) this long after initialize end. */
  initializedMs: number;
}

/** Whether a slot is free now, or else how long until one frees itself (undefined: unknown). */
export type Room = { free: true } | { free: false; retryAfterSeconds: number | undefined };

export class SessionTable {
  readonly #sessions = new Map<string, LiveSession>();
  readonly #limits: SessionLimits;

  constructor(limits: SessionLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#sessions.size;
  }

  values(): IterableIterator<LiveSession> {
    return this.#sessions.values();
  }

  /**
   * The session with this id; looking it up is activity. One whose time is up is ended here, not
   * revived: the sweep runs on a timer, and a deadline must not wait for it.
   */
  get(id: string, now = Date.now()): LiveSession | undefined {
    const live = this.#sessions.get(id);
    if (!live) return undefined;
    if (this.#expiresAt(live) <= now) {
      this.#end(live);
      return undefined;
    }
    live.lastSeen = now;
    return live;
  }

  add(live: LiveSession): void {
    this.#sessions.set(live.id, live);
    live.session.onClose(() => this.#sessions.delete(live.id));
  }

  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /**
   * Frees a slot for a new session if the table is full, by ending the sessions whose time is up,
   * else the least useful session that nobody is using right now: one still in its handshake
   * before an operating one, and of those the one idle longest. A session with an open stream or
   * a request in flight is never evicted.
   */
  makeRoom(now = Date.now()): Room {
    // The sweep runs on a timer; ending the expired here keeps a Retry-After given earlier true.
    if (this.#sessions.size >= this.#limits.maxSessions) this.sweep(now);
    if (this.#sessions.size < this.#limits.maxSessions) return { free: true };
    let victim: LiveSession | undefined;
    for (const live of this.#sessions.values()) {
      if (live.transport.busy) continue;
      if (!victim || evictsBefore(live, victim)) victim = live;
    }
    if (victim) {
      this.#end(victim);
      return { free: true };
    }
    return { free: false, retryAfterSeconds: this.#nextExpiry(now) };
  }

  /** Ends the sessions whose time is up; a session with an open stream is in use, so not idle. */
  sweep(now = Date.now()): void {
    for (const live of [...this.#sessions.values()]) {
      if (live.transport.busy) live.lastSeen = now;
      if (this.#expiresAt(live) <= now) this.#end(live);
    }
  }

  /** Seconds until the first session in use reaches its handshake deadline; undefined if none will. */
  #nextExpiry(now: number): number | undefined {
    let first = Infinity;
    for (const live of this.#sessions.values()) first = Math.min(first, this.#expiresAt(live));
    return first === Infinity ? undefined : Math.max(1, Math.ceil((first - now) / 1000));
  }

  /** When the session ends unless something happens; Infinity while it is in use and operating. */
  #expiresAt(live: LiveSession): number {
    const idleEnd = live.transport.busy ? Infinity : live.lastSeen + this.#limits.idleMs;
    // The handshake deadline holds even for a session in use: the client had its chance.
    return live.session.state === "operating" ? idleEnd : Math.min(idleEnd, live.opened + this.#limits.initializedMs);
  }

  #end(live: LiveSession): void {
    this.#sessions.delete(live.id);
    void live.session.close();
  }
}

/** Eviction order: sessions still in their handshake before operating ones, then the longest idle. */
function evictsBefore(a: LiveSession, b: LiveSession): boolean {
  const aWaiting = a.session.state !== "operating";
  const bWaiting = b.session.state !== "operating";
  return aWaiting !== bWaiting ? aWaiting : a.lastSeen < b.lastSeen;
}
