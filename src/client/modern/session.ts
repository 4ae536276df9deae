// The client's side of a 2026-07-28 conversation: no session on the server, so this holds what
// the client learnt from server/discover and sends every request with the envelope, reads each
// result by its resultType, answers input_required rounds, and keeps the one listen open.
// McpClient (client/client.ts) delegates here once the probe said "modern". Since 2026-07-28.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic#meta (the envelope) and basic/versioning.

import type { Connection, RequestOptions } from "../../protocol/connection.js";
import { isObject, RpcError } from "../../jsonrpc/messages.js";
import { ErrorCode } from "../../mcp/errors.js";
import type { Implementation, InitializeResult } from "../../mcp/lifecycle.js";
import { INPUT_REQUIRED_METHODS, type ClientRequestMethod, type ServerRequests } from "../../mcp/methods.js";
import type { RequestHandlers } from "../../protocol/method-table.js";
import { META, type DiscoverResult, type SubscriptionFilter } from "../../mcp/modern.js";
import { readClientResult } from "../../mcp/read.js";
import type { ListToolsResult } from "../../mcp/tools.js";
import type { ModernVersion } from "../../mcp/versions.js";
import { serverRequestHandlers, type ClientHandlers, type ServerRequestContext } from "../handlers.js";
import { collectPages, type ListingLimits } from "../lists.js";
import type { Envelope } from "./envelope.js";
import { modernReader, withInputRounds, type ModernOutcome } from "./input-rounds.js";
import { ToolHeaders } from "./tool-headers.js";
import { Listen } from "./listen.js";

type Json = { [key: string]: unknown };

export class ModernSession {
  readonly version: ModernVersion;
  readonly discover: DiscoverResult;
  readonly serverInfo: Implementation | undefined;
  readonly listen: Listen;
  readonly #connection: Connection;
  readonly #envelope: Envelope;
  /** The bounds on input rounds (ClientOptions.maxInputRounds, maxInputRequests). */
  readonly #rounds: { maxRounds: number; maxRequests: number };
  readonly #onProblem: (message: string) => void;
  readonly #listLimits: Partial<ListingLimits> | undefined;
  readonly #toolHeaders = new ToolHeaders();
  /** The application's handlers, answering input requests as they answer a legacy server's requests. */
  readonly #answers: RequestHandlers<ServerRequests, ServerRequestContext>;

  constructor(connection: Connection, envelope: Envelope, version: ModernVersion, discover: DiscoverResult,
    options: { handlers: ClientHandlers; rounds: { maxRounds: number; maxRequests: number }; onProblem: (message: string) => void; onAcknowledged: (filter: SubscriptionFilter) => void; listLimits?: Partial<ListingLimits> }) {
    this.#connection = connection;
    this.#envelope = envelope;
    this.version = version;
    this.discover = discover;
    this.serverInfo = serverInfoOf(discover);
    this.#rounds = options.rounds;
    this.#onProblem = options.onProblem;
    this.#listLimits = options.listLimits;
    // No notifications/elicitation/complete in 2026-07-28: the set of open URL elicitations is never read.
    this.#answers = serverRequestHandlers(options.handlers, new Set());
    this.listen = new Listen(connection, envelope, version, discover.capabilities, { onProblem: options.onProblem, onAcknowledged: options.onAcknowledged });
  }

  /** What connect() returns in this era: the discover result, shaped as an InitializeResult. */
  asInitializeResult(): InitializeResult {
    const result: InitializeResult = {
      protocolVersion: this.version,
      capabilities: this.discover.capabilities,
      serverInfo: this.serverInfo ?? { name: "", version: "" },
    };
    if (this.discover.instructions !== undefined) result.instructions = this.discover.instructions;
    return result;
  }

  /**
   * Sends `method` with the envelope; a method that may ask for input goes through the rounds.
   * A call whose HTTP response stream broke rejects with the transport's error and is not sent
   * again: a tool may have side effects, so whether to retry is the caller's choice.
   */
  request(method: string, params: object | undefined, options: RequestOptions): Promise<Json> {
    const wrapped = this.#envelope.wrap(this.version, params);
    if (!inTable(method)) return this.#connection.request(method, wrapped, options);
    if (method === "tools/list") return this.#listTools(wrapped, options);
    if (method !== "tools/call") return this.#send(method, wrapped, options);
    return this.#send(method, wrapped, options).catch(async (error: unknown) => {
      // Spec (server/tools#x-mcp-header): after -32020 the client SHOULD fetch tools/list again
      // (the tool's x-mcp-header declarations may have changed) and retry once. The server checks
      // the headers before it runs anything, so the call did not run.
      if (!(error instanceof RpcError && error.code === ErrorCode.HeaderMismatch)) throw error;
      this.#toolHeaders.clear();
      await collectPages((cursor) => this.#listTools(this.#envelope.wrap(this.version, cursor), { signal: options.signal, timeouts: options.timeouts }), "tools", this.#listLimits);
      return this.#send(method, wrapped, options);
    });
  }

  /** One tools/list page, its tools' x-mcp-header declarations kept for the calls. */
  #listTools(wrapped: Json, options: RequestOptions): Promise<ListToolsResult> {
    return this.#connection.request("tools/list", wrapped, options, readToolsList).then((outcome) => this.#toolHeaders.fromList(complete("tools/list", outcome), this.#onProblem));
  }

  #send(method: ClientRequestMethod, wrapped: Json, options: RequestOptions): Promise<Json> {
    const headers = method === "tools/call" ? this.#toolHeaders.forCall(wrapped) : undefined;
    const sendOptions = headers ? { ...options, headers: { ...options.headers, ...headers } } : options;
    const read = modernReader(method, readClientResult[method]);
    if (INPUT_REQUIRED_METHODS.includes(method)) {
      // Each round is a request of its own; what the call set as its total bounds them all.
      const send = (p: Json, leftMs: number | undefined) => {
        const timeouts = leftMs === undefined ? sendOptions.timeouts : { ...sendOptions.timeouts, maxTotalMs: leftMs };
        return this.#connection.request(method, p, { ...sendOptions, timeouts }, read);
      };
      return withInputRounds(method, wrapped, send, { ...this.#rounds, answers: this.#answers, signal: options.signal, maxTotalMs: options.timeouts?.maxTotalMs, clock: this.#connection.clock });
    }
    return this.#connection.request(method, wrapped, sendOptions, read).then((outcome) => complete(method, outcome));
  }
}

const readToolsList = modernReader("tools/list", readClientResult["tools/list"]);

/** The result of a method that cannot ask for input: modernReader lets only "complete" through for those. */
function complete<R>(method: string, outcome: ModernOutcome<R>): R {
  if (outcome.resultType !== "complete") throw new Error(`${method}: unreachable: input_required passed the reader`);
  return outcome.result;
}

function inTable(method: string): method is ClientRequestMethod {
  return Object.hasOwn(readClientResult, method);
}

/** result._meta serverInfo, when it is an Implementation (SHOULD be there; never trusted for decisions). */
function serverInfoOf(discover: DiscoverResult): Implementation | undefined {
  const info = isObject(discover._meta) ? discover._meta[META.serverInfo] : undefined;
  if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string") return undefined;
  const implementation: Implementation = { ...info, name: info.name, version: info.version };
  return implementation;
}
