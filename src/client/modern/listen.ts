// The client's one `subscriptions/listen` stream in the 2026-07-28 era: what replaced unsolicited
// list_changed notifications and resources/subscribe. It asks for the list changes the server
// advertises plus the application's resource subscriptions; the notifications it brings go
// through the client's usual handlers (same events, same cache invalidation as in a handshake
// session). A change of subscriptions re-opens it (cancel the old one, open a new one). Since 2026-07-28.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
// (and cancellation for the stdio teardown); SPEC_2026.md §3.1, §7.1, §10 items 30 and 33.

import { isObject } from "../../jsonrpc/messages.js";
import { ConnectionClosedError, RequestAbortedError } from "../../jsonrpc/pending.js";
import type { Connection } from "../../protocol/connection.js";
import type { ServerCapabilities } from "../../mcp/lifecycle.js";
import { META, type SubscriptionFilter, type SubscriptionsAcknowledgedNotificationParams } from "../../mcp/modern.js";
import type { ModernVersion } from "../../mcp/versions.js";
import type { Envelope } from "./envelope.js";

/**
 * A listen has no timeout (jsonrpc/pending.ts keeps no timer for Infinity): its only answer is
 * the server ending it, and it lasts as long as the client stays connected.
 */
const LISTEN_FOREVER_MS = Infinity;

/** How many times a listen the server ended is opened again before the client reports it and stops. */
const REOPENS_AFTER_SERVER_END = 1;

export class Listen {
  readonly #connection: Connection;
  readonly #envelope: Envelope;
  readonly #version: ModernVersion;
  readonly #capabilities: ServerCapabilities;
  readonly #onProblem: (message: string) => void;
  readonly #onAcknowledged: (filter: SubscriptionFilter) => void;
  readonly #subscriptions = new Set<string>();
  /** Aborting it ends the open listen: the connection sends notifications/cancelled {requestId} (on HTTP the transport closes the stream). */
  #current: AbortController | undefined;
  /** The filter the open listen asked for, to compare its acknowledgement with. */
  #asked: SubscriptionFilter | undefined;
  /** The newest listen's id, learnt from its acknowledgement: messages of older listens are stale. */
  #newestId = -1;
  #serverEnds = 0;
  /**
   * Settles the wait of whoever opened the listen (subscribe, unsubscribe): at its acknowledgement,
   * so that the server has taken the subscription before subscribe() resolves, as with
   * resources/subscribe; also when the listen ends or is replaced, so that nobody waits forever.
   */
  #heard: (() => void) | undefined;

  constructor(connection: Connection, envelope: Envelope, version: ModernVersion, capabilities: ServerCapabilities,
    events: { onProblem: (message: string) => void; onAcknowledged: (filter: SubscriptionFilter) => void }) {
    this.#connection = connection;
    this.#envelope = envelope;
    this.#version = version;
    this.#capabilities = capabilities;
    this.#onProblem = events.onProblem;
    this.#onAcknowledged = events.onAcknowledged;
  }

  get subscriptions(): ReadonlySet<string> {
    return this.#subscriptions;
  }

  /** Adds `uri` to the listen; resolves once the server acknowledged the new listen (see open()). */
  subscribe(uri: string): Promise<void> {
    if (this.#subscriptions.has(uri)) return Promise.resolve();
    this.#subscriptions.add(uri);
    return this.open();
  }

  unsubscribe(uri: string): Promise<void> {
    return this.#subscriptions.delete(uri) ? this.open() : Promise.resolve();
  }

  /** The filter for what the server advertises and the application subscribed to; undefined when nothing is to be heard. */
  filter(): SubscriptionFilter | undefined {
    const filter: SubscriptionFilter = {};
    if (this.#capabilities.tools?.listChanged) filter.toolsListChanged = true;
    if (this.#capabilities.prompts?.listChanged) filter.promptsListChanged = true;
    if (this.#capabilities.resources?.listChanged) filter.resourcesListChanged = true;
    if (this.#subscriptions.size > 0) filter.resourceSubscriptions = [...this.#subscriptions];
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  /**
   * Ends the open listen, if any, and opens one for the current filter. Resolves at the first
   * acknowledgement after it was sent (a late acknowledgement of the listen just cancelled could
   * resolve it early: the server acknowledges before its first notification, so that is rare), or
   * when it ends; never rejects (a failed listen is reported through onProblem).
   */
  open(): Promise<void> {
    this.close();
    const filter = this.filter();
    if (filter === undefined || this.#connection.isClosed) return Promise.resolve();
    const heard = new Promise<void>((resolve) => (this.#heard = resolve));
    const stop = new AbortController();
    this.#current = stop;
    this.#asked = filter;
    const params = this.#envelope.wrap(this.#version, { notifications: filter });
    const timeouts = { idleMs: LISTEN_FOREVER_MS, maxTotalMs: LISTEN_FOREVER_MS };
    this.#connection.request("subscriptions/listen", params, { signal: stop.signal, timeouts }).then(
      () => this.#ended(stop, "the server ended it"),
      (error: unknown) => {
        // Our own cancel, or the client closing: nothing to report, nothing more to wait for.
        if (error instanceof RequestAbortedError || error instanceof ConnectionClosedError) {
          if (this.#current === stop) this.#settleHeard();
          return;
        }
        this.#ended(stop, error instanceof Error ? error.message : String(error), true);
      },
    );
    return heard;
  }

  /** Ends the open listen (client close, or before a re-open). */
  close(): void {
    // Spec (basic/patterns/subscriptions): the client ends a listen by cancelling it.
    this.#current?.abort(new Error("subscriptions/listen: replaced or closed by the client"));
    this.#current = undefined;
    this.#asked = undefined;
    this.#settleHeard();
  }

  #settleHeard(): void {
    this.#heard?.();
    this.#heard = undefined;
  }

  /**
   * Whether a listen notification belongs to the newest listen. Our request ids only grow, so a
   * subscriptionId below the newest acknowledged one is a listen we already cancelled.
   */
  isCurrent(meta: unknown): boolean {
    const id = isObject(meta) ? meta[META.subscriptionId] : undefined;
    return typeof id !== "number" || id >= this.#newestId;
  }

  /** The server's acknowledgement: compared with what the open listen asked for. */
  acknowledged(params: SubscriptionsAcknowledgedNotificationParams): void {
    const id = isObject(params._meta) ? params._meta[META.subscriptionId] : undefined;
    if (typeof id === "number") {
      if (id < this.#newestId) return;
      this.#newestId = id;
    }
    const asked = this.#asked;
    if (!asked) return;
    const got = params.notifications;
    // Spec (basic/patterns/subscriptions): the acknowledgement says what the server will send;
    // the client SHOULD compare it with what it asked for.
    const missing: string[] = [];
    for (const flag of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
      if (asked[flag] && !got[flag]) missing.push(flag);
    }
    for (const uri of asked.resourceSubscriptions ?? []) {
      if (!got.resourceSubscriptions?.includes(uri)) missing.push(`resourceSubscriptions ${JSON.stringify(uri)}`);
    }
    if (missing.length > 0) this.#onProblem(`subscriptions/listen: the server did not honour ${missing.join(", ")}`);
    this.#settleHeard();
    this.#onAcknowledged(got);
  }

  /** The listen ended without our cancel: re-opened once after a server end, then reported. */
  #ended(stop: AbortController, why: string, failed = false): void {
    if (this.#current !== stop) return;
    this.#current = undefined;
    this.#settleHeard();
    if (!failed && this.#serverEnds++ < REOPENS_AFTER_SERVER_END) {
      this.open();
      return;
    }
    this.#onProblem(`subscriptions/listen: ${why}; no longer listening (list changes and resource updates will not be heard)`);
  }
}
