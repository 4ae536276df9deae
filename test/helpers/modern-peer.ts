// A raw 2026-07-28 client for server tests: it writes requests with the envelope in `_meta` to an
// in-process server session (through RawPeer, so tests see exactly what would go on the wire) and
// waits for the answer to each id. Nothing here interprets results: the tests read the wire.
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import type { McpServer } from "../../src/server/definition.js";
import type { ServerConnection, ServerConnectionOptions } from "../../src/server/connection.js";
import { RawPeer, settle } from "./raw-peer.js";

export const MODERN = "2026-07-28";
export const PV = "io.modelcontextprotocol/protocolVersion";
export const CAPS = "io.modelcontextprotocol/clientCapabilities";
export const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

type Json = { [key: string]: unknown };
type Id = string | number;

/** A 2026-07-28 envelope: the version and the capabilities, plus any other `_meta` keys. */
export function envelope(capabilities: Json = {}, extra: Json = {}): Json {
  return { [PV]: MODERN, [CAPS]: capabilities, "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" }, ...extra };
}

export class ModernPeer {
  readonly raw = new RawPeer();
  readonly session: ServerConnection;
  #nextId = 1;

  constructor(server: McpServer, options?: ServerConnectionOptions) {
    this.session = server.connect(this.raw, options);
  }

  /** Everything the server wrote, flattened out of batches. */
  get messages(): Json[] {
    return this.raw.sent.flat() as unknown as Json[];
  }

  /** The notifications the server sent, optionally only those of one method. */
  notifications(method?: string): Json[] {
    return this.messages.filter((m) => m.id === undefined && (method === undefined || m.method === method));
  }

  /** Writes one message as it is (any shape, for bad input). */
  write(message: Json | string): void {
    this.raw.write(message);
  }

  /** Sends a request with `params` as given (no envelope added) and waits for its answer. */
  request(method: string, params?: Json, id: Id = this.#nextId++): Promise<Json> {
    this.raw.write({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return this.answer(id);
  }

  /** Sends a modern request: `params` with the envelope (or `meta`) in `_meta`. */
  modern(method: string, params: Json = {}, meta: Json = envelope(), id: Id = this.#nextId++): Promise<Json> {
    return this.request(method, { ...params, _meta: meta }, id);
  }

  /** The response to `id`, once the server wrote it. */
  async answer(id: Id, timeoutMs = 2000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer to id ${JSON.stringify(id)}; the server sent ${JSON.stringify(this.raw.sent)}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  /** Whether the server wrote an answer to `id` so far. */
  answered(id: Id): boolean {
    return this.messages.some((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
  }

  /** Handshake-era initialize and initialized, as a legacy client opens its session. */
  async initialize(capabilities: Json = {}): Promise<Json> {
    const answer = await this.request("initialize", { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "legacy", version: "1" } });
    this.raw.write({ jsonrpc: "2.0", method: "notifications/initialized" });
    await settle();
    return answer;
  }
}

/** The result of a response, or a failure that shows the error the server sent instead. */
export function resultOf(response: Json): Json {
  if (response.error !== undefined) throw new Error(`expected a result, got ${JSON.stringify(response.error)}`);
  return response.result as Json;
}

/** The error of a response, or a failure that shows the result the server sent instead. */
export function errorOf(response: Json): { code: number; message: string; data?: Json } {
  if (response.error === undefined) throw new Error(`expected an error, got ${JSON.stringify(response.result)}`);
  return response.error as { code: number; message: string; data?: Json };
}

export type { JSONRPCMessage };
