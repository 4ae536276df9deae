// Keeping a stdio server running: when it exits unexpectedly, start it again and re-initialize,
// with exponential backoff, until too many crashes came too close together. Calls in flight at
// the crash are not replayed (they may have had effects); they fail with the exit's error, as
// without restarts.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle (a new session each time)

import { ServerExitedError, StdioClientTransport, type StdioServerParameters } from "../transports/stdio-client.js";
import type { McpClient } from "./client.js";

export interface RestartPolicy {
  /**
   * Restarts in a row before giving up (default 3). Every crash counts, whatever its cause: a start
   * that failed, or a server that came up and exited again before the stable period was over.
   */
  maxRetries: number;
  /** The wait before the first restart; it doubles with each crash counted (default 250 ms). */
  initialDelayMs: number;
  /** The longest wait between restarts (default 5000 ms). */
  maxDelayMs: number;
  /** A server that ran this long since it last came up starts with the whole budget again (default 30 s). */
  stableAfterMs: number;
}

export const DEFAULT_RESTART: RestartPolicy = { maxRetries: 3, initialDelayMs: 250, maxDelayMs: 5000, stableAfterMs: 30_000 };

/** The clock and timer the restarts are kept in (tests give their own). */
export interface RestartTimers {
  now(): number;
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const SYSTEM_TIMERS: RestartTimers = {
  now: () => performance.now(),
  setTimeout: (fire, ms) => setTimeout(fire, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A client bound to a stdio server it starts, and restarts after crashes when asked to. Emits on
 * the client: "restarting" ({ attempt, delayMs, cause }), "restarted" ({ attempt }), and
 * "restartFailed" ({ attempts, cause }) once it gives up. `attempt` counts the crashes since the
 * server last ran for the stable period, so a server that crashes soon after every start is given
 * up on as surely as one that cannot start.
 */
export class StdioServerConnection {
  readonly client: McpClient;
  readonly parameters: StdioServerParameters;
  readonly #policy: RestartPolicy | undefined;
  readonly #timers: RestartTimers;
  #transport: StdioClientTransport | undefined;
  #closing = false;
  /** Set while a restart sequence runs, so that a failed start does not begin a second one. */
  #restarting = false;
  #timer: unknown;
  /** Crashes since the server last ran for the stable period. */
  #crashes = 0;
  /** When the server last came up (handshake done), in the timers' clock. */
  #upSince: number | undefined;

  constructor(client: McpClient, parameters: StdioServerParameters, restart?: Partial<RestartPolicy> | false, timers: RestartTimers = SYSTEM_TIMERS) {
    this.client = client;
    this.parameters = parameters;
    this.#policy = restart === false || restart === undefined ? undefined : { ...DEFAULT_RESTART, ...restart };
    this.#timers = timers;
    client.on("close", (cause?: Error) => this.#onClose(cause));
  }

  /** The current server process's transport. */
  get transport(): StdioClientTransport | undefined {
    return this.#transport;
  }

  async start(): Promise<void> {
    this.#transport = new StdioClientTransport(this.parameters);
    await this.client.connect(this.#transport);
    this.#upSince = this.#timers.now();
  }

  async close(): Promise<void> {
    this.#closing = true;
    this.#timers.clearTimeout(this.#timer);
    await this.client.close();
  }

  #onClose(cause?: Error): void {
    // Only a crash is restarted: not our own close(), and not a server that never came up.
    if (this.#closing || this.#restarting || !this.#policy || !(cause instanceof ServerExitedError)) return;
    if (this.#upSince !== undefined && this.#timers.now() - this.#upSince >= this.#policy.stableAfterMs) this.#crashes = 0;
    this.#restarting = true;
    void this.#restart(cause).finally(() => (this.#restarting = false));
  }

  /** Counts the crash, waits its backoff and starts again; a failed start is one crash more. */
  async #restart(cause: Error): Promise<void> {
    const policy = this.#policy!;
    for (;;) {
      // close() may have come while a start was under way (which it then failed).
      if (this.#closing) return;
      const attempt = ++this.#crashes;
      if (attempt > policy.maxRetries) {
        this.client.emit("restartFailed", { attempts: attempt - 1, cause });
        return;
      }
      const delayMs = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
      this.client.emit("restarting", { attempt, delayMs, cause });
      await new Promise<void>((resolve) => (this.#timer = this.#timers.setTimeout(resolve, delayMs)));
      if (this.#closing) return;
      try {
        await this.start();
        // close() came while it was starting: the server it started is not kept either.
        if (this.#closing) return void (await this.client.close());
        // An exit in the moment between the handshake and here was not taken for a crash (a
        // restart was running): it is one all the same.
        if (!this.client.isConnected) throw new Error("the server exited as soon as it came up");
        this.client.emit("restarted", { attempt });
        return;
      } catch (error) {
        cause = error instanceof Error ? error : new Error(String(error));
      }
    }
  }
}
