// The client side of the 2024-11-05 HTTP+SSE transport: what HttpClientTransport (client.ts)
// falls back to when a server turns the initialize POST away.
// Spec: https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
// Left out: reconnecting a dropped HTTP+SSE stream (its session lives and dies with the stream).

import { oauthClientFor } from "../auth/oauth-client.js";
import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import { encodeMessage } from "../jsonrpc/messages.js";
import { RequestClock } from "../jsonrpc/request-clock.js";
import type { SendOptions, Transport, TransportHandlers } from "../protocol/transport.js";
import {
  assertSameOrigin, discard, eventStream, fetchStep, followAbort, HttpNetworkError, HttpProtocolError, HttpTransportClosedError, MessageTooLargeError,
  requestHeaders, statusError, type HttpClientOptions,
} from "./client-fetch.js";
import { readEvents, SseLimitError, SseParser } from "./sse-parser.js";
import { holdWhilePersonWaits } from "./client-auth.js";

export interface LegacySseClientOptions extends HttpClientOptions {
  /** How long to wait for the `endpoint` event after the stream opens (default 10 s), a person's OAuth sign-in not counted. */
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
  /** Stops telling the connection of the OAuth client's waits on a person (onHold). */
  #unhold: () => void = () => {};
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
    // The wait measures the server: it stands still while a person signs in (a 401 to the GET).
    const clock = new RequestClock();
    const unhold = holdWhilePersonWaits(options.authorization, (held) => (held ? clock.hold() : clock.release()));
    const timer = clock.after(timeoutMs, () => stream.abort(new HttpProtocolError(`GET ${sseUrl.pathname}: no endpoint event within ${timeoutMs} ms`)));
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
          // The POST endpoint is the same server as the stream: the same tokens, one authorization.
          if (options.authorization) oauthClientFor(options.authorization).alias(endpoint, sseUrl);
          transport = new LegacySseClientTransport(endpoint, stream, options);
          clock.cancel(timer);
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
      clock.cancel(timer);
      unhold();
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

  /** See Transport.onHold: while the OAuth client waits on a person to authorize. */
  onHold(listener: (held: boolean) => void): void {
    this.#unhold = holdWhilePersonWaits(this.#options.authorization, listener);
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
    this.#unhold();
    this.#stream.abort();
    this.#handlers?.close(cause);
  }
}
