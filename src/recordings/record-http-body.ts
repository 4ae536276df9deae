// What `mcp-wire record` over HTTP (record-http.ts) keeps of a body: a JSON body as one message, an
// SSE stream as one message per "message" event. A body the target (or the client) compressed is
// decoded from its Content-Encoding (gzip, deflate, br) for the recording only: the peer gets the
// bytes as they were sent. A compressed stream is decoded as it comes, never buffered whole; a JSON
// body stops being decoded once it passes --max-line-bytes, and an SSE stream once an event does:
// a small body that inflates to gigabytes costs the bound, no more. What all open bodies keep at
// once, decoders included, is bounded by --max-kept-bytes (record-http-kept.ts): past it a body stops
// being decoded and is noted. Other encodings pass through and are noted, not decoded.
// Spec: https://www.rfc-editor.org/rfc/rfc9110#section-8.4 (Content-Encoding)

import { StringDecoder } from "node:string_decoder";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Transform } from "node:stream";
import { SseParser } from "../http/sse-parser.js";
import { DECODER_BYTES, KeptBytes } from "./record-http-kept.js";
import type { SessionFile } from "./record-file.js";
import type { Direction } from "./recording.js";

/** Where a body's decoded bytes go. */
export interface DecodedSink {
  /** Decoded bytes, in order; false once no more are wanted (past the bound, or unreadable). */
  data(decoded: Buffer): boolean;
  /** The body ended; `problem` says why it could not be decoded, if it could not. */
  end(problem?: string): void;
  /** The decoded bytes it keeps now (counted against --max-kept-bytes); none if it does not say. */
  held?(): number;
}

/** Told to a sink whose body was cut short (its connection closed before the body ended). */
const CUT_SHORT = "the body ended early (its connection closed); passed through, not recorded";

/** Writes to the recording, in the order its parts happened on the wire (record-http.ts keeps it). */
export type Recorder = (write: (file: SessionFile) => void) => void;

/** The decoders of the codings we read; RFC 9110 8.4.1 lets "x-gzip" stand for gzip. */
const DECODERS: { [coding: string]: () => Transform } = { gzip: createGunzip, "x-gzip": createGunzip, deflate: createInflate, br: createBrotliDecompress };

/**
 * A body's bytes as sent in, its decoded bytes out to a sink: at once for an unencoded body, else
 * through node:zlib. Its decoders and what its sink keeps are taken from `kept`, the total of every
 * open exchange; past the total it stops, as at the sink's own bound, and the sink is told why.
 */
export class BodyDecoder {
  /** The decoders, in the order to apply them: the last coding listed was applied last, so goes first. */
  readonly #stages: Transform[] = [];
  /** Why nothing of this body is decoded (an encoding we do not read, or no room for its decoders), if so. */
  readonly #undecoded: string | undefined;
  /** What this body has taken from `kept`: its decoders' share, the input waiting in them, and what its sink keeps. */
  #taken = 0;
  #decoderBytes = 0;
  #stopped = false;
  #ended = false;

  constructor(contentEncoding: string | undefined, readonly sink: DecodedSink, readonly kept = new KeptBytes(Infinity)) {
    const codings = (contentEncoding ?? "").split(",").map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== "" && coding !== "identity");
    if (codings.some((coding) => DECODERS[coding] === undefined)) {
      this.#undecoded = `content-encoding ${contentEncoding}: not one record decodes (gzip, deflate, br); passed through, not recorded`;
      return;
    }
    const decoderBytes = codings.reduce((sum, coding) => sum + DECODER_BYTES[coding]!, 0);
    if (!this.kept.take(decoderBytes)) {
      this.#undecoded = this.#overTotal();
      return;
    }
    this.#taken = this.#decoderBytes = decoderBytes;
    for (const coding of codings.reverse()) {
      const stage = DECODERS[coding]!();
      stage.on("error", (error) => this.#finish(`the ${coding} body could not be decoded: ${error.message}; passed through, not recorded`));
      this.#stages.at(-1)?.pipe(stage);
      this.#stages.push(stage);
    }
    const last = this.#stages.at(-1);
    last?.on("data", (decoded: Buffer) => this.#deliver(decoded, true));
    last?.on("end", () => this.#finish());
  }

  push(chunk: Buffer): void {
    if (this.#undecoded !== undefined || this.#stopped) return;
    const first = this.#stages[0];
    // The peer's bytes pass through at their own pace, however fast zlib decodes; what waits to be
    // decoded is counted as kept (#settle), so input that outruns the decoder meets the total too.
    if (first) {
      first.write(chunk);
      this.#settle();
    }
    // Unencoded, the sink may say it wants no more: it is still told the sizes (a note gives them).
    else this.#deliver(chunk, false);
  }

  end(): void {
    if (this.#undecoded !== undefined || this.#stopped) return this.#finish(this.#undecoded);
    const first = this.#stages[0];
    if (first) first.end();
    else this.#finish();
  }

  /** The body's connection closed before its end: its decoders are let go, and its share given back. */
  abort(): void {
    this.#finish(this.#undecoded ?? CUT_SHORT);
  }

  #deliver(decoded: Buffer, stopWhenFull: boolean): void {
    if (this.#stopped) return;
    const more = this.sink.data(decoded);
    if (this.#settle() && !more && stopWhenFull) this.#stop();
  }

  /**
   * What this body keeps now is what it takes from the total: its decoders, the input waiting in
   * them, and its sink's copy (more once a chunk is kept, less once an SSE event is written out,
   * nothing past the sink's own bound, whose note then says why). False if it found no room, and
   * was given up.
   */
  #settle(): boolean {
    const waiting = this.#stages.reduce((sum, stage) => sum + stage.writableLength + stage.readableLength, 0);
    const keeps = this.#decoderBytes + waiting + (this.sink.held?.() ?? 0);
    if (keeps > this.#taken && !this.kept.take(keeps - this.#taken)) {
      this.#finish(this.#overTotal());
      return false;
    }
    if (keeps < this.#taken) this.kept.give(this.#taken - keeps);
    this.#taken = keeps;
    return true;
  }

  #overTotal(): string {
    return `the copies kept for the exchanges still open reached --max-kept-bytes ${this.kept.limit}; passed through, not recorded`;
  }

  /** No more is wanted: decoding stops here, and the sink is told its end, whatever is left of the body (its bytes still pass through). */
  #stop(): void {
    this.#stopped = true;
    for (const stage of this.#stages.splice(0)) stage.destroy();
    this.#finish();
  }

  #finish(problem?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    if (problem !== undefined && !this.#stopped) this.#stop();
    this.sink.end(problem);
    // The sink keeps nothing once told its end.
    this.kept.give(this.#taken);
    this.#taken = this.#decoderBytes = 0;
  }
}

/** A JSON body, kept for the recording up to a bound, recorded as one message when it ends. */
export class JsonBody implements DecodedSink {
  #parts: Buffer[] = [];
  #bytes = 0;
  constructor(
    readonly dir: Direction,
    readonly limit: number,
    /** The body's Content-Encoding, named in the note of a body too long to record. */
    readonly encoding: string | undefined,
    readonly record: Recorder,
    /** Called once the body is in the recording (or known not to be). */
    readonly onRecorded: () => void = () => {},
    /** Whether the whole body is a message, else it is noted (record-http.ts decides: a 202's, a 404's are not). */
    readonly isMessage: (text: string) => boolean = () => true,
  ) {}

  data(decoded: Buffer): boolean {
    this.#bytes += decoded.length;
    if (this.#bytes <= this.limit) this.#parts.push(decoded);
    else this.#parts = [];
    return this.#bytes <= this.limit;
  }

  held(): number {
    return this.#bytes <= this.limit ? this.#bytes : 0;
  }

  end(problem?: string): void {
    const arrow = this.dir === "c2s" ? ">" : "<";
    const parts = this.#parts;
    // Given up at the total, or cut short, the body may stay open a long time: what it kept goes now.
    this.#parts = [];
    this.record((file) => {
      if (problem !== undefined) file.note(`${arrow} ${problem}`);
      else if (this.#bytes > this.limit) {
        // A compressed body stopped being decoded at the bound: how far it would have gone is not known.
        file.note(this.encoding === undefined
          ? `${arrow} a body of ${this.#bytes} bytes, longer than --max-line-bytes ${this.limit}: not recorded`
          : `${arrow} a ${this.encoding} body decoding to more than --max-line-bytes ${this.limit} bytes: not recorded`);
      } else if (this.#bytes > 0) {
        const text = oneLine(Buffer.concat(parts).toString("utf8"));
        if (this.isMessage(text)) file.line(this.dir, Buffer.from(text));
        else file.note(`${arrow} its body, not a message: ${text}`);
      }
    });
    this.onRecorded();
  }
}

/** An SSE answer read for the recording: each "message" event is a message; others are noted. */
export class EventRecorder implements DecodedSink {
  readonly #decoder = new StringDecoder("utf8");
  /** Let go once the recording of the stream stops: the event under way would stay with it while the stream is open. */
  #parser: SseParser | undefined;
  #failed = false;
  constructor(maxEventBytes: number, readonly record: Recorder) {
    this.#parser = new SseParser({ maxEventBytes });
  }

  data(decoded: Buffer): boolean {
    if (this.#failed || !this.#parser) return false;
    try {
      const events = this.#parser.push(this.#decoder.write(decoded));
      if (events.length > 0) {
        this.record((file) => {
          for (const event of events) {
            if (event.event !== "message") file.note(`< event ${event.event}: ${oneLine(event.data)}`);
            else if (event.data !== "") file.line("s2c", Buffer.from(oneLine(event.data)));
          }
        });
      }
    } catch (error) {
      // The stream passes through still; only its recording stops.
      this.#failed = true;
      this.#parser = undefined;
      this.record((file) => file.note(`< the rest of this SSE stream is not recorded: ${error instanceof Error ? error.message : String(error)}`));
    }
    return !this.#failed;
  }

  /** The bytes of the event under way, which the parser keeps until the event ends. */
  held(): number {
    return this.#parser?.heldBytes ?? 0;
  }

  end(problem?: string): void {
    this.#parser = undefined;
    // A stream the client closed is how SSE streams end: its events were recorded as they came.
    if (problem !== undefined && problem !== CUT_SHORT && !this.#failed) this.record((file) => file.note(`< ${problem}`));
  }
}

/** A recorded message is one line: a body written over several lines is recorded in JSON's one-line form. */
function oneLine(text: string): string {
  if (!/[\r\n]/.test(text)) return text;
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/\r?\n|\r/g, " ");
  }
}
