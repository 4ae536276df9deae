// Streamable HTTP, client side: the session, and opening a new one when the server has ended ours
// (a 404 to a request that carried its id). The initialize request the connection sent first is
// sent again and, if the server answers it with a result, notifications/initialized; a refusal
// fails the message that needed the session. The connection keeps its first InitializeResult.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
// Left out: setting up the new session as the old one was (subscriptions, log level): the client's job (client/session-setup.ts).

import { isObject, type RequestId } from "../jsonrpc/messages.js";
import { HttpTransportClosedError } from "./client-fetch.js";
import { describe, type Answer, type Outgoing } from "./client-messages.js";

/** What the session needs from its transport. */
export interface SessionHost {
  /** POSTs one message and follows its answer, handing each text from the server to `deliver`; stops when `signal` fires. */
  post(outgoing: Outgoing, signal: AbortSignal | undefined, deliver: (text: string) => void): Promise<void>;
  /** Takes a text from the server like any other, but keeps the answer `own` from the connection and returns it. */
  receive(text: string, own?: RequestId): Answer | undefined;
  isClosed(): boolean;
}

/** The server refused the new session's initialize (an error, or no result): no session was opened. Local. */
export class SessionRenewalError extends Error {
  constructor(detail: string) {
    super(`${STEP}: the server did not open a new session: ${detail}`);
    this.name = "SessionRenewalError";
  }
}

const STEP = "initialize (new session)";

export class ClientSession {
  /** The MCP-Session-Id the server assigned, if any. Spec (security): never log it. */
  id: string | undefined;
  readonly #host: SessionHost;
  /** The initialize request as it went out, resent to start over when the server ends the session. */
  #initialize: { text: string; id: RequestId } | undefined;
  /** The server ended our session; the next message first opens a new one. */
  #lost = false;
  #opening: Promise<void> | undefined;
  readonly #listeners: (() => void)[] = [];

  constructor(host: SessionHost) {
    this.#host = host;
  }

  /** The id of the initialize request, whose result names the protocol version. */
  get initializeId(): RequestId | undefined { return this.#initialize?.id; }

  /** The connection's own initialize is going out. */
  starting(initialize: Outgoing): void {
    // Spec (transports#session-management): initialize is sent without a session id; it starts a new session.
    this.#initialize = { text: initialize.text, id: initialize.ids[0]! };
    this.id = undefined;
    this.#lost = false;
  }

  /** A 404 for session `sent`: it has ended, unless another was opened meanwhile. Returns whether ours ended. */
  ended(sent: string): boolean {
    if (this.id !== sent) return false;
    this.id = undefined;
    this.#lost = true;
    return true;
  }

  /** `listener` runs each time a new session has been opened in place of an ended one. */
  onNewSession(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * Waits while a new session is opened, if the old one ended. The attempt belongs to the message
   * that started it and stops when its sender stops waiting (a server that stalls must not hold
   * it forever); a message that was waiting on an abandoned attempt starts its own.
   */
  async ready(signal: AbortSignal | undefined): Promise<void> {
    while (this.#lost || this.#opening) {
      try {
        await (this.#opening ??= this.#open(signal));
      } catch (error) {
        if (!(error instanceof AbandonedAttempt) || signal?.aborted) throw error;
      }
    }
  }

  /** Resends the initialize request seen earlier, without a session id; then, if it succeeded, notifications/initialized. */
  async #open(signal: AbortSignal | undefined): Promise<void> {
    const initialize = this.#initialize!;
    try {
      this.#lost = false;
      const init: Outgoing = { text: initialize.text, step: STEP, ids: [initialize.id], initialize: true };
      let answer: Answer | undefined;
      // The connection already has its InitializeResult; the new one is kept from it.
      await this.#host.post(init, signal, (text) => (answer ??= this.#host.receive(text, initialize.id)));
      // Spec (basic/lifecycle#initialization): initialized follows a successful initialize only.
      if (!isObject(answer?.result)) {
        this.id = undefined;
        throw new SessionRenewalError(refusal(answer));
      }
      await this.#host.post(describe({ jsonrpc: "2.0", method: "notifications/initialized" }), signal, (text) => this.#host.receive(text));
    } catch (error) {
      this.#lost = true;
      if (this.#host.isClosed()) throw new HttpTransportClosedError(STEP);
      throw signal?.aborted ? new AbandonedAttempt() : error;
    } finally {
      this.#opening = undefined;
    }
    for (const listener of this.#listeners) listener();
  }
}

/** A new session's initialize was aborted because the message it was opened for is no longer awaited. */
class AbandonedAttempt extends Error {
  constructor() {
    super(`${STEP}: abandoned, its sender stopped waiting`);
    this.name = "AbandonedAttempt";
  }
}

/** What the server said instead of a result, for the error. */
function refusal(answer: Answer | undefined): string {
  if (answer === undefined) return "it gave no answer";
  const error = answer.error;
  if (!isObject(error)) return "its answer holds no result";
  return `it answered with error ${JSON.stringify(error.code)}: ${typeof error.message === "string" ? error.message : "(no message)"}`;
}
