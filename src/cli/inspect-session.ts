// What `mcp-wire inspect` keeps of the session it shows: every message that crossed the wire (for
// the page's list, its diagram and the recording it saves), the events pushed to the page, and the
// server's questions waiting for the person's answer. Everything kept is bounded: a hostile server
// that floods the wire, or sends one huge message, costs at most the bounds below, never the machine.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports (what crosses).

import { performance } from "node:perf_hooks";
import { describeRecording, type DescribedMessage } from "../recordings/explain-messages.js";
import { formatSession, headerLines, type Direction, type Recording, type WireEntry } from "../recordings/recording.js";

/** The bounds on what is kept; the page is told them, and shows when one was reached. */
export const INSPECT_LIMITS = {
  /** Messages kept for the recording and the page; the oldest go first. */
  keptMessages: 2000,
  /** Characters of messages kept in all: a few huge messages cannot hold more than this. */
  keptBytes: 32 * 1024 * 1024,
  /** Bytes of one message's text the page is sent; the rest is cut, and its size said. */
  shownBytes: 16 * 1024,
  /** Events a page that connects late is sent again (messages, progress, logs). */
  replayedEvents: 500,
  /** Messages the diagram draws: the latest ones. */
  drawnMessages: 150,
  /** Messages looked back over to gloss a new one (a result's note names its request). */
  glossWindow: 300,
  /** Server questions (elicitation, sampling) waiting at once; more are declined at once. */
  openQuestions: 16,
} as const;

/** What the page is sent about one message. */
export interface ShownMessage {
  type: "message";
  seq: number;
  dir: Direction;
  /** Milliseconds since the session began. */
  at: number;
  /** The protocol version in use when it crossed, or "probing" before the era is known. */
  era: string;
  kind: DescribedMessage["kind"];
  label: string;
  note: string;
  isError: boolean;
  /** The size of the whole message in bytes, and its text, cut at shownBytes. */
  size: number;
  text: string;
  truncated: boolean;
}

export type PageEvent = ShownMessage | { type: string; [key: string]: unknown };

export class InspectSession {
  readonly #started = performance.now();
  readonly #entries: WireEntry[] = [];
  #keptBytes = 0;
  #dropped = 0;
  #seq = 0;
  readonly #events: PageEvent[] = [];
  readonly #listeners = new Set<(event: PageEvent) => void>();
  /** The recording's header fields: how the server was reached. */
  constructor(private readonly header: { transport: "stdio" | "http"; command?: string; url?: string }, private readonly era: () => string) {}

  elapsed(): number {
    return performance.now() - this.#started;
  }

  /** A message crossed (`message`: its parsed value, undefined when it is not JSON). */
  record(dir: Direction, text: string, message: unknown): void {
    // Whole milliseconds, as a recording writes them (and the diagram draws them).
    const at = Math.round(this.elapsed());
    const entry: WireEntry = { dir, text, message, at };
    this.#entries.push(entry);
    this.#keptBytes += text.length;
    while (this.#entries.length > INSPECT_LIMITS.keptMessages || (this.#keptBytes > INSPECT_LIMITS.keptBytes && this.#entries.length > 1)) {
      this.#keptBytes -= this.#entries.shift()?.text.length ?? 0;
      this.#dropped++;
    }
    const described = this.#describeLast();
    const size = Buffer.byteLength(text);
    const truncated = size > INSPECT_LIMITS.shownBytes;
    this.push({
      type: "message", seq: ++this.#seq, dir, at, era: this.era(),
      kind: described.kind, label: described.label, note: described.note, isError: described.isError === true,
      size, truncated, text: truncated ? cut(text, INSPECT_LIMITS.shownBytes) : text,
    });
  }

  /** Tells every page, and keeps the event for a page that connects later. */
  push(event: PageEvent): void {
    this.#events.push(event);
    if (this.#events.length > INSPECT_LIMITS.replayedEvents) this.#events.shift();
    for (const listener of this.#listeners) listener(event);
  }

  /** `listener` hears every event from now on, after those kept; the returned function stops it. */
  listen(listener: (event: PageEvent) => void): () => void {
    for (const event of this.#events) listener(event);
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listeners(): number {
    return this.#listeners.size;
  }

  /** The latest messages, described as `mcp-wire diagram` describes a recording's. */
  described(count: number): DescribedMessage[] {
    return describeRecording(this.#recording(this.#entries.slice(-count)));
  }

  /** The session as a recording in the session form (`mcp-wire replay`, `check` and `diagram` read it). */
  recordingText(): string {
    return formatSession(this.#recording(this.#entries));
  }

  #describeLast(): DescribedMessage {
    const described = this.described(INSPECT_LIMITS.glossWindow);
    return described[described.length - 1];
  }

  #recording(entries: WireEntry[]): Recording {
    const prose = [`Recorded by mcp-wire inspect on ${new Date().toISOString()}.`];
    if (this.#dropped > 0) prose.push(`The first ${this.#dropped} messages of the session are not here: inspect keeps ${INSPECT_LIMITS.keptMessages} messages (${INSPECT_LIMITS.keptBytes} characters) at most.`);
    const lines = headerLines({ prose, ...this.header });
    return { form: "session", header: { lines, ignore: [], args: [], ...this.header }, entries, exchanges: new Map() };
  }
}

/** The first `bytes` bytes of `text` in UTF-8, less a character the cut split (decoded as U+FFFD). */
function cut(text: string, bytes: number): string {
  const start = Buffer.from(text).subarray(0, bytes).toString("utf8");
  return start.endsWith("\uFFFD") ? start.slice(0, -1) : start;
}
