// The server a replay talks to over Streamable HTTP (mcp-wire replay --url): each client line is
// POSTed as it was recorded, and each message of the answer (a JSON body, or the events of an SSE
// stream, read as they come) is heard as a line, as stdio would carry it.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// and https://modelcontextprotocol.io/specification/2026-07-28/basic/transports (mirrored headers).
// POSTs go one after another (each once the previous one's headers came, so initialize's session id
// is known before the next), answers are read side by side. Left out: the GET stream (messages the
// server sends outside any request), resuming a cut stream, the legacy HTTP+SSE transport.

import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import { MessageTooLargeError, readJsonBody } from "../http/client-fetch.js";
import { modernHeaders } from "../http/client-messages.js";
import { readEvents, SseLimitError, SseParser } from "../http/sse-parser.js";
import { parseLine } from "./recording.js";
import { DEFAULT_MAX_LINE_BYTES, type PeerExit, type PeerOptions, type ReplayPeer } from "./replay-peer.js";

export function httpPeer(url: string, headers: Record<string, string> = {}, options: PeerOptions = {}): ReplayPeer {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let listener: (line: string) => void = () => {};
  const hear = (line: string) => listener(line);
  const abort = new AbortController();
  let sessionId: string | undefined;
  let protocolVersion: string | undefined;
  let previous: Promise<void> = Promise.resolve();
  const reading = new Set<Promise<void>>();
  let unreachable: string | undefined;
  let finish: (exit: PeerExit) => void = () => {};
  const closed = new Promise<PeerExit>((resolve) => (finish = resolve));

  const post = async (line: string): Promise<void> => {
    const message = parseLine(line);
    const response = await fetch(url, {
      method: "POST",
      signal: abort.signal,
      body: line,
      headers: {
        ...headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
        // Spec (streamable-http#protocol-version-header): after initialize, the negotiated version.
        ...(protocolVersion === undefined ? {} : { "mcp-protocol-version": protocolVersion }),
        ...(message === undefined ? {} : modernHeaders(message as JSONRPCMessage)),
      },
    });
    sessionId = response.headers.get("mcp-session-id") ?? sessionId;
    const body = (async () => {
      if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream") && response.body) {
        await readEvents(response.body, new SseParser({ maxEventBytes: maxLineBytes }), (event) => {
          if (event.data !== "") noteAndHear(event.data);
        });
        return;
      }
      const text = (await readJsonBody(response, "replay", maxLineBytes)).trim();
      if (text !== "") noteAndHear(text);
      else if (response.status >= 400) hear(`HTTP ${response.status} (no body)`);
    })().catch((error: unknown) => {
      // A stream cut short is not a failure: what came is what the comparison sees. A body past the
      // bound is: the server is left, as a stdio one writing such a line is stopped.
      if (!(error instanceof MessageTooLargeError || error instanceof SseLimitError)) return;
      abort.abort();
      finish({ code: null, signal: null, error: `sent a body or SSE event longer than the limit of ${maxLineBytes} bytes (--max-line-bytes), and was left` });
    });
    reading.add(body);
    void body.then(() => reading.delete(body));
  };
  const noteAndHear = (text: string) => {
    const result = (parseLine(text) as { result?: { protocolVersion?: unknown } } | undefined)?.result;
    if (typeof result?.protocolVersion === "string") protocolVersion = result.protocolVersion;
    hear(text);
  };

  return {
    write: (line) => {
      previous = previous.then(() => post(line)).catch((error: unknown) => {
        unreachable ??= `could not be reached at ${url} (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})`;
        finish({ code: null, signal: null, error: unreachable });
      });
    },
    end: () => {
      void (async () => {
        await previous;
        while (reading.size > 0) await Promise.all(reading);
        // Spec (streamable-http#session-management): a client that is done DELETEs its session.
        if (sessionId !== undefined && unreachable === undefined) {
          await fetch(url, { method: "DELETE", signal: abort.signal, headers: { ...headers, "mcp-session-id": sessionId } }).catch(() => {});
        }
        finish({ code: null, signal: null, ...(unreachable === undefined ? {} : { error: unreachable }) });
      })();
    },
    onLine: (next) => void (listener = next),
    closed,
    stop: () => abort.abort(),
  };
}
