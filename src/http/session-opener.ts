// Where the Streamable HTTP handler's sessions come from (streamable-server.ts): a handshake
// session, with its id, in the table, its events kept for resuming (and mirrored to a fleet's shared
// log); a session made for one POST (with a session per POST); and a 2026-07-28 request's, made for
// it alone, outside the table. A one-request session has no stream to resume, so it keeps no
// events, and its envelope, for a 2026-07-28 request, comes checked (modern-post.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management

import { randomBytes } from "node:crypto";
import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import type { CheckedRequest } from "../server/modern/envelope.js";
import type { McpServer } from "../server/definition.js";
import { EventStore, type ReplayBudget } from "./event-store.js";
import type { LiveSession, SessionTable } from "./session-table.js";
import { HttpSessionTransport } from "./session-transport.js";
import type { ResolvedOptions } from "./streamable-options.js";

/**
 * The event store of every one-request session, which has no stream to resume: a 2026-07-28
 * request's (that revision has no resuming; PostMode.replayable) and, with a session per POST, each
 * POST's, answered with one JSON body. One store that keeps nothing serves them all.
 */
const NO_EVENTS = new EventStore({ maxEvents: 0, maxBytes: 0 });

/** Opens the sessions of one StreamableHttpHandler, with its options and bounds. */
export class SessionOpener {
  readonly #server: McpServer;
  readonly #options: ResolvedOptions;
  readonly #sessions: SessionTable;
  /** One bound on the replay events of all sessions together. */
  readonly #replay: ReplayBudget;
  /** Requests awaiting answers, in all sessions (the handler's bound). */
  readonly #inFlight: { awaited: number };
  /** The one-request sessions of 2026-07-28 requests still running: no table holds them, but keep-alives and close() must reach them. */
  readonly modern = new RunningSessions();

  constructor(server: McpServer, options: ResolvedOptions, sessions: SessionTable, replay: ReplayBudget, inFlight: { awaited: number }) {
    this.#server = server;
    this.#options = options;
    this.#sessions = sessions;
    this.#replay = replay;
    this.#inFlight = inFlight;
  }

  /** A handshake session, put in the table; with a session per POST, one for this POST alone, in no table. */
  open(options: Parameters<McpServer["connect"]>[1]): LiveSession {
    const now = Date.now();
    if (this.#options.sessionPerPost) return { id: "", ...this.#connect(NO_EVENTS, options), opened: now, lastSeen: now };
    const limits = { budget: this.#replay, maxBytes: this.#options.maxReplayBytesPerSession, maxEvents: this.#options.maxReplayEventsPerSession };
    // Spec (transports#session-management): the id SHOULD be globally unique and cryptographically
    // secure, and MUST be visible ASCII only. In a fleet it names its process first.
    const random = randomBytes(24).toString("base64url");
    const id = this.#options.instance === undefined ? random : `${this.#options.instance}.${random}`;
    const log = this.#options.sharedEvents;
    log?.opened(id, options?.principal);
    const mirror = log && {
      append: (stream: string, event: { id: string; data: string }) => log.append(id, stream, event),
      forget: (stream: string) => log.forget(id, stream),
      clear: () => log.ended(id),
    };
    const { session, transport } = this.#connect(new EventStore({ ...limits, mirror }), options);
    const live = { id, session, transport, opened: now, lastSeen: now };
    this.#sessions.add(live);
    return live;
  }

  /**
   * One 2026-07-28 request's connection: made for it alone, outside the table, its events never kept (there is
   * no resuming), speaking for `principal` (Gate.owner), to which its requestStates are bound; its
   * envelope was checked by modern-post.ts.
   */
  openModern(principal: string | undefined, checked: CheckedRequest): LiveSession {
    const { session, transport } = this.#connect(NO_EVENTS, { singleRequest: { checked }, principal });
    const now = Date.now();
    const live = { id: "", session, transport, opened: now, lastSeen: now };
    session.onClose(this.modern.add(live));
    return live;
  }

  #connect(events: EventStore, options: Parameters<McpServer["connect"]>[1]): Pick<LiveSession, "session" | "transport"> {
    const transport = new HttpSessionTransport(events, this.#dropped, this.#inFlight);
    const session = this.#server.connect(transport, { onProblem: this.#options.onProblem, maxBatchItems: this.#options.maxBatchItems, ...options });
    return { session, transport };
  }

  /** What a session had nowhere to send: one function for every session rather than one each. */
  readonly #dropped = (message: JSONRPCMessage | JSONRPCMessage[]): void => {
    this.#options.onProblem?.(`http: no open stream for ${JSON.stringify(message).slice(0, 200)}`);
  };
}

/** One running session in RunningSessions, between its neighbours. */
interface Entry {
  live: LiveSession;
  previous: Entry | undefined;
  next: Entry | undefined;
  linked: boolean;
}

/**
 * The one-request sessions still running, each in an entry linked to its neighbours: a request
 * adds one and its close unlinks it, and no table grows or shrinks. (A Set, filled and emptied by
 * every 2026-07-28 request, cost about 1.4 µs of a request's 27 in `npm run bench -- --sessionless`.)
 */
export class RunningSessions implements Iterable<LiveSession> {
  #first: Entry | undefined;

  /** Adds `live`; the function that removes it again (once: later calls do nothing). */
  add(live: LiveSession): () => void {
    const entry: Entry = { live, previous: undefined, next: this.#first, linked: true };
    if (this.#first) this.#first.previous = entry;
    this.#first = entry;
    return () => {
      if (!entry.linked) return;
      entry.linked = false;
      if (entry.previous) entry.previous.next = entry.next;
      else this.#first = entry.next;
      if (entry.next) entry.next.previous = entry.previous;
    };
  }

  /** The running sessions, newest first; one that closes as it is visited does not stop the walk. */
  *[Symbol.iterator](): Iterator<LiveSession> {
    for (let entry = this.#first; entry; ) {
      const next = entry.next;
      yield entry.live;
      entry = next;
    }
  }
}
