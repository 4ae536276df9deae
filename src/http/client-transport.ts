// Streamable HTTP, client side: each message is a POST to the MCP endpoint, answered with 202, a
// JSON body or an SSE stream; a GET stream carries what the server sends on its own; a dropped
// stream is resumed with GET and Last-Event-ID after the server's `retry` delay (backing off:
// client-reconnect.ts); a session the server ended is replaced by a fresh initialize (client-session.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// Dual-era: a 2026-07-28 message (its `_meta` claims a version) is POSTed with the header mirror
// and nothing of the session, its stream is never resumed, and closing that stream cancels it.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
// OAuth (a 401, a 403 insufficient_scope) is handled below every request, in fetchStep (client-auth.ts).
// Left out: the fallback to HTTP+SSE (client.ts).

import { DEFAULT_MAX_MESSAGE_BYTES } from "../jsonrpc/framing.js";
import { isObject, type JSONRPCMessage, type RequestId } from "../jsonrpc/messages.js";
import type { SendOptions, Transport, TransportHandlers } from "../protocol/transport.js";
import {
  discard, eventStream, fetchStep, followAbort, HttpNetworkError, HttpProtocolError, HttpTransportClosedError, isEventStream, isJsonResponse, MessageTooLargeError,
  peerKeyOf, readJsonBody, requestHeaders, SessionEndedError, statusError, type HttpClientOptions, type HttpStatusError,
} from "./client-fetch.js";
import { followStream, type ReconnectOptions } from "./client-reconnect.js";
import { answersIn, describe, modernHeaders, type Answer, type Outgoing } from "./client-messages.js";
import { ModernStreams, refusedModern } from "./client-modern.js";
import { ClientSession } from "./client-session.js";
import { holdWhilePersonWaits } from "./client-auth.js";

export interface StreamableHttpClientOptions extends HttpClientOptions, ReconnectOptions {
  /** Open the GET stream for the server's own messages once initialized (default true). */
  listen?: boolean;
  /** How long close() waits for the DELETE that ends the session (default 2000 ms). */
  closeTimeoutMs?: number;
}

const POST_ACCEPT = "application/json, text/event-stream";

export class StreamableHttpClientTransport implements Transport {
  readonly url: URL;
  /** The server, for what a client keeps per server (the era it speaks): origin and path. */
  readonly peerKey: string;
  readonly #options: StreamableHttpClientOptions;
  #handlers: TransportHandlers | undefined;
  readonly #session: ClientSession;
  #protocolVersion: string | undefined;
  /** Requests not answered yet, each with the controller of the POST waiting for it. */
  readonly #waiting = new Map<RequestId, AbortController>();
  /** The 2026-07-28 requests in flight: cancelling one closes its stream. */
  readonly #modern = new ModernStreams();
  /** Every request and stream in flight, so that close() can abort them all; each with what unhooks it from its sender's signal. */
  readonly #inFlight = new Map<AbortController, () => void>();
  #listener: AbortController | undefined;
  /** Stops telling the connection of the OAuth client's waits on a person (onHold). */
  #unhold: () => void = () => {};
  #closed = false;
  readonly #maxMessageBytes: number;

  constructor(url: string | URL, options: StreamableHttpClientOptions = {}) {
    this.url = new URL(url);
    this.peerKey = peerKeyOf(this.url);
    this.#options = options;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#session = new ClientSession({
      post: (outgoing, signal, deliver) => this.#send(outgoing, signal, deliver),
      receive: (text, own) => this.#receive(text, own),
      isClosed: () => this.#closed,
    });
    // A new session gets its own GET stream, before the application hears of it.
    this.#session.onNewSession(() => {
      if (this.#options.listen !== false) void this.#listen();
    });
  }

  /** The MCP-Session-Id the server assigned, if any. Spec (security): never log it. */
  get sessionId(): string | undefined { return this.#session.id; }
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
    this.#session.onNewSession(listener);
  }

  /** See Transport.onHold: while the OAuth client waits on a person to authorize. */
  onHold(listener: (held: boolean) => void): void {
    this.#unhold = holdWhilePersonWaits(this.#options.authorization, listener);
  }

  /**
   * Resolves once the server has taken the message and, for a request, answered it. The request's
   * POST (and its response stream) is aborted when `options.signal` fires: the caller stopped waiting.
   * `options.headers` (Mcp-Param-*) go with a 2026-07-28 message only, under the transport's own.
   */
  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    const outgoing = describe(message);
    if (this.#closed) throw new HttpTransportClosedError(outgoing.step);
    const mirrored = modernHeaders(message);
    if (mirrored) outgoing.modern = { ...options?.headers, ...mirrored };
    if (this.#modern.cancels(message, outgoing)) return;
    if (outgoing.initialize) this.#session.starting(outgoing);
    await this.#post(outgoing, options?.signal);
    const method = Array.isArray(message) || !("method" in message) ? undefined : message.method;
    if (method === "notifications/initialized" && this.#options.listen !== false) void this.#listen();
  }

  /** Aborts every request and stream, then ends the session with DELETE. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unhold();
    for (const controller of this.#inFlight.keys()) controller.abort();
    this.#inFlight.clear();
    // Before the DELETE, so pending calls fail as "connection closed", not as aborted fetches.
    this.#handlers?.close();
    const session = this.#session.id;
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
    // A 2026-07-28 message needs no session, and never waits for one to be opened again.
    if (!outgoing.initialize && !outgoing.modern) await this.#session.ready(signal);
    try {
      await this.#send(outgoing, signal, (text) => this.#receive(text));
    } catch (error) {
      if (this.#closed) throw new HttpTransportClosedError(outgoing.step);
      // Spec (transports#session-management): on 404 for a request carrying a session id, the
      // client MUST start a new session with a fresh initialize (session.ready, before the resend).
      if (error instanceof SessionEndedError && mayReplay) return await this.#post(outgoing, signal, false);
      throw error;
    }
  }

  /** One exchange under its own controller, which close() and the sender's `signal` abort. */
  async #send(outgoing: Outgoing, signal: AbortSignal | undefined, deliver: (text: string) => void): Promise<void> {
    const controller = this.#begin(signal);
    try {
      await this.#exchange(outgoing, controller, deliver);
    } finally {
      this.#end(controller, outgoing.ids);
    }
  }

  /** One POST and its answer: 202, a JSON body, or an event stream followed until it answers. */
  async #exchange(outgoing: Outgoing, controller: AbortController, deliver: (text: string) => void): Promise<void> {
    const { step, ids, modern } = outgoing;
    for (const id of ids) this.#waiting.set(id, controller);
    if (modern) this.#modern.opened(ids, controller);
    const sent = modern ? undefined : this.#session.id;
    // Spec (transports#sending-messages-to-the-server): Accept lists both types; one message per POST.
    // Spec (2026-07-28 streamable-http#request-metadata): a modern POST carries the mirror headers, and no session.
    const own = { ...modern, accept: POST_ACCEPT, "content-type": "application/json" };
    const response = await this.#request("POST", step, controller.signal, own, outgoing.text, outgoing.initialize || modern !== undefined);
    if (!response.ok && modern) return refusedModern(step, response, ids[0], deliver);
    if (!response.ok) throw await this.#refusal(step, response, sent);
    // Spec (transports#session-management): keep the id from the response that carries the InitializeResult.
    if (outgoing.initialize) this.#session.id = response.headers.get("mcp-session-id") ?? undefined;
    // Spec (transports#sending-messages-to-the-server): notifications and responses get 202, no body.
    if (ids.length === 0 || (response.status === 202 && !modern)) return discard(response);
    // A legacy 202 to a request leaves its answer to the GET stream; the 2026-07-28 era has none.
    if (response.status === 202) {
      discard(response);
      throw new HttpProtocolError(`${step}: the server answered 202, with no response; a 2026-07-28 request has no other stream its answer could come on`);
    }
    // Spec (transports#sending-messages-to-the-server): the client MUST handle both JSON and SSE answers.
    if (isEventStream(response)) return this.#follow(response, step, ids, controller.signal, deliver, modern === undefined);
    if (!isJsonResponse(response)) {
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

  /** Follows a response stream or the GET stream until it is done, resuming it when it drops (if `resumable`). */
  #follow(response: Response, step: string, ids: RequestId[] | undefined, signal: AbortSignal, deliver: (text: string) => void, resumable = true): Promise<void> {
    return followStream(response, {
      step, signal, deliver,
      answered: ids && (() => ids.every((id) => !this.#waiting.has(id))),
      // Spec (transports#resumability-and-redelivery): resume with GET and Last-Event-ID, whether the stream came from POST or GET.
      resume: resumable ? async (lastEventId) => {
        const sent = this.#session.id;
        const again = await this.#request("GET", step, signal, { accept: "text/event-stream", "last-event-id": lastEventId });
        if (!again.ok) throw await this.#refusal(step, again, sent);
        return eventStream(step, again, "the resuming GET");
      } : undefined,
      isClosed: () => this.#closed,
      maxEventBytes: this.#maxMessageBytes,
    }, this.#options);
  }

  /** Spec (transports#listening-for-messages-from-the-server): the GET stream for the server's own requests and notifications. */
  async #listen(): Promise<void> {
    if (this.#closed || (this.#listener && !this.#listener.signal.aborted)) return;
    const controller = (this.#listener = this.#begin());
    const sent = this.#session.id;
    try {
      // Spec (transports#listening-for-messages-from-the-server): GET with Accept: text/event-stream.
      const response = await this.#request("GET", "GET stream", controller.signal, { accept: "text/event-stream" });
      // 405: the server offers no GET stream. Without a session, a 4xx says the same less politely.
      if (response.status === 405 || (sent === undefined && response.status >= 400 && response.status < 500)) return discard(response);
      if (!response.ok) throw await this.#refusal("GET stream", response, sent);
      await this.#follow(eventStream("GET stream", response), "GET stream", undefined, controller.signal, (text) => this.#receive(text));
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
   * Hands a message to the connection, noting the answers in it (and the negotiated version);
   * a message holding the answer `own` is the transport's own and is kept back, that answer returned.
   */
  #receive(text: string, own?: RequestId): Answer | undefined {
    let kept: Answer | undefined;
    for (const item of answersIn(text)) {
      this.#waiting.delete(item.id);
      if (item.id === this.#session.initializeId && isObject(item.result) && typeof item.result.protocolVersion === "string") {
        this.#protocolVersion = item.result.protocolVersion;
      }
      if (item.id === own) kept = item;
    }
    if (kept === undefined) this.#handlers?.message(text);
    return kept;
  }

  /**
   * A request with the session headers, unless `sessionless` (initialize, a 2026-07-28 message).
   * Spec: MCP-Session-Id and MCP-Protocol-Version on every request after initialize.
   */
  async #request(method: string, step: string, signal: AbortSignal, own: Record<string, string | undefined>, body?: string, sessionless = false): Promise<Response> {
    const headers = await requestHeaders(this.#options, sessionless ? own : {
      ...own,
      "mcp-session-id": this.#session.id,
      "mcp-protocol-version": this.#protocolVersion,
    });
    return fetchStep(this.#options, step, this.url, { method, headers, body, signal });
  }

  /** The error for a refused request; a 404 for our session id also marks the session as ended. */
  async #refusal(step: string, response: Response, sentSession: string | undefined): Promise<HttpStatusError> {
    const error = await statusError(step, response);
    if (response.status !== 404 || sentSession === undefined) return error;
    // The old session's GET stream goes with it: resumed, it would carry the new session's id.
    if (this.#session.ended(sentSession)) this.#listener?.abort();
    return new SessionEndedError(error);
  }

  /** A controller for one request or stream, aborted by close() and by the sender's own signal. */
  #begin(signal?: AbortSignal): AbortController {
    const controller = new AbortController();
    // A request that waited (for a new session) while close() ran starts aborted: close() has
    // already aborted everything it knew of, and nothing would abort this one later.
    if (this.#closed) controller.abort(new HttpTransportClosedError("request"));
    this.#inFlight.set(controller, followAbort(controller, signal));
    return controller;
  }

  #end(controller: AbortController, ids: RequestId[]): void {
    this.#inFlight.get(controller)?.();
    this.#inFlight.delete(controller);
    for (const id of ids) if (this.#waiting.get(id) === controller) this.#waiting.delete(id);
    this.#modern.closed(ids, controller);
  }
}
