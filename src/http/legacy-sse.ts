// The HTTP+SSE transport of protocol 2024-11-05, kept for old clients next to Streamable HTTP:
// GET /sse opens a stream whose first event, `endpoint`, names the URL to POST messages to; each
// POST of a message is answered 202, and every server message travels on the stream as an event
// `message`. A body that is not a message at all gets 400 with its JSON-RPC error instead.
// A session lives as long as its stream, is capped in number, ends when idle, and takes no new
// request while its work in flight is at its bound.
// Spec: https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse

import { randomBytes } from "node:crypto";
import { DEFAULT_MAX_BATCH_ITEMS, type JSONRPCMessage } from "../jsonrpc/messages.js";
import { supports } from "../mcp/versions.js";
import { DEFAULT_MAX_IN_FLIGHT } from "../protocol/connection.js";
import type { Transport, TransportHandlers } from "../protocol/transport.js";
import type { McpServer } from "../server/definition.js";
import type { ServerConnection } from "../server/connection.js";
import { judgePostText } from "./post-body.js";
import { errorAnswer, HttpAnswer, streamAnswer, type HttpRequest } from "./exchange.js";
import { DEFAULT_KEEP_ALIVE_MS, DEFAULT_MAX_BODY_BYTES, DEFAULT_SESSION_IDLE_MS, readJsonText } from "./responses.js";
import { formatEvent, SSE_HEADERS } from "./sse.js";
import { BacklogBudget, DEFAULT_MAX_BACKLOG_BYTES, SseSink } from "./sse-sink.js";

class LegacySessionTransport implements Transport {
  readonly sink: SseSink;
  /** When the client last sent a message; the stream alone is not activity (see `#tick`). */
  lastSeen = Date.now();
  /** Set while the connection has as much work in flight as it may take (see post()). */
  paused = false;
  /** The session this transport carries, set as soon as it is connected (see open()). */
  session: ServerConnection | undefined;
  /** Whom the access token that opened the stream speaks for (Gate.owner), when the server is a resource server. */
  owner: string | undefined;
  #handlers: TransportHandlers | undefined;

  constructor(sink: SseSink) {
    this.sink = sink;
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
  }

  receive(text: string): void {
    this.lastSeen = Date.now();
    this.#handlers?.message(text);
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    if (!this.sink.open) throw new Error("http+sse: the stream is closed");
    this.sink.write(formatEvent({ event: "message", data: JSON.stringify(message) }));
  }

  pauseInput(): void {
    this.paused = true;
  }

  resumeInput(): void {
    this.paused = false;
  }

  async close(): Promise<void> {
    this.sink.end();
    this.#handlers?.close();
  }
}

export interface LegacySseOptions {
  /** Where clients POST their messages (default "/messages"). */
  messagesPath?: string;
  /** The largest POST body, in bytes (default 4 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** The most sessions (open /sse streams) at once; more get 503 with Retry-After (default 100). */
  maxSessions?: number;
  /**
   * A session whose client has POSTed nothing for this long is ended, its stream with it (default
   * 30 minutes). Unlike Streamable HTTP, an open stream is not activity: here the stream is the
   * session, and counting it would keep a session nobody uses alive for ever.
   */
  sessionIdleMs?: number;
  /** How often open streams get a keep-alive comment (default 15 s). */
  keepAliveMs?: number;
  /**
   * Bytes a stream may hold that the client has not read (default DEFAULT_MAX_BACKLOG_BYTES).
   * Past it the stream ends, and with it the session: this transport has no way to resume.
   */
  maxStreamBacklogBytes?: number;
  /** What all its streams may hold unread together, shared with other handlers' (McpHttpServer shares the Streamable HTTP handler's); default a BacklogBudget of its own. */
  backlogBudget?: BacklogBudget;
  /**
   * The most of a session's messages taken in and not yet finished (default DEFAULT_MAX_IN_FLIGHT,
   * see ConnectionOptions.maxInFlight). At the bound a POST carrying a request gets 429.
   */
  maxInFlight?: number;
  onProblem?: (message: string) => void;
}

export class LegacySseHandler {
  readonly #server: McpServer;
  readonly #sessions = new Map<string, LegacySessionTransport>();
  readonly #options: Required<Omit<LegacySseOptions, "onProblem">> & Pick<LegacySseOptions, "onProblem">;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(server: McpServer, options: LegacySseOptions = {}) {
    this.#server = server;
    this.#options = {
      messagesPath: options.messagesPath ?? "/messages",
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      maxSessions: options.maxSessions ?? 100,
      sessionIdleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
      keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      maxStreamBacklogBytes: options.maxStreamBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES,
      backlogBudget: options.backlogBudget ?? new BacklogBudget(),
      maxInFlight: options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
      onProblem: options.onProblem,
    };
    // Keep-alives also find dead peers: a write to a vanished client fails, and its session ends.
    this.#timer = setInterval(() => this.#tick(), Math.min(this.#options.keepAliveMs, this.#options.sessionIdleMs, 60_000));
    this.#timer.unref();
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** GET /sse: a new session, announced with its endpoint, bound to `owner` (Gate.owner) if given. */
  open(owner?: string): HttpAnswer {
    if (this.#sessions.size >= this.#options.maxSessions) {
      return errorAnswer(503, `service unavailable: all ${this.#options.maxSessions} HTTP+SSE sessions are in use`, { "retry-after": String(this.#secondsUntilASlotFrees()) });
    }
    const id = randomBytes(24).toString("base64url");
    // The stream is the session: once it is gone (the client left, or it could not keep up), the
    // id is forgotten at once, so that a POST racing the close gets 404, not a 202 with no answer.
    const sink = new SseSink(() => {
      this.#sessions.delete(id);
      void transport.close();
    }, { maxBacklogBytes: this.#options.maxStreamBacklogBytes, budget: this.#options.backlogBudget });
    const transport = new LegacySessionTransport(sink);
    transport.owner = owner;
    const session = this.#server.connect(transport, { maxInFlight: this.#options.maxInFlight, onProblem: this.#options.onProblem, principal: owner });
    transport.session = session;
    this.#sessions.set(id, transport);
    session.onClose(() => this.#sessions.delete(id));
    // Spec (2024-11-05 transports#http-with-sse): the first event MUST be `endpoint`, with the URI for POSTs.
    sink.write(formatEvent({ event: "endpoint", data: `${this.#options.messagesPath}?sessionId=${id}` }));
    return streamAnswer(sink, SSE_HEADERS);
  }

  /**
   * POST /messages?sessionId=...: the message goes to its session; the answer comes on the stream.
   * A body refused whole is answered here instead, as the SDK's SSEServerTransport does (the spec
   * names no status): on the stream, an error without an id would match nothing the client sent.
   */
  async post(request: HttpRequest, owner?: string): Promise<HttpAnswer> {
    const id = request.query("sessionId");
    const transport = id === null ? undefined : this.#sessions.get(id);
    // Spec (security_best_practices#session-hijacking): only the user who opened the stream may post to it.
    if (!transport?.sink.open || transport.owner !== owner) return errorAnswer(404, "session not found: its stream is closed or it never existed; open one with GET /sse");
    // Refused here, not on the stream, so that the sender sees why its POST failed.
    const text = await readJsonText(request, this.#options.maxBodyBytes);
    if (text instanceof HttpAnswer) return text;
    // The stream may have closed while the body was read; then nobody would get the answer.
    if (!transport.sink.open) return errorAnswer(404, "session not found: its stream closed while the message was read");
    // Not JSON, one message that is not JSON-RPC, or a batch that is empty or past the connection's
    // (default) bound: refused whole, by the rule Streamable HTTP uses. Any other batch goes on: its
    // session answers a bad item inside the batch's answer, and, by its version, the batch itself.
    const omitUnreadableId = supports(transport.session!.protocolVersion, "omitUnreadableId");
    const body = judgePostText(text, { maxBatchItems: DEFAULT_MAX_BATCH_ITEMS, omitUnreadableId });
    if (body instanceof HttpAnswer) return body;
    // The connection's bound on work in flight, applied where the client can be told: a request
    // waits for the client to retry, while responses and notifications (cancellations, answers to
    // the server's own requests) still go in, or handlers waiting on them would never finish.
    if (transport.paused && body.requestIds.length > 0) {
      return errorAnswer(429, `too many requests: a session may have ${this.#options.maxInFlight} messages in flight at once`);
    }
    transport.receive(text);
    // The SDK's SSEServerTransport answers "Accepted" too; some old clients log the body.
    return new HttpAnswer(202, { "content-type": "text/plain;charset=UTF-8" }, "Accepted");
  }

  get messagesPath(): string {
    return this.#options.messagesPath;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all([...this.#sessions.values()].map((transport) => transport.close()));
  }

  /** When the least recently active session will expire, if nothing else frees a slot first. */
  #secondsUntilASlotFrees(): number {
    let oldest = Date.now();
    for (const transport of this.#sessions.values()) oldest = Math.min(oldest, transport.lastSeen);
    return Math.max(1, Math.ceil((oldest + this.#options.sessionIdleMs - Date.now()) / 1000));
  }

  #tick(): void {
    const now = Date.now();
    for (const transport of [...this.#sessions.values()]) {
      // An open stream is not activity here: the stream *is* the session, so counting it would
      // keep a session alive forever on a connection nobody reads.
      if (now - transport.lastSeen > this.#options.sessionIdleMs) void transport.close();
      else transport.sink.keepAlive();
    }
  }
}
