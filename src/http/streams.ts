// The response streams of a Streamable HTTP session: one per POST that carried requests (it ends
// with their responses) and the optional standalone GET stream, each writing SSE events that the
// session's EventStore keeps for resumption (not a 2026-07-28 stream's: that revision has no
// resuming), or (JSON mode) one body with the response(s), which a 2026-07-28 answer holds until
// its first message decides between the two.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server

import type { JSONRPCMessage, JSONRPCResponse, RequestId } from "../jsonrpc/messages.js";
import type { EventStore } from "./event-store.js";
import { formatEvent, formatRetry } from "./sse.js";
import type { SseSink } from "./sse-sink.js";

/** JSON mode's answer: one response, a batch's array, or nothing (every request was cancelled). */
export type JsonAnswer = (body: JSONRPCMessage | JSONRPCMessage[] | undefined) => void;

/**
 * How a POST stream answers: as SSE events on `sse`, or as one JSON body. With `orSse` (one request
 * only) the JSON body is held until the request's first message: its response keeps it JSON; any
 * other message (a progress, a log) comes first, and the body becomes the event stream `orSse`
 * opens, which carries the rest. `local` holds answers the HTTP layer made itself (a batch's invalid
 * items); `replayable: false` writes events without ids and keeps none (2026-07-28).
 */
export type PostMode = ({ sse: SseSink } | { json: JsonAnswer; batch: boolean; orSse?: () => SseSink }) & { local?: JSONRPCResponse[]; replayable?: boolean };

/**
 * The stream of one POST: it carries the messages related to its requests and ends once every
 * one of them is answered. Spec: after the last response the server SHOULD end the stream.
 */
export class PostStream {
  readonly name: string;
  readonly #pending: OwedIds;
  readonly #events: EventStore;
  #sink: SseSink | undefined;
  /** Whether its events are numbered and kept for a resuming GET (a 2026-07-28 stream has no resumption). */
  readonly #replayable: boolean;
  /** Answers the HTTP layer made itself (a batch's invalid items), still to join the batch answer. */
  #local: JSONRPCResponse[];
  /** JSON mode: the responses gathered so far, and what to do with them when complete. */
  #json: { responses: JSONRPCMessage[]; done: JsonAnswer; batch: boolean } | undefined;
  /** A held answer's way out to SSE, until its first message decides (see PostMode). */
  #toSse: (() => SseSink) | undefined;
  #onFinished: () => void;

  constructor(name: string, ids: RequestId[], events: EventStore, mode: PostMode, onFinished: () => void) {
    this.name = name;
    this.#pending = new OwedIds(ids);
    this.#events = events;
    this.#sink = "sse" in mode ? mode.sse : undefined;
    this.#replayable = mode.replayable !== false;
    this.#local = mode.local ?? [];
    this.#json = "json" in mode ? { responses: [], done: mode.json, batch: mode.batch } : undefined;
    this.#toSse = "json" in mode ? mode.orSse : undefined;
    this.#onFinished = onFinished;
  }

  get finished(): boolean {
    return this.#pending.size === 0;
  }

  /** A JSON body carries responses only: other messages for its requests must go elsewhere. */
  get carriesOnlyResponses(): boolean {
    return this.#json !== undefined && this.#toSse === undefined;
  }

  /** A resuming GET takes over the writing; events already sent were replayed to it first. */
  attach(sink: SseSink): void {
    this.#sink?.end();
    this.#sink = sink;
  }

  /**
   * Ends the connection carrying this stream, but not the stream (SSE polling): what comes next is
   * kept in the store and goes to the GET that resumes it. False, and nothing changes, where that
   * would lose messages: a JSON body, a 2026-07-28 stream (no resuming), or a stream that has sent
   * no event id yet (the client would have nothing to resume after).
   * Spec (transports#sending-messages-to-the-server, 2025-11-25): once an event with an id is sent,
   * the server MAY close the connection without ending the stream, and SHOULD send `retry` first.
   */
  release(retryMs?: number): boolean {
    if (this.#json || !this.#replayable || this.finished || !this.#events.has(this.name)) return false;
    if (retryMs !== undefined) this.#sink?.write(formatRetry(retryMs));
    this.#sink?.end();
    this.#sink = undefined;
    return true;
  }

  /** Writes a message as an event (SSE) or keeps a response for the body (JSON). */
  send(message: JSONRPCMessage | JSONRPCMessage[]): void {
    // The answer to a one-request JSON body, most of what a server sends: kept as it is, no lists made.
    if (this.#json && !Array.isArray(message) && !("method" in message) && "id" in message && this.#pending.delete(message.id as RequestId)) {
      this.#toSse = undefined;
      this.#json.responses.push(message);
      if (this.finished) this.#finish();
      return;
    }
    // The batch answer: the items the HTTP layer answered join it, so the batch gets one array.
    if (Array.isArray(message) && this.#local.length > 0) message = [...message, ...this.#local.splice(0)];
    const answers = (Array.isArray(message) ? message : [message]).filter((m) => !("method" in m) && "id" in m);
    const toSse = this.#toSse;
    this.#toSse = undefined;
    // A held answer's first message is not its response: the body becomes an event stream. (One
    // request per held body, so nothing is gathered yet: its response would have finished it.)
    if (toSse && answers.length === 0) {
      this.#json = undefined;
      this.#sink = toSse();
    }
    if (this.#json) {
      // JSON mode has no room for notifications or requests: only responses go in the body.
      this.#json.responses.push(...answers);
    } else {
      this.#write(message);
    }
    for (const answer of answers) this.#pending.delete((answer as { id: RequestId }).id);
    if (this.finished) this.#finish();
  }

  /** Request `id` will get no response (it was cancelled): stop waiting for it. */
  forget(id: RequestId): void {
    if (!this.#pending.delete(id)) return;
    if (this.finished) this.#finish();
  }

  /**
   * The session ended before the answers came. An SSE stream just ends; a JSON body still owes
   * the client one answer per request, so each gets an error saying what happened.
   */
  abandon(): void {
    if (this.#json && !this.finished) {
      for (const id of this.#pending.list()) {
        this.#json.responses.push({ jsonrpc: "2.0", id, error: { code: -32000, message: "the session ended before this request was answered" } });
      }
      this.#pending.clear();
      this.#finish();
      return;
    }
    this.#sink?.end();
    this.#onFinished();
  }

  keepAlive(): void {
    this.#sink?.keepAlive();
  }

  #write(message: JSONRPCMessage | JSONRPCMessage[]): void {
    const data = JSON.stringify(message);
    // Spec (2026-07-28 transports/streamable-http): no resumability: events carry no id and are not kept.
    if (!this.#replayable) return this.#sink?.write(formatEvent({ data }));
    const id = this.#events.append(this.name, data);
    this.#sink?.write(formatEvent({ id, data }));
  }

  #finish(): void {
    // Every valid item was cancelled, so no batch answer came: the local answers still go out.
    const local = this.#local.length > 0 ? this.#local.splice(0) : this.#local;
    // Told first: whoever takes the answer may close the session (one per request), which then finds no stream left to abandon.
    this.#onFinished();
    if (this.#json) {
      const { responses, done, batch } = this.#json;
      responses.push(...local);
      // JSON-RPC (#batch): an answer with no responses in it is sent as nothing at all.
      done(responses.length === 0 ? undefined : batch ? responses : responses[0]!);
    } else {
      if (local.length > 0) this.#write(local);
      // Taken whole by a response that ended normally: the client has it all, so nothing is kept
      // for a replay. A client that lost the connection before the end resumes and gets the rest.
      this.#sink?.end(() => this.#events.forget(this.name));
    }
  }
}

/**
 * The ids a stream still owes an answer. Most POSTs carry one request, kept without a Set: emptying
 * a small Set or Map makes V8 allocate a new table for it, which would be once per request.
 */
class OwedIds {
  readonly #many: Set<RequestId> | undefined;
  #one: RequestId | undefined;

  constructor(ids: RequestId[]) {
    if (ids.length === 1) this.#one = ids[0];
    else this.#many = new Set(ids);
  }

  get size(): number {
    return this.#many ? this.#many.size : this.#one === undefined ? 0 : 1;
  }

  delete(id: RequestId): boolean {
    if (this.#many) return this.#many.delete(id);
    if (this.#one === undefined || this.#one !== id) return false;
    this.#one = undefined;
    return true;
  }

  list(): RequestId[] {
    return this.#many ? [...this.#many] : this.#one === undefined ? [] : [this.#one];
  }

  clear(): void {
    this.#many?.clear();
    this.#one = undefined;
  }
}
