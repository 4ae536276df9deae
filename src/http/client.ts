// HttpClientTransport: the HTTP client transport to use. It speaks Streamable HTTP and falls back
// to the 2024-11-05 HTTP+SSE transport (legacy-client.ts) when the server turns the initialize
// POST away, as the spec tells clients that want to reach older servers.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#backwards-compatibility

import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import type { SendOptions, Transport, TransportHandlers } from "../protocol/transport.js";
import { HttpProtocolError, HttpStatusError, HttpTransportClosedError, peerKeyOf } from "./client-fetch.js";
import { StreamableHttpClientTransport, type StreamableHttpClientOptions } from "./client-transport.js";
import { LegacySseClientTransport, type LegacySseClientOptions } from "./legacy-client.js";
import { holdWhilePersonWaits } from "./client-auth.js";

/** Statuses that, for the initialize POST, mean "maybe an HTTP+SSE server". */
const LEGACY_HINTS = new Set([400, 404, 405]);

/**
 * Streamable HTTP first; if the server refuses the initialize POST with 400, 404 or 405, the
 * HTTP+SSE transport, found at the same URL or else at `sse` next to it (where servers that host
 * both, like ours, keep it). Which one won shows in `kind` once initialize has gone out.
 * A 2026-07-28 request (the client's server/discover probe) goes to Streamable HTTP only: its
 * refusal tells the client to fall back to initialize, which then takes the path above.
 */
export class HttpClientTransport implements Transport {
  readonly url: URL;
  /** The server, for what a client keeps per server (the era it speaks): origin and path. */
  readonly peerKey: string;
  readonly #options: StreamableHttpClientOptions & LegacySseClientOptions;
  readonly #streamable: StreamableHttpClientTransport;
  #active: Transport | undefined;
  #handlers: TransportHandlers | undefined;
  /** Stops telling the connection of the OAuth client's waits on a person (onHold). */
  #unhold: () => void = () => {};
  #closed = false;

  constructor(url: string | URL, options: StreamableHttpClientOptions & LegacySseClientOptions = {}) {
    this.url = new URL(url);
    this.peerKey = peerKeyOf(this.url);
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

  /** See Transport.onHold: kept here, not by the inner transports, since either may carry the wait. */
  onHold(listener: (held: boolean) => void): void {
    this.#unhold = holdWhilePersonWaits(this.#options.authorization, listener);
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
    this.#unhold();
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
