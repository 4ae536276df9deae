// The CLI's UserAgent (auth/user-agent.ts): it prints the authorization URL on stderr, tries to
// open a browser there, and receives the authorization server's redirect on a listener of its own
// at http://127.0.0.1:<random port>/callback. RFC 8252 section 7.3 (loopback redirect URIs, any
// port) and 8.3 (the loopback IP literal, not "localhost", which may resolve elsewhere).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#communication-security
// It reads only the request line and headers. It waits for the redirect carrying the `state` of the
// authorization URL it was given, so that another local program cannot end the wait first; the
// code, and the state again, are the OAuth client's to check.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { openBrowser } from "./open-browser.js";
import type { UserAgent } from "./user-agent.js";

export interface LoopbackOptions {
  /** The redirect URI's path (default "/callback"). */
  path?: string;
  /** How long authorize() waits for the redirect (default 5 minutes). */
  timeoutMs?: number;
  /** Opens the browser (default: openBrowser); `false` only prints the URL (a machine with no browser). */
  openBrowser?: false | ((url: URL) => void);
  /** Where the person is told what to do (default: stderr, since stdout carries the CLI's results). */
  print?: (line: string) => void;
  /** The largest request line and headers accepted, in bytes (default 16 KiB); past it node:http answers 431. */
  maxRequestBytes?: number;
  /** How long one request may take to arrive (default 10 s); past it node:http answers 408. */
  requestTimeoutMs?: number;
  /** How many redirects with another state one authorize() answers 400 and waits on past (default 20); then it fails. */
  maxWrongRedirects?: number;
}

export const DEFAULT_LOOPBACK_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_MAX_WRONG_REDIRECTS = 20;

/** No redirect reached the listener in time, or the flow was abandoned. Local: never sent anywhere. */
export class LoopbackError extends Error {
  /** `timedOut`: the wait ended for want of a redirect (rather than being abandoned or refused). */
  constructor(message: string, readonly timedOut = false) {
    super(message);
    this.name = "LoopbackError";
  }
}

const DONE_PAGE = "<!doctype html><title>mcp-wire</title><p>mcp-wire has received the authorization server's answer. You may close this window.</p>\n";
const WRONG_STATE_PAGE = "<!doctype html><title>mcp-wire</title><p>This is not the answer to the authorization mcp-wire is waiting for (its state differs); it was not used. mcp-wire is still waiting.</p>\n";

interface Waiter {
  resolve(url: URL): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  /** The authorization URL's `state` (null: it had none), which the awaited redirect carries back. */
  state: string | null;
  /** Redirects so far whose state was another. */
  wrong: number;
}

export class LoopbackUserAgent implements UserAgent {
  readonly #path: string;
  readonly #timeoutMs: number;
  readonly #open: false | ((url: URL) => void);
  readonly #print: (line: string) => void;
  readonly #maxRequestBytes: number;
  readonly #requestTimeoutMs: number;
  readonly #maxWrongRedirects: number;
  #server: Server | undefined;
  #listening: Promise<string> | undefined;
  #waiter: Waiter | undefined;

  constructor(options: LoopbackOptions = {}) {
    this.#path = options.path ?? "/callback";
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_LOOPBACK_TIMEOUT_MS;
    this.#open = options.openBrowser ?? ((url) => void openBrowser(url));
    this.#print = options.print ?? ((line) => process.stderr.write(line + "\n"));
    this.#maxRequestBytes = options.maxRequestBytes ?? 16 * 1024;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.#maxWrongRedirects = options.maxWrongRedirects ?? DEFAULT_MAX_WRONG_REDIRECTS;
  }

  /** Listens (once) and returns http://127.0.0.1:<port><path>. */
  redirectUri(): Promise<string> {
    this.#listening ??= this.#listen();
    return this.#listening;
  }

  async authorize(authorizationUrl: URL): Promise<URL> {
    const listening = this.redirectUri();
    const redirectUri = await listening;
    // close() may have run while the listener started.
    if (this.#listening !== listening) throw abandoned();
    if (this.#waiter) throw new LoopbackError("authorization: another authorization is already waiting for its redirect");
    const seconds = Math.round(this.#timeoutMs / 1000);
    const answer = new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiter = undefined;
        reject(new LoopbackError(`authorization: no redirect reached ${redirectUri} within ${seconds} s; the sign-in in the browser was not finished`, true));
      }, this.#timeoutMs);
      this.#waiter = { resolve, reject, timer, state: authorizationUrl.searchParams.get("state"), wrong: 0 };
    });
    const ask = this.#open ? "opening a browser to authorize; if none opens, open this URL" : "to authorize, open this URL in a browser";
    this.#print(`mcp-wire: ${ask} (waiting up to ${seconds} s):\n  ${authorizationUrl.href}`);
    if (this.#open) {
      try {
        this.#open(authorizationUrl);
      } catch {
        // Opening is a courtesy: the URL is printed above.
      }
    }
    return answer;
  }

  /** Frees the port; a pending authorize() rejects. */
  async close(): Promise<void> {
    this.#settle((waiter) => waiter.reject(abandoned()));
    const server = this.#server;
    this.#server = undefined;
    this.#listening = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #listen(): Promise<string> {
    // Requests are answered from the request line and headers alone; the timeouts keep a client
    // that connects and says nothing from holding a socket for the whole wait.
    const timeout = this.#requestTimeoutMs;
    const server = createServer({ maxHeaderSize: this.#maxRequestBytes, requestTimeout: timeout, headersTimeout: timeout, connectionsCheckingInterval: Math.min(timeout, 1000) }, (request, response) => this.#handle(request, response));
    this.#server = server;
    return new Promise((resolve, reject) => {
      server.once("error", (error) => reject(new LoopbackError(`authorization: could not listen on 127.0.0.1: ${error.message}`)));
      // Spec (authorization#communication-security): redirect URIs MUST be localhost or https.
      // RFC 8252 section 8.3: the loopback IP literal; port 0 lets the system choose a free one (7.3).
      server.listen(0, "127.0.0.1", () => {
        server.unref();
        const address = server.address();
        resolve(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}${this.#path}`);
      });
    });
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    // A redirect carries nothing in a body; none is read, and the connection is not kept.
    response.shouldKeepAlive = false;
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== this.#path) return answer(response, 404, "Not found.");
    if (request.method !== "GET") return answer(response, 405, "The authorization server's redirect is a GET.");
    // One result per authorize(): a redirect nobody waits for (a second one, a stale tab) is refused.
    const waiter = this.#waiter;
    if (!waiter) return answer(response, 409, "mcp-wire is not waiting for an authorization now.");
    // RFC 6749 section 4.1.2 (and 4.1.2.1 for an error): the redirect returns the request's state.
    // Any local program can reach this port: one with another state (a guess, a stale tab) is
    // refused without ending the wait, else it would cost the person the real redirect (RFC 6749 10.12).
    if (url.searchParams.get("state") !== waiter.state) {
      answer(response, 400, WRONG_STATE_PAGE, "text/html");
      if (++waiter.wrong >= this.#maxWrongRedirects) {
        this.#settle((settled) => settled.reject(new LoopbackError(`authorization: ${waiter.wrong} redirects to ${this.#path} carried another state than the authorization's; giving up (is another program on this machine answering in the authorization server's place?)`)));
      }
      return;
    }
    const received = new URL(url.pathname + url.search, `http://127.0.0.1:${request.socket.localPort}`);
    answer(response, 200, DONE_PAGE, "text/html");
    this.#settle((waiter) => waiter.resolve(received));
  }

  #settle(how: (waiter: Waiter) => void): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#waiter = undefined;
    clearTimeout(waiter.timer);
    how(waiter);
  }
}

function abandoned(): LoopbackError {
  return new LoopbackError("authorization: abandoned before the redirect arrived");
}

function answer(response: ServerResponse, status: number, body: string, type = "text/plain"): void {
  // The page never repeats the query: it holds the code, and reflecting it would invite injection.
  response.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store", "content-length": Buffer.byteLength(body) });
  response.end(body);
}
