// Textbook: Connection.#receive in src/textbook/connection.ts; this adds a transport of any kind,
//  the inbox (arrival order, work in flight bounded) and traces.
// A symmetric MCP connection: either side sends requests and notifications. It wires the
// transport to the inbox (arrival order, the bound on work in flight) and routes each input: the
// peer's requests to PeerRequests (protocol/dispatch.ts), answers and progress for ours to
// OurRequests (protocol/our-requests.ts), what is not a valid message to BadInput, batches item by item.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (messages),
// basic/utilities/cancellation and basic/utilities/progress. Lifecycle lives in the roles.

import {
  batchRefusal, classify, decodeMessage, DEFAULT_MAX_BATCH_ITEMS, ErrorCode, RpcError,
  type Incoming, type JSONRPCMessage, type JSONRPCNotification, type JSONRPCResponse, type RequestId,
} from "../jsonrpc/messages.js";
import type { RequestClock } from "../jsonrpc/request-clock.js";
import { CLOSED_AT_ONCE, SENT_AT_ONCE, type SendOptions, type Transport } from "./transport.js";
import type { PeerLink, WirePolicy } from "./link.js";
import type { RequestContext } from "./method-table.js";
import { PeerRequests, type Dispatching } from "./dispatch.js";
import { OurRequests, wireParams, type ByName, type RequestOptions } from "./our-requests.js";
import { Inbox } from "./inbox.js";
import { BadInput } from "./bad-input.js";

export type { RequestContext } from "./method-table.js";
export type { ByName, RequestOptions } from "./our-requests.js";

export interface ConnectionOptions {
  dispatcher: Dispatching<RequestContext>;
  policy?: WirePolicy;
  /** Local problems worth a log line (garbage input, stray responses). Never sent to the peer. */
  onProblem?: (message: string) => void;
  /** The most messages one batch may hold (default DEFAULT_MAX_BATCH_ITEMS); see batchRefusal. */
  maxBatchItems?: number;
  /**
   * The most messages taken in and not yet done with (a batch counts its items; default
   * DEFAULT_MAX_IN_FLIGHT). At the bound the transport stops reading until half of them are done.
   */
  maxInFlight?: number;
}

/**
 * Each message in flight holds its handler and then its answer, so this bounds the work and the
 * answers in memory a peer can cause by writing faster than we finish: at most this many answers,
 * plus what one read of the transport decodes. Generous for real clients, which wait for answers.
 * (While input waits, so do the peer's responses: when more than half this many handlers wait on
 * the peer, input resumes only as their requests time out.)
 */
export const DEFAULT_MAX_IN_FLIGHT = 256;

export class Connection implements PeerLink {
  readonly #transport: Transport;
  readonly #dispatcher: Dispatching<RequestContext>;
  readonly #peerRequests: PeerRequests;
  /**
   * Ours and the answers to bad input, each made at first use: a server's connection made for one
   * HTTP request (one per POST, or per 2026-07-28 request) mostly needs neither.
   */
  #ourRequests: OurRequests | undefined;
  #badInput: BadInput | undefined;
  readonly #onProblem: (message: string) => void;
  #policy: WirePolicy;
  #closed = false;
  /** Made at the first listener, holding it: a push to an empty array gives it room for 17 (a connection per HTTP request has one or two). */
  #closeListeners: ((cause?: Error) => void)[] | undefined;
  #inputEndListeners: (() => void)[] | undefined;
  readonly #maxBatchItems: number;
  readonly #inbox: Inbox;

  constructor(transport: Transport, options: ConnectionOptions) {
    this.#transport = transport;
    this.#dispatcher = options.dispatcher;
    this.#policy = options.policy ?? { batches: false, omitUnreadableId: true };
    this.#onProblem = options.onProblem ?? (() => {});
    this.#peerRequests = new PeerRequests(this);
    this.#maxBatchItems = options.maxBatchItems ?? DEFAULT_MAX_BATCH_ITEMS;
    this.#inbox = new Inbox(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, (full) => {
      if (full) this.#transport.pauseInput?.();
      else this.#transport.resumeInput?.();
    });
    // While the transport waits on a person (an OAuth sign-in), our deadlines stand still.
    transport.onHold?.((held) => (held ? this.clock.hold() : this.clock.release()));
  }

  get #our(): OurRequests {
    return (this.#ourRequests ??= new OurRequests(this, this.#transport));
  }

  get #bad(): BadInput {
    return (this.#badInput ??= new BadInput({
      pending: this.#our,
      policy: () => this.#policy,
      send: (response) => this.send(response),
      onProblem: this.#onProblem,
    }));
  }

  /**
   * The clock our requests' deadlines are kept in (jsonrpc/request-clock.ts): a role's own
   * deadline that measures the peer (the handshake's) is kept in it too.
   */
  get clock(): RequestClock {
    return this.#our.clock;
  }

  /** Starts reading from the transport. */
  start(): void {
    this.#transport.start({
      message: (text, value, classified) => {
        const incoming = classified ?? (value === undefined ? decodeMessage(text) : Array.isArray(value) ? { kind: "batch" as const, items: value } : classify(value));
        // The inbox's ordering policy (protocol/inbox.ts): arrival order, each message until it is
        // answered or the event loop turns. Relied on here: a request answered without waiting is
        // answered before the next message is looked at (quick answers keep their requests' order),
        // and a cancel that follows a request finds that request already in flight.
        this.#inbox.enqueue(() => this.#receive(incoming), incoming.kind === "batch" ? incoming.items.length : 1);
      },
      unreadable: (problem) => this.#inbox.enqueue(() => this.#bad.unreadable(problem)),
      inputEnded: () => void this.#finishThenClose(),
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
    if (this.#closeListeners) this.#closeListeners.push(listener);
    else this.#closeListeners = [listener];
  }

  /** The peer's input ended: the role ends what only the peer could have ended (a held listen). */
  onInputEnd(listener: () => void): void {
    if (this.#inputEndListeners) this.#inputEndListeners.push(listener);
    else this.#inputEndListeners = [listener];
  }

  /**
   * Sends a request and waits for its response. Rejects with RpcError for the peer's errors only.
   * `read` turns the result into what the role's method table says it is (see mcp/read.ts); it
   * runs inside the call's own wait (OurRequests.request) rather than in a promise of the role's
   * own, which would cost one more per call. A result it refuses is a MalformedResponseError: our
   * failure to read, not an error the peer sent.
   */
  request<P extends object>(method: string, params?: ByName<P>, options?: RequestOptions): Promise<{ [key: string]: unknown }>;
  request<P extends object, R>(method: string, params: ByName<P> | undefined, options: RequestOptions | undefined, read: (result: { [key: string]: unknown }) => R): Promise<R>;
  request(method: string, params?: object, options: RequestOptions = {}, read?: (result: { [key: string]: unknown }) => unknown): Promise<unknown> {
    return this.#our.request(method, params, options, read);
  }

  /**
   * Sends a notification; `options.signal` gives up a write not yet taken (an HTTP POST). Untyped
   * on purpose: the connection is below the MCP schema and itself sends only cancelled and progress;
   * the roles send theirs with their typed notify (ServerConnection.notify, McpClient.notify).
   */
  async notify(method: string, params?: object, options?: SendOptions): Promise<void> {
    if (this.#closed) return;
    const json = wireParams(method, params);
    await this.send(json === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params: json }, options);
  }

  /**
   * Writes one message; a failed write is reported, not thrown, since the peer is gone anyway. Not
   * an async function: every answer passes here, and the transport's own promise with one handler
   * (none when it is SENT_AT_ONCE, which cannot fail) costs less than an async function's promise and state.
   * A send that has nothing left to wait for (after the close, or a write that threw) gets SENT_AT_ONCE too.
   */
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    if (this.#closed) return SENT_AT_ONCE;
    try {
      const sent = this.#transport.send(message, options);
      return sent === SENT_AT_ONCE ? sent : sent.then(undefined, this.#writeFailed);
    } catch (error) {
      this.#writeFailed(error);
      return SENT_AT_ONCE;
    }
  }

  readonly #writeFailed = (error: unknown): void => {
    // A write cut short by our own close (say, the cancel of a call that timed out, as the
    // program exits) is no problem to report: we ended it.
    if (!this.#closed) this.#onProblem(`write failed: ${error instanceof Error ? error.message : String(error)}`);
  };

  /** See Transport.closeStream: false where the transport has no such thing. */
  closeStream(id: RequestId, retryMs?: number): boolean {
    return this.#transport.closeStream?.(id, retryMs) ?? false;
  }

  /** A request of the peer's ended without a response (it was cancelled): the transport may stop waiting for one. */
  unanswered(id: RequestId): void {
    this.#transport.unanswered?.(id);
  }

  /**
   * Closes the transport, then the connection. Not an async function: a transport that stopped at
   * once (CLOSED_AT_ONCE; a connection made per HTTP request closes once per request) is not
   * waited for, which would cost a promise and a tick. Never throws: a failure is the rejection.
   */
  close(): Promise<void> {
    try {
      const closing = this.#transport.close();
      if (closing !== CLOSED_AT_ONCE) return closing.then(() => this.#shutDown());
      this.#shutDown();
      return closing;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The peer's input ended. Our own requests can get no answer now, so they fail at once; the
   * peer's requests in flight are finished and answered (with no deadline of ours: the peer
   * decides how long to wait, see basic/lifecycle#shutdown), then the connection closes.
   */
  async #finishThenClose(): Promise<void> {
    this.#our.stopWaiting(new Error("the peer closed its output"));
    // Queued like a message, so that what the peer sent before its input ended is taken up first
    // (a cancel of a listen, sent last, is honoured before the listens end with their results).
    this.#inbox.enqueue(async () => {
      for (const listener of this.#inputEndListeners ?? []) listener();
    });
    await this.#inbox.idle();
    await this.close();
  }

  /**
   * Handles one classified input; for requests, resolves to the response it produced. A request's
   * promise is PeerRequests.handle's own: returned from an async function, it would be wrapped in
   * one more promise, and a thenable resolution, per call.
   */
  #receive(incoming: Incoming, inBatch = false): Promise<JSONRPCResponse | undefined> {
    return incoming.kind === "request" ? this.#peerRequests.handle(incoming.message, inBatch, this.#dispatcher) : this.#receiveOther(incoming, inBatch);
  }

  async #receiveOther(incoming: Exclude<Incoming, { kind: "request" }>, inBatch: boolean): Promise<JSONRPCResponse | undefined> {
    switch (incoming.kind) {
      case "notification":
        // Read by the connection itself (cancellation, progress) or by the role's table.
        await this.#receiveNotification(incoming.message);
        return undefined;
      case "response":
        if (!this.#our.settle(incoming.message)) {
          this.#onProblem(`dropped a response for id ${JSON.stringify(incoming.message.id)}: no request is waiting for it`);
        }
        return undefined;
      case "batch":
        return this.#receiveBatch(incoming.items);
      case "invalid":
        return this.#bad.invalid(incoming, inBatch);
    }
  }

  /**
   * Cancellation and progress are read here, for every role, and only here: they name requests
   * only the connection knows, the peer's (PeerRequests) and ours (OurRequests); see
   * ProtocolNotificationMethod in mcp/methods.ts. A malformed one is ignored without a report,
   * which would let a peer flood the log. Others go to the table.
   */
  async #receiveNotification(message: JSONRPCNotification): Promise<void> {
    const params = message.params ?? {};
    if (message.method === "notifications/cancelled") this.#cancelled(params);
    else if (message.method === "notifications/progress") this.#our.progressed(params);
    else await this.#dispatcher.handleNotification(message);
  }

  /** The peer gave up on one of its requests. */
  #cancelled(params: { [key: string]: unknown }): void {
    // Spec (basic/utilities/cancellation): unknown or malformed cancellations SHOULD be ignored.
    const id = params.requestId;
    if (typeof id !== "string" && typeof id !== "number") return;
    // Its own request, as a rule; else one of ours that it may end (a 2026-07-28 listen). Unknown ids are ignored.
    if (!this.#peerRequests.cancel(id, params.reason)) this.#our.endedByPeer(id, params.reason);
  }

  async #receiveBatch(items: unknown[]): Promise<undefined> {
    // Spec (basic#batching, 2025-03-26 only): receivers MUST accept batches; later versions removed them.
    if (!this.#policy.batches) {
      const error = new RpcError(ErrorCode.InvalidRequest, "invalid request: JSON-RPC batches are not supported in this protocol version");
      await this.#bad.reply(error, undefined, false);
      return undefined;
    }
    const refusal = batchRefusal(items.length, this.#maxBatchItems);
    if (refusal) {
      await this.#bad.reply(refusal, undefined, false);
      return undefined;
    }
    const answers = await Promise.all(items.map((item) => this.#receive(classify(item), true)));
    const responses = answers.filter((answer): answer is JSONRPCResponse => answer !== undefined);
    // A batch of only notifications and responses gets no reply at all.
    if (responses.length > 0) await this.send(responses);
    return undefined;
  }

  #shutDown(cause?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ourRequests?.rejectAll(cause);
    this.#peerRequests.abortAll();
    for (const listener of this.#closeListeners ?? []) listener(cause);
  }
}
