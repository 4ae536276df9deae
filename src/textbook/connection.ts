// One JSON-RPC connection over a pair of streams, for either side: our requests and their answers
// (the correlator), their requests and our answers (the dispatcher), notifications both ways.
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { decode, encode, INTERNAL_ERROR, isObject, METHOD_NOT_FOUND, RpcError } from "./wire.js";
import type { Id, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, Params } from "./wire.js";

/** What a handler knows of the request it answers. */
export interface Context {
  signal: AbortSignal; // aborted by notifications/cancelled
  request: JSONRPCRequest;
  notify(method: string, params: Params): void;
}
export type Handler = (params: Params, context: Context) => Params | Promise<Params>;
type Answer = JSONRPCMessage | undefined;
export type Route = (request: JSONRPCRequest, context: Context) => Params | Promise<Params>;

/** The method table's lookup: an unknown method is -32601 ([J] 5.1). */
export function lookup(table: Record<string, Handler>, method: string): Handler {
  const handler = Object.hasOwn(table, method) ? table[method] : undefined;
  if (!handler) throw new RpcError(METHOD_NOT_FOUND, `method not found: ${method}`);
  return handler;
}

export class Connection {
  #nextId = 0;
  #pending = new Map<Id, { settle: (message: Params) => void; timer: NodeJS.Timeout }>();
  #running = new Map<Id, AbortController>();
  #queue: { answer?: Answer; done: boolean }[] = []; // our answers, in their requests' order
  readonly closed: Promise<void>;

  constructor(input: Readable, private readonly output: Writable, private readonly route: Route,
    private readonly hear: (notification: JSONRPCNotification) => void = () => {}) {
    const lines = createInterface({ input, crlfDelay: Infinity });
    lines.on("line", (line) => { if (line.trim() !== "") this.#receive(line); });
    this.closed = new Promise((resolve) => lines.on("close", resolve));
  }

  /** Sends a request and waits for its answer; gives up after timeoutMs, telling the peer. */
  request(method: string, params: Params = {}, timeoutMs = 30_000): Promise<Params> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        // [B]/utilities/cancellation: the requester that stops waiting says so.
        this.notify("notifications/cancelled", { requestId: id, reason: "timed out" });
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { timer, settle: (answer) => isObject(answer.error)
        ? reject(new RpcError(Number(answer.error.code), String(answer.error.message), answer.error.data))
        : resolve(answer.result as Params) });
      this.#send({ jsonrpc: "2.0", id, method, params }); // [B]#requests
    });
  }

  notify(method: string, params?: Params): void {
    this.#send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) }); // [B]#notifications
  }

  #send(message: JSONRPCMessage): void { this.output.write(encode(message)); }

  #receive(line: string): void {
    const decoded = decode(line);
    if ("bad" in decoded) return this.#answer(decoded.bad);
    const message = decoded.message as unknown as Params;
    if (typeof message.method !== "string") { // a response: settle the request it answers
      const pending = this.#pending.get(message.id as Id);
      clearTimeout(pending?.timer);
      this.#pending.delete(message.id as Id);
      return pending?.settle(message);
    }
    if (!("id" in message)) return this.#heard(message as unknown as JSONRPCNotification);
    this.#answer(this.#serve(message as unknown as JSONRPCRequest));
  }

  #heard(notification: JSONRPCNotification): void {
    // [B]/utilities/cancellation: stop the named request; it then gets no answer at all.
    const requestId = notification.params?.requestId;
    if (notification.method === "notifications/cancelled") this.#running.get(requestId as Id)?.abort();
    else this.hear(notification); // [B]#notifications: never answered, whatever they say
  }

  /** The request's answer: at once if its handler returns at once, else when it settles. */
  #serve(request: JSONRPCRequest): Answer | Promise<Answer> {
    const cancel = new AbortController();
    if (request.method !== "initialize") this.#running.set(request.id, cancel);
    const context = { signal: cancel.signal, request, notify: this.notify.bind(this) };
    const answer = (result?: Params, error?: unknown): Answer => {
      this.#running.delete(request.id);
      if (cancel.signal.aborted) return undefined; // [B]/utilities/cancellation: no answer
      if (result) return { jsonrpc: "2.0", id: request.id, result }; // [B]#responses
      const { code, message, data } = error instanceof RpcError ? error
        : new RpcError(INTERNAL_ERROR, `${request.method}: internal error`);
      // [B]#responses: a thrown error becomes one error response, with the request's id.
      return { jsonrpc: "2.0", id: request.id, error: { code, message, ...(data ? { data } : {}) } };
    };
    try {
      const result = this.route(request, context);
      return result instanceof Promise ? result.then((r) => answer(r), (e) => answer(undefined, e)) : answer(result);
    } catch (error) {
      return answer(undefined, error);
    }
  }

  /** Queues an answer behind those of earlier requests: answers go out in arrival order. */
  #answer(answer: Answer | Promise<Answer>): void {
    const slot: { answer?: Answer; done: boolean } = { done: false };
    this.#queue.push(slot);
    const settle = (message: Answer) => {
      Object.assign(slot, { answer: message, done: true });
      while (this.#queue[0]?.done) {
        const first = this.#queue.shift()!;
        if (first.answer) this.#send(first.answer);
      }
    };
    if (answer instanceof Promise) void answer.then(settle);
    else settle(answer);
  }
}
