// The transport of one Streamable HTTP session, as its ServerConnection sees it: messages come in
// from POST bodies, and each message going out is put on exactly one stream: a response on the
// stream of the POST that asked, a message related to a request on that request's stream, and
// anything else on the standalone GET stream, if the client opened one.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#multiple-connections

import type { JSONRPCMessage, RequestId } from "../jsonrpc/messages.js";
import { CLOSED_AT_ONCE, SENT_AT_ONCE, type SendOptions, type Transport, type TransportHandlers } from "../protocol/transport.js";
import { EventStore } from "./event-store.js";
import { formatEvent } from "./sse.js";
import type { SseSink } from "./sse-sink.js";
import { itemsText, type PostBody } from "./post-body.js";
import { PostStream, type PostMode } from "./streams.js";

export class HttpSessionTransport implements Transport {
  readonly events: EventStore;
  /**
   * The POST streams still open, by the ids of the requests they carry: every open stream is here
   * under at least one id until it finishes (a reused id is refused, never moved to another stream),
   * so no second table of streams is kept (a session per request would fill and empty it each time).
   */
  readonly #byRequest = new ByRequestId<PostStream>();
  #standalone: SseSink | undefined;
  #handlers: TransportHandlers | undefined;
  #streamCount = 0;
  #closed = false;
  /** Called for requests and responses that had nowhere to go (no stream open for them). */
  readonly #onDropped: (message: JSONRPCMessage | JSONRPCMessage[]) => void;
  /** The requests awaiting answers in every session that shares this counter (one handler's). */
  readonly #shared: { awaited: number };

  constructor(events = new EventStore(), onDropped: (message: JSONRPCMessage | JSONRPCMessage[]) => void = () => {}, shared = { awaited: 0 }) {
    this.events = events;
    this.#onDropped = onDropped;
    this.#shared = shared;
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
  }

  /** Hands a POST body (one message or a batch) to the session: its text, and its items as read. */
  receive(body: PostBody): void {
    this.#handlers?.message(itemsText(body), body.isBatch ? body.items : body.items[0], body.single);
  }

  /** Opens the stream that will carry the answers to `ids` (registered before the body is delivered). */
  openPost(ids: RequestId[], mode: PostMode): PostStream {
    const name = `p${++this.#streamCount}`;
    const stream = new PostStream(name, ids, this.events, mode, () => {
      for (const id of ids) {
        if (this.#byRequest.get(id) !== stream) continue;
        this.#byRequest.delete(id);
        this.#shared.awaited--;
      }
    });
    for (const id of ids) {
      if (!this.#byRequest.has(id)) this.#shared.awaited++;
      this.#byRequest.set(id, stream);
    }
    return stream;
  }

  /**
   * Ends the connection carrying the answer to request `id`, but not its stream: the client
   * resumes it with Last-Event-ID (after `retryMs`, if given). See PostStream.release.
   */
  closeStream(id: RequestId, retryMs?: number): boolean {
    return this.#byRequest.get(id)?.release(retryMs) ?? false;
  }

  /** Whether request `id` is still owed an answer on an open POST (a new request must not reuse it). */
  awaits(id: RequestId): boolean {
    return this.#byRequest.has(id);
  }

  /** How many requests are still owed an answer on open POSTs. */
  get awaited(): number {
    return this.#byRequest.size;
  }

  /** The connection will not answer `id` (the client cancelled it): its POST stops waiting. */
  unanswered(id: RequestId): void {
    this.#byRequest.get(id)?.forget(id);
  }

  /**
   * A GET with Last-Event-ID: the events after it on its stream go to `sink`, which then carries
   * the rest of that stream. False if the id is unknown or its events are no longer kept.
   */
  resume(lastEventId: string, sink: SseSink): boolean {
    // Spec (transports#resumability-and-redelivery): replay only the messages of that stream.
    const missed = this.events.after(lastEventId);
    if (missed === undefined) return false;
    // The client has seen everything up to the id it sent: that need not be kept any longer.
    this.events.confirm(lastEventId);
    for (const event of missed) sink.replay(formatEvent(event));
    const name = this.events.streamOf(lastEventId)!;
    const post = this.#streams().find((stream) => stream.name === name);
    if (post) post.attach(sink);
    // Resuming the GET stream: the old connection may be half-open, so the new one replaces it.
    else if (name === "get") this.openStandalone(sink);
    else sink.end(() => this.events.forget(name));
    return true;
  }

  /** In use: a request still owed an answer, or a stream open to the client. */
  get busy(): boolean {
    return this.#byRequest.size > 0 || this.hasStandalone;
  }

  get hasStandalone(): boolean {
    return this.#standalone?.open ?? false;
  }

  /** The GET stream for messages unrelated to any request; a resuming GET replaces a stale one. */
  openStandalone(sink: SseSink): void {
    if (this.#standalone !== sink) this.#standalone?.end();
    this.#standalone = sink;
  }

  /** Every message is put on its stream (or dropped) at once: SENT_AT_ONCE, or a rejection. */
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("http: the session is closed"));
    try {
      this.#put(message, options);
      return SENT_AT_ONCE;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #put(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): void {
    const stream = this.#route(message, options);
    const isResponse = !Array.isArray(message) && !("method" in message);
    // In JSON mode a request's own notifications and requests have no place in its body; they
    // take the GET stream like unrelated messages (Spec: each message goes on exactly one stream).
    // A held body (PostMode's orSse) takes them: the first one turns it into an event stream.
    if (stream && (isResponse || Array.isArray(message) || !stream.carriesOnlyResponses)) return stream.send(message);
    // Spec (transports#listening-for-messages-from-the-server): the GET stream MUST NOT carry
    // responses; other messages go there when the client opened it.
    if (!isResponse && this.#standalone?.open) {
      const data = JSON.stringify(message);
      this.#standalone.write(formatEvent({ id: this.events.append("get", data), data }));
      return;
    }
    // A notification with no stream to take it is the client's choice (it opened no GET stream),
    // not a fault: reported, it would be a line per session for every list change, anyone's to cause.
    if (!Array.isArray(message) && "method" in message && !("id" in message)) return;
    this.#onDropped(message);
  }

  keepAlive(): void {
    this.#standalone?.keepAlive();
    for (const stream of this.#streams()) stream.keepAlive();
  }

  /** The POST streams still open, each once (a batch's is under each of its ids). */
  #streams(): PostStream[] {
    return [...new Set(this.#byRequest.values())];
  }

  /** Done at once (CLOSED_AT_ONCE), the close handler run: a session per request closes once per request. */
  close(): Promise<void> {
    if (this.#closed) return CLOSED_AT_ONCE;
    this.#closed = true;
    if (this.#byRequest.size > 0) for (const stream of this.#streams()) stream.abandon();
    this.#standalone?.end();
    this.events.clear();
    this.#handlers?.close();
    return CLOSED_AT_ONCE;
  }

  #route(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): PostStream | undefined {
    // A batch answer goes where any of its responses is awaited: an item may carry no id at all.
    for (const item of Array.isArray(message) ? message : [message]) {
      const stream = !("method" in item) && item.id !== undefined && item.id !== null ? this.#byRequest.get(item.id) : undefined;
      if (stream) return stream;
    }
    if (options?.relatedRequestId !== undefined) return this.#byRequest.get(options.relatedRequestId);
    return undefined;
  }
}

/**
 * Request ids to values, for a table that mostly holds one entry and empties once per request (a
 * session per request): that entry is kept in fields, any others in a Map made when two are held
 * at once, since in V8 deleting a Map's last entry allocates it a new table. Ids compare with
 * ===, as a Map compares the strings and numbers that JSON-RPC ids are (1 and "1" stay apart).
 */
class ByRequestId<V> {
  #firstId: RequestId | undefined;
  #first: V | undefined;
  #others: Map<RequestId, V> | undefined;

  get size(): number {
    return (this.#firstId === undefined ? 0 : 1) + (this.#others?.size ?? 0);
  }

  get(id: RequestId): V | undefined {
    return id === this.#firstId ? this.#first : this.#others?.get(id);
  }

  has(id: RequestId): boolean {
    return id === this.#firstId || (this.#others?.has(id) ?? false);
  }

  set(id: RequestId, value: V): void {
    if (id === this.#firstId || (this.#firstId === undefined && !this.#others?.has(id))) {
      this.#firstId = id;
      this.#first = value;
    } else {
      (this.#others ??= new Map()).set(id, value);
    }
  }

  delete(id: RequestId): void {
    if (id !== this.#firstId) return void this.#others?.delete(id);
    this.#firstId = undefined;
    this.#first = undefined;
  }

  *values(): Generator<V> {
    if (this.#firstId !== undefined) yield this.#first as V;
    if (this.#others) yield* this.#others.values();
  }
}
