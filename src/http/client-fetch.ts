// The HTTP plumbing both client transports share: the headers every request carries (the caller's
// own, and a bearer token asked for anew each time, or the OAuth client's: client-auth.ts), and
// local errors that name the step, the status and the server's own reason.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
// (HTTP errors MAY carry a JSON-RPC error without an id) and basic/authorization (Bearer tokens).

import { oauthClientFor, type OAuthOptions } from "../auth/oauth-client.js";
import { isObject } from "../jsonrpc/messages.js";
import { authorizedFetch } from "./client-auth.js";

export interface HttpClientOptions {
  /** Sent on every request. The transport's own headers (Accept, session, version) take precedence. */
  headers?: Record<string, string>;
  /**
   * A bearer token, or a function called before every request (so an expired token can be
   * refreshed between two requests); sent as `Authorization: Bearer <token>`.
   */
  token?: string | (() => string | Promise<string>);
  /**
   * OAuth 2.1: on a 401 the transport discovers the server's authorization server, obtains a token
   * and sends the request again; its token then replaces `token`. Transports given the same object
   * share tokens (auth/oauth-client.ts).
   */
  authorization?: OAuthOptions;
  /** The fetch to use (default: the global one); tests wrap it to watch or break the wire. */
  fetch?: typeof fetch;
  /** Problems nobody is waiting on, such as a GET stream the server refused. */
  onProblem?: (message: string) => void;
  /**
   * The largest message accepted from the server, in bytes (default DEFAULT_MAX_MESSAGE_BYTES, 64 MiB
   * of content + 1 MiB, as on stdio): a JSON body, one SSE event, one SSE line. Past it the
   * transport stops reading and the call fails.
   */
  maxMessageBytes?: number;
}

/** The server answered with an HTTP error status. Local: never sent on the wire. */
export class HttpStatusError extends Error {
  constructor(readonly step: string, readonly status: number, readonly statusText: string, readonly serverMessage: string | undefined) {
    const reason = serverMessage === undefined ? "" : `: ${serverMessage}`;
    super(`${step}: the server answered HTTP ${status}${statusText ? ` ${statusText}` : ""}${reason}`);
    this.name = "HttpStatusError";
  }
}

/** A 404 for a request that carried our session id: the server ended the session. */
export class SessionEndedError extends HttpStatusError {
  constructor(from: HttpStatusError) {
    super(from.step, from.status, from.statusText, from.serverMessage);
    this.name = "SessionEndedError";
  }
}

/** The server could not be reached, or the connection broke before an answer. */
export class HttpNetworkError extends Error {
  constructor(readonly step: string, url: URL, cause: unknown) {
    super(`${step}: could not reach ${url.origin}${url.pathname}: ${describeNetworkCause(cause)}`, { cause });
    this.name = "HttpNetworkError";
  }
}

/** The server answered, but not as the transport says it must (wrong content type, stream ended early). */
export class HttpProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HttpProtocolError";
  }
}

/** The server sent more than maxMessageBytes in one message; we stopped reading it. Local. */
export class MessageTooLargeError extends Error {
  constructor(readonly step: string, what: string, readonly limit: number) {
    super(`${step}: ${what} from the server passed the limit of ${limit} bytes (maxMessageBytes); stopped reading`);
    this.name = "MessageTooLargeError";
  }
}

/**
 * A 2026-07-28 response stream ended before its answer. Such a stream is never resumed: the
 * request fails, and the sender may issue it again with a new id (its ids are the connection's).
 */
export class ResponseStreamBrokenError extends HttpProtocolError {
  constructor(readonly step: string) {
    super(`${step}: the response stream ended before the answer; a 2026-07-28 stream is not resumed (send the request again, with a new id)`);
    this.name = "ResponseStreamBrokenError";
  }
}

/** The transport was closed while the request was under way. */
export class HttpTransportClosedError extends Error {
  constructor(step: string) {
    super(`${step}: the HTTP transport is closed`);
    this.name = "HttpTransportClosedError";
  }
}

/** The headers for one request: the caller's, then the token, then the transport's own. */
export async function requestHeaders(options: HttpClientOptions, own: Record<string, string | undefined>): Promise<Headers> {
  const headers = new Headers(options.headers);
  const token = typeof options.token === "function" ? await options.token() : options.token;
  if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
  for (const [name, value] of Object.entries(own)) if (value !== undefined) headers.set(name, value);
  return headers;
}

/** Which server a transport talks to, for caches kept per server (the client's era cache): the endpoint's origin and path. */
export function peerKeyOf(url: URL): string {
  return url.origin + url.pathname;
}

/** A redirect the client will not follow. Local: never sent on the wire. */
export class HttpRedirectError extends Error {
  constructor(step: string, reason: string) {
    super(`${step}: ${reason}`);
    this.name = "HttpRedirectError";
  }
}

/** A server pointed us at another origin (a redirect, the legacy endpoint). Local: never sent on the wire. */
export class CrossOriginError extends Error {
  constructor(step: string, what: string, readonly to: URL, from: URL) {
    super(`${step}: the ${what} ${to.origin} is on another origin; not followed, so that our headers and session stay on ${from.origin}`);
    this.name = "CrossOriginError";
  }
}

/**
 * The one rule for every place a server tells us where to go next: the same origin only, so that
 * the caller's headers (credentials, perhaps), the token, the session id and the messages never
 * reach a host the caller did not name.
 */
export function assertSameOrigin(step: string, what: string, to: URL, from: URL): void {
  if (to.origin !== from.origin) throw new CrossOriginError(step, what, to, from);
}

/** How many same-origin redirects one request may take. */
export const MAX_REDIRECTS = 5;

/**
 * fetch for one step of a transport: with the OAuth client's token and its retries when
 * `options.authorization` is set (not for a DELETE: see authorizedFetch), then followRedirects.
 */
export async function fetchStep(options: HttpClientOptions, step: string, url: URL, init: RequestInit): Promise<Response> {
  if (options.authorization === undefined) return followRedirects(options, step, url, init);
  const send = (authorized: RequestInit) => followRedirects(options, step, url, authorized);
  return authorizedFetch(oauthClientFor(options.authorization), step, url, init, send, init.method !== "DELETE");
}

/**
 * fetch, with a failure to connect turned into an HttpNetworkError that names the step, and our
 * own redirect rule: only to the same origin (assertSameOrigin), at most MAX_REDIRECTS, and only
 * with the method and body kept (307, 308; 301-303 only for GET: they would turn a POST into a
 * GET and lose the message). Refusing outright would break a server moved to a new path;
 * following across origins is what leaked credentials.
 */
async function followRedirects(options: HttpClientOptions, step: string, url: URL, init: RequestInit): Promise<Response> {
  let at = url;
  for (let hops = 0; ; hops++) {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(at, { ...init, redirect: "manual" });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new HttpNetworkError(step, at, error);
    }
    const location = response.headers.get("location");
    if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return response;
    discard(response);
    const next = new URL(location, at);
    assertSameOrigin(step, `redirect (${response.status}) to`, next, url);
    if (response.status < 307 && (init.method ?? "GET") !== "GET") {
      throw new HttpRedirectError(step, `the server answered ${init.method} with redirect ${response.status}, which would turn it into a GET; only 307 and 308 keep the message`);
    }
    if (hops === MAX_REDIRECTS) throw new HttpRedirectError(step, `more than ${MAX_REDIRECTS} redirects`);
    at = next;
  }
}

/** Reads a JSON body of at most `limit` bytes. A read that breaks off rejects as fetch reports it. */
export async function readJsonBody(response: Response, step: string, limit: number): Promise<string> {
  // Spec (basic/transports): a body is one JSON-RPC message (or batch); ours is bounded like a stdio line.
  if (Number(response.headers.get("content-length")) > limit) {
    discard(response);
    throw new MessageTooLargeError(step, "a JSON body", limit);
  }
  const { text, complete } = await readUpTo(response, limit);
  if (!complete) throw new MessageTooLargeError(step, "a JSON body", limit);
  return text;
}

/** The body as text, stopping (and releasing the connection) once it passes `limit` bytes. */
async function readUpTo(response: Response, limit: number): Promise<{ text: string; complete: boolean }> {
  if (!response.body) return { text: "", complete: true };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: new TextDecoder().decode(Buffer.concat(chunks)), complete: true };
      bytes += value.byteLength;
      if (bytes > limit) return { text: new TextDecoder().decode(Buffer.concat(chunks)), complete: false };
      chunks.push(value);
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
}

/** How much of an error response is read for its reason. */
const REASON_BYTES = 64 * 1024;

/** Reads the body of an error response for the server's reason: a JSON-RPC error message, or short text. */
export async function statusError(step: string, response: Response): Promise<HttpStatusError> {
  return statusErrorOf(step, response, await errorBody(response));
}

/** The first REASON_BYTES of an error response's body ("" if it cannot be read). */
export async function errorBody(response: Response): Promise<string> {
  try {
    return (await readUpTo(response, REASON_BYTES)).text;
  } catch {
    // The reason is a courtesy; the status alone still says what happened.
    return "";
  }
}

/** The error for `response`, whose body `text` has been read already. */
export function statusErrorOf(step: string, response: Response, text: string): HttpStatusError {
  let reason: string | undefined;
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body) && isObject(body.error) && typeof body.error.message === "string") reason = body.error.message;
  } catch {
    const line = text.trim().split("\n")[0] ?? "";
    if (line !== "" && !/^\s*</.test(line)) reason = line.length > 200 ? `${line.slice(0, 200)}...` : line;
  }
  return new HttpStatusError(step, response.status, response.statusText, reason);
}

/**
 * Aborts `controller` when `signal` fires (at once if it already has). Returns the unsubscribe,
 * to call once the request has settled: a signal may outlive it (the legacy transport's stream
 * signal lives as long as the transport), and each listener left on it would stay there too.
 * (AbortSignal.any would join them too, but offers no unsubscribe: the long-lived signal would keep
 * one reference per request until the garbage collector took them.)
 */
export function followAbort(controller: AbortController, signal: AbortSignal | undefined): () => void {
  if (!signal) return () => {};
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => {};
  }
  const abort = () => controller.abort(signal.reason);
  signal.addEventListener("abort", abort, { once: true });
  return () => signal.removeEventListener("abort", abort);
}

/** Drops a body we do not need, so its connection is released. */
export function discard(response: Response): void {
  void response.body?.cancel().catch(() => {});
}

export function isEventStream(response: Response): boolean {
  return /^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "");
}

/** `response`, if it is an event stream; otherwise it is dropped, and the error names what came instead. */
export function eventStream(step: string, response: Response, answered = ""): Response {
  if (isEventStream(response)) return response;
  discard(response);
  throw new HttpProtocolError(`${step}: the server answered ${answered ? `${answered} ` : ""}with ${response.headers.get("content-type") ?? "no content type"}, not an event stream`);
}

/** Whether `response` carries JSON: `application/json`, or a `+json` type such as `application/problem+json`. */
export function isJsonResponse(response: Response): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(response.headers.get("content-type") ?? "");
}

/** Undici hides the useful part ("connect ECONNREFUSED 127.0.0.1:1") in the cause of "fetch failed". */
function describeNetworkCause(error: unknown): string {
  const parts: string[] = [];
  for (let at = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    if (at.message && at.message !== "fetch failed") parts.push(at.message);
  }
  return parts.join(": ") || String(error);
}
