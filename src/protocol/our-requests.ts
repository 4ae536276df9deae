// Our requests in flight, the other half of PeerRequests (protocol/dispatch.ts): each gets an id,
// is tracked by the correlator (jsonrpc/pending.ts) before its bytes are written, hears the
// progress the peer reports, tells the peer when we give up on it, and has its result read.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic#requests,
// basic/utilities/cancellation and basic/utilities/progress. The connection routes responses and
// progress here; what a method's result holds is the role's business (the `read` it passes).

import type { JSONRPCRequest, JSONRPCResponse, RequestId } from "../jsonrpc/messages.js";
import { ConnectionClosedError, DEFAULT_TIMEOUTS, MalformedResponseError, PendingRequests, type TimeoutPolicy } from "../jsonrpc/pending.js";
import type { RequestClock } from "../jsonrpc/request-clock.js";
import { RequestSendOptions, type Transport } from "./transport.js";
import type { PeerLink } from "./link.js";

export interface RequestOptions {
  signal?: AbortSignal;
  /** The peer's request this one is made for (see SendOptions). */
  relatedRequestId?: RequestId;
  timeouts?: Partial<TimeoutPolicy>;
  /** Extra HTTP headers for this request (see SendOptions.headers). */
  headers?: Record<string, string>;
  /** Receives the peer's progress reports; asking for them adds a progressToken to the request. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * Told the id the request goes out under, before it is written: a 2026-07-28 listen tells its own
   * notifications from others' by it (they carry it as their subscriptionId).
   */
  onId?: (id: RequestId) => void;
  /**
   * Takes the answer that arrives after we gave up waiting (a timeout, an abort): the id stays
   * reserved for it, so that it is understood rather than dropped as a stray. Once at most, and
   * only until the connection closes; at most MAX_LATE_ANSWERS ids are kept (the oldest go).
   */
  onLateAnswer?: (response: JSONRPCResponse) => void;
}

/**
 * The peer ended this request of ours with notifications/cancelled, as a 2026-07-28 server may end
 * a listen (basic/patterns/cancellation). Local: the request got no answer and will get none.
 */
export class EndedByPeerError extends Error {
  constructor(readonly method: string, readonly id: RequestId, readonly reason: unknown) {
    super(`${method}: the peer ended it (notifications/cancelled${typeof reason === "string" ? `: ${reason}` : ""})`);
    this.name = "EndedByPeerError";
  }
}


/**
 * Ids kept for a late answer: the ones a caller takes (RequestOptions.onLateAnswer; the dual-era
 * probe needs two at most) and the ones we cancelled, whose answer may cross the cancel. The oldest
 * go first; an answer to one of those is reported as a stray again.
 */
export const MAX_LATE_ANSWERS = 16;

/** The late answer to a request we cancelled: the caller has its error already, and wants nothing more. */
function ignoreLateAnswer(): void {}

type Json = { [key: string]: unknown };

/** Our requests waiting for their answers, by id: each is settled once, by its answer or a local error. */
export class OurRequests {
  /** Whether it is closed, and the notify our cancels go out through. */
  readonly #connection: Pick<PeerLink, "isClosed" | "notify">;
  /** Written to directly: a write that fails must fail its call, which Connection.send never does. */
  readonly #transport: Transport;
  readonly #pending = new PendingRequests();
  /** Progress callbacks by progress token; we use the request's own id as its token. */
  readonly #progressHandlers = new Map<RequestId, NonNullable<RequestOptions["onProgress"]>>();
  /** Requests given up on whose caller still takes a late answer, by id (oldest first). */
  readonly #lateAnswers = new Map<RequestId, NonNullable<RequestOptions["onLateAnswer"]>>();
  #nextId = 0;

  constructor(connection: Pick<PeerLink, "isClosed" | "notify">, transport: Transport) {
    this.#connection = connection;
    this.#transport = transport;
  }

  /** Sends a request and waits for its answer; see Connection.request. */
  async request(method: string, params: object | undefined, options: RequestOptions, read?: (result: Json) => unknown): Promise<unknown> {
    if (this.#connection.isClosed) throw new ConnectionClosedError(method);
    const id = this.#nextId++;
    options.onId?.(id);
    const message: JSONRPCRequest = { jsonrpc: "2.0", id, method };
    const json = wireParams(method, params);
    if (json !== undefined) message.params = json;
    if (options.onProgress) {
      // The request id doubles as the progress token: it is unique among our active requests.
      message.params = { ...json, _meta: { ...(json?._meta as object), progressToken: id } };
      this.#progressHandlers.set(id, options.onProgress);
    }
    // Aborted when we stop waiting without a readable answer (a timeout, the caller's abort, a
    // failed write, a malformed answer, the close), so that a transport holding a POST open for
    // the answer lets it go.
    const sendOptions = new RequestSendOptions(options.relatedRequestId, options.headers);
    // Registered before the write, so that even an immediate response finds its caller.
    const response = this.#pending.track(id, method, {
      signal: options.signal,
      timeouts: options.timeouts,
      release: (reason) => sendOptions.stop(reason),
      giveUp: (reason) => {
        // Spec (basic/utilities/cancellation): the client MUST NOT cancel initialize.
        const cancelled = method !== "initialize";
        // Spec (basic/utilities/cancellation): an answer that crosses our cancel SHOULD be ignored,
        // so a cancelled id stays reserved for it too: it is expected, not a stray to report.
        if (options.onLateAnswer || cancelled) this.#awaitLate(id, options.onLateAnswer ?? ignoreLateAnswer);
        if (cancelled) this.#cancel(id, reason, options.timeouts?.idleMs ?? DEFAULT_TIMEOUTS.idleMs);
      },
    });
    // Not awaited: an HTTP send lasts until the answer, and a timeout or abort must end the
    // caller's wait whatever the transport is doing. A write that fails means nothing was sent,
    // so nothing will answer. (If it failed because we gave up, the request is already settled.)
    // A caller that aborted before the call sends nothing.
    if (this.#pending.has(id)) this.#transport.send(message, sendOptions).catch((error: unknown) => {
      this.#pending.fail(id, error instanceof Error ? error : new Error(String(error)));
    });
    try {
      return read ? readResult(method, id, await response, read) : await response;
    } finally {
      if (options.onProgress) this.#progressHandlers.delete(id);
    }
  }

  /** The clock our deadlines are kept in; the transport holds it while it waits on a person. */
  get clock(): RequestClock {
    return this.#pending.clock;
  }

  /**
   * An answer arrived; false when no request of ours waits for its id (we gave up on it and want no
   * late answer, or never sent it).
   */
  settle(response: JSONRPCResponse): boolean {
    if (this.#pending.settle(response)) return true;
    const id = response.id;
    const late = id === undefined || id === null ? undefined : this.#lateAnswers.get(id);
    if (!late) return false;
    this.#lateAnswers.delete(id!);
    late(response);
    return true;
  }

  #awaitLate(id: RequestId, take: NonNullable<RequestOptions["onLateAnswer"]>): void {
    this.#lateAnswers.set(id, take);
    for (const oldest of this.#lateAnswers.keys()) {
      if (this.#lateAnswers.size <= MAX_LATE_ANSWERS) break;
      this.#lateAnswers.delete(oldest);
    }
  }

  /** Whether a request of ours waits on `id` (bad input with that id is then taken for its answer). */
  has(id: RequestId): boolean {
    return this.#pending.has(id);
  }

  /**
   * The peer cancelled one of our requests. Spec (2026-07-28 basic/patterns/cancellation): a server
   * sends notifications/cancelled for a client's request only to end a listen, so only a
   * subscriptions/listen is ended this way (a stray cancel naming another of our ids changes nothing).
   */
  endedByPeer(id: RequestId, reason: unknown): void {
    const method = this.#pending.methodOf(id);
    if (method === "subscriptions/listen") this.#pending.fail(id, new EndedByPeerError(method, id, reason));
  }

  /** The answer to `id` arrived but could not be read: its caller hears so at once. */
  malformed(id: RequestId, detail: string): boolean {
    return this.#pending.malformed(id, detail);
  }

  /** The peer reports progress on one of our requests (a bad `total` or `message` is left out). */
  progressed(params: { [key: string]: unknown }): void {
    const token = params.progressToken;
    if (typeof token !== "string" && typeof token !== "number") return;
    const handler = this.#progressHandlers.get(token);
    if (!handler || typeof params.progress !== "number") return;
    this.#pending.touch(token);
    const report: { progress: number; total?: number; message?: string } = { progress: params.progress };
    if (typeof params.total === "number") report.total = params.total;
    if (typeof params.message === "string") report.message = params.message;
    handler(report);
  }

  /** The peer's output ended: no answer can come, so every call, and every later one, fails at once. */
  stopWaiting(cause: Error): void {
    this.#pending.stopWaiting((method) => new ConnectionClosedError(method, cause));
  }

  /** The connection closed: every waiting call fails, and no late answer can come. */
  rejectAll(cause?: Error): void {
    this.#lateAnswers.clear();
    this.#pending.rejectAll((method) => new ConnectionClosedError(method, cause));
  }

  /**
   * Tells the peer we gave up on request `id`. Nobody waits for the cancel, so it gets the call's
   * idle timeout to be taken (an HTTP POST the peer may stall); else stalled cancels would pile up
   * until close(). The timer never holds the process up by itself.
   */
  #cancel(id: RequestId, reason: Error, idleMs: number): void {
    // An idle timeout may be Infinity (only the total bounds the call); setTimeout cannot wait that long.
    const bound = Number.isFinite(idleMs) ? idleMs : DEFAULT_TIMEOUTS.idleMs;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(new Error(`notifications/cancelled: the peer did not take it within ${bound} ms; given up`)), bound);
    timer.unref?.();
    void this.#connection.notify("notifications/cancelled", { requestId: id, reason: reason.message }, { signal: stop.signal }).finally(() => clearTimeout(timer));
  }
}

/** The result as `read` makes it, or the MalformedResponseError naming what it refused. */
function readResult<R>(method: string, id: RequestId, result: Json, read: (result: Json) => R): R {
  try {
    return read(result);
  } catch (error) {
    throw new MalformedResponseError(method, id, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Params by name: any object but an array. JSON-RPC also allows params by position (an array);
 * MCP never uses them, so request() refuses one, at compile time and, for untyped callers, at run time.
 */
export type ByName<P> = P extends readonly unknown[] ? never : P;

/** A role's typed params are plain JSON objects (their types say so); the wire type only says "an object". */
export function wireParams(method: string, params: object | undefined): Json | undefined {
  // Spec (basic#requests): params, if present, are an object (the schema types them so), never an array.
  if (Array.isArray(params)) throw new TypeError(`${method}: params must be an object of named fields, not an array`);
  return params as Json | undefined;
}
