// One HTTP front door for a server definition: Streamable HTTP at /mcp, and the legacy HTTP+SSE
// transport at /sse and /messages for clients of 2024-11-05. The same security checks guard all
// of them (security.ts's Gate); an OAuth resource server's metadata is served beside them.
// `handle` serves web Requests; `listen` serves node:http, by default without the Fetch API
// (node-exchange.ts), with the same rules: both run `serve` on exchange.ts's request view.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#backwards-compatibility

import type { McpServer } from "../server/definition.js";
import { LegacySseHandler } from "./legacy-sse.js";
import { errorAnswer, type HttpAnswer, type HttpRequest } from "./exchange.js";
import { listen, listenWith, type Listening, type ListenOptions } from "./node.js";
import { toNodeAnswerListener } from "./node-exchange.js";
import { requestOf, responseOf } from "./web.js";
import { StreamableHttpHandler, type StreamableHttpOptions } from "./streamable-server.js";
import { servesSessionPerPost } from "./streamable-options.js";

export interface HttpServerOptions extends StreamableHttpOptions {
  /** Serve the 2024-11-05 HTTP+SSE transport too (default true; not with sessionPerPost). */
  legacySse?: boolean;
  /**
   * The most HTTP+SSE sessions at once, apart from `maxSessions` (default 100); more get 503.
   * They share `maxBodyBytes`, `keepAliveMs` and `sessionIdleMs`, but there the idle time counts
   * from the client's last POST: an open HTTP+SSE stream is not activity (it is the session).
   */
  maxLegacySessions?: number;
  /**
   * The most messages of one HTTP+SSE session taken in and not yet finished (default
   * DEFAULT_MAX_IN_FLIGHT, 256); at the bound a POST carrying a request gets 429.
   */
  maxLegacyInFlight?: number;
}

/**
 * How node:http reaches the handlers: "node" (the default) reads and writes node's own request and
 * response; "web" makes a Fetch API Request and Response of them, as any FetchHandler is served.
 * The same rules and answers either way (node's adapter alone may close a connection whose large
 * body went unread); "web" is there to test the web-standard path end to end.
 */
export type HttpAdapter = "node" | "web";

export interface HttpListenOptions extends ListenOptions {
  adapter?: HttpAdapter;
}

export class McpHttpServer {
  readonly streamable: StreamableHttpHandler;
  readonly legacy: LegacySseHandler | undefined;
  readonly #path: string;

  constructor(server: McpServer, options: HttpServerOptions = {}) {
    this.streamable = new StreamableHttpHandler(server, options);
    this.#path = options.path ?? "/mcp";
    this.legacy = options.legacySse === false || servesSessionPerPost(options) ? undefined : new LegacySseHandler(server, {
      maxBodyBytes: options.maxBodyBytes,
      maxSessions: options.maxLegacySessions,
      sessionIdleMs: options.sessionIdleMs,
      keepAliveMs: options.keepAliveMs,
      maxStreamBacklogBytes: options.maxStreamBacklogBytes,
      backlogBudget: this.streamable.backlogBudget,
      maxInFlight: options.maxLegacyInFlight,
      onProblem: options.onProblem,
    });
  }

  /** The web-standard entry point for every path. */
  readonly handle = async (request: Request): Promise<Response> => responseOf(await this.serve(requestOf(request)));

  /**
   * The entry point of every adapter, for every path. Not an async function, so that the MCP
   * endpoint's answer is the handler's own promise, not one more wrapped around it.
   */
  readonly serve = (request: HttpRequest): Promise<HttpAnswer> => {
    const path = request.path;
    // The resource server's metadata is public: it is how a client learns where to get a token.
    const metadata = this.streamable.resourceServer?.serveMetadata(request);
    if (metadata) return Promise.resolve(metadata);
    if (this.legacy && (path === "/sse" || path === this.legacy.messagesPath)) return this.#serveLegacy(this.legacy, request, path);
    if (path !== this.#path) return Promise.resolve(errorAnswer(404, `not found: the MCP endpoint is ${this.#path}`));
    return this.streamable.serve(request);
  };

  async #serveLegacy(legacy: LegacySseHandler, request: HttpRequest, path: string): Promise<HttpAnswer> {
    // The same Host, Origin and token checks as the MCP endpoint.
    const refusal = await this.streamable.gate.admit(request);
    if (refusal) return refusal;
    const owner = this.streamable.gate.owner(request);
    if (path === "/sse" && request.method === "GET") return legacy.open(owner);
    if (path === legacy.messagesPath && request.method === "POST") return legacy.post(request, owner);
    return errorAnswer(405, `${request.method} is not supported on ${path}`);
  }

  /** Listens with node:http, within its connection limits, through the adapter `options.adapter` names. */
  async listen(options: HttpListenOptions = {}): Promise<Listening> {
    const listening = await (options.adapter === "web" ? listen(this.handle, options) : listenWith(toNodeAnswerListener(this.serve), options));
    // A resource server's URL, unless configured, is where it turned out to listen.
    this.streamable.resourceServer?.useDefaultResource(listening.origin + this.#path);
    return listening;
  }

  async close(): Promise<void> {
    await this.streamable.close();
    await this.legacy?.close();
  }
}
