// node:http's own path to the HTTP handlers, without the Fetch API round trip: an IncomingMessage
// becomes the handlers' request view (exchange.ts), its headers read where node parsed them and its
// body read into Buffers under the limit; the answer goes straight onto the ServerResponse: a body
// with its length in one write, or an event stream as its events come, whose backlog is what the
// response holds unflushed. No Request, Response, Headers, ReadableStream or AbortController.
// The rules are the handlers'; this file only carries bytes and tells when the client left.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpAnswer, HttpRequest } from "./exchange.js";
import { answerInternalError, repeatedHostRefusal } from "./node.js";
import type { SseOutput } from "./sse-sink.js";

/** A handler of the request view: McpHttpServer.serve, StreamableHttpHandler.serve. */
export type AnswerHandler = (request: HttpRequest) => Promise<HttpAnswer>;

/** A node:http request listener that runs `serve` on the request view and writes its answer. */
export function toNodeAnswerListener(serve: AnswerHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const refusal = repeatedHostRefusal(req);
    if (refusal) return send(req, res, refusal);
    serve(new NodeRequest(req, res)).then(
      (answer) => send(req, res, answer),
      (error: unknown) => answerInternalError(res, error),
    );
  };
}

/** A path the URL parser would give back unchanged: segments of letters, digits, "-", "_" and "~". */
const PLAIN_PATH = /^(\/[\w~-]+)*\/?$/;

class NodeRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  #url: URL | undefined;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
    this.method = req.method ?? "GET";
    const target = req.url ?? "/";
    const query = target.indexOf("?");
    const path = query < 0 ? target : target.slice(0, query);
    // Anything else (dot segments, escapes, an absolute URL) gets the parser's reading, as on the web path.
    this.path = PLAIN_PATH.test(path) ? path : this.#parsed().pathname;
  }

  query(name: string): string | null {
    return this.#parsed().searchParams.get(name);
  }

  header(name: string): string | null {
    // Field names are case-insensitive; node keys them in lowercase.
    const value = this.#req.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === "string" ? value : value.join(", ");
  }

  body(limit: number): Promise<Uint8Array | undefined> {
    return readBody(this.#req, limit);
  }

  onClientGone(listener: () => void): void {
    const res = this.#res;
    if (res.writableFinished) return;
    if (res.destroyed) return listener();
    res.once("close", () => {
      if (!res.writableFinished) listener();
    });
  }

  #parsed(): URL {
    // The URL's host is fixed: the Host header is the handlers' to check, and may be hostile.
    return (this.#url ??= new URL(this.#req.url ?? "/", "http://localhost"));
  }
}

/** The body in Buffers, counted as it comes: undefined (and the rest left unread) past `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        return resolve(undefined);
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    // The client went away mid-body: nobody is left to answer.
    const onClose = () => {
      stop();
      reject(new Error("http: the client left before its request body arrived whole"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
  });
}

function send(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer): void {
  // A body left unread (past the limit, or refused before it was read) is not read on to reach
  // a next request on the connection, which could take as long as the client likes: it closes.
  if (!req.complete) res.setHeader("connection", "close");
  const { status, headers, body, events } = answer;
  if (events) {
    res.writeHead(status, headers);
    // The client may have left while the handler ran, before the 'close' below could be heard.
    if (res.destroyed) return events.clientGone();
    res.on("close", () => {
      if (!res.writableFinished) events.clientGone();
    });
    const output = new ResponseOutput(res);
    events.connect(output);
    // Nothing waited in the sink: the head alone tells the client its stream is open. (Otherwise
    // it went out with the first events: node holds a head until the first write.)
    if (!output.written) res.flushHeaders();
    return;
  }
  // The head as a flat list: node takes it as is, where an object is copied field by field.
  const head: string[] = [];
  for (const name in headers) head.push(name, headers[name]!);
  if (body !== undefined) head.push("content-length", String(Buffer.byteLength(body)));
  res.writeHead(status, head).end(body);
}

/** An SSE stream written to a ServerResponse as its events come. */
class ResponseOutput implements SseOutput {
  readonly #res: ServerResponse;
  /** Whether anything was written (or the response ended), which sends the head too. */
  written = false;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  /** What the response holds that the socket has not sent: node's buffer and the socket's. */
  get backlog(): number {
    return this.#res.writableLength;
  }

  write(text: string): void {
    this.written = true;
    this.#res.write(text);
  }

  end(onDelivered: () => void): void {
    // 'finish': every byte is handed to the operating system; it never comes if the client left first.
    this.written = true;
    this.#res.once("finish", onDelivered);
    this.#res.end();
  }

  abort(): void {
    this.#res.destroy();
  }
}
