// node:http in front of the HTTP handlers: `listen()` behind the connection limits of
// connections.ts, and the adapter of any web-standard handler, (Request) => Promise<Response>
// (Request and Response streamed both ways). McpHttpServer itself is served by default without the
// Fetch API round trip, through node-exchange.ts; both check what only node:http can see here.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { ConnectionSlots, connectionLimits, serverOptions, type ConnectionLimits } from "./connections.js";
import { errorAnswer, type HttpAnswer } from "./exchange.js";
import { responseOf } from "./web.js";

export type FetchHandler = (request: Request) => Promise<Response>;

/** A node:http request listener that runs `handle`, streaming both bodies. */
export function toNodeListener(handle: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void respond(handle, req, res).catch((error: unknown) => answerInternalError(res, error));
  };
}

/** A handler failed: a 500 with the reason, or the end of an answer already under way. */
export function answerInternalError(res: ServerResponse, error: unknown): void {
  if (res.destroyed) return;
  if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
  res.end(`internal error: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * What only node:http can see is wrong with a request, checked before anything else: the answer
 * to give it, if any.
 */
export function nodeRefusal(req: IncomingMessage): HttpAnswer | undefined {
  return repeatedHostRefusal(req) ?? unreadableTargetRefusal(req);
}

/** A path the URL parser would give back unchanged: segments of letters, digits, "-", "_" and "~". */
export const PLAIN_PATH = /^(\/[\w~-]+)*\/?$/;

/**
 * A request target the URL parser cannot read (`//`, `http://[x]/mcp`, a port past 65535) is the
 * client's mistake: 400, where a parse that throws later would be a 500, or worse, an exception
 * outside any handler.
 */
function unreadableTargetRefusal(req: IncomingMessage): HttpAnswer | undefined {
  const target = req.url ?? "/";
  const query = target.indexOf("?");
  if (PLAIN_PATH.test(query < 0 ? target : target.slice(0, query)) || URL.canParse(target, "http://localhost")) return undefined;
  return errorAnswer(400, "bad request: the request target is not a URL");
}

/**
 * RFC 9112 (3.2): a request with more than one Host field MUST get 400. Node keeps only the
 * first in req.headers, so the handlers' Host check would never see the second.
 */
function repeatedHostRefusal(req: IncomingMessage): HttpAnswer | undefined {
  // Counted in rawHeaders: req.headersDistinct would build an object of every header per request.
  const raw = req.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === "host") hosts++;
  return hosts > 1 ? errorAnswer(400, "bad request: more than one Host header") : undefined;
}

async function respond(handle: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refusal = nodeRefusal(req);
  if (refusal) return send(res, responseOf(refusal));
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.method !== "DELETE";
  // The client left before its whole answer was written: the handler hears it on request.signal
  // (for a 2026-07-28 request that is its cancellation). Listened to before the handler runs, so
  // a client gone while a JSON answer is still being worked out is heard too.
  const left = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) left.abort();
  });
  // The URL's host is fixed: the Host header is checked by the handler, and may be hostile.
  const request = new Request(new URL(req.url ?? "/", "http://localhost"), {
    method: req.method,
    headers,
    signal: left.signal,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
  await send(res, await handle(request));
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const answerHeaders: Record<string, string> = Object.fromEntries(response.headers);
  if (!response.body) {
    res.writeHead(response.status, answerHeaders).end();
    return;
  }
  // A body of known length (a JSON answer) goes out with its headers in one write; anything else
  // (an SSE stream) is sent as it comes, headers first so the client sees the stream open at once.
  if (answerHeaders["content-length"] !== undefined) {
    res.writeHead(response.status, answerHeaders).end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  const reader = response.body.getReader();
  // The client went away: stop reading, which tells the stream (and the session) it is gone.
  const stop = () => void reader.cancel().catch(() => {});
  // It may have left while the handler ran, before this listener could hear its 'close'.
  if (res.destroyed) {
    stop();
    return;
  }
  res.on("close", stop);
  res.writeHead(response.status, answerHeaders);
  res.flushHeaders();
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (done) break;
    // Backpressure: while the socket's buffer is full, read no further, so that what the client
    // has not taken stays queued in the response stream, where its writer can see and bound it.
    if (!res.write(value)) await drained(res);
  }
  res.end();
}

/** Resolves once the response can take more data, or is gone (then the reader is cancelled). */
function drained(res: ServerResponse): Promise<void> {
  // Gone already: its 'close' has fired and no 'drain' will come.
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

export interface Listening {
  server: Server;
  /** The address to give clients, e.g. http://127.0.0.1:3000 (also when listening on every interface). */
  origin: string;
  close(): Promise<void>;
}

export interface ListenOptions extends ConnectionLimits {
  /** The port (default 0: any free one). */
  port?: number;
  /** The interface (default 127.0.0.1); "0.0.0.0" or "::" listens on all of them. */
  host?: string;
}

/** The hosts that mean "every interface": not an address a client can use. */
const ALL_INTERFACES: Record<string, string> = { "0.0.0.0": "127.0.0.1", "::": "[::1]" };

/** The origin clients can use for a server listening on `host`: on every interface, this machine's loopback address. */
export function originOf(host: string, port: number): string {
  const shown = ALL_INTERFACES[host] ?? (host.includes(":") ? `[${host}]` : host);
  return `http://${shown}:${port}`;
}

/** Serves a web-standard handler on `host` (default 127.0.0.1: a local server SHOULD NOT listen on every interface). */
export function listen(handle: FetchHandler, options: ListenOptions = {}): Promise<Listening> {
  return listenWith(toNodeListener(handle), options);
}

/** Serves a node:http request listener, as `listen()` does. */
export function listenWith(listener: (req: IncomingMessage, res: ServerResponse) => void, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? "127.0.0.1";
  const limits = connectionLimits(options);
  const server = createServer(serverOptions(limits), (req, res) => void (slots.admit(req, res) && listener(req, res)));
  const slots = new ConnectionSlots(server, limits);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
      resolve({
        server,
        origin: originOf(host, port),
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
