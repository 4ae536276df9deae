// What `mcp-wire record` keeps: the bytes of each direction cut into lines (views of the chunks
// that pass through, which are never touched), and a session recording (src/wire/recording.ts,
// form 2) to which they are appended as they came, undecoded: a line that is not UTF-8 stays as it
// was, for the readers to report. A line longer than the limit passes through but is kept as a note.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// The lines of one chunk go to the file in one synchronous write before the next chunk is read, so a
// proxy that dies loses at most the line under way, and a busy session costs a system call per
// chunk, not per line.

import { closeSync, openSync, writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { headerLines, sessionLinePrefix, sessionNote, type Direction } from "./recording.js";

const NEWLINE = 0x0a;
const LINE_END = Buffer.from("\n");

/** The recording could not be written: which file, and which step. Local: never sent on the wire. */
export class RecordFileError extends Error {
  constructor(readonly path: string, step: string, cause: unknown) {
    super(`record: ${step} ${JSON.stringify(path)}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "RecordFileError";
  }
}

/** A session recording on disk: lines are queued as they are cut, and written by flush(). */
export class SessionFile {
  readonly path: string;
  #fd: number | undefined;
  #queued: Buffer[] = [];
  #failed = false;
  #prefixBytes = Buffer.alloc(0);
  #prefixAt = -1;
  #prefixDir: Direction = "c2s";
  readonly #started = performance.now();

  /** Creates (or truncates) the file and writes its header and the "-- session --" marker. */
  /** Told each line recorded (record --check). */
  readonly #onLine: ((dir: Direction, bytes: Buffer) => void) | undefined;

  constructor(path: string, header: { prose?: string[]; transport: "stdio" | "http"; command?: string; url?: string }, onLine?: (dir: Direction, bytes: Buffer) => void) {
    this.path = path;
    this.#onLine = onLine;
    try {
      this.#fd = openSync(path, "w");
    } catch (error) {
      throw new RecordFileError(path, "cannot create", error);
    }
    this.#queued.push(Buffer.from([...headerLines(header), "-- session --", ""].join("\n")));
    this.flush();
  }

  /** Milliseconds since the session began. */
  get elapsed(): number {
    return performance.now() - this.#started;
  }

  /** A line as it was on the wire, without its newline. */
  line(dir: Direction, bytes: Buffer): void {
    this.#queued.push(this.#prefix(dir), bytes, LINE_END);
    this.#onLine?.(dir, bytes);
  }

  /** The lines of one chunk share a millisecond, and so their prefix: it is made once, not per line. */
  #prefix(dir: Direction): Buffer {
    const at = Math.round(this.elapsed);
    if (at !== this.#prefixAt || dir !== this.#prefixDir) {
      this.#prefixBytes = Buffer.from(sessionLinePrefix(dir, at));
      this.#prefixAt = at;
      this.#prefixDir = dir;
    }
    return this.#prefixBytes;
  }

  note(text: string): void {
    this.#queued.push(Buffer.from(sessionNote(text)), LINE_END);
  }

  /**
   * Runs `write` (lines and notes), then flushes. A recording that cannot be written (a full disk)
   * must not end the session it records: the first failure is said on stderr, and recording stops.
   */
  record(write: () => void): void {
    if (this.#failed) return;
    try {
      write();
      this.flush();
    } catch (error) {
      if (!(error instanceof RecordFileError)) throw error;
      this.#failed = true;
      this.#queued = [];
      process.stderr.write(`mcp-wire ${error.message}; the session goes on, unrecorded\n`);
    }
  }

  /** Writes what is queued; returns once it is handed to the system. */
  flush(): void {
    if (this.#fd === undefined || this.#queued.length === 0) return;
    const bytes = Buffer.concat(this.#queued);
    this.#queued = [];
    try {
      for (let written = 0; written < bytes.length; ) written += writeSync(this.#fd, bytes, written);
    } catch (error) {
      throw new RecordFileError(this.path, "cannot write to", error);
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
  #parts: Buffer[] = [];
  #length = 0;
  /** Bytes of the current line already dropped because it is too long; 0 while it is kept. */
  #dropped = 0;

  constructor(
    readonly maxLineBytes: number,
    readonly onLine: (line: Buffer) => void,
    readonly onTooLong: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      if (this.#length === 0 && this.#dropped === 0 && newline - start <= this.maxLineBytes) {
        // The usual case, a whole line inside one chunk.
        this.onLine(chunk.subarray(start, newline));
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
    this.onLine(line);
  }
}
