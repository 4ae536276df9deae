// One JSON-RPC connection over two streams, for either side: our requests and their answers (the
// correlator), their requests and our answers (the dispatcher), notifications both ways.
import { createInterface } from "node:readline";
import { decode, encode, INTERNAL_ERROR, isObject, METHOD_NOT_FOUND, RpcError } from "./wire.js";
import type { Id, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, Params } from "./wire.js";
/** What a handler knows of its request: cancelled or not, how to notify, what logs it hears. */
export type Context = { signal: AbortSignal; notify(method: string, params: Params): void;
  logLevel?: string | null }; // undefined: the session's level; null: none
export type Handler = (params: Params, context: Context) => Params | Promise<Params>;
export type Route = (request: JSONRPCRequest, context: Context) => Params | Promise<Params>;
/** The dispatcher's lookup in a method table: an unknown method is -32601 ([J] 5.1). */
export function lookup(table: Record<string, Handler>, method: string): Handler {
  if (Object.hasOwn(table, method)) return table[method]!;
  throw new RpcError(METHOD_NOT_FOUND, `method not found: ${method}`);
}
export class Connection {
  #nextId = 0;
  #pending = new Map<Id, (response: Params) => void>(); // our requests, awaiting answers
  #running = new Map<unknown, AbortController>(); // their requests, being answered, by id
  constructor(input: NodeJS.ReadableStream, private output: NodeJS.WritableStream,
    private route: Route, private hear = (_notification: JSONRPCNotification) => {}) {
    createInterface({ input, crlfDelay: Infinity }) // [B]/transports#stdio: a message a line
      .on("line", (line) => line.trim() !== "" && this.#receive(line));
  }
  /** Sends a request and waits for its answer; gives up after timeoutMs, telling the peer. */
  request(method: string, params: Params = {}, timeoutMs = 30_000): Promise<Params> {
    const id = this.#nextId++; // [B]#requests: unique among this side's requests
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { // [B]/utilities/cancellation: who stops waiting says so
        this.#pending.delete(id);
        this.notify("notifications/cancelled", { requestId: id, reason: "timed out" });
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, ({ result, error }) => {
        this.#pending.delete(id);
        clearTimeout(timer);
        if (!isObject(error)) resolve(result as Params);
        else reject(new RpcError(Number(error.code), String(error.message), error.data));
      });
      this.#send({ jsonrpc: "2.0", id, method, params }); // [B]#requests
    });
  }
  notify(method: string, params?: Params): void { // [B]#notifications
    this.#send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
  }
  #send(message: JSONRPCMessage): void { this.output.write(encode(message)); }
  #receive(line: string): void {
    const decoded = decode(line);
    if ("bad" in decoded) return this.#send(decoded.bad);
    const message = decoded.message as Partial<JSONRPCRequest>, { id, method, params } = message;
    if (method === undefined) return this.#pending.get(id!)?.(message); // a response: settle it
    if (id !== undefined) return this.#serve(message as JSONRPCRequest);
    // [B]/utilities/cancellation: the named request stops, and gets no answer at all.
    if (method === "notifications/cancelled") return this.#running.get(params?.requestId)?.abort();
    this.hear(message as JSONRPCNotification); // [B]#notifications: never answered
  }
  // Each line is handled before the next is read: answers given at once keep arrival order.
  #serve(request: JSONRPCRequest): void {
    const abort = new AbortController(), { id, method } = request;
    // [B]/utilities/cancellation: any request but initialize may be cancelled.
    if (method !== "initialize") this.#running.set(id, abort);
    const answer = (result?: Params, error?: unknown) => {
      this.#running.delete(id);
      const { code, message, data } = error instanceof RpcError ? error
        : new RpcError(INTERNAL_ERROR, `${method}: internal error`);
      if (!abort.signal.aborted) this.#send(result ? { jsonrpc: "2.0", id, result } // [B]#responses
        : { jsonrpc: "2.0", id, error: { code, message, ...(data ? { data } : {}) } }); // or error
    };
    try {
      const result = this.route(request, { signal: abort.signal, notify: this.notify.bind(this) });
      if (result instanceof Promise) result.then((r) => answer(r), (e) => answer(undefined, e));
      else answer(result);
    } catch (error) { answer(undefined, error); }
  }
}
