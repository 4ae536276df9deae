// What `mcp-wire record` keeps: the bytes of each direction cut into lines (ranges of the chunks
// that pass through, which are never touched), and a session recording (src/recordings/recording.ts,
// form 2) to which they are appended as they came, undecoded: a line that is not UTF-8 stays as it
// was, for the readers to report. A line longer than the limit passes through but is kept as a note.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// The lines of one chunk go to the file in one synchronous write before the next chunk is read, so a
// proxy that dies loses at most the line under way, and a busy session costs a system call per
// chunk, not per line. Per line, the cost is copying it into one reused buffer: no object is made
// for a line (a busy proxy spent a sixth of its time collecting them), unless --check reads it.

import { closeSync, openSync, writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { headerLines, sessionLinePrefix, sessionNote, type Direction } from "./recording.js";

const NEWLINE = 0x0a;
/** What the file's buffer starts at and shrinks back to after a long line: a pipe's chunk is 64 KiB. */
const BUFFER_BYTES = 128 * 1024;

/** The recording could not be written: which file, and which step. Local: never sent on the wire. */
export class RecordFileError extends Error {
  constructor(readonly path: string, step: string, cause: unknown) {
    super(`record: ${step} ${JSON.stringify(path)}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "RecordFileError";
  }
}

/** A session recording on disk: lines are copied into a buffer as they are cut, and written by flush(). */
export class SessionFile {
  readonly path: string;
  #fd: number | undefined;
  #buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  /** Bytes of #buffer waiting for flush(). */
  #used = 0;
  #failed = false;
  #prefixBytes = Buffer.alloc(0);
  #prefixAt = -1;
  #prefixDir: Direction = "c2s";
  /** Inside record(): the time of the chunk being recorded, which all its lines share. */
  #chunkAt: number | undefined;
  readonly #started = performance.now();
  /** Told each line recorded (record --check). */
  readonly #onLine: ((dir: Direction, bytes: Buffer) => void) | undefined;

  /** Creates (or truncates) the file and writes its header and the "-- session --" marker. */
  constructor(path: string, header: { prose?: string[]; transport: "stdio" | "http"; command?: string; url?: string }, onLine?: (dir: Direction, bytes: Buffer) => void) {
    this.path = path;
    this.#onLine = onLine;
    try {
      this.#fd = openSync(path, "w");
    } catch (error) {
      throw new RecordFileError(path, "cannot create", error);
    }
    this.#text([...headerLines(header), "-- session --", ""].join("\n"));
    this.flush();
  }

  /** Milliseconds since the session began. */
  get elapsed(): number {
    return performance.now() - this.#started;
  }

  /** A line as it was on the wire, without its newline: `bytes` from `start` to `end`. */
  line(dir: Direction, bytes: Buffer, start = 0, end = bytes.length): void {
    const prefix = this.#prefix(dir);
    this.#reserve(prefix.length + end - start + 1);
    this.#used += prefix.copy(this.#buffer, this.#used);
    this.#used += bytes.copy(this.#buffer, this.#used, start, end);
    this.#buffer[this.#used++] = NEWLINE;
    this.#onLine?.(dir, bytes.subarray(start, end));
  }

  /** The lines of one chunk share its time, and so their prefix: it is made once, not per line. */
  #prefix(dir: Direction): Buffer {
    const at = this.#chunkAt ?? Math.round(this.elapsed);
    if (at !== this.#prefixAt || dir !== this.#prefixDir) {
      this.#prefixBytes = Buffer.from(sessionLinePrefix(dir, at));
      this.#prefixAt = at;
      this.#prefixDir = dir;
    }
    return this.#prefixBytes;
  }

  note(text: string): void {
    this.#text(sessionNote(text) + "\n");
  }

  #text(text: string): void {
    this.#reserve(Buffer.byteLength(text));
    this.#used += this.#buffer.write(text, this.#used);
  }

  /** Room for `bytes` more: the buffer grows for a chunk, or a line (at most --max-line-bytes), longer than it. */
  #reserve(bytes: number): void {
    if (this.#used + bytes <= this.#buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(2 * this.#buffer.length, this.#used + bytes));
    this.#buffer.copy(larger, 0, 0, this.#used);
    this.#buffer = larger;
  }

  /**
   * Runs `write` (lines and notes), then flushes. A recording that cannot be written (a full disk)
   * must not end the session it records: the first failure is said on stderr, and recording stops.
   */
  record(write: () => void): void {
    if (this.#failed) return;
    try {
      this.#chunkAt = Math.round(this.elapsed);
      write();
      this.flush();
    } catch (error) {
      if (!(error instanceof RecordFileError)) throw error;
      this.#failed = true;
      this.#used = 0;
      process.stderr.write(`mcp-wire ${error.message}; the session goes on, unrecorded\n`);
    } finally {
      this.#chunkAt = undefined;
    }
  }

  /** Writes what is buffered; returns once it is handed to the system. */
  flush(): void {
    if (this.#fd === undefined || this.#used === 0) return;
    const length = this.#used;
    this.#used = 0;
    try {
      for (let written = 0; written < length; ) written += writeSync(this.#fd, this.#buffer, written, length - written);
    } catch (error) {
      throw new RecordFileError(this.path, "cannot write to", error);
    } finally {
      // A long line made it grow: the memory goes back once the line is written.
      if (this.#buffer.length > BUFFER_BYTES) this.#buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    }
  }

  close(): void {
    if (this.#fd === undefined) return;
    this.record(() => {});
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/**
 * One direction's bytes cut into lines for the recording. Memory is bounded by `maxLineBytes`: the
 * start of a longer line is dropped as soon as it is known to be too long, and the line is reported
 * by its length alone when its end comes.
 */
export class LineCutter {
  /** The start of a line that a chunk ended in the middle of (views, not copies). */
  #parts: Buffer[] = [];
  #length = 0;
  /** Bytes of the current line already dropped because it is too long; 0 while it is kept. */
  #dropped = 0;

  constructor(
    readonly maxLineBytes: number,
    /** A whole line: `bytes` from `start` to `end`, without its newline. */
    readonly onLine: (bytes: Buffer, start: number, end: number) => void,
    readonly onTooLong: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      if (this.#length === 0 && this.#dropped === 0 && newline - start <= this.maxLineBytes) {
        // The usual case, a whole line inside one chunk: passed as a range, no view made.
        this.onLine(chunk, start, newline);
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
    const line = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#length);
    this.#parts = [];
    this.#length = 0;
    this.onLine(line, 0, line.length);
  }
}
