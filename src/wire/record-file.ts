// What `mcp-wire record` keeps: the bytes of each direction cut into lines (a copy: the bytes that
// pass through are never touched), and a session recording (src/wire/recording.ts, form 2) written
// a line at a time with a synchronous append, so a proxy that dies loses at most the line it was on.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// A line is recorded as UTF-8 text without its "\n" (and a "\r" before it); bytes that are not UTF-8
// are recorded as U+FFFD. A line longer than the limit is passed on whole but recorded as a note.

import { closeSync, openSync, writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { headerLines, sessionLine, sessionNote, type Direction } from "./recording.js";

const NEWLINE = 0x0a;

/** The recording could not be written: which file, and which step. Local: never sent on the wire. */
export class RecordFileError extends Error {
  constructor(readonly path: string, step: string, cause: unknown) {
    super(`record: ${step} ${JSON.stringify(path)}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "RecordFileError";
  }
}

/** A session recording on disk, appended to as the session goes. */
export class SessionFile {
  readonly path: string;
  #fd: number | undefined;
  readonly #started = performance.now();

  /** Creates (or truncates) the file and writes its header and the "-- session --" marker. */
  constructor(path: string, header: { prose?: string[]; transport: "stdio" | "http"; command?: string; url?: string }) {
    this.path = path;
    try {
      this.#fd = openSync(path, "w");
    } catch (error) {
      throw new RecordFileError(path, "cannot create", error);
    }
    this.#append([...headerLines(header), "-- session --"].join("\n") + "\n");
  }

  /** Milliseconds since the session began. */
  get elapsed(): number {
    return performance.now() - this.#started;
  }

  line(dir: Direction, text: string): void {
    this.#append(sessionLine(dir, text, this.elapsed) + "\n");
  }

  note(text: string): void {
    this.#append(sessionNote(text) + "\n");
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  #append(text: string): void {
    if (this.#fd === undefined) return;
    try {
      writeSync(this.#fd, text);
    } catch (error) {
      throw new RecordFileError(this.path, "cannot write to", error);
    }
  }
}

/**
 * One direction's bytes cut into lines for the recording. Memory is bounded by `maxLineBytes`: the
 * start of a longer line is dropped as soon as it is known to be too long, and the line is reported
 * by its length alone when its end comes.
 */
export class LineCutter {
  #parts: Buffer[] = [];
  #length = 0;
  /** Bytes of the current line already dropped because it is too long; 0 while it is kept. */
  #dropped = 0;

  constructor(
    readonly maxLineBytes: number,
    readonly onLine: (text: string) => void,
    readonly onTooLong: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      if (this.#length === 0 && this.#dropped === 0 && newline - start <= this.maxLineBytes) {
        // The usual case, a whole line inside one chunk: decoded in place.
        this.onLine(chunk.toString("utf8", start, newline).replace(/\r$/, ""));
      } else {
        this.#take(chunk.subarray(start, newline));
        this.#endLine();
      }
      start = newline + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
  }

  /** The stream ended: a last line without its newline is still a line the peer sent. */
  end(): void {
    if (this.#length > 0 || this.#dropped > 0) this.#endLine();
  }

  #take(piece: Buffer): void {
    if (this.#dropped > 0) {
      this.#dropped += piece.length;
      return;
    }
    // A view, not a copy: a stream hands out a new buffer per chunk and nothing here writes to it.
    this.#parts.push(piece);
    this.#length += piece.length;
    if (this.#length > this.maxLineBytes) {
      this.#dropped = this.#length;
      this.#parts = [];
      this.#length = 0;
    }
  }

  #endLine(): void {
    if (this.#dropped > 0) {
      const bytes = this.#dropped;
      this.#dropped = 0;
      this.onTooLong(bytes);
      return;
    }
    const text = Buffer.concat(this.#parts, this.#length).toString("utf8").replace(/\r$/, "");
    this.#parts = [];
    this.#length = 0;
    this.onLine(text);
  }
}
