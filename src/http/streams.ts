// The response streams of a Streamable HTTP session: one per POST that carried requests (it ends
// with their responses) and the optional standalone GET stream, each writing SSE events that the
// session's EventStore keeps for resumption (not a 2026-07-28 stream's: that revision has no
// resuming), or (JSON mode) one body with the response(s).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server

import type { JSONRPCMessage, JSONRPCResponse, RequestId } from "../jsonrpc/messages.js";
import type { EventStore } from "./event-store.js";
import { formatEvent, KEEP_ALIVE } from "./sse.js";

const encoder = new TextEncoder();

/**
 * The most bytes an SSE response may hold that the client has not taken yet. Past it the client
 * is not reading: the stream ends (its events stay in the store, to resume from), rather than
 * growing without bound. A single event larger than this still goes out whole.
 */
export const DEFAULT_MAX_BACKLOG_BYTES = 1024 * 1024;

export interface SseSinkOptions {
  /** See DEFAULT_MAX_BACKLOG_BYTES. */
  maxBacklogBytes?: number;
}

/** Where one stream's events are written: the current HTTP response, which a resuming GET may replace. */
export class SseSink {
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** After end(): the stream, until the response has taken what is still queued. */
  #draining: ReadableStreamDefaultController<Uint8Array> | undefined;
  readonly body: ReadableStream<Uint8Array>;
  readonly #maxBacklog: number;
  #onGone: () => void;
  /** What end() was asked to run once the response has taken every byte. */
  #onDelivered: () => void = () => {};

  constructor(onGone: () => void = () => {}, options: SseSinkOptions = {}) {
    this.#onGone = onGone;
    this.#maxBacklog = options.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES;
    // The queue counts bytes, so desiredSize is what is left of the backlog bound.
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => void (this.#controller = controller),
      // The response took a chunk: if the sink has ended, this may have been the last one.
      pull: () => this.#closeIfDrained(),
      // The client went away. Spec (transports#sending-messages-to-the-server, 2025-11-25): a
      // disconnect is not a cancellation; the work goes on and its events stay in the store for
      // resumption. (In 2026-07-28 it is one: that stream's onGone ends the request, modern-post.ts.)
      cancel: () => {
        this.#draining = undefined;
        this.#gone();
      },
    }, new ByteLengthQueuingStrategy({ highWaterMark: this.#maxBacklog }));
  }

  get open(): boolean {
    return this.#controller !== undefined;
  }

  write(text: string): void {
    const controller = this.#controller;
    if (!controller) return;
    if (controller.desiredSize! < 0) {
      // The backlog bound is passed: the client is not reading. Erroring the stream frees what it
      // holds at once and ends the response; the client resumes with Last-Event-ID.
      controller.error(new Error(`http: the client left more than ${this.#maxBacklog} bytes unread`));
      this.#gone();
      return;
    }
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      this.#gone();
    }
  }

  keepAlive(): void {
    this.write(KEEP_ALIVE);
  }

  /**
   * Ends the stream once the response has taken what is queued; no more writes. `onDelivered`
   * runs when it has (never if the client went away first).
   */
  end(onDelivered: () => void = () => {}): void {
    const controller = this.#controller;
    if (!controller) return;
    this.#onDelivered = onDelivered;
    this.#gone();
    this.#draining = controller;
    this.#closeIfDrained();
  }

  #closeIfDrained(): void {
    const controller = this.#draining;
    if (!controller || controller.desiredSize !== this.#maxBacklog) return;
    this.#draining = undefined;
    controller.close();
    this.#onDelivered();
  }

  #gone(): void {
    if (!this.#controller) return;
    this.#controller = undefined;
    this.#onGone();
  }
}

/** JSON mode's answer: one response, a batch's array, or nothing (every request was cancelled). */
export type JsonAnswer = (body: JSONRPCMessage | JSONRPCMessage[] | undefined) => void;

/**
 * The stream of one POST: it carries the messages related to its requests and ends once every
 * one of them is answered. Spec: after the last response the server SHOULD end the stream.
 */
export class PostStream {
  readonly name: string;
  readonly #pending = new Set<RequestId>();
  readonly #events: EventStore;
  #sink: SseSink | undefined;
  /** Whether its events are numbered and kept for a resuming GET (a 2026-07-28 stream has no resumption). */
  readonly #replayable: boolean;
  /** Answers the HTTP layer made itself (a batch's invalid items), still to join the batch answer. */
  #local: JSONRPCResponse[];
  /** JSON mode: the responses gathered so far, and what to do with them when complete. */
  readonly #json: { responses: JSONRPCMessage[]; done: JsonAnswer; batch: boolean } | undefined;
  #onFinished: () => void;

  constructor(name: string, ids: RequestId[], events: EventStore, mode: { sse: SseSink; local?: JSONRPCResponse[]; replayable?: boolean } | { json: JsonAnswer; batch: boolean; local?: JSONRPCResponse[] }, onFinished: () => void) {
    this.name = name;
    for (const id of ids) this.#pending.add(id);
    this.#events = events;
    this.#sink = "sse" in mode ? mode.sse : undefined;
    this.#replayable = !("sse" in mode) || mode.replayable !== false;
    this.#local = mode.local ?? [];
    this.#json = "json" in mode ? { responses: [], done: mode.json, batch: mode.batch } : undefined;
    this.#onFinished = onFinished;
  }

  get finished(): boolean {
    return this.#pending.size === 0;
  }

  /** A JSON body carries responses only: other messages for its requests must go elsewhere. */
  get carriesOnlyResponses(): boolean {
    return this.#json !== undefined;
  }

  /** A resuming GET takes over the writing; events already sent were replayed to it first. */
  attach(sink: SseSink): void {
    this.#sink?.end();
    this.#sink = sink;
  }

  /** Writes a message as an event (SSE) or keeps a response for the body (JSON). */
  send(message: JSONRPCMessage | JSONRPCMessage[]): void {
    // The batch answer: the items the HTTP layer answered join it, so the batch gets one array.
    if (Array.isArray(message) && this.#local.length > 0) message = [...message, ...this.#local.splice(0)];
    const answers = (Array.isArray(message) ? message : [message]).filter((m) => !("method" in m) && "id" in m);
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
      for (const id of this.#pending) {
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
    const local = this.#local.splice(0);
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
    this.#onFinished();
  }
}
