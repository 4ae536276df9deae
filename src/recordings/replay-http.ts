// The server a replay talks to over HTTP (mcp-wire replay --url): each client line is POSTed as it
// was recorded, and each message that comes back (a JSON body, each event of an SSE stream, read as
// they come) is heard as a line, as stdio would carry it. Which streams to open besides, the "#"
// notes of an HTTP session recording say (record --listen writes them; httpPlan reads them):
// - Streamable HTTP: the GET stream, opened where the recorded client opened it, for what the
//   server sends outside any request;
// - the legacy HTTP+SSE transport (2024-11-05): its event stream, opened first (our own
//   LegacySseClientTransport, which waits for the endpoint event), then each line POSTed there.
// - the MCP-Protocol-Version header: sent after initialize, unless the recorded client sent none.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http,
// https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
// and https://modelcontextprotocol.io/specification/2026-07-28/basic/transports (mirrored headers).
// POSTs go one after another (each once the previous one's headers came, so initialize's session id
// is known before the next), answers are read side by side. Left out: resuming a cut stream.

import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import { discard, isEventStream, MessageTooLargeError, readJsonBody } from "../http/client-fetch.js";
import { modernHeaders } from "../http/client-messages.js";
import { LegacySseClientTransport } from "../http/legacy-client.js";
import { readEvents, SseLimitError, SseParser } from "../http/sse-parser.js";
import { parseLine } from "./recording.js";
import { DEFAULT_MAX_LINE_BYTES, type PeerExit, type PeerOptions, type ReplayPeer } from "./replay-peer.js";

/** What an HTTP session recording's notes say the client did besides POSTing its lines. */
export interface HttpPlan {
  /** Streamable HTTP: the client opened the GET stream at `path` before its client line `before` (0-based). */
  getStream?: { path: string; before: number };
  /** The legacy HTTP+SSE transport: the path of its event stream (e.g. "/sse"), opened first. */
  legacyStream?: string;
  /**
   * Streamable HTTP: the recorded client sent no MCP-Protocol-Version header on any POST after its
   * first (a peer's deviation), so the replay sends none either: a server that cannot tell the
   * version otherwise (a session per POST) answers by 2025-03-26, as it answered that client.
   */
  noProtocolVersionHeader?: true;
}

/** Reads the plan from a recording's text: its "# > GET PATH", "# > POST PATH" and "# < event endpoint:" notes. */
export function httpPlan(text: string): HttpPlan {
  const plan: HttpPlan = {};
  const lines = text.split(/\r?\n/);
  // Only a session recording (form 2) has notes among its lines.
  const session = lines.indexOf("-- session --");
  if (session < 0) return plan;
  let clientLines = 0;
  let lastGet: string | undefined;
  let posts = 0;
  let versionHeaders = 0;
  for (const line of lines.slice(session + 1)) {
    const post = /^# > POST \S+(.*)$/.exec(line);
    if (post && posts++ > 0 && /mcp-protocol-version:/i.test(post[1]!)) versionHeaders++;
    if (line.startsWith("> ")) clientLines++;
    const get = /^# > GET (\S+)(.*)$/.exec(line);
    // A GET with Last-Event-ID resumes a stream; the first plain one opened it.
    if (get && !/last-event-id:/i.test(get[2]!)) {
      lastGet = new URL(get[1]!, "http://x").pathname;
      plan.getStream ??= { path: lastGet, before: clientLines };
    }
    // Spec (2024-11-05 transports#http-with-sse): the server's first event names the POST endpoint.
    if (line.startsWith("# < event endpoint:") && lastGet !== undefined) plan.legacyStream ??= lastGet;
  }
  if (plan.legacyStream !== undefined) delete plan.getStream;
  // The recorder notes the header whenever it is sent (record-http.ts): its absence is the client's.
  else if (posts > 1 && versionHeaders === 0) plan.noProtocolVersionHeader = true;
  return plan;
}

/**
 * A session recording's text with the notes its plan was read from, for a recording rewritten from
 * this run's transcript (replay --update), which keeps the messages and not the notes: without
 * them, the next replay would open no GET stream, miss the legacy transport, or send the version
 * header the recorded client did not.
 */
export function withPlanNotes(text: string, plan: HttpPlan): string {
  const lines = text.split("\n");
  const session = lines.indexOf("-- session --");
  if (session < 0) return text;
  if (plan.legacyStream !== undefined) {
    lines.splice(session + 1, 0, `# > GET ${plan.legacyStream} (kept by replay --update)`, "# < event endpoint: (kept by replay --update)");
  } else if (plan.getStream !== undefined) {
    let clientLines = 0;
    const at = lines.findIndex((line, i) => i > session && line.startsWith("> ") && clientLines++ === plan.getStream!.before);
    lines.splice(at < 0 ? lines.length - 1 : at, 0, `# > GET ${plan.getStream.path} (kept by replay --update)`);
  }
  if (plan.noProtocolVersionHeader) {
    lines.splice(session + 1, 0, "# > POST / (kept by replay --update)", "# > POST / (kept by replay --update: no mcp-protocol-version header)");
  }
  return lines.join("\n");
}

export function httpPeer(url: string, headers: Record<string, string> = {}, options: PeerOptions = {}, plan: HttpPlan = {}): ReplayPeer {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let listener: (line: string) => void = () => {};
  const hear = (line: string) => listener(line);
  const abort = new AbortController();
  /** The GET stream (Streamable HTTP), the event stream (legacy) and 2026-07-28 listens: open until the end. */
  const streams = new AbortController();
  let sessionId: string | undefined;
  let protocolVersion: string | undefined;
  let previous: Promise<void> = Promise.resolve();
  let written = 0;
  const reading = new Set<Promise<void>>();
  let unreachable: string | undefined;
  let ending = false;
  let finish: (exit: PeerExit) => void = () => {};
  const closed = new Promise<PeerExit>((resolve) => (finish = resolve));
  const overflow = () => {
    abort.abort();
    closeStreams();
    finish({ code: null, signal: null, error: `sent a body or SSE event longer than the limit of ${maxLineBytes} bytes (--max-line-bytes); the replay stopped reading it` });
  };
  /** A stream cut short is not a failure: what came is what the comparison sees. A body past the bound is. */
  const read = (body: Promise<void>) => body.catch((error: unknown) => {
    if (error instanceof MessageTooLargeError || error instanceof SseLimitError) overflow();
  });
  const readStream = (body: ReadableStream<Uint8Array>) => read(readEvents(body, new SseParser({ maxEventBytes: maxLineBytes }), (event) => {
    if (event.data !== "") noteAndHear(event.data);
  }));

  const legacy = plan.legacyStream === undefined ? undefined : openLegacy(new URL(plan.legacyStream, url));
  // Its failure is the first POST's, which waits for it; until then it is not unhandled.
  legacy?.catch(() => {});
  const closeStreams = () => {
    ending = true;
    streams.abort();
    void legacy?.then((transport) => transport.close(), () => {});
  };
  function openLegacy(sseUrl: URL): Promise<LegacySseClientTransport> {
    return LegacySseClientTransport.open(sseUrl, { headers, maxMessageBytes: maxLineBytes }, streams.signal).then((transport) => {
      transport.start({
        message: hear,
        unreadable: () => {},
        close: (cause) => {
          if (cause instanceof MessageTooLargeError) overflow();
          else if (!ending) finish({ code: null, signal: null, error: `closed its HTTP+SSE event stream (${cause?.message ?? "ended"})` });
        },
      });
      return transport;
    });
  }

  /** Spec (streamable-http#listening-for-messages-from-the-server): GET with Accept: text/event-stream. */
  const openGetStream = async (): Promise<void> => {
    const response = await fetch(url, { method: "GET", signal: streams.signal, headers: { ...headers, accept: "text/event-stream", ...sessionHeaders() } });
    // 405: this server offers no GET stream; what the recording heard on one will be missing.
    if (!isEventStream(response) || !response.body) return discard(response);
    void readStream(response.body);
  };
  const sessionHeaders = () => ({
    ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    // Spec (streamable-http#protocol-version-header): after initialize, the negotiated version.
    ...(protocolVersion === undefined || legacy || plan.noProtocolVersionHeader ? {} : { "mcp-protocol-version": protocolVersion }),
  });

  const post = async (line: string): Promise<void> => {
    if (written++ === plan.getStream?.before) await openGetStream();
    const message = parseLine(line);
    // A 2026-07-28 listen answers only when the server ends it: its stream is not an answer owed,
    // and closing it at the end is the client's end of it (replay-open-listens.ts).
    // Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
    const listen = (message as { method?: unknown } | undefined)?.method === "subscriptions/listen";
    const response = await fetch(legacy ? (await legacy).endpoint : url, {
      method: "POST",
      signal: listen ? AbortSignal.any([abort.signal, streams.signal]) : abort.signal,
      body: line,
      headers: {
        ...headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...sessionHeaders(),
        ...(message === undefined ? {} : modernHeaders(message as JSONRPCMessage)),
      },
    });
    sessionId = response.headers.get("mcp-session-id") ?? sessionId;
    const body = read((async () => {
      if (isEventStream(response) && response.body) return readStream(response.body);
      const text = (await readJsonBody(response, "replay", maxLineBytes)).trim();
      // A 202's body is an acknowledgement, not a message (record notes it): the legacy transport's "Accepted".
      if (response.status === 202) return;
      if (text !== "") noteAndHear(text);
      else if (response.status >= 400) hear(`HTTP ${response.status} (no body)`);
    })());
    if (listen) return;
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
        // The legacy stream can break its bound before its endpoint has come, which is here.
        if (error instanceof MessageTooLargeError) return overflow();
        unreachable ??= `could not be reached at ${url} (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})`;
        finish({ code: null, signal: null, error: unreachable });
      });
    },
    end: () => {
      void (async () => {
        await previous;
        while (reading.size > 0) await Promise.all(reading);
        closeStreams();
        // Spec (streamable-http#session-management): a client that is done DELETEs its session.
        if (sessionId !== undefined && unreachable === undefined) {
          await fetch(url, { method: "DELETE", signal: abort.signal, headers: { ...headers, "mcp-session-id": sessionId } }).catch(() => {});
        }
        finish({ code: null, signal: null, ...(unreachable === undefined ? {} : { error: unreachable }) });
      })();
    },
    onLine: (next) => void (listener = next),
    closed,
    stop: () => {
      abort.abort();
      closeStreams();
    },
  };
}
