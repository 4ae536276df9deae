// The small request and answer the HTTP server handlers work on, so that one set of HTTP rules
// (statuses, headers, sessions, security, limits) serves both adapters: web.ts makes them from a
// web Request and into a Response (any runtime with the Fetch API), node-exchange.ts from
// node:http's IncomingMessage and straight onto its ServerResponse (no Fetch API objects).
// Also the answers every handler gives: an error whose body is a JSON-RPC error, a JSON body.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// (HTTP errors MAY carry a JSON-RPC error without an id).

import type { SseSink } from "./sse-sink.js";

/** One HTTP request, as much of it as the handlers read. */
export interface HttpRequest {
  readonly method: string;
  /** The URL's path, without its query. */
  readonly path: string;
  /** A query parameter of the URL (the legacy transport's sessionId). */
  query(name: string): string | null;
  /**
   * A header's value by its name (any case). Repeated fields are as node:http keeps them: joined
   * with ", " for most, the first only for those that must not repeat (Host, Authorization,
   * Content-Type...); a Fetch runtime joins them all.
   */
  header(name: string): string | null;
  /**
   * The body's bytes; undefined once more than `limit` have come, when reading stops. Each adapter
   * counts as it reads; responses.ts's readJsonText checks the declared length first.
   */
  body(limit: number): Promise<Uint8Array | undefined>;
  /** Runs `listener` once if the client leaves before its whole answer was written (at once if it has). */
  onClientGone(listener: () => void): void;
}

/** One HTTP answer: a status and headers, then a text body, an event stream, or nothing. */
export class HttpAnswer {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body?: string,
    /** An event stream, kept open until the sink ends. */
    readonly events?: SseSink,
  ) {}
}

/** An HTTP error whose body is a JSON-RPC error response without id, so clients can read why. */
export function errorAnswer(status: number, message: string, headers?: Record<string, string>, code = -32000): HttpAnswer {
  return jsonAnswer(status, { jsonrpc: "2.0", error: { code, message } }, headers);
}

/** The headers of most JSON answers, one frozen object for all of them rather than one per answer. */
const JSON_HEADERS: Record<string, string> = Object.freeze({ "content-type": "application/json" });

export function jsonAnswer(status: number, body: unknown, headers?: Record<string, string>): HttpAnswer {
  return new HttpAnswer(status, headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers }, JSON.stringify(body));
}

/** A status with no body (202 Accepted, 200 for a DELETE). */
export function emptyAnswer(status: number): HttpAnswer {
  return new HttpAnswer(status, {});
}

/** An event stream (200): the events the sink gets go to the client as they come. */
export function streamAnswer(events: SseSink, headers: Record<string, string>): HttpAnswer {
  return new HttpAnswer(200, headers, undefined, events);
}
