// A scripted server for the dual-era client's tests: each message the client sends is recorded
// and handed to `answer`, whose replies (objects, or raw lines) go back to the client.
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import type { SendOptions, Transport, TransportHandlers } from "../../src/protocol/transport.js";

export type Sent = { jsonrpc: "2.0"; id?: string | number; method?: string; params?: { [key: string]: unknown }; result?: unknown; error?: unknown };

export class ScriptedServer implements Transport {
  readonly sent: Sent[] = [];
  /** The extra HTTP headers each message was sent with (SendOptions.headers), in step with `sent`. */
  readonly headers: (Record<string, string> | undefined)[] = [];
  #handlers: TransportHandlers | undefined;
  peerKey: string | undefined;

  constructor(readonly answer: (message: Sent, peer: ScriptedServer) => (object | string)[] | void) {}

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    const copy: Sent = JSON.parse(JSON.stringify(message));
    this.sent.push(copy);
    this.headers.push(options?.headers);
    const replies = this.answer(copy, this) ?? [];
    setImmediate(() => this.deliver(...replies));
  }

  /** Sends the client messages, as the server would, unprompted. */
  deliver(...replies: (object | string)[]): void {
    for (const reply of replies) this.#handlers?.message(typeof reply === "string" ? reply : JSON.stringify(reply));
  }

  /** Ends the conversation as a server process that exits would. */
  exit(): void {
    this.#handlers?.close(new Error("the server exited"));
  }

  async close(): Promise<void> {
    this.#handlers?.close();
  }

  methods(): (string | undefined)[] {
    return this.sent.map((m) => m.method);
  }
}

export const SERVER_INFO = { name: "scripted", version: "1.0.0" };
export const MODERN = "2026-07-28";

export function discoverResult(capabilities: object = { tools: { listChanged: true } }, versions = [MODERN]): object {
  return { supportedVersions: versions, capabilities, resultType: "complete", ttlMs: 0, cacheScope: "private", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } };
}

export function initializeResult(capabilities: object = { tools: {} }): object {
  return { protocolVersion: "2025-11-25", capabilities, serverInfo: SERVER_INFO };
}

/** A handshake-era server: answers initialize and tools/list; `beforeInitialize` says what it does with anything else first. */
export function legacyServer(beforeInitialize: (message: Sent) => (object | string)[] | void) {
  let initialized = false;
  return new ScriptedServer((message) => {
    if (message.id === undefined) return;
    if (message.method === "initialize") {
      initialized = true;
      return [{ jsonrpc: "2.0", id: message.id, result: initializeResult() }];
    }
    if (!initialized) return beforeInitialize(message);
    if (message.method === "tools/list") return [{ jsonrpc: "2.0", id: message.id, result: { tools: [] } }];
    return [{ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } }];
  });
}

export const SUB = "io.modelcontextprotocol/subscriptionId";

/** A modern server that acknowledges each listen (those `acknowledge` picks) with `honour(filter)` and records the listens. */
export function listenServer(honour: (filter: { [key: string]: unknown }) => object = (f) => f, acknowledge: (listen: Sent) => boolean = () => true) {
  return new ScriptedServer((m) => {
    if (m.method === "server/discover") {
      return [{ jsonrpc: "2.0", id: m.id, result: discoverResult({ tools: { listChanged: true }, resources: { subscribe: true } }) }];
    }
    if (m.method === "subscriptions/listen" && acknowledge(m)) {
      const notifications = honour(m.params!.notifications as { [key: string]: unknown });
      return [{ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications, _meta: { [SUB]: m.id } } }];
    }
  });
}

export const listens = (server: ScriptedServer) => server.sent.filter((m) => m.method === "subscriptions/listen");
export const cancels = (server: ScriptedServer) => server.sent.filter((m) => m.method === "notifications/cancelled").map((m) => m.params!.requestId);

/** A modern server whose tools/call answers come from `calls`, one per round. */
export function roundsServer(calls: (round: number, m: Sent) => object) {
  let round = 0;
  return new ScriptedServer((m) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: discoverResult({ tools: {} }) }];
    if (m.method === "tools/call") return [{ jsonrpc: "2.0", id: m.id, result: calls(round++, m) }];
  });
}
