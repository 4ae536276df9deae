// The SSE events of a fleet's handshake-era sessions in Redis: a list per stream (RPUSH, read with
// LRANGE), and a key per session naming whom it was opened for. Every key expires `ttlMs` after
// its last write (default 5 minutes: a resume comes within seconds of a dropped stream, and a
// session whose process died is renewed by its client at its next request), and at most
// `maxEventsPerStream` events are read back. Writes are sent in order on the one connection and not
// awaited; a failed one is reported.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery

import type { LoggedEvent, SharedEventLog } from "./stores.js";
import { DEFAULT_REDIS_PREFIX, reportFailure, type RedisCommands } from "./redis-commands.js";

export const DEFAULT_EVENT_LOG_TTL_MS = 5 * 60_000;
/** The events one resume reads back at most; DEFAULT_SESSION_REPLAY keeps 10,000 per session in memory. */
export const DEFAULT_MAX_LOGGED_EVENTS = 10_000;
/** Owners are stored as given; this marks "no owner" (a session opened without OAuth). */
const NO_OWNER = "-";

export interface RedisEventLogOptions {
  prefix?: string;
  ttlMs?: number;
  maxEventsPerStream?: number;
  onProblem?: (message: string) => void;
}

export class RedisEventLog implements SharedEventLog {
  readonly #redis: RedisCommands;
  readonly #prefix: string;
  readonly #ownerPrefix: string;
  readonly #ttlMs: number;
  readonly #maxEvents: number;
  readonly #onProblem: ((message: string) => void) | undefined;
  /** The streams each session of this process wrote, so that its end deletes them. */
  readonly #streams = new Map<string, Set<string>>();

  constructor(redis: RedisCommands, options: RedisEventLogOptions = {}) {
    this.#redis = redis;
    this.#prefix = `${options.prefix ?? DEFAULT_REDIS_PREFIX}events:`;
    this.#ownerPrefix = `${options.prefix ?? DEFAULT_REDIS_PREFIX}session-owner:`;
    this.#ttlMs = options.ttlMs ?? DEFAULT_EVENT_LOG_TTL_MS;
    this.#maxEvents = options.maxEventsPerStream ?? DEFAULT_MAX_LOGGED_EVENTS;
    this.#onProblem = options.onProblem;
  }

  opened(session: string, owner: string | undefined): void {
    this.#streams.set(session, new Set());
    // NX so that a session id given twice (it never should be) cannot change its owner.
    this.#redis.set(this.#ownerKey(session), owner === undefined ? NO_OWNER : `=${owner}`, { NX: true, PX: this.#ttlMs })
      .catch(reportFailure(this.#onProblem, "recording a session"));
  }

  append(session: string, stream: string, event: LoggedEvent): void {
    const key = this.#streamKey(session, stream);
    const fail = reportFailure(this.#onProblem, "logging an event");
    this.#streams.get(session)?.add(stream);
    this.#redis.rPush(key, JSON.stringify([event.id, event.data])).catch(fail);
    this.#redis.pExpire(key, this.#ttlMs).catch(fail);
    this.#redis.pExpire(this.#ownerKey(session), this.#ttlMs).catch(fail);
  }

  forget(session: string, stream: string): void {
    this.#streams.get(session)?.delete(stream);
    this.#redis.del(this.#streamKey(session, stream)).catch(reportFailure(this.#onProblem, "forgetting a stream"));
  }

  ended(session: string): void {
    const fail = reportFailure(this.#onProblem, "forgetting a session");
    for (const stream of this.#streams.get(session) ?? []) this.#redis.del(this.#streamKey(session, stream)).catch(fail);
    this.#streams.delete(session);
    this.#redis.del(this.#ownerKey(session)).catch(fail);
  }

  async after(session: string, eventId: string, owner: string | undefined): Promise<LoggedEvent[] | undefined> {
    const at = eventId.lastIndexOf(":");
    if (at <= 0) return undefined;
    const recorded = await this.#redis.get(this.#ownerKey(session));
    // Spec (security_best_practices#session-hijacking): another user's token finds nothing.
    if (recorded !== (owner === undefined ? NO_OWNER : `=${owner}`)) return undefined;
    const items = await this.#redis.lRange(this.#streamKey(session, eventId.slice(0, at)), 0, this.#maxEvents - 1);
    const events = Array.isArray(items) ? items.map(readEvent) : [];
    const from = events.findIndex((event) => event?.id === eventId);
    if (from < 0) return undefined;
    const missed: LoggedEvent[] = [];
    for (const event of events.slice(from + 1)) if (event && event.data !== "") missed.push(event);
    return missed;
  }

  #ownerKey(session: string): string {
    return `${this.#ownerPrefix}${session}`;
  }

  #streamKey(session: string, stream: string): string {
    return `${this.#prefix}${session}:${stream}`;
  }
}

/** One list item as append wrote it; undefined for anything else (a shared Redis is not only ours). */
function readEvent(item: unknown): LoggedEvent | undefined {
  if (typeof item !== "string") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(item);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || typeof value[0] !== "string" || typeof value[1] !== "string") return undefined;
  return { id: value[0], data: value[1] };
}
