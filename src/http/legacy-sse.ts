// The HTTP+SSE transport of protocol 2024-11-05, kept for old clients next to Streamable HTTP:
// GET /sse opens a stream whose first event, `endpoint`, names the URL to POST messages to; each
// POST is answered 202, and every server message travels on the stream as an event `message`.
// Spec: https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse

import { randomBytes } from "node:crypto";
import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import type { Transport, TransportHandlers } from "../protocol/transport.js";
import type { McpServer } from "../server/definition.js";
import { errorResponse, readBody } from "./responses.js";
import { formatEvent, SSE_HEADERS } from "./sse.js";
import { SseSink } from "./streams.js";

class LegacySessionTransport implements Transport {
  readonly sink: SseSink;
  #handlers: TransportHandlers | undefined;

  constructor(sink: SseSink) {
    this.sink = sink;
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
  }

  receive(text: string): void {
    this.#handlers?.message(text);
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    if (!this.sink.open) throw new Error("http+sse: the stream is closed");
    this.sink.write(formatEvent({ event: "message", data: JSON.stringify(message) }));
  }

  async close(): Promise<void> {
    this.sink.end();
    this.#handlers?.close();
  }
}

export class LegacySseHandler {
  readonly #server: McpServer;
  readonly #sessions = new Map<string, LegacySessionTransport>();
  readonly #messagesPath: string;
  readonly #maxBodyBytes: number;

  constructor(server: McpServer, options: { messagesPath?: string; maxBodyBytes?: number } = {}) {
    this.#server = server;
    this.#messagesPath = options.messagesPath ?? "/messages";
    this.#maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  }

  /** GET /sse: a new session, announced with its endpoint. */
  open(): Response {
    const id = randomBytes(24).toString("base64url");
    const sink = new SseSink(() => void transport.close());
    const transport = new LegacySessionTransport(sink);
    const session = this.#server.connect(transport);
    this.#sessions.set(id, transport);
    session.onClose(() => this.#sessions.delete(id));
    // Spec (2024-11-05 transports#http-with-sse): the first event MUST be `endpoint`, with the URI for POSTs.
    sink.write(formatEvent({ event: "endpoint", data: `${this.#messagesPath}?sessionId=${id}` }));
    return new Response(sink.body, { status: 200, headers: SSE_HEADERS });
  }

  /** POST /messages?sessionId=...: the message goes to its session; the answer comes on the stream. */
  async post(request: Request): Promise<Response> {
    const id = new URL(request.url).searchParams.get("sessionId");
    const transport = id === null ? undefined : this.#sessions.get(id);
    if (!transport) return errorResponse(404, "session not found: open one with GET /sse");
    const body = await readBody(request, this.#maxBodyBytes);
    if (body.tooLarge) return errorResponse(413, `payload too large: the limit is ${this.#maxBodyBytes} bytes`);
    transport.receive(body.text);
    return new Response("Accepted", { status: 202 });
  }

  get messagesPath(): string {
    return this.#messagesPath;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((transport) => transport.close()));
  }
}
