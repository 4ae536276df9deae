// The client's one `subscriptions/listen` stream in the 2026-07-28 era: what replaced unsolicited
// list_changed notifications and resources/subscribe. It asks for the list changes the server
// advertises plus the application's resource subscriptions; the notifications it brings go
// through the client's usual handlers (same events, same cache invalidation as in a handshake
// session). A change of subscriptions re-opens it (cancel the old one, open a new one); so does
// the server ending it (once in a row) and a broken stream (with backoff). Since 2026-07-28.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
// (basic/patterns/cancellation for the stdio teardown, basic/transports/streamable-http#cancellation for HTTP's).

import { isObject, RpcError, type RequestId } from "../../jsonrpc/messages.js";
import { ConnectionClosedError, MalformedResponseError, RequestAbortedError } from "../../jsonrpc/pending.js";
import { EndedByPeerError } from "../../protocol/our-requests.js";
import type { Connection } from "../../protocol/connection.js";
import type { ServerCapabilities } from "../../mcp/lifecycle.js";
import { META, type SubscriptionFilter, type SubscriptionsAcknowledgedNotificationParams } from "../../mcp/modern.js";
import type { ModernVersion } from "../../mcp/versions.js";
import type { Envelope } from "./envelope.js";

/**
 * A listen has no timeout (jsonrpc/request-clock.ts keeps no timer for Infinity): its only answer is
 * the server ending it, and it lasts as long as the client stays connected.
 */
const LISTEN_FOREVER_MS = Infinity;

/** How many times in a row (no acknowledgement between) a listen the server ended is opened again before the client reports it and stops. */
const REOPENS_AFTER_SERVER_END = 1;

/**
 * A listen whose stream broke (the transport failed, not the server's answer) is opened again
 * after a delay doubling from the first to the last, at most this many times in a row without an
 * acknowledgement. Spec (basic/patterns/subscriptions#graceful-closure;
 * streams do not resume, streamable-http#receiving-messages): the client re-issues the listen under a new id.
 * The delay keeps doubling, across acknowledgements, until a listen brings a notification: a server
 * that acknowledges each listen and ends or breaks it at once is re-listened to ever more slowly,
 * not at its own pace forever.
 */
export const LISTEN_RETRY = { firstDelayMs: 250, maxDelayMs: 30_000, maxInARow: 5 };

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
  /** The open listen's request id: only notifications tagged with it are its (§10.30). */
  #id: RequestId | undefined;
  /** The id of the listen it replaced: its late messages are expected, dropped without a word. */
  #replacedId: RequestId | undefined;
  #reportedForeign = false;
  #serverEnds = 0;
  #retries = 0;
  /** Re-opens since a listen last brought a notification: the step of the re-open delay. */
  #churn = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
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
   * Ends the open listen, if any, and opens one for the current filter. Resolves at the new
   * listen's acknowledgement (only one tagged with its id counts), or when it ends; never rejects
   * (a failed listen is reported through onProblem).
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
    const onId = (id: RequestId) => { this.#id = id; };
    this.#connection.request("subscriptions/listen", params, { signal: stop.signal, timeouts, onId }).then(
      () => this.#ended(stop, "the server ended it"),
      (error: unknown) => {
        // Our own cancel, or the connection closed (by either side; McpClient's "close" event
        // tells the application): nothing to re-open, nothing more to wait for.
        if (error instanceof RequestAbortedError || error instanceof ConnectionClosedError) {
          if (this.#current === stop) this.#settleHeard();
          return;
        }
        // Spec (basic/patterns/subscriptions): a server may end a listen by cancelling it; that
        // is the server ending it, as its result is.
        if (error instanceof EndedByPeerError) return this.#ended(stop, "the server cancelled it");
        // The server's own answer (an error, a malformed result) would be the same again: reported.
        const answered = error instanceof RpcError || error instanceof MalformedResponseError;
        this.#ended(stop, error instanceof Error ? error.message : String(error), answered ? "answered" : "broken");
      },
    );
    return heard;
  }

  /** Ends the open listen (client close, or before a re-open). */
  close(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    // Spec (basic/patterns/subscriptions): the client ends a listen by cancelling it.
    this.#current?.abort(new Error("subscriptions/listen: replaced or closed by the client"));
    this.#current = undefined;
    this.#asked = undefined;
    if (this.#id !== undefined) this.#replacedId = this.#id;
    this.#id = undefined;
    this.#settleHeard();
  }

  #settleHeard(): void {
    this.#heard?.();
    this.#heard = undefined;
  }

  /**
   * Whether a listen notification belongs to the open listen: tagged with its id. Spec
   * (basic/patterns/subscriptions#receiving-notifications): every notification on a listen carries
   * its subscriptionId, so an untagged one, or one naming no listen of ours, is dropped (reported
   * once); one of the listen just replaced is expected and dropped quietly.
   */
  isCurrent(meta: unknown): boolean {
    if (!this.#ours(meta)) return false;
    this.#churn = 0;
    return true;
  }

  #ours(meta: unknown): boolean {
    const id = isObject(meta) ? meta[META.subscriptionId] : undefined;
    if (id !== undefined && id === this.#id) return true;
    if (id === undefined || id !== this.#replacedId) this.#foreign(id);
    return false;
  }

  #foreign(id: unknown): void {
    if (this.#reportedForeign) return;
    this.#reportedForeign = true;
    const tag = id === undefined ? "no subscriptionId" : `subscriptionId ${JSON.stringify(id)}`;
    this.#onProblem(`subscriptions/listen: dropped a notification with ${tag}, not the open listen's (reported once)`);
  }

  /** The server's acknowledgement of the open listen: compared with what it asked for. */
  acknowledged(params: SubscriptionsAcknowledgedNotificationParams): void {
    const asked = this.#asked;
    if (!this.#ours(params._meta) || !asked) return;
    this.#serverEnds = 0;
    this.#retries = 0;
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

  /**
   * The listen ended without our cancel. The server ended it: opened again, once in a row. Its
   * stream broke: opened again, LISTEN_RETRY.maxInARow times in a row. An acknowledgement resets
   * both counts. The server answered with an error: reported. See LISTEN_RETRY for the delay.
   */
  #ended(stop: AbortController, why: string, how: "server" | "answered" | "broken" = "server"): void {
    if (this.#current !== stop) return;
    this.#current = undefined;
    this.#settleHeard();
    const again = how === "server" ? this.#serverEnds++ < REOPENS_AFTER_SERVER_END : how === "broken" && this.#retries++ < LISTEN_RETRY.maxInARow;
    if (!again) {
      this.#onProblem(`subscriptions/listen: ${why}; no longer listening (list changes and resource updates will not be heard)`);
      return;
    }
    // The first re-open after a server's end is at once: ending a listen is the server's right.
    const step = how === "server" ? this.#churn - 1 : this.#churn;
    this.#churn++;
    if (step < 0) return void this.open();
    this.#retryTimer = setTimeout(() => void this.open(), Math.min(LISTEN_RETRY.firstDelayMs * 2 ** step, LISTEN_RETRY.maxDelayMs));
  }
}
