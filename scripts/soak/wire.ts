// The wire as the soak speaks it: JSON-RPC over fetch (Streamable HTTP) and over a child's
// stdin/stdout, written out by hand rather than through mcp-wire's client, so that what is tested
// is the server and nothing of ours stands in between. Every wait has a limit.

import { setMaxListeners } from "node:events";
import type { Readable, Writable } from "node:stream";
import { sleep } from "./harness.js";

export const LATEST = "2025-11-25";
export const BATCH_VERSION = "2025-03-26";
export const ACCEPT_BOTH = "application/json, text/event-stream";
export const NOTES_URI = "docs://demo/protocol-notes";

export type Message = { jsonrpc: "2.0"; id?: string | number; method?: string; params?: any; result?: any; error?: any };

export function request(id: string | number, method: string, params?: object): object {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

export function initialize(id: string | number = 0, protocolVersion = LATEST, capabilities: object = {}): object {
  return request(id, "initialize", { protocolVersion, capabilities, clientInfo: { name: "soak", version: "1" } });
}

export const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

/**
 * A signal that aborts with the case, or after `ms` with a TimeoutError. Not AbortSignal.any with
 * AbortSignal.timeout: on Node 20 the garbage collector can take the timeout signal, which then
 * never fires (seen here: a 15 s limit that never came under a flood of sockets).
 */
export function within(signal: AbortSignal, ms: number): AbortSignal {
  const controller = new AbortController();
  const onAbort = () => {
    clearTimeout(timer);
    controller.abort(signal.reason);
  };
  const timer = setTimeout(() => {
    signal.removeEventListener("abort", onAbort);
    controller.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError"));
  }, ms);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  // A case's requests may all listen on one such signal.
  setMaxListeners(0, controller.signal);
  return controller.signal;
}

/** An error in one line, with its cause (fetch puts the reason there). */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

/** POSTs a JSON-RPC body with the headers a conforming client sends. Rejects on a network error or abort. */
export function post(url: string, body: unknown, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal,
  });
}

/** Reads a body to its end, keeping at most `keepBytes` of it; the total is counted either way. */
export async function readBounded(response: Response, keepBytes = 1024 * 1024): Promise<{ bytes: number; text: string; whole: boolean }> {
  const kept: Buffer[] = [];
  let bytes = 0;
  let keptBytes = 0;
  for await (const chunk of response.body ?? []) {
    bytes += chunk.byteLength;
    if (keptBytes < keepBytes) {
      const part = Buffer.from(chunk).subarray(0, keepBytes - keptBytes);
      kept.push(part);
      keptBytes += part.byteLength;
    }
  }
  return { bytes, text: Buffer.concat(kept).toString("utf8"), whole: bytes === keptBytes };
}

/** The JSON-RPC messages of a reply, JSON or SSE (priming events left out). */
export function messagesIn(contentType: string, text: string): Message[] {
  if (contentType.startsWith("application/json")) {
    const parsed = JSON.parse(text) as Message | Message[];
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  const messages: Message[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(5).replace(/^ /, ""));
    if (data.length > 0 && data.join("") !== "") messages.push(JSON.parse(data.join("\n")) as Message);
  }
  return messages;
}

/** POSTs and reads the whole reply (kept up to `keepBytes`): status, headers and messages. */
export async function exchange(url: string, body: unknown, headers: Record<string, string>, signal: AbortSignal, keepBytes?: number): Promise<{ status: number; headers: Headers; bytes: number; messages: Message[]; text: string }> {
  const response = await post(url, body, headers, signal);
  const read = await readBounded(response, keepBytes);
  let messages: Message[] = [];
  try {
    if (read.whole && read.text !== "") messages = messagesIn(response.headers.get("content-type") ?? "", read.text);
  } catch {
    // Not JSON-RPC: the caller judges by status and text.
  }
  return { status: response.status, headers: response.headers, bytes: read.bytes, messages, text: read.text };
}

/** initialize + notifications/initialized on a stateful server; the session's headers, or why not. */
export async function openSession(url: string, signal: AbortSignal, protocolVersion = LATEST, capabilities: object = {}): Promise<Record<string, string> | string> {
  const init = await exchange(url, initialize(0, protocolVersion, capabilities), {}, signal);
  const id = init.headers.get("mcp-session-id");
  if (init.status !== 200 || id === null) return `initialize got HTTP ${init.status}${init.headers.get("retry-after") ? ` (Retry-After ${init.headers.get("retry-after")})` : ""}: ${init.text.slice(0, 160)}`;
  const headers = { "mcp-session-id": id, "mcp-protocol-version": protocolVersion };
  const initialized = await post(url, INITIALIZED, headers, signal);
  await initialized.body?.cancel();
  if (initialized.status !== 202) return `notifications/initialized got HTTP ${initialized.status}`;
  return headers;
}

/** A stateless or in-session ping; true if answered with a result. */
export async function pingWorks(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<boolean> {
  try {
    const reply = await exchange(url, request("soak-ping", "ping"), headers, signal);
    return reply.status === 200 && reply.messages.some((m) => m.id === "soak-ping" && m.result !== undefined);
  } catch {
    return false;
  }
}

/**
 * Newline-delimited JSON-RPC read from a child's stdout, counted by id. With `summarize`, the last
 * answer to each id is also kept as the short text it returns; nothing else is kept.
 */
export class LineReader {
  readonly answers = new Map<string | number, number>();
  readonly summaries = new Map<string | number, string>();
  readonly other: Message[] = [];
  /** How many messages besides answers came (notifications, requests), counted past the 100 kept. */
  otherCount = 0;
  #buffer = "";

  constructor(readonly input: Readable, summarize?: (answer: Message) => string) {
    input.setEncoding("utf8");
    input.on("data", (chunk: string) => {
      this.#buffer += chunk;
      for (let end = this.#buffer.indexOf("\n"); end >= 0; end = this.#buffer.indexOf("\n")) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        if (line.trim() === "") continue;
        const message = JSON.parse(line) as Message;
        if (message.method === undefined && message.id !== undefined) {
          this.answers.set(message.id, (this.answers.get(message.id) ?? 0) + 1);
          if (summarize) this.summaries.set(message.id, summarize(message));
        } else if (this.otherCount++ < 100) this.other.push(message);
      }
    });
  }

  /** Waits until `id` has been answered; false after `ms` or at the end of the stream. */
  async answered(id: string | number, ms: number, signal: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.answers.has(id)) {
      if (Date.now() > deadline || signal.aborted || this.input.readableEnded || this.input.destroyed) return this.answers.has(id);
      await sleep(5);
    }
    return true;
  }
}

/** Ids answered not exactly once, as words, or "" when all were. */
export function notOnce(reader: LineReader, ids: (string | number)[]): string {
  const lost = ids.filter((id) => !reader.answers.has(id)).length;
  const doubled = ids.filter((id) => (reader.answers.get(id) ?? 0) > 1).length;
  return [lost ? `${lost} of ${ids.length} never answered` : "", doubled ? `${doubled} answered twice` : ""].filter(Boolean).join(", ");
}

/** Waits until every id is answered, the stream ends, or `ms` pass in all. */
export async function awaitAll(reader: LineReader, ids: (string | number)[], ms: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + ms;
  for (const id of ids) if (!(await reader.answered(id, Math.max(0, deadline - Date.now()), signal))) return;
}

/** Writes a line; resolves true once the stream takes more, false if it stays full for `stallMs`. */
export async function writeLine(output: Writable, message: object, stallMs: number): Promise<boolean> {
  if (output.write(JSON.stringify(message) + "\n")) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), stallMs);
    const onDrain = () => done(true);
    const onClose = () => done(false);
    output.once("drain", onDrain);
    output.once("close", onClose);
    output.once("error", onClose);
    function done(drained: boolean) {
      clearTimeout(timer);
      output.off("drain", onDrain);
      output.off("close", onClose);
      output.off("error", onClose);
      resolve(drained);
    }
  });
}
