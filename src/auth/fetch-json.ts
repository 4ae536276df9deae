// Fetching the small JSON documents of OAuth (metadata, JWK Sets, token and registration answers)
// from servers we do not control, with bounds: a size limit counted as the body arrives, a
// timeout, and no redirect followed to another origin. Every failure is an AuthFetchError naming
// the step and the URL; nothing secret (no request body, no header) is ever put in a message.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices
// (server-supplied URLs are untrusted: bound what they make us read, re-check redirects).

/** Bounds for one document; the defaults suit metadata and token answers. */
export interface FetchJsonOptions {
  fetch?: typeof fetch;
  /** The largest body read, in bytes (default 256 KiB). */
  maxBytes?: number;
  /** The whole exchange, headers and body (default 10 s). */
  timeoutMs?: number;
  /** Same-origin redirects followed (default 3); a redirect to another origin is an error. */
  maxRedirects?: number;
}

export const DEFAULT_DOCUMENT_BYTES = 256 * 1024;
export const DEFAULT_DOCUMENT_TIMEOUT_MS = 10_000;

/** What came back: the status, the headers, and the body parsed as JSON (undefined if it was not JSON). */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  /** The parsed body; `undefined` when the body was empty or not JSON (`text` says what it was). */
  json: unknown;
  text: string;
  /** The URL answered, after same-origin redirects. */
  url: string;
}

/** How much of a server-supplied string (a URL, a name) an error message shows. */
export const SHOWN_CHARACTERS = 200;

/**
 * `text` as an error message shows it: whole if short, else its start and its length. A hostile
 * document's 256 KiB string would otherwise make each message (and each log line) that long.
 */
export function excerpt(text: string): string {
  return text.length <= SHOWN_CHARACTERS ? text : `${text.slice(0, SHOWN_CHARACTERS)}... (${text.length.toLocaleString("en-US")} characters)`;
}

/** A server-supplied value quoted (JSON) for an error message, in part if long (see excerpt). */
export function quoted(value: unknown): string {
  return excerpt(JSON.stringify(value) ?? String(value));
}

export class AuthFetchError extends Error {
  constructor(readonly step: string, readonly url: string, problem: string, options?: { cause?: unknown }) {
    super(`${step}: ${excerpt(url)}: ${problem}`, options);
    this.name = "AuthFetchError";
  }
}

/**
 * One request for a JSON document. Any status is returned (the caller decides what a 404 or a 400
 * means in its step); a network failure, a timeout, an oversized body or a cross-origin redirect throws.
 */
export async function fetchJson(step: string, url: string, init: RequestInit, options: FetchJsonOptions = {}): Promise<JsonAnswer> {
  const doFetch = options.fetch ?? fetch;
  const maxBytes = options.maxBytes ?? DEFAULT_DOCUMENT_BYTES;
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_DOCUMENT_TIMEOUT_MS);
  let redirectsLeft = options.maxRedirects ?? 3;
  let current = url;
  for (;;) {
    let response: Response;
    try {
      response = await doFetch(current, { ...init, redirect: "manual", signal });
    } catch (error) {
      throw new AuthFetchError(step, current, signal.aborted ? "no answer in time" : `could not be reached (${(error as Error).message})`, { cause: error });
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const next = new URL(location, current);
      // A file:, data: or javascript: URL has no origin to name ("null"): its scheme says what it is.
      if (next.protocol !== "http:" && next.protocol !== "https:") throw new AuthFetchError(step, current, `redirects to a ${excerpt(next.protocol)} URL; not followed`);
      // Spec (security best practices, SSRF): a redirect is a new server-supplied URL; only the same origin is followed.
      if (next.origin !== new URL(current).origin) throw new AuthFetchError(step, current, `redirects to another origin (${excerpt(next.origin)}); not followed`);
      if (redirectsLeft-- === 0) throw new AuthFetchError(step, current, "too many redirects");
      // Only a GET may be repeated as it was; a redirected POST would resend a secret elsewhere.
      if ((init.method ?? "GET") !== "GET") throw new AuthFetchError(step, current, `answered ${response.status} to a ${init.method}; not followed`);
      current = next.href;
      continue;
    }
    const text = await readBounded(response, maxBytes, step, current, signal);
    return { status: response.status, headers: response.headers, json: parseOrUndefined(text), text, url: current };
  }
}

async function readBounded(response: Response, maxBytes: number, step: string, url: string, signal: AbortSignal): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new AuthFetchError(step, url, `the answer is ${declared} bytes, more than the limit of ${maxBytes}`);
  }
  if (response.body === null) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new AuthFetchError(step, url, `the answer passed the limit of ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AuthFetchError) throw error;
    throw new AuthFetchError(step, url, signal.aborted ? "the answer did not finish in time" : `the answer broke off (${(error as Error).message})`, { cause: error });
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function parseOrUndefined(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
