// A Streamable HTTP test client over real loopback sockets: serve a definition with McpHttpServer
// on port 0, POST and GET with global fetch, read SSE bodies event by event, and send requests
// with node:http where fetch would not let us set a header (Host) or cut a body short.
// MCP_WIRE_HTTP_ADAPTER=web serves through the web-standard path (Request and Response) instead of
// node:http's own; `npm test` runs test/http both ways, so every case holds for both adapters.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { createDemoServer } from "../../src/demo/server-definition.js";
import type { McpServer } from "../../src/server/definition.js";
import { McpHttpServer, type HttpAdapter, type HttpServerOptions } from "../../src/http/server.js";
import type { Listening } from "../../src/http/node.js";

export const LATEST = "2025-11-25";
/** The adapter the HTTP tests serve through (see the header). */
export const ADAPTER: HttpAdapter = process.env.MCP_WIRE_HTTP_ADAPTER === "web" ? "web" : "node";
export const ACCEPT_BOTH = "application/json, text/event-stream";

export interface Served {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  /** The MCP endpoint, origin + "/mcp". */
  url: string;
  mcp: McpServer;
  http: McpHttpServer;
  listening: Listening;
  close(): Promise<void>;
}

/** Serves `mcp` (default: the demo server) on a fresh loopback port. */
export async function serve(options: HttpServerOptions = {}, mcp: McpServer = createDemoServer()): Promise<Served> {
  const http = new McpHttpServer(mcp, options);
  const listening = await http.listen({ port: 0, adapter: ADAPTER });
  return {
    origin: listening.origin,
    url: listening.origin + (options.path ?? "/mcp"),
    mcp,
    http,
    listening,
    close: async () => {
      await http.close();
      await listening.close();
    },
  };
}

export function request(id: string | number, method: string, params?: object): object {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

export function notification(method: string, params?: object): object {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

export function initializeRequest(id: string | number = 0, protocolVersion = LATEST, capabilities: object = {}): object {
  return request(id, "initialize", { protocolVersion, capabilities, clientInfo: { name: "http-test", version: "1.0.0" } });
}

/** POSTs one body (an object is JSON-encoded) with the headers a conforming client sends. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal,
  });
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** Reads an event stream one event at a time; comment lines (keep-alives) are skipped. */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = "";
  #done = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** The next event, or undefined once the stream has ended. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.#buffer.search(/\r?\n\r?\n/);
      if (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        const event = parseBlock(block);
        if (event) return event;
        continue;
      }
      if (this.#done) return undefined;
      const { done, value } = await this.#reader.read();
      if (done) this.#done = true;
      else this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }

  /** Every event until the stream ends. */
  async rest(): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(); event; event = await this.next()) events.push(event);
    return events;
  }

  /** Reads until an event whose message matches; returns every event read (the match last). */
  async until(match: (message: Message) => boolean): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(); event; event = await this.next()) {
      events.push(event);
      if (event.data !== "" && match(JSON.parse(event.data))) return events;
    }
    throw new Error(`the stream ended before the awaited message; it carried ${JSON.stringify(events)}`);
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

function parseBlock(block: string): SseEvent | undefined {
  const event: SseEvent = { data: "" };
  const data: string[] = [];
  let fields = 0;
  for (const line of block.split(/\r?\n/)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    fields++;
    if (name === "data") data.push(value);
    else if (name === "id") event.id = value;
    else if (name === "event") event.event = value;
    else if (name === "retry") event.retry = Number(value);
  }
  if (fields === 0) return undefined;
  event.data = data.join("\n");
  return event;
}

/** A JSON-RPC message as the tests look at it. */
export type Message = { jsonrpc: "2.0"; id?: string | number; method?: string; params?: any; result?: any; error?: any };

/** The JSON-RPC messages an SSE event list carries (priming events, with empty data, left out). */
export function messagesOf(events: SseEvent[]): Message[] {
  return events.filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as Message);
}

/** The answer to a request whatever the reply's form: a JSON body, or the response event of an SSE stream. */
export async function answerOf(response: Response): Promise<Message> {
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) return (await response.json()) as Message;
  if (!type.startsWith("text/event-stream")) throw new Error(`unexpected reply: ${response.status} ${type} ${await response.text()}`);
  const events = await new SseReader(response.body!).rest();
  const answers = messagesOf(events).filter((m) => m.method === undefined);
  if (answers.length !== 1) throw new Error(`expected one response on the stream, got ${JSON.stringify(events)}`);
  return answers[0]!;
}

export interface Session {
  id: string;
  /** The headers every later request of this session carries. */
  headers: Record<string, string>;
  /** POSTs a body with the session headers (plus `extra`). */
  post(body: unknown, extra?: Record<string, string>, signal?: AbortSignal): Promise<Response>;
  /** Sends a request and returns its response message. */
  call(id: string | number, method: string, params?: object): Promise<Message>;
}

/** initialize + notifications/initialized; the session is then operating. */
export async function openSession(url: string, protocolVersion = LATEST, capabilities: object = {}, extra: Record<string, string> = {}): Promise<Session> {
  const response = await post(url, initializeRequest(0, protocolVersion, capabilities), extra);
  if (response.status !== 200) throw new Error(`initialize: HTTP ${response.status} ${await response.text()}`);
  const id = response.headers.get("mcp-session-id");
  if (id === null) throw new Error("initialize: no MCP-Session-Id header");
  const answer = await answerOf(response);
  if (answer.result?.protocolVersion !== protocolVersion) throw new Error(`initialize: ${JSON.stringify(answer)}`);
  const headers = { ...extra, "mcp-session-id": id, "mcp-protocol-version": protocolVersion };
  const session: Session = {
    id,
    headers,
    post: (body, more = {}, signal) => post(url, body, { ...headers, ...more }, signal),
    call: async (callId, method, params) => answerOf(await session.post(request(callId, method, params))),
  };
  const initialized = await session.post(notification("notifications/initialized"));
  if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
  return session;
}

/** GET on the MCP endpoint for the session's standalone stream. */
export function openGet(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: "GET", headers: { accept: "text/event-stream", ...headers }, signal });
}

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request with node:http, which sends headers exactly as given (Host included). */
export function raw(origin: string, options: { method: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<RawReply> {
  const target = new URL(options.path ?? "/mcp", origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method, headers: options.headers, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        // An SSE reply would never end: the status and headers are enough, so stop after them.
        if ((res.headers["content-type"] ?? "").startsWith("text/event-stream")) {
          resolve({ status: res.statusCode!, headers: res.headers, body: "" });
          req.destroy();
          return;
        }
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Calls `probe` until it returns true, yielding to the event loop between tries; fails after `limitMs`. */
export async function eventually(what: string, probe: () => boolean, limitMs = 5000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Rejects if `promise` has not settled within `limitMs`: a guard against hangs, not a timing check. */
export function withinLimit<T>(what: string, promise: Promise<T>, limitMs = 5000): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${limitMs} ms (hung)`)), limitMs)));
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/**
 * The demo server plus a tool `hold` that answers only once `release()` is called or its request
 * is cancelled: work in flight for as long as a test needs it, with no timer.
 */
export function holdingServer(): { mcp: McpServer; release: () => void } {
  const mcp = createDemoServer();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  mcp.tool({ name: "hold", inputSchema: { type: "object" } }, async (_args, context) => {
    await Promise.race([released, new Promise((resolve) => context.signal.addEventListener("abort", resolve))]);
    return { content: [{ type: "text", text: "held" }] };
  });
  return { mcp, release };
}
