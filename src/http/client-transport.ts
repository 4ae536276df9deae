// Streamable HTTP, client side: each message is a POST to the MCP endpoint, answered with 202, a
// JSON body or an SSE stream; a GET stream carries what the server sends on its own; a dropped
// stream is resumed with GET and Last-Event-ID after the server's `retry` delay (backing off:
// client-reconnect.ts); a session the server ended is replaced by a fresh initialize. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// Left out: OAuth flows (the caller supplies a bearer token), and the fallback to HTTP+SSE (legacy-client.ts).

import { setTimeout as sleep } from "node:timers/promises";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../jsonrpc/framing.js";
import { isObject, type JSONRPCMessage, type RequestId } from "../jsonrpc/messages.js";
import type { SendOptions, Transport, TransportHandlers } from "../protocol/transport.js";
import {
  discard, fetchStep, followAbort, HttpNetworkError, HttpProtocolError, HttpTransportClosedError, isEventStream, isJson, MessageTooLargeError,
  readJsonBody, requestHeaders, SessionEndedError, statusError, type HttpClientOptions, type HttpStatusError,
} from "./client-fetch.js";
import { Reconnects, type ReconnectOptions } from "./client-reconnect.js";
import { answersIn, describe, type Outgoing } from "./client-messages.js";
import { readEvents, SseLimitError, SseParser } from "./sse-parser.js";

export interface StreamableHttpClientOptions extends HttpClientOptions, ReconnectOptions {
  /** Open the GET stream for the server's own messages once initialized (default true). */
  listen?: boolean;
  /** How long close() waits for the DELETE that ends the session (default 2000 ms). */
  closeTimeoutMs?: number;
}

const POST_ACCEPT = "application/json, text/event-stream";

export class StreamableHttpClientTransport implements Transport {
  readonly url: URL;
  readonly #options: StreamableHttpClientOptions;
  #handlers: TransportHandlers | undefined;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** The initialize request as it went out, resent to start over when the server ends the session. */
  #initialize: { text: string; id: RequestId } | undefined;
  /** The server ended our session; the next message first opens a new one. */
  #sessionLost = false;
  #reinitializing: Promise<void> | undefined;
  /** Requests not answered yet, each with the controller of the POST waiting for it. */
  readonly #waiting = new Map<RequestId, AbortController>();
  /** Every request and stream in flight, so that close() can abort them all. */
  readonly #inFlight = new Set<AbortController>();
  #listener: AbortController | undefined;
  #closed = false;
  readonly #newSessionListeners: (() => void)[] = [];
  readonly #maxMessageBytes: number;

  constructor(url: string | URL, options: StreamableHttpClientOptions = {}) {
    this.url = new URL(url);
    this.#options = options;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** The MCP-Session-Id the server assigned, if any. Spec (security): never log it. */
  get sessionId(): string | undefined { return this.#sessionId; }
  /** The version the initialize result named; sent as MCP-Protocol-Version from then on. */
  get protocolVersion(): string | undefined { return this.#protocolVersion; }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
  }

  /**
   * Called each time the transport has opened a new session on its own, after the server ended
   * the old one: what the client had set up there (subscriptions, log level) is gone.
   */
  onNewSession(listener: () => void): void {
    this.#newSessionListeners.push(listener);
  }

  /**
   * Resolves once the server has taken the message and, for a request, answered it. The request's
   * POST (and its response stream) is aborted when `options.signal` fires: the caller stopped waiting.
   */
  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    const outgoing = describe(message);
    if (this.#closed) throw new HttpTransportClosedError(outgoing.step);
    if (outgoing.initialize) {
      // Spec (transports#session-management): initialize is sent without a session id; it starts a new session.
      this.#initialize = { text: outgoing.text, id: outgoing.ids[0]! };
      this.#sessionId = undefined;
      this.#sessionLost = false;
    }
    await this.#post(outgoing, options?.signal);
    const method = Array.isArray(message) || !("method" in message) ? undefined : message.method;
    if (method === "notifications/initialized" && this.#options.listen !== false) void this.#listen();
  }

  /** Aborts every request and stream, then ends the session with DELETE. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const controller of this.#inFlight) controller.abort();
    this.#inFlight.clear();
    // Before the DELETE, so pending calls fail as "connection closed", not as aborted fetches.
    this.#handlers?.close();
    const session = this.#sessionId;
    if (session === undefined) return;
    // Spec (transports#session-management): a client that is done SHOULD send DELETE; 405 means the server keeps sessions itself.
    try {
      const headers = await requestHeaders(this.#options, { "mcp-session-id": session, "mcp-protocol-version": this.#protocolVersion });
      discard(await fetchStep(this.#options, "DELETE", this.url, { method: "DELETE", headers, signal: AbortSignal.timeout(this.#options.closeTimeoutMs ?? 2000) }));
    } catch {
      // The server will expire the session on its own.
    }
  }

  /** Sends one message; on a 404 for our session, opens a new session and sends it once more. */
  async #post(outgoing: Outgoing, signal: AbortSignal | undefined, mayReplay = true): Promise<void> {
    if (!outgoing.initialize) await this.#newSession(signal);
    const controller = this.#begin(signal);
    try {
      await this.#exchange(outgoing, controller, (text) => this.#receive(text));
    } catch (error) {
      if (this.#closed) throw new HttpTransportClosedError(outgoing.step);
      // Spec (transports#session-management): on 404 for a request carrying a session id, the
      // client MUST start a new session with a fresh initialize (in #post, before the resend).
      if (error instanceof SessionEndedError && mayReplay) return await this.#post(outgoing, signal, false);
      throw error;
    } finally {
      this.#end(controller, outgoing.ids);
    }
  }

  /** One POST and its answer: 202, a JSON body, or an event stream followed until it answers. */
  async #exchange(outgoing: Outgoing, controller: AbortController, deliver: (text: string) => void): Promise<void> {
    const { step, ids } = outgoing;
    for (const id of ids) this.#waiting.set(id, controller);
    const sent = this.#sessionId;
    // Spec (transports#sending-messages-to-the-server): Accept lists both types; one message per POST.
    const response = await this.#request("POST", step, controller.signal, { accept: POST_ACCEPT, "content-type": "application/json" }, outgoing.text, outgoing.initialize);
    if (!response.ok) throw await this.#refusal(step, response, sent);
    // Spec (transports#session-management): keep the id from the response that carries the InitializeResult.
    if (outgoing.initialize) this.#sessionId = response.headers.get("mcp-session-id") ?? undefined;
    // Spec (transports#sending-messages-to-the-server): notifications and responses get 202, no body.
    if (ids.length === 0 || response.status === 202) return discard(response);
    // Spec (transports#sending-messages-to-the-server): the client MUST handle both JSON and SSE answers.
    if (isEventStream(response)) return this.#follow(response, step, ids, controller.signal, deliver);
    if (!isJson(response)) {
      discard(response);
      throw new HttpProtocolError(`${step}: the server answered with ${response.headers.get("content-type") ?? "no content type"}, not JSON or an event stream`);
    }
    let text: string;
    try {
      text = await readJsonBody(response, step, this.#maxMessageBytes);
    } catch (error) {
      if (controller.signal.aborted || error instanceof MessageTooLargeError) throw error;
      throw new HttpNetworkError(step, this.url, error);
    }
    deliver(text);
    if (ids.some((id) => this.#waiting.has(id))) throw new HttpProtocolError(`${step}: the server's JSON answer is not the response to the request`);
  }

  /**
   * Reads an event stream; when the connection drops before the answers came (or, for the GET
   * stream, at any time), waits the server's `retry` delay and resumes with GET and Last-Event-ID.
   */
  async #follow(response: Response, step: string, ids: RequestId[] | undefined, signal: AbortSignal, deliver: (text: string) => void): Promise<void> {
    const answered = () => ids !== undefined && ids.every((id) => !this.#waiting.has(id));
    let lastEventId: string | undefined;
    const reconnects = new Reconnects(this.#options, ids !== undefined);
    for (;;) {
      const parser = new SseParser({ maxEventBytes: this.#maxMessageBytes });
      let delivered = false;
      try {
        // Streamable HTTP sends unnamed events; a priming event (an id, empty data) carries no message.
        await readEvents(response.body!, parser, (event) => {
          if (event.event !== "message" || event.data === "") return;
          delivered = true;
          deliver(event.data);
        }, answered);
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof SseLimitError) throw new MessageTooLargeError(step, error.what, error.limit);
        // A dropped connection is not the end of the stream (and never a cancellation): resume below.
      }
      lastEventId = parser.lastEventId ?? lastEventId;
      if (answered() || this.#closed) return;
      if (ids !== undefined && lastEventId === undefined) {
        throw new HttpProtocolError(`${step}: the server ended the response stream before answering, with no event id to resume from`);
      }
      const delay = reconnects.ended(delivered, parser.retry);
      if (delay === undefined) {
        throw new HttpProtocolError(`${step}: the server ended the response stream ${reconnects.quiet} times in a row without a message; gave up`);
      }
      // Spec (transports#sending-messages-to-the-server, SEP-1699): the client MUST wait `retry` ms before reconnecting.
      await sleep(delay, undefined, { signal });
      // Spec (transports#resumability-and-redelivery): resume with GET and Last-Event-ID, whether the stream came from POST or GET.
      const sent = this.#sessionId;
      response = await this.#request("GET", step, signal, { accept: "text/event-stream", "last-event-id": lastEventId });
      if (!response.ok) throw await this.#refusal(step, response, sent);
      if (!isEventStream(response)) {
        discard(response);
        throw new HttpProtocolError(`${step}: the server answered the resuming GET with ${response.headers.get("content-type") ?? "no content type"}, not an event stream`);
      }
    }
  }

  /** Spec (transports#listening-for-messages-from-the-server): the GET stream for the server's own requests and notifications. */
  async #listen(): Promise<void> {
    if (this.#closed || (this.#listener && !this.#listener.signal.aborted)) return;
    const controller = (this.#listener = this.#begin());
    const sent = this.#sessionId;
    try {
      // Spec (transports#listening-for-messages-from-the-server): GET with Accept: text/event-stream.
      const response = await this.#request("GET", "GET stream", controller.signal, { accept: "text/event-stream" });
      // 405: the server offers no GET stream. Without a session, a 4xx says the same less politely.
      if (response.status === 405 || (sent === undefined && response.status >= 400 && response.status < 500)) return discard(response);
      if (!response.ok) throw await this.#refusal("GET stream", response, sent);
      if (!isEventStream(response)) {
        discard(response);
        throw new HttpProtocolError(`GET stream: the server answered with ${response.headers.get("content-type") ?? "no content type"}, not an event stream`);
      }
      await this.#follow(response, "GET stream", undefined, controller.signal, (text) => this.#receive(text));
    } catch (error) {
      // A session that ended is replaced by the next message sent, which also reopens this stream.
      if (this.#closed || controller.signal.aborted || error instanceof SessionEndedError) return;
      this.#options.onProblem?.(error instanceof Error ? error.message : String(error));
    } finally {
      this.#end(controller, []);
      if (this.#listener === controller) this.#listener = undefined;
    }
  }

  /**
   * Waits while a new session is opened, if the old one ended. The attempt belongs to the message
   * that started it and stops when its sender stops waiting (a server that stalls must not hold
   * it forever); a message that was waiting on an abandoned attempt starts its own.
   */
  async #newSession(signal: AbortSignal | undefined): Promise<void> {
    while (this.#sessionLost || this.#reinitializing) {
      try {
        await (this.#reinitializing ??= this.#reinitialize(signal));
      } catch (error) {
        if (!(error instanceof AbandonedAttempt) || signal?.aborted) throw error;
      }
    }
  }

  /** Resends the initialize request seen earlier, without a session id, then notifications/initialized. */
  async #reinitialize(signal: AbortSignal | undefined): Promise<void> {
    const initialize = this.#initialize!;
    this.#listener?.abort();
    const controller = this.#begin(signal);
    try {
      this.#sessionLost = false;
      const init: Outgoing = { text: initialize.text, step: "initialize (new session)", ids: [initialize.id], initialize: true };
      // The connection already has its InitializeResult; the new one is kept from it.
      await this.#exchange(init, controller, (text) => this.#receive(text, initialize.id));
      await this.#exchange(describe({ jsonrpc: "2.0", method: "notifications/initialized" }), controller, (text) => this.#receive(text));
    } catch (error) {
      this.#sessionLost = true;
      if (this.#closed) throw new HttpTransportClosedError("initialize (new session)");
      throw controller.signal.aborted ? new AbandonedAttempt() : error;
    } finally {
      this.#end(controller, [initialize.id]);
      this.#reinitializing = undefined;
    }
    if (this.#options.listen !== false) void this.#listen();
    for (const listener of this.#newSessionListeners) listener();
  }

  /** Hands a message to the connection, noting the answers in it (and the negotiated version). */
  #receive(text: string, swallow?: RequestId): void {
    let swallowed = false;
    for (const item of answersIn(text)) {
      this.#waiting.delete(item.id);
      if (this.#initialize && item.id === this.#initialize.id && isObject(item.result) && typeof item.result.protocolVersion === "string") {
        this.#protocolVersion = item.result.protocolVersion;
      }
      swallowed ||= item.id === swallow;
    }
    if (!swallowed) this.#handlers?.message(text);
  }

  /** A request with the session headers. Spec: MCP-Session-Id and MCP-Protocol-Version on every request after initialize. */
  async #request(method: string, step: string, signal: AbortSignal, own: Record<string, string | undefined>, body?: string, initialize = false): Promise<Response> {
    const headers = await requestHeaders(this.#options, {
      ...own,
      "mcp-session-id": initialize ? undefined : this.#sessionId,
      "mcp-protocol-version": initialize ? undefined : this.#protocolVersion,
    });
    return fetchStep(this.#options, step, this.url, { method, headers, body, signal });
  }

  /** The error for a refused request; a 404 for our session id also marks the session as ended. */
  async #refusal(step: string, response: Response, sentSession: string | undefined): Promise<HttpStatusError> {
    const error = await statusError(step, response);
    if (response.status !== 404 || sentSession === undefined) return error;
    // Only if no other request has started a new session meanwhile.
    if (this.#sessionId === sentSession) {
      this.#sessionId = undefined;
      this.#sessionLost = true;
    }
    return new SessionEndedError(error);
  }

  /** A controller for one request or stream, aborted by close() and by the sender's own signal. */
  #begin(signal?: AbortSignal): AbortController {
    const controller = new AbortController();
    this.#inFlight.add(controller);
    followAbort(controller, signal);
    return controller;
  }

  #end(controller: AbortController, ids: RequestId[]): void {
    this.#inFlight.delete(controller);
    for (const id of ids) if (this.#waiting.get(id) === controller) this.#waiting.delete(id);
  }
}

/** A new session's initialize was aborted because the message it was opened for is no longer awaited. */
class AbandonedAttempt extends Error {
  constructor() {
    super("initialize (new session): abandoned, its sender stopped waiting");
    this.name = "AbandonedAttempt";
  }
}
