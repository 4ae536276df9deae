// Keeping a stdio server running: when it exits unexpectedly, start it again and re-initialize,
// with a bounded number of retries and exponential backoff. Calls in flight at the crash are not
// replayed (they may have had effects); they fail with the exit's error, as without restarts.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle (a new session each time)

import { ServerExitedError, StdioClientTransport, type StdioServerParameters } from "../transports/stdio-client.js";
import type { McpClient } from "./client.js";

export interface RestartPolicy {
  /** Consecutive failed starts before giving up (default 3). */
  maxRetries: number;
  /** The wait before the first retry; it doubles each time (default 250 ms). */
  initialDelayMs: number;
  /** The longest wait between retries (default 5000 ms). */
  maxDelayMs: number;
}

export const DEFAULT_RESTART: RestartPolicy = { maxRetries: 3, initialDelayMs: 250, maxDelayMs: 5000 };

/**
 * A client bound to a stdio server it starts, and restarts after crashes when asked to. Emits on
 * the client: "restarting" ({ attempt, delayMs, cause }), "restarted" ({ attempt }), and
 * "restartFailed" ({ attempts, cause }) once it gives up.
 */
export class StdioServerConnection {
  readonly client: McpClient;
  readonly parameters: StdioServerParameters;
  readonly #policy: RestartPolicy | undefined;
  #transport: StdioClientTransport | undefined;
  #closing = false;
  /** Set while a retry sequence runs, so that a failed start does not begin a second one. */
  #restarting = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(client: McpClient, parameters: StdioServerParameters, restart?: Partial<RestartPolicy> | false) {
    this.client = client;
    this.parameters = parameters;
    this.#policy = restart === false || restart === undefined ? undefined : { ...DEFAULT_RESTART, ...restart };
    client.on("close", (cause?: Error) => this.#onClose(cause));
  }

  /** The current server process's transport. */
  get transport(): StdioClientTransport | undefined {
    return this.#transport;
  }

  async start(): Promise<void> {
    this.#transport = new StdioClientTransport(this.parameters);
    await this.client.connect(this.#transport);
  }

  async close(): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#timer);
    await this.client.close();
  }

  #onClose(cause?: Error): void {
    // Only a crash is restarted: not our own close(), and not a server that never came up.
    if (this.#closing || this.#restarting || !this.#policy || !(cause instanceof ServerExitedError)) return;
    this.#restarting = true;
    void this.#retry(1, cause).finally(() => (this.#restarting = false));
  }

  async #retry(attempt: number, cause: Error): Promise<void> {
    const policy = this.#policy!;
    if (attempt > policy.maxRetries) {
      this.client.emit("restartFailed", { attempts: attempt - 1, cause });
      return;
    }
    const delayMs = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
    this.client.emit("restarting", { attempt, delayMs, cause });
    await new Promise<void>((resolve) => (this.#timer = setTimeout(resolve, delayMs)));
    if (this.#closing) return;
    try {
      await this.start();
      this.client.emit("restarted", { attempt });
    } catch (error) {
      await this.#retry(attempt + 1, error instanceof Error ? error : new Error(String(error)));
    }
  }
}
