// The client side of the 2024-11-05 HTTP+SSE transport, and HttpClientTransport, which speaks
// Streamable HTTP and falls back to HTTP+SSE when the server turns the initialize POST away.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#backwards-compatibility
// and https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
// Left out: reconnecting a dropped HTTP+SSE stream (its session lives and dies with the stream).

import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import { encodeMessage } from "../jsonrpc/messages.js";
import type { SendOptions, Transport, TransportHandlers } from "../protocol/transport.js";
import {
  assertSameOrigin, discard, eventStream, fetchStep, followAbort, HttpNetworkError, HttpProtocolError, HttpStatusError, HttpTransportClosedError, MessageTooLargeError,
  requestHeaders, statusError, type HttpClientOptions,
} from "./client-fetch.js";
import { StreamableHttpClientTransport, type StreamableHttpClientOptions } from "./client-transport.js";
import { readEvents, SseLimitError, SseParser } from "./sse-parser.js";

export interface LegacySseClientOptions extends HttpClientOptions {
  /** How long to wait for the `endpoint` event after the stream opens (default 10 s). */
  endpointTimeoutMs?: number;
}

export class LegacySseClientTransport implements Transport {
  /** The URL messages are POSTed to, from the server's `endpoint` event. */
  readonly endpoint: URL;
  readonly #options: HttpClientOptions;
  readonly #stream: AbortController;
  #handlers: TransportHandlers | undefined;
  /** Messages that came before start(). */
  #early: string[] = [];
  #closed = false;

  private constructor(endpoint: URL, stream: AbortController, options: HttpClientOptions) {
    this.endpoint = endpoint;
    this.#stream = stream;
    this.#options = options;
  }

  /**
   * Opens the event stream at `url` and waits for the server to name its POST endpoint. `signal`
   * gives up the wait (the stream with it) until the endpoint has come.
   */
  static async open(url: string | URL, options: LegacySseClientOptions = {}, signal?: AbortSignal): Promise<LegacySseClientTransport> {
    const sseUrl = new URL(url);
    const stream = new AbortController();
    const giveUp = () => stream.abort(signal?.reason);
    if (signal?.aborted) giveUp();
    signal?.addEventListener("abort", giveUp, { once: true });
    const timeoutMs = options.endpointTimeoutMs ?? 10_000;
    const timer = setTimeout(() => stream.abort(new HttpProtocolError(`GET ${sseUrl.pathname}: no endpoint event within ${timeoutMs} ms`)), timeoutMs);
    try {
      const headers = await requestHeaders(options, { accept: "text/event-stream" });
      const response = await fetchStep(options, `GET ${sseUrl.pathname}`, sseUrl, { method: "GET", headers, signal: stream.signal });
      if (!response.ok) throw await statusError(`GET ${sseUrl.pathname}`, response);
      eventStream(`GET ${sseUrl.pathname}`, response);
      return await new Promise<LegacySseClientTransport>((resolve, reject) => {
        let transport: LegacySseClientTransport | undefined;
        const parser = new SseParser({ maxEventBytes: options.maxMessageBytes });
        const onEvent = (event: { event: string; data: string }) => {
          if (transport) return transport.#receive(event.event, event.data);
          // Spec (2024-11-05 transports#http-with-sse): the first event MUST be `endpoint`, naming where to POST.
          if (event.event !== "endpoint") return reject(new HttpProtocolError(`GET ${sseUrl.pathname}: the first event is "${event.event}", not "endpoint"`));
          const endpoint = new URL(event.data, sseUrl);
          try {
            assertSameOrigin(`GET ${sseUrl.pathname}`, "endpoint", endpoint, sseUrl);
          } catch (error) {
            return reject(error);
          }
          transport = new LegacySseClientTransport(endpoint, stream, options);
          clearTimeout(timer);
          resolve(transport);
        };
        readEvents(response.body!, parser, onEvent).then(
          () => (transport ? transport.#ended(new HttpProtocolError("http+sse: the server closed the event stream")) : reject(new HttpProtocolError(`GET ${sseUrl.pathname}: the stream ended before the endpoint event`))),
          (error: unknown) => {
            const cause = stream.signal.aborted && stream.signal.reason instanceof Error
              ? stream.signal.reason
              : error instanceof SseLimitError
                ? new MessageTooLargeError("http+sse: event stream", error.what, error.limit)
                : new HttpNetworkError("http+sse: event stream", sseUrl, error);
            if (transport) transport.#ended(cause);
            else reject(cause);
          },
        );
      });
    } catch (error) {
      stream.abort();
      throw stream.signal.reason instanceof HttpProtocolError ? stream.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", giveUp);
    }
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    for (const text of this.#early.splice(0)) handlers.message(text);
  }

  /**
   * Spec (2024-11-05 transports#http-with-sse): every client message is POSTed to the endpoint; answers
   * come on the stream. The POST is aborted when the transport closes or `options.signal` fires.
   */
  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    const step = !Array.isArray(message) && "method" in message ? message.method : "response";
    if (this.#closed) throw new HttpTransportClosedError(step);
    const controller = new AbortController();
    const unfollow = [followAbort(controller, this.#stream.signal), followAbort(controller, options?.signal)];
    try {
      const headers = await requestHeaders(this.#options, { "content-type": "application/json" });
      const response = await fetchStep(this.#options, step, this.endpoint, { method: "POST", headers, body: encodeMessage(message), signal: controller.signal });
      if (!response.ok) throw await statusError(step, response);
      discard(response);
    } finally {
      for (const stop of unfollow) stop();
    }
  }

  async close(): Promise<void> {
    this.#ended();
  }

  /** Spec (2024-11-05 transports#http-with-sse): server messages are `message` events. */
  #receive(event: string, data: string): void {
    if (event !== "message" || this.#closed) return;
    if (this.#handlers) this.#handlers.message(data);
    else this.#early.push(data);
  }

  #ended(cause?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stream.abort();
    this.#handlers?.close(cause);
  }
}

/** Statuses that, for the initialize POST, mean "maybe an HTTP+SSE server". */
const LEGACY_HINTS = new Set([400, 404, 405]);

/**
 * Streamable HTTP first; if the server refuses the initialize POST with 400, 404 or 405, the
 * HTTP+SSE transport, found at the same URL or else at `sse` next to it (where servers that host
 * both, like ours, keep it). Which one won shows in `kind` once initialize has gone out.
 */
export class HttpClientTransport implements Transport {
  readonly url: URL;
  readonly #options: StreamableHttpClientOptions & LegacySseClientOptions;
  readonly #streamable: StreamableHttpClientTransport;
  #active: Transport | undefined;
  #handlers: TransportHandlers | undefined;
  #closed = false;

  constructor(url: string | URL, options: StreamableHttpClientOptions & LegacySseClientOptions = {}) {
    this.url = new URL(url);
    this.#options = options;
    this.#streamable = new StreamableHttpClientTransport(this.url, options);
  }

  get kind(): "streamable-http" | "http+sse" | undefined {
    return this.#active === undefined ? undefined : this.#active === this.#streamable ? "streamable-http" : "http+sse";
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    this.#streamable.start(handlers);
  }

  /** See StreamableHttpClientTransport.onNewSession; an HTTP+SSE session never renews itself. */
  onNewSession(listener: () => void): void {
    this.#streamable.onNewSession(listener);
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    if (this.#active) return this.#active.send(message, options);
    if (Array.isArray(message) || !("method" in message) || message.method !== "initialize") return this.#streamable.send(message, options);
    try {
      await this.#streamable.send(message, options);
      this.#active = this.#streamable;
      return;
    } catch (error) {
      // Spec (transports#backwards-compatibility): if the POST of initialize fails with 400, 404 or
      // 405, GET the URL and expect an `endpoint` event: then the server speaks HTTP+SSE.
      if (!(error instanceof HttpStatusError && LEGACY_HINTS.has(error.status))) throw error;
      const legacy = await this.#openLegacy(error, options?.signal);
      // Closed while the stream was being opened: close() did not know of it, so it goes now.
      if (this.#closed) {
        await legacy.close();
        throw new HttpTransportClosedError("initialize");
      }
      legacy.start(this.#handlers!);
      this.#active = legacy;
    }
    await this.#active.send(message, options);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await (this.#active ?? this.#streamable).close();
  }

  async #openLegacy(refusal: HttpStatusError, signal: AbortSignal | undefined): Promise<LegacySseClientTransport> {
    const candidates = [this.url, new URL("sse", this.url)].filter((url, at, all) => all.findIndex((other) => other.href === url.href) === at);
    const failures: string[] = [];
    for (const url of candidates) {
      try {
        return await LegacySseClientTransport.open(url, this.#options, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    throw new HttpProtocolError(`${refusal.message}; and no HTTP+SSE server answered either (${failures.join("; ")})`);
  }
}
