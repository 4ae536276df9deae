// One HTTP front door for a server definition: Streamable HTTP at /mcp, and the legacy HTTP+SSE
// transport at /sse and /messages for clients of 2024-11-05. The same security checks guard all
// of them. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#backwards-compatibility

import type { McpServer } from "../server/definition.js";
import { LegacySseHandler } from "./legacy-sse.js";
import { listen, type Listening, type ListenOptions } from "./node.js";
import { errorResponse } from "./responses.js";
import { StreamableHttpHandler, type StreamableHttpOptions } from "./streamable-server.js";

export interface HttpServerOptions extends StreamableHttpOptions {
  /** Serve the 2024-11-05 HTTP+SSE transport too (default true; not in stateless mode). */
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

export class McpHttpServer {
  readonly streamable: StreamableHttpHandler;
  readonly legacy: LegacySseHandler | undefined;
  readonly #path: string;

  constructor(server: McpServer, options: HttpServerOptions = {}) {
    this.streamable = new StreamableHttpHandler(server, options);
    this.#path = options.path ?? "/mcp";
    this.legacy = options.legacySse === false || options.stateless ? undefined : new LegacySseHandler(server, {
      maxBodyBytes: options.maxBodyBytes,
      maxSessions: options.maxLegacySessions,
      sessionIdleMs: options.sessionIdleMs,
      keepAliveMs: options.keepAliveMs,
      maxStreamBacklogBytes: options.maxStreamBacklogBytes,
      maxInFlight: options.maxLegacyInFlight,
      onProblem: options.onProblem,
    });
  }

  /** The web-standard entry point for every path. */
  readonly handle = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (this.legacy && (path === "/sse" || path === this.legacy.messagesPath)) {
      // The same Host, Origin and token checks as the MCP endpoint.
      const refusal = this.streamable.guard(request);
      if (refusal) return refusal;
      if (path === "/sse" && request.method === "GET") return this.legacy.open();
      if (path === this.legacy.messagesPath && request.method === "POST") return this.legacy.post(request);
      return errorResponse(405, `${request.method} is not supported on ${path}`);
    }
    if (path !== this.#path) return errorResponse(404, `not found: the MCP endpoint is ${this.#path}`);
    return this.streamable.handle(request);
  };

  /** Listens with node:http, within its connection limits; the handler itself runs anywhere the Fetch API does. */
  listen(options: ListenOptions = {}): Promise<Listening> {
    return listen(this.handle, options);
  }

  async close(): Promise<void> {
    await this.streamable.close();
    await this.legacy?.close();
  }
}
