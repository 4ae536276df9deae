// Newline-delimited framing: bytes in, one JSON text per line out, and the reverse.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// Works on raw bytes so that a UTF-8 character split across chunks is decoded only once its line is
// whole, and so that each byte is scanned once: time is linear in the size of the input.

import type { RequestId } from "./messages.js";

/** What one pushed chunk produced, in order. */
export type Frame =
  | { kind: "line"; text: string }
  /** A line that was not valid UTF-8; the peer gets a parse error. */
  | { kind: "invalid-utf8" }
  /**
   * A line longer than the limit. Its bytes were dropped as they arrived; `id` is the request id
   * read from the line's first or last bytes when it could be, so that the request still gets its
   * one answer.
   */
  | { kind: "too-large"; bytes: number; id?: RequestId };

export interface LineDecoderOptions {
  /** The largest line accepted, in bytes. Defaults to 64 MiB. */
  maxMessageBytes?: number;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** How much of an oversized line's start and end is kept to look for its id. */
const EDGE_BYTES = 512;

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
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      this.#append(bytes.subarray(start, end));
      if (newline === -1) break;
      const frame = this.#finishLine();
      if (frame) frames.push(frame);
      start = newline + 1;
    }
    return frames;
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

    if (oversize) return { kind: "too-large", bytes: length, id: findId(oversize.head, oversize.tail) };
    let line = parts.length === 1 ? parts[0]! : Buffer.concat(parts, length);
    // Tolerate "\r\n" line ends, and skip blank lines: neither is a message.
    if (line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    if (line.length === 0 || isBlank(line)) return undefined;
    try {
      return { kind: "line", text: this.#utf8.decode(line) };
    } catch {
      return { kind: "invalid-utf8" };
    }
  }
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

function isBlank(line: Buffer): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== CARRIAGE_RETURN) return false;
  return true;
}

const ID_VALUE = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
/** `{"id": 7, ...` or `{"jsonrpc":"2.0","id":7, ...`: the id as the object's first member(s). */
const ID_AT_HEAD = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE);
/** `..., "id": 7}`: the id as the object's last member (a nested object would end in "}}"). */
const ID_AT_TAIL = new RegExp(String.raw`[,{]\s*"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`);

/**
 * Best effort: the id of an oversized request, when it stands first or last in the object, as
 * the common serializers put it. Anything else stays unknown rather than guessed.
 */
function findId(head: Buffer, tail: Buffer): RequestId | undefined {
  const match = ID_AT_HEAD.exec(head.toString("utf8")) ?? ID_AT_TAIL.exec(tail.toString("utf8"));
  if (!match) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]!);
    return typeof id === "string" || Number.isSafeInteger(id) ? (id as RequestId) : undefined;
  } catch {
    return undefined;
  }
}
