// Streamable HTTP, server side: one endpoint where POST carries client messages (answered with
// 202, JSON, or an SSE stream), GET opens a stream for the server's own messages, and DELETE ends
// a session. Dual-era: a POST whose body claims 2026-07-28 is served without a session by
// modern-post.ts. Sessions are made by session-opener.ts. Its rules work on exchange.ts's request and answer: `handle` serves a web
// Request (web.ts), `serve` what either adapter brings (node:http's: node-exchange.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// and https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
// A handler may close its POST's connection early (SSE polling): streams.ts, PostStream.release.
// Authorization: an optional static bearer token, or OAuth access tokens (auth/resource-server.ts).

import { isModernVersion, isSupportedVersion, supports, type HandshakeVersion } from "../mcp/versions.js";
import type { McpServer } from "../server/definition.js";
import type { ResourceServer } from "../auth/resource-server.js";
import { Gate } from "./security.js";
import { ReplayBudget } from "./event-store.js";
import { SessionOpener } from "./session-opener.js";
import { SessionTable, type LiveSession } from "./session-table.js";
import { formatEvent, SSE_HEADERS } from "./sse.js";
import { BacklogBudget, SseSink, type SseSinkOptions } from "./sse-sink.js";
import { eraOf, serveModernPost, type ModernHost } from "./modern-post.js";
import { judgePostText, localAnswers, refuseReusedIds, type PostBody } from "./post-body.js";
import { mediaType, readJsonText, wantsBoth, wantsEventStream } from "./responses.js";
import { emptyAnswer, errorAnswer, HttpAnswer, jsonAnswer, streamAnswer, type HttpRequest } from "./exchange.js";
import { requestOf, responseOf } from "./web.js";
import { withDefaults, type ResolvedOptions, type StreamableHttpOptions } from "./streamable-options.js";
import { resumeFromLog } from "./shared-resume.js";

export type { StreamableHttpOptions } from "./streamable-options.js";

/** Spec (transports#protocol-version-header): with no header and no other hint, assume 2025-03-26. */
const DEFAULT_HEADER_VERSION: HandshakeVersion = "2025-03-26";

export class StreamableHttpHandler {
  readonly #options: ResolvedOptions;
  readonly #sessions: SessionTable;
  /** Requests awaiting answers, in all sessions. */
  readonly #inFlight = { awaited: 0 };
  /** Where every session comes from (session-opener.ts). */
  readonly #opener: SessionOpener;
  readonly #timer: ReturnType<typeof setInterval>;
  #lastKeepAlive = Date.now();
  /** What the 2026-07-28 path (modern-post.ts) may use of this handler. */
  readonly #modernHost: ModernHost;
  /** Host, Origin and the token, checked first on every request (also by the legacy transport's, server.ts). */
  readonly gate: Gate;
  /** One bound on what every SSE response of this handler holds unread (the legacy transport's too, server.ts). */
  readonly backlogBudget: BacklogBudget;

  constructor(server: McpServer, options: StreamableHttpOptions = {}) {
    this.gate = new Gate(options, options.onProblem);
    this.#options = withDefaults(options);
    const { maxSessions, sessionIdleMs: idleMs, initializedTimeoutMs: initializedMs } = this.#options;
    this.#sessions = new SessionTable({ maxSessions, idleMs, initializedMs });
    const replay = new ReplayBudget({ maxBytes: options.maxReplayBytes, maxEvents: options.maxReplayEvents });
    this.#opener = new SessionOpener(server, this.#options, this.#sessions, replay, this.#inFlight);
    this.backlogBudget = new BacklogBudget(options.maxStreamBacklogBytesTotal);
    // One timer for keep-alives and expiry; it never keeps the process alive by itself.
    this.#timer = setInterval(() => this.#tick(), Math.min(this.#options.keepAliveMs, initializedMs, 60_000));
    this.#timer.unref();
    this.#modernHost = {
      server,
      sinkOptions: this.#sinkOptions,
      overloaded: () => this.#overloaded(0, 1),
      open: (request, checked) => this.#opener.openModern(this.gate.owner(request), checked),
    };
  }

  /** Every SSE response's bounds: its own backlog, and the budget all of them share. */
  get #sinkOptions(): SseSinkOptions {
    return { maxBacklogBytes: this.#options.maxStreamBacklogBytes, budget: this.backlogBudget };
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** The web-standard entry point. */
  readonly handle = async (request: Request): Promise<Response> => responseOf(await this.serve(requestOf(request)));

  /**
   * The entry point of every adapter. Not an async function: each one that returns another's promise
   * costs a promise and a thenable resolution more per request, so the path to the POST's own
   * answer is one promise long (a sync throw is the adapter's 500, as a rejection is).
   */
  readonly serve = (request: HttpRequest): Promise<HttpAnswer> => {
    const refusal = this.gate.admit(request);
    if (refusal instanceof Promise) return refusal.then((answer) => answer ?? this.#route(request));
    return refusal ? Promise.resolve(refusal) : this.#route(request);
  };

  #route(request: HttpRequest): Promise<HttpAnswer> {
    const version = request.header("mcp-protocol-version");
    // A POST's body may claim 2026-07-28, whose checks answer an unknown version (-32022): it is judged in #post.
    if (request.method !== "POST" && unknownVersion(version)) return Promise.resolve(unsupportedHeader(version));
    if (request.path !== this.#options.path) return Promise.resolve(errorAnswer(404, "not found: the MCP endpoint is " + this.#options.path));
    // Spec (2026-07-28 streamable-http): a modern client only POSTs; GET and DELETE without a session are 405.
    if (isModernVersion(version) && request.method !== "POST" && request.header("mcp-session-id") === null) {
      return Promise.resolve(errorAnswer(405, `method not allowed: protocol ${version} serves POST only`, { allow: "POST" }));
    }
    switch (request.method) {
      case "POST":
        return this.#post(request);
      case "GET":
        return this.#get(request);
      case "DELETE":
        return this.#delete(request);
      default:
        return Promise.resolve(errorAnswer(405, `${request.method} is not supported here`, { allow: "GET, POST, DELETE" }));
    }
  }

  /** Ends every session and stops the timer. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    // Spec (2026-07-28 subscriptions): a server ending a listen SHOULD send its result. Ending one
    // sends it in a chain of promise callbacks, all run before the next timer, so before the sessions close.
    for (const live of this.#opener.modern) live.session.listens.endAll();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all([...this.#sessions.values(), ...this.#opener.modern].map((live) => live.session.close()));
  }

  /** Set when the server is an OAuth resource server (options.authorization). */
  get resourceServer(): ResourceServer | undefined {
    return this.gate.resourceServer;
  }

  async #post(request: HttpRequest): Promise<HttpAnswer> {
    // Spec (transports#sending-messages-to-the-server): the client MUST accept both JSON and SSE.
    if (!wantsBoth(request.header("accept"))) return errorAnswer(406, "not acceptable: Accept must list application/json and text/event-stream");
    if (mediaType(request.header("content-type")) !== "application/json") return errorAnswer(415, "unsupported media type: send application/json");
    const text = await readJsonText(request, this.#options.maxBodyBytes);
    if (text instanceof HttpAnswer) return text;
    const body = judgePostText(text, this.#options);
    if (body instanceof HttpAnswer) return body;
    const versionHeader = request.header("mcp-protocol-version");
    // Spec (2026-07-28 basic/versioning): the era is the body's, judged per message.
    const era = eraOf(body, versionHeader);
    if (era instanceof HttpAnswer) return era;
    if (era === "modern") return serveModernPost(this.#modernHost, request, body);
    if (unknownVersion(versionHeader)) return unsupportedHeader(versionHeader);
    const { isBatch, isInitialize } = body;

    // A new session is judged before it is made: a refusal must not cost another session its slot.
    const fresh = this.#options.sessionPerPost || isInitialize;
    const refusal = fresh ? this.#overloaded(0, body.requestIds.length) : undefined;
    if (refusal) return refusal;
    let live: LiveSession;
    if (this.#options.sessionPerPost) {
      live = this.#opener.open({ singleRequest: isInitialize ? {} : { protocolVersion: (versionHeader as HandshakeVersion | null) ?? DEFAULT_HEADER_VERSION }, principal: this.gate.owner(request) });
    } else if (isInitialize) {
      // Spec (basic#batching): initialize is never part of a batch.
      if (isBatch) return errorAnswer(400, "invalid request: initialize must not be sent inside a batch", {}, -32600);
      if (request.header("mcp-session-id") !== null) return errorAnswer(400, "bad request: initialize must not carry an MCP-Session-Id");
      const room = this.#sessions.makeRoom();
      if (!room.free) {
        // Retry-After only when a slot is known to free itself by then; in-use sessions may last.
        const retry: Record<string, string> = room.retryAfterSeconds === undefined ? {} : { "retry-after": String(room.retryAfterSeconds) };
        return errorAnswer(503, "service unavailable: every session slot is in use", retry);
      }
      live = this.#opener.open({ principal: this.gate.owner(request) });
      live.owner = this.gate.owner(request);
    } else {
      const found = this.#session(request);
      if (found instanceof HttpAnswer) return found;
      live = found;
    }
    // Batches belong to 2025-03-26 only; the connection answers them by its negotiated rules.
    if (isBatch && !supports(live.session.protocolVersion, "batches")) {
      if (this.#options.sessionPerPost) void live.session.close();
      return errorAnswer(400, "invalid request: JSON-RPC batches are not supported in this protocol version", {}, -32600);
    }
    return this.#deliver(live, body, isInitialize && !this.#options.sessionPerPost ? { "mcp-session-id": live.id } : undefined);
  }

  /** Hands a judged body to its session and answers the POST: 202, a JSON body, or an SSE stream. */
  #deliver(live: LiveSession, body: PostBody, headers: Record<string, string> | undefined): Promise<HttpAnswer> {
    refuseReusedIds(body, (id) => live.transport.awaits(id));
    // A new session (one per POST, or initialize) passed this check in #post, before it was made.
    const refusal = this.#overloaded(live.transport.awaited, body.requestIds.length);
    if (refusal) return Promise.resolve(refusal);
    const local = localAnswers(body.invalid, supports(live.session.protocolVersion, "omitUnreadableId"));
    const perPost = this.#options.sessionPerPost;
    // Spec (transports#sending-messages-to-the-server): only notifications and responses: 202, no body.
    if (body.requestIds.length === 0) {
      if (body.items.length > 0) live.transport.receive(body);
      if (perPost) void live.session.close();
      return Promise.resolve(local.length === 0 ? emptyAnswer(202) : jsonAnswer(200, body.isBatch ? local : local[0], headers));
    }
    if (perPost || this.#options.jsonResponses) {
      return new Promise<HttpAnswer>((resolve) => {
        live.transport.openPost(body.requestIds, {
          batch: body.isBatch,
          local,
          json: (answer) => {
            if (perPost) void live.session.close();
            // Nothing to answer (the client cancelled every request): the POST was only accepted.
            resolve(answer === undefined ? emptyAnswer(202) : jsonAnswer(200, answer, headers));
          },
        });
        live.transport.receive(body);
      });
    }
    const sink = new SseSink(undefined, this.#sinkOptions);
    const stream = live.transport.openPost(body.requestIds, { sse: sink, local });
    // Spec (transports, SEP-1699, 2025-11-25): a priming event (an id, empty data) comes first, so
    // the client can resume even before the first real event.
    if (!body.isInitialize && supports(live.session.protocolVersion, "ssePriming")) {
      sink.write(formatEvent({ id: live.transport.events.append(stream.name, ""), data: "", retry: this.#options.retryMs }));
    }
    live.transport.receive(body);
    return Promise.resolve(streamAnswer(sink, { ...SSE_HEADERS, ...headers }));
  }

  /** The refusal for `count` more requests in a session that awaits `awaited`, if they would pass a bound. */
  #overloaded(awaited: number, count: number): HttpAnswer | undefined {
    const { maxRequestsInFlight: perSession, maxRequestsInFlightTotal: total } = this.#options;
    if (awaited + count > perSession) return errorAnswer(429, `too many requests: a session may have ${perSession} requests awaiting answers at once`);
    if (this.#inFlight.awaited + count > total) return errorAnswer(503, `service unavailable: the server has ${total} requests awaiting answers`);
    return undefined;
  }

  async #get(request: HttpRequest): Promise<HttpAnswer> {
    if (this.#options.sessionPerPost) return errorAnswer(405, "method not allowed: this server serves each POST in a session of its own and offers no GET stream", { allow: "POST" });
    // Spec (transports#listening-for-messages-from-the-server): GET needs Accept: text/event-stream.
    if (!wantsEventStream(request.header("accept"))) return errorAnswer(406, "not acceptable: Accept must list text/event-stream");
    const found = this.#session(request);
    const lastEventId = request.header("last-event-id");
    if (found instanceof HttpAnswer) return (await this.#resumeElsewhere(found, request, lastEventId)) ?? found;
    const transport = found.transport;
    const sink = new SseSink(undefined, this.#sinkOptions);
    if (lastEventId !== null) {
      if (!transport.resume(lastEventId, sink)) return errorAnswer(400, `bad request: cannot resume after event ${JSON.stringify(lastEventId)}`);
      return streamAnswer(sink, SSE_HEADERS);
    }
    if (transport.hasStandalone) return errorAnswer(409, "conflict: this session already has a GET stream open");
    transport.openStandalone(sink);
    sink.write(formatEvent({ id: transport.events.append("get", ""), data: "", retry: this.#options.retryMs }));
    return streamAnswer(sink, SSE_HEADERS);
  }

  async #delete(request: HttpRequest): Promise<HttpAnswer> {
    if (this.#options.sessionPerPost) return errorAnswer(405, "method not allowed: this server serves each POST in a session of its own, so there is none to delete", { allow: "POST" });
    const found = this.#session(request);
    if (found instanceof HttpAnswer) return found;
    this.#sessions.delete(found.id);
    await found.session.close();
    return emptyAnswer(200);
  }

  /** Spec (transports#session-management): a missing session id is 400; an unknown or ended one, 404. */
  #session(request: HttpRequest): LiveSession | HttpAnswer {
    const id = request.header("mcp-session-id");
    if (id === null) return errorAnswer(400, "bad request: MCP-Session-Id header required (send initialize first)");
    const live = this.#sessions.get(id);
    // Spec (security_best_practices#session-hijacking): a session answers only the user it was
    // opened for; another's token finds it "not found", so ids cannot be probed either.
    if (!live || live.owner !== this.gate.owner(request)) return errorAnswer(404, "session not found: it ended or never existed; initialize a new one");
    return live;
  }

  /** A 404 for a resume may yet be served from the fleet's shared event log (shared-resume.ts). */
  async #resumeElsewhere(notFound: HttpAnswer, request: HttpRequest, lastEventId: string | null): Promise<HttpAnswer | undefined> {
    const log = this.#options.sharedEvents;
    const id = request.header("mcp-session-id");
    if (!log || notFound.status !== 404 || lastEventId === null || id === null) return undefined;
    return resumeFromLog(log, id, lastEventId, this.gate.owner(request), this.#sinkOptions);
  }

  #tick(): void {
    const now = Date.now();
    this.#sessions.sweep(now);
    if (now - this.#lastKeepAlive < this.#options.keepAliveMs) return;
    this.#lastKeepAlive = now;
    for (const live of this.#sessions.values()) live.transport.keepAlive();
    for (const live of this.#opener.modern) live.transport.keepAlive();
  }
}

/** A version header naming no version of either generation. */
function unknownVersion(version: string | null): version is string {
  return version !== null && !isSupportedVersion(version) && !isModernVersion(version);
}

/** Spec (transports#protocol-version-header): an invalid or unsupported version gets 400. */
function unsupportedHeader(version: string): HttpAnswer {
  return errorAnswer(400, `bad request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}`);
}
