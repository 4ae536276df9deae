// Many servers behind one object: an McpClient per named server, their tools merged into one
// table of model-safe names (see tool-names.ts), calls routed back by that name, and an audit hook
// around each call. Not an MCP feature; it is what an agent host builds on the client role
// (https://modelcontextprotocol.io/specification/2025-11-25/architecture). Tools only: resources
// and prompts stay reachable through client(name).

import { EventEmitter } from "node:events";
import { performance } from "node:perf_hooks";
import type { Implementation } from "../mcp/lifecycle.js";
import type { CallToolResult, Tool } from "../mcp/tools.js";
import type { Transport } from "../protocol/transport.js";
import { StdioClientTransport, type StdioServerParameters } from "../transports/stdio-client.js";
import { McpClient, type CallOptions, type ClientOptions } from "./client.js";
import { parseToolArguments, toAnthropicTool, toOpenAITool, type AnthropicTool, type OpenAIFunctionTool } from "./llm-tools.js";
import { buildToolTable, closeMatches, defaultExposedName, type Collision, type ExposedTool } from "./tool-names.js";

/** One server: a name, how to reach it, and what of it to expose. */
export type ServerConfig = {
  /** Unique within the manager; the prefix of its tools' exposed names. */
  name: string;
  /** Options for this server's client, over the manager's `clientOptions`. */
  client?: ClientOptions;
  /** Only these tools (by the server's own names) are exposed; absent means all. */
  allowTools?: string[];
} & ({ transport: () => Transport | Promise<Transport> } | { stdio: StdioServerParameters });

export interface ManagerOptions {
  servers: ServerConfig[];
  /** Options every client gets (each server's `client` options win). */
  clientOptions?: ClientOptions;
  /** When true, start() rejects if any server fails, and closes the others. Default false. */
  failIfOneServerFails?: boolean;
  /** Exposes a tool only if this returns true (applied after the allow-list). */
  filter?: (server: string, tool: Tool) => boolean;
  /** The exposed name before sanitizing (default `<server>__<tool>`, which it receives third). */
  rename?: (server: string, tool: Tool, defaultName: string) => string;
  /** Called before each call and after it; see AuditEvent. */
  audit?: (event: AuditEvent) => void | Promise<void>;
}

export interface AuditBase { server: string; tool: string; exposedName: string; arguments: { [key: string]: unknown } | undefined }
/**
 * "before" is awaited, and throwing from it refuses the call (an approval step can live here).
 * "after" comes once per call with `result` or `error`; what it throws is reported as "problem".
 */
export type AuditEvent =
  | ({ phase: "before" } & AuditBase)
  | ({ phase: "after"; durationMs: number; result?: CallToolResult; error?: unknown } & AuditBase);

/** A server that failed to start, or whose connection closed later. */
export interface ServerFailure { server: string; error: Error }

/** A server failed to connect or to list its tools; `cause` says why. */
export class ServerStartError extends Error {
  constructor(readonly server: string, cause: unknown) {
    super(`start: server ${JSON.stringify(server)} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "ServerStartError";
  }
}

/** callTool got a name the manager does not expose (or withholds because of a collision). */
export class UnknownToolError extends Error {
  constructor(readonly exposedName: string, readonly suggestions: string[], readonly collision?: Collision) {
    const hint = suggestions.length > 0 ? `; did you mean ${suggestions.map((s) => JSON.stringify(s)).join(", ")}?` : "";
    const sources = collision?.sources.map((s) => `${JSON.stringify(s.tool)} of ${JSON.stringify(s.server)}`).join(" and ");
    super(collision
      ? `callTool: ${JSON.stringify(exposedName)} is withheld because several tools map to it: ${sources}`
      : `callTool: no exposed tool is named ${JSON.stringify(exposedName)}${hint}`);
    this.name = "UnknownToolError";
  }
}

/** "down": failed to start, or its connection closed; its client is closed already. */
type ServerStatus = "connecting" | "ready" | "down";
interface ServerState {
  config: ServerConfig;
  client: McpClient;
  tools: Tool[];
  status: ServerStatus;
  /** The listing in flight, if one is; and whether a change came meanwhile, for one more after it. */
  refreshing: Promise<void> | undefined;
  stale: boolean;
}

/**
 * Events: "toolsChanged" (the exposed table was rebuilt), "serverFailed" (ServerFailure),
 * "problem" (message, cause): a failed refresh or a failing "after" audit call.
 */
export class McpClientManager extends EventEmitter {
  readonly info: Implementation;
  readonly #options: ManagerOptions;
  readonly #servers = new Map<string, ServerState>();
  #table = new Map<string, ExposedTool>();
  #collisions: Collision[] = [];
  #failures: ServerFailure[] = [];
  #state: "new" | "started" | "closed" = "new";

  constructor(info: Implementation, options: ManagerOptions) {
    super();
    this.info = info;
    this.#options = options;
    const names = new Set<string>();
    for (const { name } of options.servers) {
      if (!name) throw new Error("manager: every server needs a non-empty name");
      if (names.has(name)) throw new Error(`manager: two servers are named ${JSON.stringify(name)}`);
      names.add(name);
    }
  }

  /** The exposed tools, in server order, then each server's order. */
  get tools(): ExposedTool[] { return [...this.#table.values()]; }
  /** Names that several tools claimed; none of those tools is exposed. */
  get collisions(): Collision[] { return [...this.#collisions]; }
  get failures(): ServerFailure[] { return [...this.#failures]; }
  /** The servers whose tools are exposed now. */
  get servers(): string[] { return [...this.#servers.values()].filter((s) => s.status === "ready").map((s) => s.config.name); }
  /** A server's client, for what the manager does not wrap (resources, prompts, ...). */
  client(server: string): McpClient | undefined { return this.#servers.get(server)?.client; }

  openAITools(): OpenAIFunctionTool[] { return this.tools.map(toOpenAITool); }
  anthropicTools(): AnthropicTool[] { return this.tools.map(toAnthropicTool); }

  /** Connects every server at once and waits for all of them to settle, so none is left half-open. */
  async start(): Promise<void> {
    if (this.#state !== "new") throw new Error(`start: the manager is already ${this.#state}`);
    this.#state = "started";
    const outcomes = await Promise.allSettled(this.#options.servers.map((config) => this.#startOne(config)));
    const failed: ServerStartError[] = [];
    outcomes.forEach((outcome, i) => {
      if (outcome.status === "fulfilled") return;
      const error = new ServerStartError(this.#options.servers[i]!.name, outcome.reason);
      failed.push(error);
      this.#fail({ server: error.server, error });
    });
    if (failed.length > 0 && this.#options.failIfOneServerFails) {
      await this.close();
      throw failed[0];
    }
    this.#rebuild();
  }

  /** Closes every client. Calls in flight reject, as McpClient.close makes them. */
  async close(): Promise<void> {
    this.#state = "closed";
    // A client that is down closed itself; closing it again could wait on a process that never ran.
    const states = [...this.#servers.values()].filter((s) => s.status !== "down");
    for (const state of states) state.status = "down";
    await Promise.allSettled(states.map((state) => state.client.close()));
    this.#table = new Map();
  }

  /**
   * Calls a tool by its exposed name. `args` may be the JSON text a model produced (OpenAI sends
   * arguments that way). Tool failures come back as results with isError, as from McpClient.
   */
  async callTool(exposedName: string, args?: { [key: string]: unknown } | string, options?: CallOptions): Promise<CallToolResult> {
    const entry = this.#table.get(exposedName);
    const state = entry && this.#servers.get(entry.server);
    if (!entry || state?.status !== "ready") {
      const collision = this.#collisions.find((c) => c.exposedName === exposedName);
      throw new UnknownToolError(exposedName, closeMatches(exposedName, this.#table.keys()), collision);
    }
    const base: AuditBase = { server: entry.server, tool: entry.tool.name, exposedName, arguments: parseToolArguments(exposedName, args) };
    const audit = this.#options.audit;
    const started = performance.now();
    let outcome: { result: CallToolResult } | { error: unknown };
    try {
      await audit?.({ phase: "before", ...base });
      outcome = { result: await state.client.callTool(entry.tool.name, base.arguments, options) };
    } catch (error) {
      outcome = { error };
    }
    try {
      await audit?.({ phase: "after", ...base, ...outcome, durationMs: performance.now() - started });
    } catch (error) {
      // The call has happened by now; losing its result because a log failed would be worse.
      this.emit("problem", `audit: the "after" hook failed for ${exposedName}: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    if ("error" in outcome) throw outcome.error;
    return outcome.result;
  }

  async #startOne(config: ServerConfig): Promise<void> {
    const client = new McpClient(this.info, { ...this.#options.clientOptions, ...config.client });
    const state: ServerState = { config, client, tools: [], status: "connecting", refreshing: undefined, stale: false };
    this.#servers.set(config.name, state);
    // Listened to from the start: a change announced while the first listing is in flight must
    // still trigger a fresh one (#refresh lists once more after the one in flight).
    client.on("toolsChanged", () => {
      if (this.#state === "closed") return;
      // A listing in flight is joined, not started: its failure is reported once, where it began.
      if (state.refreshing) return void (state.stale = true);
      this.#refresh(state).catch((error: unknown) =>
        this.emit("problem", `refresh: listing the tools of ${JSON.stringify(config.name)} failed: ${error instanceof Error ? error.message : String(error)}`, error));
    });
    try {
      const transport = "transport" in config ? await config.transport() : new StdioClientTransport(config.stdio);
      await client.connect(transport);
    } catch (error) {
      state.status = "down";
      throw error;
    }
    client.on("close", (cause?: Error) => {
      if (state.status !== "ready") return;
      state.status = "down";
      this.#fail({ server: config.name, error: cause ?? new Error(`server ${JSON.stringify(config.name)}: the connection closed`) });
      this.#rebuild();
    });
    try {
      await this.#refresh(state);
    } catch (error) {
      state.status = "down";
      await client.close();
      throw error;
    }
    // close() may have run while this server was still connecting.
    if (this.#state === "closed") return void (await client.close());
    state.status = "ready";
  }

  /**
   * Lists one server's tools. One listing at a time per server: a change announced while one is in
   * flight makes one more after it, however many came (each listing may be as large as
   * ClientOptions.listLimits allows, and a server may announce changes without end).
   */
  #refresh(state: ServerState): Promise<void> {
    state.stale = true;
    state.refreshing ??= this.#listUntilFresh(state).finally(() => (state.refreshing = undefined));
    return state.refreshing;
  }

  async #listUntilFresh(state: ServerState): Promise<void> {
    while (state.stale) {
      state.stale = false;
      // A server without the tools capability simply has none; asking would fail locally.
      const tools = state.client.serverCapabilities?.tools ? await state.client.listAllTools() : [];
      if (state.stale) continue;
      state.tools = tools;
      if (state.status === "ready") this.#rebuild();
    }
  }

  #rebuild(): void {
    const { filter, rename } = this.#options;
    const candidates: { server: string; tool: Tool; name: string }[] = [];
    for (const { config, tools, status } of this.#servers.values()) {
      if (status !== "ready") continue;
      const allowed = config.allowTools && new Set(config.allowTools);
      for (const tool of tools) {
        if (allowed && !allowed.has(tool.name)) continue;
        if (filter && !filter(config.name, tool)) continue;
        const name = defaultExposedName(config.name, tool.name);
        candidates.push({ server: config.name, tool, name: rename ? rename(config.name, tool, name) : name });
      }
    }
    ({ tools: this.#table, collisions: this.#collisions } = buildToolTable(candidates));
    this.emit("toolsChanged");
  }

  #fail(failure: ServerFailure): void {
    this.#failures.push(failure);
    this.emit("serverFailed", failure);
  }
}
