// A symmetric MCP connection: JSON-RPC over a transport, plus the two base-protocol utilities
// every request needs, cancellation and progress. Either side sends requests and notifications.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (messages),
// basic/utilities/cancellation and basic/utilities/progress. Lifecycle lives in the roles.

import { Dispatcher } from "../jsonrpc/dispatcher.js";
import {
  classify, decodeMessage, ErrorCode, RpcError,
  type Incoming, type JSONRPCMessage, type JSONRPCRequest, type JSONRPCResponse, type RequestId,
} from "../jsonrpc/messages.js";
import { ConnectionClosedError, PendingRequests, type TimeoutPolicy } from "../jsonrpc/pending.js";
import type { SendOptions, Transport, UnreadableInput } from "./transport.js";
import { IncomingRequests, type RequestContext } from "./incoming.js";
import { Inbox } from "./inbox.js";

export type { RequestContext } from "./incoming.js";

/** The per-version wire rules a role sets once the version is negotiated. */
export interface WirePolicy {
  /** Whether the peer may send JSON-RPC batches (only 2025-03-26 allows them). */
  batches: boolean;
  /** 2025-11-25 leaves `id` out of errors for unreadable input; older versions send `id: null`. */
  omitUnreadableId: boolean;
}

export interface ConnectionOptions {
  dispatcher: Dispatcher<RequestContext>;
  policy?: WirePolicy;
  /** Local problems worth a log line (garbage input, stray responses). Never sent to the peer. */
  onProblem?: (message: string) => void;
  /** After the peer's input ends, how long requests in flight may still run before closing. */
  drainMs?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** The peer's request this one is made for (see SendOptions). */
  relatedRequestId?: RequestId;
  timeouts?: Partial<TimeoutPolicy>;
  /** Receives the peer's progress reports; asking for them adds a progressToken to the request. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export class Connection {
  readonly #transport: Transport;
  readonly #dispatcher: Dispatcher<RequestContext>;
  readonly #pending = new PendingRequests();
  readonly #incoming: IncomingRequests;
  /** Progress callbacks by progress token; we use the request's own id as its token. */
  readonly #progressHandlers = new Map<RequestId, NonNullable<RequestOptions["onProgress"]>>();
  readonly #onProblem: (message: string) => void;
  #policy: WirePolicy;
  #nextId = 0;
  #closed = false;
  #closeListeners: ((cause?: Error) => void)[] = [];
  readonly #drainMs: number;
  readonly #inbox = new Inbox();

  constructor(transport: Transport, options: ConnectionOptions) {
    this.#transport = transport;
    this.#dispatcher = options.dispatcher;
    this.#policy = options.policy ?? { batches: false, omitUnreadableId: true };
    this.#onProblem = options.onProblem ?? (() => {});
    this.#incoming = new IncomingRequests(this);
    this.#drainMs = options.drainMs ?? 1500;
  }

  /** Starts reading from the transport. */
  start(): void {
    this.#transport.start({
      message: (text) => this.#inbox.enqueue(() => this.#receive(decodeMessage(text))),
      unreadable: (problem) => this.#inbox.enqueue(() => this.#answerUnreadable(problem)),
      inputEnded: () => void this.#drainThenClose(),
      close: (cause) => this.#shutDown(cause),
    });
  }

  setPolicy(policy: WirePolicy): void {
    this.#policy = policy;
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  onClose(listener: (cause?: Error) => void): void {
    this.#closeListeners.push(listener);
  }

  /** Sends a request and waits for its response. Rejects with RpcError for the peer's errors. */
  async request(method: string, params?: { [key: string]: unknown }, options: RequestOptions = {}) {
    if (this.#closed) throw new ConnectionClosedError(method);
    const id = this.#nextId++;
    const message: JSONRPCRequest = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    if (options.onProgress) {
      // The request id doubles as the progress token: it is unique among our active requests.
      message.params = { ...params, _meta: { ...(params?._meta as object), progressToken: id } };
      this.#progressHandlers.set(id, options.onProgress);
    }
    // Aborted when we stop waiting without an answer (timeout, the caller's abort, the close), so
    // that a transport holding a POST open for the answer lets it go.
    const stop = new AbortController();
    // Registered before the write, so that even an immediate response finds its caller.
    const response = this.#pending.track(id, method, {
      signal: options.signal,
      timeouts: options.timeouts,
      giveUp: (reason) => {
        // Spec (basic/utilities/cancellation): the client MUST NOT cancel initialize.
        if (method !== "initialize") void this.notify("notifications/cancelled", { requestId: id, reason: reason.message });
      },
    });
    response.catch((error: unknown) => {
      if (!(error instanceof RpcError)) stop.abort(error);
    });
    // Not awaited: an HTTP send lasts until the answer, and a timeout or abort must end the
    // caller's wait whatever the transport is doing. A write that fails means nothing was sent,
    // so nothing will answer. (If it failed because we gave up, the request is already settled.)
    // A caller that aborted before the call sends nothing.
    if (this.#pending.has(id)) this.#transport.send(message, { relatedRequestId: options.relatedRequestId, signal: stop.signal }).catch((error: unknown) => {
      this.#pending.fail(id, error instanceof Error ? error : new Error(String(error)));
    });
    try {
      return await response;
    } finally {
      if (options.onProgress) this.#progressHandlers.delete(id);
    }
  }

  async notify(method: string, params?: { [key: string]: unknown }, options?: SendOptions): Promise<void> {
    if (this.#closed) return;
    await this.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }, options);
  }

  /** Writes one message; a failed write is reported, not thrown, since the peer is gone anyway. */
  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#transport.send(message, options);
    } catch (error) {
      this.#onProblem(`write failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async close(): Promise<void> {
    await this.#transport.close();
    this.#shutDown();
  }

  /** Lets requests in flight answer (within drainMs), then closes. */
  async #drainThenClose(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#drainMs)));
    await Promise.race([this.#inbox.idle(), deadline]);
    clearTimeout(timer);
    await this.close();
  }

  /** Handles one classified input; for requests, resolves to the response it produced. */
  async #receive(incoming: Incoming, inBatch = false): Promise<JSONRPCResponse | undefined> {
    switch (incoming.kind) {
      case "request":
        return this.#incoming.handle(incoming.message, inBatch, this.#dispatcher);
      case "notification":
        this.#receiveNotification(incoming.message.method, incoming.message.params ?? {});
        await this.#dispatcher.handleNotification(incoming.message);
        return undefined;
      case "response":
        if (!this.#pending.settle(incoming.message)) {
          this.#onProblem(`dropped a response for id ${JSON.stringify(incoming.message.id)}: no request is waiting for it`);
        }
        return undefined;
      case "batch":
        return this.#receiveBatch(incoming.items);
      case "invalid":
        this.#onProblem(incoming.error.message);
        return this.#sendError(incoming.error, incoming.id, inBatch);
    }
  }

  /** Cancellation and progress are handled here, for every role; other notifications go to the table. */
  #receiveNotification(method: string, params: { [key: string]: unknown }): void {
    if (method === "notifications/cancelled") {
      // Spec (basic/utilities/cancellation): unknown or malformed cancellations SHOULD be ignored.
      const id = params.requestId;
      if (typeof id === "string" || typeof id === "number") this.#incoming.cancel(id, params.reason);
    } else if (method === "notifications/progress") {
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
  }

  async #receiveBatch(items: unknown[]): Promise<undefined> {
    // Spec (basic#batching, 2025-03-26 only): receivers MUST accept batches; later versions removed them.
    if (!this.#policy.batches) {
      const error = new RpcError(ErrorCode.InvalidRequest, "invalid request: JSON-RPC batches are not supported in this protocol version");
      await this.#sendError(error, undefined, false);
      return undefined;
    }
    if (items.length === 0) {
      await this.#sendError(new RpcError(ErrorCode.InvalidRequest, "invalid request: empty batch"), undefined, false);
      return undefined;
    }
    const answers = await Promise.all(items.map((item) => this.#receive(classify(item), true)));
    const responses = answers.filter((answer): answer is JSONRPCResponse => answer !== undefined);
    // A batch of only notifications and responses gets no reply at all.
    if (responses.length > 0) await this.send(responses);
    return undefined;
  }

  async #answerUnreadable(problem: UnreadableInput): Promise<void> {
    if (problem.kind === "invalid-utf8") {
      this.#onProblem("a line was not valid UTF-8");
      await this.#sendError(new RpcError(ErrorCode.ParseError, "parse error: message is not valid UTF-8"), undefined, false);
      return;
    }
    this.#onProblem(`a ${problem.bytes}-byte message exceeded the ${problem.limit}-byte limit and was dropped`);
    const error = new RpcError(ErrorCode.InvalidRequest, `invalid request: message of ${problem.bytes} bytes exceeds the limit of ${problem.limit} bytes`, { limit: problem.limit });
    await this.#sendError(error, problem.id, false);
  }

  /** Sends (or, inside a batch, returns) an error response; `id` is absent when it was unreadable. */
  async #sendError(error: RpcError, id: RequestId | undefined, inBatch: boolean): Promise<JSONRPCResponse | undefined> {
    // Spec (basic#responses, 2025-11-25): the id is left out when it could not be read; JSON-RPC 2.0 says null.
    const readable = id !== undefined ? { id } : this.#policy.omitUnreadableId ? {} : { id: null };
    const response: JSONRPCResponse = { jsonrpc: "2.0", ...readable, error: error.toErrorObject() };
    if (inBatch) return response;
    await this.send(response);
    return undefined;
  }

  #shutDown(cause?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#pending.rejectAll((method) => new ConnectionClosedError(method, cause));
    this.#incoming.abortAll();
    for (const listener of this.#closeListeners) listener(cause);
  }
}
