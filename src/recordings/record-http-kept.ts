// What `mcp-wire record --listen` keeps at once, across every exchange still open: the decoded
// copies of bodies waiting for their end (record-http-body.ts's JsonBody), SSE events under way,
// and the decoders themselves with the input waiting in them. --max-line-bytes bounds one body; this bounds them all together, so
// that many compressed bodies never finished (each a few KiB that inflate to tens of MiB) cost the
// total, not the total times their number. Past it, a body is noted as not kept; its bytes still
// pass to the peer untouched.

/** What one decoder of a coding may hold, whatever it is fed: taken from the total while it runs. */
export const DECODER_BYTES: { [coding: string]: number } = {
  // zlib's inflate: its 32 KiB window, its state (about 7 KiB) and one 16 KiB output chunk.
  gzip: 64 * 1024,
  "x-gzip": 64 * 1024,
  deflate: 64 * 1024,
  // Brotli's ring buffer grows to the window the stream declares, up to 16 MiB (RFC 7932 section 9.1;
  // node:zlib never enables the large window), reached from a few dozen bytes of input.
  br: 16 * 1024 * 1024 + 64 * 1024,
};

/** The bytes kept at once by every open exchange, against a total. */
export class KeptBytes {
  #held = 0;
  #peak = 0;
  constructor(readonly limit: number) {}

  /** What is kept now, in bytes. */
  get held(): number {
    return this.#held;
  }

  /** The most ever kept at once. */
  get peak(): number {
    return this.#peak;
  }

  /** Takes `bytes` more if they fit under the total; if not, takes nothing and says so. */
  take(bytes: number): boolean {
    if (this.#held + bytes > this.limit) return false;
    this.#held += bytes;
    this.#peak = Math.max(this.#peak, this.#held);
    return true;
  }

  give(bytes: number): void {
    this.#held -= bytes;
  }
}
