// Textbook: Connection (its readline constructor) in src/textbook/connection.ts; this adds raw-byte
//  lines split at most once, a bound on a line, and UTF-8 decoded only once a line is whole.
// Newline-delimited framing: bytes in, one JSON text per line out, and the reverse.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// Works on raw bytes so that a UTF-8 character split across chunks is decoded only once its line is
// whole, and so that each byte is looked at a fixed number of times: time is linear in the size of the input.

import type { RequestId } from "./id.js";
import { EDGE_BYTES, sniff } from "./sniff.js";

/** What one pushed chunk produced, in order. */
export type Frame =
  | { kind: "line"; text: string }
  /** A line that was not valid UTF-8; the peer gets a parse error. */
  | { kind: "invalid-utf8" }
  /**
   * A line longer than the limit. Its bytes were dropped as they arrived; `id` and `looksLike`
   * are what its first and last bytes show (see sniff), so that a request still gets its one
   * answer and a response still reaches the call waiting for it.
   */
  | { kind: "too-large"; bytes: number; id?: RequestId; looksLike?: "request" | "response" };

export interface LineDecoderOptions {
  /** The largest line accepted, in bytes (default DEFAULT_MAX_MESSAGE_BYTES: 64 MiB of content + 1 MiB). */
  maxMessageBytes?: number;
}

/** The content the default limit is for: a 64 MiB text argument or result, say, as written in JSON. */
export const DEFAULT_CONTENT_BYTES = 64 * 1024 * 1024;
/**
 * Room for the JSON-RPC and MCP envelope around that content, so that a user who reads "64 MiB"
 * sees a 64 MiB payload go through rather than be refused for its wrapper. The envelope itself is
 * a few hundred bytes (jsonrpc, id, method, the tool's name, _meta, "echo: " before an echoed
 * text); 1 MiB also holds the call's other, small arguments, and adds under 2% to the memory a
 * message this size takes anyway. Escapes count as written: a quote in the content costs 2 bytes.
 */
export const ENVELOPE_ALLOWANCE_BYTES = 1024 * 1024;
/**
 * The default limit on one message, in bytes, wherever messages are read whole: stdio both ways,
 * and what an HTTP client accepts from a server (a JSON body, an SSE event or line).
 */
export const DEFAULT_MAX_MESSAGE_BYTES = DEFAULT_CONTENT_BYTES + ENVELOPE_ALLOWANCE_BYTES;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineDecoder {
  readonly maxMessageBytes: number;
  /** The pieces of the current, unfinished line. Joined once, when its newline arrives. */
  #parts: Buffer[] = [];
  #length = 0;
  /** Set while skipping the rest of an oversized line. */
  #oversize: { head: Buffer; tail: Buffer } | undefined;
  #utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

  constructor(options: LineDecoderOptions = {}) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** Feeds bytes as they arrive; returns the frames completed by them. */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const last = bytes.lastIndexOf(NEWLINE);
    let start = 0;
    if (last !== -1) {
      // A line begun in an earlier chunk ends at this chunk's first newline.
      if (this.#length > 0 || this.#oversize) start = this.#lineByLine(bytes, 0, bytes.indexOf(NEWLINE), frames);
      if (start <= last) this.#wholeLines(bytes, start, last, frames);
      start = last + 1;
    }
    this.#append(bytes.subarray(start));
    return frames;
  }

  /** The lines of bytes[start..last], `last` being a newline, one at a time; returns the index after `last`. */
  #lineByLine(bytes: Buffer, start: number, last: number, frames: Frame[]): number {
    while (start <= last) {
      const newline = bytes.indexOf(NEWLINE, start);
      this.#append(bytes.subarray(start, newline));
      const frame = this.#finishLine();
      if (frame) frames.push(frame);
      start = newline + 1;
    }
    return start;
  }

  /**
   * Lines that begin and end in one chunk, bytes[start..last], decoded as one text and split at its
   * newlines (a newline byte is never part of a UTF-8 sequence), which costs about a third of
   * decoding each line on its own. One at a time when some line may be over the limit (the bytes
   * are more than it), or when they are not UTF-8, to tell which line is not.
   */
  #wholeLines(bytes: Buffer, start: number, last: number, frames: Frame[]): void {
    let text: string | undefined;
    try {
      if (last - start <= this.maxMessageBytes) text = this.#utf8.decode(bytes.subarray(start, last));
    } catch {
      text = undefined;
    }
    if (text === undefined) {
      this.#lineByLine(bytes, start, last, frames);
      return;
    }
    for (const line of text.split(LINE_END)) {
      const frame = lineFrame(line);
      if (frame) frames.push(frame);
    }
  }

  /** The end of input: an unterminated last line is still a message. */
  end(): Frame[] {
    const frame = this.#length > 0 || this.#oversize ? this.#finishLine() : undefined;
    return frame ? [frame] : [];
  }

  #append(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#length += piece.length;
    if (this.#oversize) {
      this.#oversize.tail = keepTail(this.#oversize.tail, piece);
      return;
    }
    this.#parts.push(piece);
    if (this.#length > this.maxMessageBytes) {
      const all = Buffer.concat(this.#parts);
      this.#oversize = { head: all.subarray(0, EDGE_BYTES), tail: keepTail(Buffer.alloc(0), all) };
      this.#parts = [];
    }
  }

  #finishLine(): Frame | undefined {
    const length = this.#length;
    const oversize = this.#oversize;
    const parts = this.#parts;
    this.#parts = [];
    this.#length = 0;
    this.#oversize = undefined;

    if (oversize) return { kind: "too-large", bytes: length, ...sniff(oversize.head.toString("utf8"), oversize.tail.toString("utf8")) };
    if (length === 0) return undefined;
    let text: string;
    try {
      text = this.#utf8.decode(parts.length === 1 ? parts[0]! : Buffer.concat(parts, length));
    } catch {
      return { kind: "invalid-utf8" };
    }
    return lineFrame(text);
  }
}

/** A decoded line as a frame. Tolerates "\r\n" line ends, and skips blank lines: neither is a message. */
function lineFrame(line: string): Frame | undefined {
  if (line.endsWith("\r")) line = line.slice(0, -1);
  return isBlank(line) ? undefined : { kind: "line", text: line };
}

/**
 * What ends each message on the wire. Spec (basic/transports#stdio): messages are delimited by
 * newlines and MUST NOT contain embedded newlines; encodeMessage's JSON.stringify escapes every
 * newline inside strings, so writing its text followed by LINE_END frames exactly one message.
 */
export const LINE_END = "\n";

function keepTail(previous: Buffer, piece: Buffer): Buffer {
  if (piece.length >= EDGE_BYTES) return Buffer.from(piece.subarray(piece.length - EDGE_BYTES));
  const joined = Buffer.concat([previous, piece]);
  return joined.subarray(Math.max(0, joined.length - EDGE_BYTES));
}

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code !== 0x20 && code !== 0x09 && code !== CARRIAGE_RETURN) return false;
  }
  return true;
}
