// What the application set up in its session that lives on the server (resource subscriptions and
// the log level), so that it can be set up again when the transport opens a new session on its
// own (Streamable HTTP, after the server ended the old one: a 404 for its session id).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
// (a new session starts empty), server/resources#subscriptions and server/utilities/logging.

import type { LoggingLevel } from "../mcp/logging.js";

/** The client's two calls that set the session up again (McpClient's own methods). */
export interface Setter {
  subscribe(uri: string): Promise<void>;
  setLoggingLevel(level: LoggingLevel): Promise<void>;
}

export class SessionSetup {
  readonly #subscriptions = new Set<string>();
  #logLevel: LoggingLevel | undefined;

  subscribed(uri: string): void {
    this.#subscriptions.add(uri);
  }

  unsubscribed(uri: string): void {
    this.#subscriptions.delete(uri);
  }

  levelSet(level: LoggingLevel): void {
    this.#logLevel = level;
  }

  clear(): void {
    this.#subscriptions.clear();
    this.#logLevel = undefined;
  }

  /**
   * Sends it all again to a new session; resolves to what failed (nothing, when all was restored).
   * The setter's calls record what they set here again, which changes nothing.
   */
  async restore(client: Setter): Promise<Error[]> {
    const requests = [...this.#subscriptions].map((uri) => client.subscribe(uri));
    if (this.#logLevel !== undefined) requests.push(client.setLoggingLevel(this.#logLevel));
    const settled = await Promise.allSettled(requests);
    return settled.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason))] : []));
  }
}
