// node:http's own path to the HTTP handlers, without the Fetch API round trip: an IncomingMessage
// becomes the handlers' request view (exchange.ts), its headers read where node parsed them and its
// body read into Buffers under the limit; the answer goes straight onto the ServerResponse: a body
// with its length in one write, or an event stream as its events come, whose backlog is what was
// written while the socket was full (sse-sink.ts says why). No Request, Response, Headers,
// ReadableStream or AbortController.
// The rules are the handlers'; this file only carries bytes and tells when the client left.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpAnswer, HttpRequest } from "./exchange.js";
import { answerInternalError, nodeRefusal, PLAIN_PATH } from "./node.js";
import type { SseOutput } from "./sse-sink.js";

/** A handler of the request view: McpHttpServer.serve, StreamableHttpHandler.serve. */
export type AnswerHandler = (request: HttpRequest) => Promise<HttpAnswer>;

/** A node:http request listener that runs `serve` on the request view and writes its answer. */
export function toNodeAnswerListener(serve: AnswerHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const refusal = nodeRefusal(req);
    if (refusal) return send(req, res, refusal);
    // Whatever fails, in the handler (even before its first await) or in writing its answer, ends
    // in one 500 here: a throw in node's 'request' listener would end the process.
    let answered: Promise<HttpAnswer>;
    try {
      answered = serve(new NodeRequest(req, res));
    } catch (error) {
      answered = Promise.reject(error);
    }
    // One reaction, not a `then` and a `catch` (a promise more per request): a write that throws is caught here.
    answered.then((answer) => {
      try {
        send(req, res, answer);
      } catch (error) {
        answerInternalError(res, error);
      }
    }, (error: unknown) => answerInternalError(res, error));
  };
}

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
    // Anything else (dot segments, escapes, an absolute URL) gets the parser's reading, as on the
    // web path; a target it cannot read was refused before (nodeRefusal).
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
    // 'on', not 'once': a response closes once, and once's wrapper costs two objects per request.
    res.on("close", () => {
      if (!res.writableFinished) listener();
    });
  }

  #parsed(): URL {
    // The URL's host is fixed: the Host header is the handlers' to check, and may be hostile.
    return (this.#url ??= new URL(this.#req.url ?? "/", "http://localhost"));
  }
}

/** The body in Buffers, counted as it comes: undefined past `limit` bytes, and reading stops there. */
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
        // A stream with no 'data' listener still flows: pause it, so nothing more is read for nobody.
        req.pause();
        return resolve(undefined);
      }
      chunks.push(chunk);
    };
    // The listeners are not taken off at the end: they go with the request (three removals a
    // request saved). No 'data' comes after 'end', and the 'close' that follows the answer is let be.
    let ended = false;
    const onEnd = () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    // The client went away mid-body: nobody is left to answer.
    const onClose = () => {
      if (ended) return;
      stop();
      reject(new Error("http: the client left before its request body arrived whole"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
  });
}

/**
 * The most unread body bytes node may read on and discard after an answer, to keep the connection
 * for the next request (a refusal given before reading a small POST, say).
 */
const DRAINABLE_BYTES = 64 * 1024;

/**
 * Whether the connection must close after this answer: a body left unread (past the limit, or
 * refused before it was read) that is larger than DRAINABLE_BYTES, or of undeclared length, is not
 * read on to reach a next request, which could take as long as the client likes.
 */
function mustClose(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const declared = Number(req.headers["content-length"] ?? NaN);
  return !(declared <= DRAINABLE_BYTES) || req.headers["transfer-encoding"] !== undefined;
}

function send(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer): void {
  const closing = mustClose(req);
  const { status, headers, body, events } = answer;
  if (events) {
    res.writeHead(status, closing ? { ...headers, connection: "close" } : headers);
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
  if (closing) head.push("connection", "close");
  res.writeHead(status, head).end(body);
}

/**
 * An SSE stream written to a ServerResponse as its events come. Events written while the socket
 * is full wait here as one list, written in one piece at the next 'drain': left to node, each small
 * event would be four buffered writes (chunked framing), several times its size in memory, and
 * what the backlog bound counts would not be what the stream holds.
 */
export class ResponseOutput implements SseOutput {
  readonly #res: ServerResponse;
  /** Whether anything was written (or the response ended), which sends the head too. */
  written = false;
  /** Bytes written since the socket last had room (node's 'drain'): what the client is not taking. */
  #queued = 0;
  /** Events written since the socket was last full, not yet handed to node. */
  #pending: string[] = [];
  onRoom: (() => void) | undefined;

  constructor(res: ServerResponse) {
    this.#res = res;
    res.on("drain", () => {
      const pending = this.#pending;
      this.#pending = [];
      // What waited goes out in one write; until the socket has room again it is still the backlog.
      const waited = pending.length > 0 ? pending.join("") : "";
      this.#queued = Buffer.byteLength(waited);
      if (waited !== "") this.#res.write(waited);
      this.onRoom?.();
    });
  }

  /**
   * What was written while the socket was full. Not all the response holds: an event being sent
   * to a client that reads is not a backlog, however large (a single event goes out whole), only
   * what piles up behind it (the web path bounds the same: what its stream holds while node waits).
   */
  get backlog(): number {
    return this.#queued;
  }

  write(text: string): void {
    this.written = true;
    if (!this.#res.writableNeedDrain) return void this.#res.write(text);
    this.#pending.push(text);
    this.#queued += Buffer.byteLength(text);
  }

  end(onDelivered: () => void): void {
    // 'finish': every byte is handed to the operating system; it never comes if the client left first.
    this.written = true;
    this.#res.once("finish", onDelivered);
    const pending = this.#pending;
    this.#pending = [];
    this.#res.end(pending.length > 0 ? pending.join("") : undefined);
  }

  abort(): void {
    // Nothing sent yet (a stream cut before it connected): a clean, empty stream, as on the web
    // path, rather than a connection dropped without an answer. Otherwise what is held is dropped.
    this.#pending = [];
    if (!this.written) this.#res.end();
    else this.#res.destroy();
  }
}
