// Input that is not a valid message, and what it gets: a request's error response (with its id
// when it could be read), or, for a broken response, nothing at all, while the call that waited
// for it fails at once. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic#responses
// and https://www.jsonrpc.org/specification#error_object. Refusals of whole batches use reply().

import { ErrorCode, errorResponseTo, RpcError, type Incoming, type JSONRPCResponse, type RequestId } from "../jsonrpc/messages.js";
import type { PendingRequests } from "../jsonrpc/pending.js";
import type { WirePolicy } from "./link.js";
import type { UnreadableInput } from "./transport.js";

export interface BadInputContext {
  /** Our requests waiting for answers (OurRequests, or the correlator itself). */
  pending: Pick<PendingRequests, "has" | "malformed">;
  /** The wire rules in force now (they change once the version is negotiated). */
  policy(): WirePolicy;
  send(response: JSONRPCResponse): Promise<void>;
  onProblem(message: string): void;
}

export class BadInput {
  readonly #context: BadInputContext;

  constructor(context: BadInputContext) {
    this.#context = context;
  }

  /** A JSON text that is not a valid message: answered (or, inside a batch, returned), unless a response. */
  invalid(incoming: Extract<Incoming, { kind: "invalid" }>, inBatch: boolean): Promise<JSONRPCResponse | undefined> | undefined {
    if (this.#isResponse(incoming.looksLike, incoming.id)) return this.#dropResponse(incoming.id, incoming.error.message.replace(/^invalid request: /, ""));
    this.#context.onProblem(incoming.error.message);
    return this.reply(incoming.error, incoming.id, inBatch);
  }

  /** Input that never became a JSON text: invalid UTF-8, or a message over the size limit. */
  async unreadable(problem: UnreadableInput): Promise<void> {
    if (problem.kind === "invalid-utf8") {
      this.#context.onProblem("a line was not valid UTF-8");
      await this.reply(new RpcError(ErrorCode.ParseError, "parse error: message is not valid UTF-8"), undefined, false);
      return;
    }
    const tooLarge = `a ${problem.bytes}-byte message exceeded the ${problem.limit}-byte limit`;
    if (this.#isResponse(problem.looksLike, problem.id)) {
      this.#dropResponse(problem.id, tooLarge);
      return;
    }
    this.#context.onProblem(`${tooLarge} and was dropped`);
    const error = new RpcError(ErrorCode.InvalidRequest, `invalid request: message of ${problem.bytes} bytes exceeds the limit of ${problem.limit} bytes`, { limit: problem.limit });
    await this.reply(error, problem.id, false);
  }

  /** Sends (or, inside a batch, returns) an error response; `id` is absent when it was unreadable. */
  async reply(error: RpcError, id: RequestId | undefined, inBatch: boolean): Promise<JSONRPCResponse | undefined> {
    const response = errorResponseTo(id, error, this.#context.policy().omitUnreadableId);
    if (inBatch) return response;
    await this.#context.send(response);
    return undefined;
  }

  /**
   * Whether bad input was a response: shaped like one, or, when its shape is unknown, an answer
   * to one of our requests by its id. Spec (JSON-RPC 2.0 #response_object): a response is never
   * answered, not even a broken one; the call waiting for it fails instead.
   */
  #isResponse(looksLike: "request" | "response" | undefined, id: RequestId | undefined): boolean {
    return looksLike === "response" || (looksLike === undefined && id !== undefined && this.#context.pending.has(id));
  }

  #dropResponse(id: RequestId | undefined, detail: string): undefined {
    const waiting = id !== undefined && this.#context.pending.malformed(id, detail);
    this.#context.onProblem(`dropped a malformed response${id === undefined ? "" : ` for id ${JSON.stringify(id)}`}: ${detail}${waiting ? "" : " (no request is waiting for it)"}`);
    return undefined;
  }
}
