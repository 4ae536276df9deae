// What the processes of one fleet (many servers behind one load balancer) must share, as three
// small interfaces: the memory of used 2026-07-28 requestStates, the SSE events of handshake-era
// sessions kept for resumption, and the list changes every process's listens and GET streams must
// hear. Each process keeps its own in-memory state whatever is configured; a store adds what the
// others must see. memory-stores.ts has in-process versions (one process, several servers; tests),
// redis-*.ts the ones a fleet uses, over a client the program passes in.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
// (single use enforced server-side), https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery

import type { ChangingList } from "../mcp/methods.js";

/**
 * The uses of requestStates, shared by every process that shares the requestState key: a token
 * accepted by one is refused by all. A use is claimed before the retry's handler runs and, if that
 * run produces no answer (cancelled, failed), released, so the client may retry with it.
 */
export interface SharedStateUses {
  /** Records the use of `nonce` until `expiresAt` (ms since the epoch); false if it was already in use or used. */
  claim(nonce: string, expiresAt: number): Promise<boolean>;
  /** The claimed use produced no answer: the token is usable again. */
  release(nonce: string): Promise<void>;
}

/** A change the catalog announces: a list, or one resource's contents. */
export type CatalogChange = { list: ChangingList } | { resourceUpdated: string };

/**
 * Carries list changes between processes. `origin` names the process that made the change, so that
 * a process does not announce its own changes twice (once as it makes them, once as they come back).
 */
export interface ChangeFanout {
  publish(origin: string, change: CatalogChange): void;
  /** Calls `listener` for every change published by any process (its own included); returns the unsubscribe. */
  subscribe(listener: (origin: string, change: CatalogChange) => void): () => void;
}

/** One kept event: its SSE id and its data (a JSON-RPC message, or "" for a priming event). */
export interface LoggedEvent {
  id: string;
  data: string;
}

/**
 * The SSE events of handshake-era sessions, kept where every process can read them: a client whose
 * session's process died may resume one of its streams (GET with Last-Event-ID) on another process,
 * which replays what was sent after that id and ends the stream. Writes are not awaited (they must
 * not slow the stream they copy): a process that dies may take its last events with it.
 */
export interface SharedEventLog {
  /** A session was opened, for `owner` (whom its access token speaks for; undefined without OAuth). */
  opened(session: string, owner: string | undefined): void;
  append(session: string, stream: string, event: LoggedEvent): void;
  /** The client took the whole stream: nothing of it needs replaying. */
  forget(session: string, stream: string): void;
  /** The session ended (idle, DELETE, server closing): none of its events will be resumed. */
  ended(session: string): void;
  /**
   * The events after `eventId` on its stream, priming events left out; undefined if the session is
   * unknown, was opened for another owner, or that id is not kept.
   */
  after(session: string, eventId: string, owner: string | undefined): Promise<LoggedEvent[] | undefined>;
}
