// The connection limits of the node:http front door: how many sockets may be open, and what
// happens to a peer that is too slow or too large before its request reaches a handler. Node's
// own timers do the timing (headersTimeout, requestTimeout); this file decides who gets a slot
// and writes the answers, each an HTTP error whose body is a JSON-RPC error, as the handlers do.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// (HTTP errors MAY carry a JSON-RPC error without an id).

import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface ConnectionLimits {
  /**
   * The most sockets open at once (default 2048: room for a GET stream for each of the 1000
   * Streamable HTTP and 100 HTTP+SSE sessions allowed by default, and more); see ConnectionSlots
   * for who yields when they are all taken. Keep it below the process's open-file limit (ulimit
   * -n): past that, new connections are closed unanswered before this cap can choose.
   */
  maxConnections?: number;
  /** Time for a request's headers to arrive, in ms (default 10 s); a slower peer gets 408. */
  headersTimeoutMs?: number;
  /**
   * Time for a whole request, headers and body, to arrive, in ms (default 30 s); a slower peer
   * gets 408. Only the request is timed: a response (an SSE stream) may last as long as it likes.
   */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive socket stays open between requests, in ms (default 5 s). */
  keepAliveTimeoutMs?: number;
  /** The largest request head (request line and headers), in bytes (default 16 KiB); larger gets 431. */
  maxHeaderBytes?: number;
}

export const CONNECTION_DEFAULTS: Required<ConnectionLimits> = {
  maxConnections: 2048,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
};

/** Fills in the defaults and checks what node:http would otherwise reject later, less clearly. */
export function connectionLimits(options: ConnectionLimits): Required<ConnectionLimits> {
  const limits = { ...CONNECTION_DEFAULTS };
  for (const key of Object.keys(limits) as (keyof ConnectionLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`http: ${key} must be a positive whole number, got ${value}`);
    limits[key] = value;
  }
  // The head is part of the request: a timeout given alone moves the other one's default with it.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    if (options.headersTimeoutMs !== undefined && options.requestTimeoutMs !== undefined) {
      throw new RangeError(`http: headersTimeoutMs (${limits.headersTimeoutMs}) must not exceed requestTimeoutMs (${limits.requestTimeoutMs})`);
    }
    if (options.headersTimeoutMs === undefined) limits.headersTimeoutMs = limits.requestTimeoutMs;
    else limits.requestTimeoutMs = limits.headersTimeoutMs;
  }
  return limits;
}

/** The createServer options that make node:http enforce the time and size limits. */
export function serverOptions(limits: Required<ConnectionLimits>): { headersTimeout: number; requestTimeout: number; keepAliveTimeout: number; maxHeaderSize: number; connectionsCheckingInterval: number } {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: limits.maxHeaderBytes,
    // Node looks for expired requests on this period (30 s by default), so a timeout fires up to
    // one period late: keep the period a fraction of the shortest timeout.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** A complete HTTP/1.1 error response, for a socket that no handler will answer. */
export function rawErrorResponse(status: number, reason: string, message: string): string {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message } });
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** A socket that was answered here is closed after this long even if the peer never reads or closes. */
const LINGER_MS = 2000;

/** Answers and closes a socket; the peer gets the answer, then the end of the connection. */
function answerAndClose(socket: Socket, response: string): void {
  if (socket.writable) socket.end(response);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once("close", () => clearTimeout(timer));
}

/**
 * The connection slots of one server. A socket is *waiting* from its connection, and again
 * between keep-alive requests, until its request's headers are in; it is *busy* while a request
 * is read and answered (an SSE stream stays busy as long as it is open). When every slot is taken,
 * a new socket takes the slot of the socket that has waited longest: a peer that opens many
 * sockets and sends nothing, or half a header, only ever holds waiting slots, so it cannot keep a
 * legitimate client out. Only when every slot is busy is the new socket refused, with 503.
 */
export class ConnectionSlots {
  readonly #limits: Required<ConnectionLimits>;
  /** Waiting sockets, oldest first (a Set keeps insertion order). */
  readonly #waiting = new Set<Socket>();
  readonly #busy = new Set<Socket>();
  /** Sockets answered with 503 here, that no handler must answer again. */
  readonly #refused = new WeakSet<Socket>();

  constructor(server: Server, limits: Required<ConnectionLimits>) {
    this.#limits = limits;
    server.on("connection", (socket: Socket) => this.#connected(socket));
    server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => this.#clientError(error, socket));
  }

  /** Open sockets holding a slot. */
  get open(): number {
    return this.#waiting.size + this.#busy.size;
  }

  /**
   * A request's head is in: whether a handler should answer it (not on a socket refused here),
   * its socket busy until the response closes. Called by the server's request listener (node.ts)
   * rather than from a 'request' listener of its own: node copies the listener list of an event
   * that has two, once per request.
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const socket = req.socket;
    if (this.#refused.has(socket)) return false;
    this.#waiting.delete(socket);
    this.#busy.add(socket);
    // 'on', not 'once': a response closes once, and once's wrapper costs two objects per request.
    res.on("close", () => {
      if (!this.#busy.delete(socket) || socket.destroyed) return;
      this.#waiting.add(socket);
    });
    return true;
  }

  #connected(socket: Socket): void {
    const max = this.#limits.maxConnections;
    if (this.open >= max) {
      const oldest = this.#waiting.values().next();
      if (oldest.done) {
        this.#refused.add(socket);
        answerAndClose(socket, rawErrorResponse(503, "Service Unavailable", `service unavailable: all ${max} connections are in use; try again later`));
        return;
      }
      // The peer that has waited longest without sending a request yields its slot.
      this.#waiting.delete(oldest.value);
      oldest.value.destroy();
    }
    this.#waiting.add(socket);
    socket.once("close", () => {
      this.#waiting.delete(socket);
      this.#busy.delete(socket);
    });
  }

  /**
   * A request node:http could not hand to a handler: too slow (408), too large a head (431), or
   * malformed (400). The peer gets the reason unless a response is already under way, which can
   * only be cut short (node's own default handler makes the same check on `_httpMessage`).
   */
  #clientError(error: NodeJS.ErrnoException, socket: Socket): void {
    const response = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const { headersTimeoutMs, requestTimeoutMs, maxHeaderBytes } = this.#limits;
    let answer: string;
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      // A response object exists once the head is in: then it was the body that was too slow.
      const what = response ? `the request did not arrive whole within ${requestTimeoutMs} ms` : `the request head did not arrive within ${headersTimeoutMs} ms`;
      answer = rawErrorResponse(408, "Request Timeout", `request timeout: ${what}`);
    } else if (error.code === "HPE_HEADER_OVERFLOW") {
      answer = rawErrorResponse(431, "Request Header Fields Too Large", `request header fields too large: the limit is ${maxHeaderBytes} bytes`);
    } else {
      answer = rawErrorResponse(400, "Bad Request", `bad request: malformed HTTP (${error.code ?? error.message})`);
    }
    answerAndClose(socket, answer);
  }
}
