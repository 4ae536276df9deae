// Reading Server-Sent Events on the client: bytes in, events out, whatever the chunking. Fields
// `data` (lines joined with "\n"), `event`, `id` and `retry`; comment lines (":") are skipped;
// lines may end in LF, CRLF or CR. Spec: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
// as used by https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// Left out: the BOM and the EventSource object itself (reconnection lives in the transports).
// An event (and a line) is bounded in bytes: a server that never ends one cannot fill our memory.

import { DEFAULT_MAX_MESSAGE_BYTES } from "../jsonrpc/framing.js";

/** One dispatched event. */
export interface ReceivedEvent {
  /** The event type; "message" when the server named none. */
  event: string;
  data: string;
}

/** An event or a line passed the parser's byte limit; the stream cannot be read on. Local. */
export class SseLimitError extends Error {
  constructor(readonly what: "an SSE event" | "an SSE line", readonly limit: number) {
    super(`${what} passed the limit of ${limit} bytes`);
    this.name = "SseLimitError";
  }
}

export class SseParser {
  /**
   * The id of the last complete event that set one, or undefined. An id counts only once its
   * event is complete (the blank line came), so a stream cut mid-event resumes before that event.
   */
  lastEventId: string | undefined;
  /** The reconnection delay the server asked for, in milliseconds, if it did. */
  retry: number | undefined;
  /** The largest event (the bytes of its lines), and the largest line of any kind. */
  readonly maxEventBytes: number;
  /**
   * The line under way, in the pieces it arrived in: joined once, when it ends. (Appending to one
   * string and reading it back per chunk would copy a long line again for every chunk.)
   */
  #linePieces: string[] = [];
  #lineBytes = 0;
  /** Whether the line under way is a comment; known from its first character. */
  #lineIsComment: boolean | undefined;
  /** The bytes of the field lines of the event under way; comment lines are not part of it. */
  #eventBytes = 0;
  /** The last chunk ended in CR: an LF starting the next chunk belongs to the same line end. */
  #afterCR = false;
  #data: string[] = [];
  #event = "";
  #id: string | undefined;

  /** The bytes kept of the event and the line under way (record --listen counts them). */
  get heldBytes(): number {
    return this.#eventBytes + this.#lineBytes;
  }

  constructor(options: { maxEventBytes?: number } = {}) {
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** Takes the next piece of decoded text and returns the events it completed; throws SseLimitError past the limit. */
  push(text: string): ReceivedEvent[] {
    const events: ReceivedEvent[] = [];
    let start = 0;
    if (this.#afterCR && text.startsWith("\n")) start = 1;
    this.#afterCR = false;
    for (let at = start; at < text.length; at++) {
      const char = text[at];
      if (char !== "\n" && char !== "\r") continue;
      const piece = text.slice(start, at);
      this.#count(piece);
      this.#linePieces.push(piece);
      this.#field(this.#linePieces.join(""), events);
      this.#linePieces = [];
      this.#lineBytes = 0;
      this.#lineIsComment = undefined;
      if (char === "\r") {
        if (at + 1 === text.length) this.#afterCR = true;
        else if (text[at + 1] === "\n") at++;
      }
      start = at + 1;
    }
    const rest = text.slice(start);
    if (rest !== "") {
      this.#count(rest);
      this.#linePieces.push(rest);
    }
    return events;
  }

  /** Adds a piece of the line under way to the byte counts, and stops at the limit. */
  #count(piece: string): void {
    this.#lineBytes += Buffer.byteLength(piece);
    if (this.#lineIsComment === undefined && piece !== "") this.#lineIsComment = piece.startsWith(":");
    const comment = this.#lineIsComment === true;
    if (this.#lineBytes > this.maxEventBytes) throw new SseLimitError("an SSE line", this.maxEventBytes);
    if (!comment && this.#eventBytes + this.#lineBytes > this.maxEventBytes) throw new SseLimitError("an SSE event", this.maxEventBytes);
  }

  #field(line: string, events: ReceivedEvent[]): void {
    if (line === "") return this.#dispatch(events);
    if (line.startsWith(":")) return;
    this.#eventBytes += this.#lineBytes;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (name) {
      case "data": this.#data.push(value); break;
      case "event": this.#event = value; break;
      // An id containing NUL is ignored, as the WHATWG rules say.
      case "id": if (!value.includes("\0")) this.#id = value; break;
      case "retry": if (/^\d+$/.test(value)) this.retry = Number(value); break;
      // Unknown fields are ignored.
    }
  }

  #dispatch(events: ReceivedEvent[]): void {
    if (this.#id !== undefined) this.lastEventId = this.#id;
    // An event with no data line is not dispatched; `data:` with nothing after it is, with "".
    if (this.#data.length > 0) events.push({ event: this.#event || "message", data: this.#data.join("\n") });
    this.#data = [];
    this.#event = "";
    this.#eventBytes = 0;
  }
}

/**
 * Feeds a response body through a parser, one callback per event. Returns normally when the body
 * ends or `stop()` returns true after an event; a dropped connection rejects (as fetch reports it).
 */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  parser: SseParser,
  onEvent: (event: ReceivedEvent) => void,
  stop: () => boolean = () => false,
): Promise<void> {
  const reader = body.getReader();
  // A multi-byte character may be split across chunks; the streaming decoder keeps the pieces.
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const events = parser.push(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      // An event cut off by the end of the body is never dispatched (WHATWG: "incomplete event").
      for (const event of events) {
        onEvent(event);
        if (stop()) return;
      }
      if (done) return;
    }
  } finally {
    // Releases the connection, whether we stopped early or the body ended.
    void reader.cancel().catch(() => {});
  }
}
