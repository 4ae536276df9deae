// What mcp-wire shows of notifications/progress on a call: on a terminal one bar, redrawn in place;
// otherwise one plain line per report (`progress 3/10 message`), for a log. Always on stderr.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
// Bounded against a server that reports without pause: drawn at most every 100 ms (the last report
// is drawn at the end), and its message escaped (terminalSafe), kept to one line and cut short.

import { terminalSafe } from "./output.js";

export interface ProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

/** Where the display draws: stderr, or a stand-in. `columns` is a terminal's width. */
export interface ProgressStream {
  write(text: string): unknown;
  columns?: number;
}

export interface ProgressDisplayOptions {
  /** A bar redrawn in place (true), or plain lines. */
  terminal: boolean;
  /** Milliseconds, for the redraw bound; performance.now unless given. */
  now?: () => number;
  /** Wraps the bar, for colour; as it is unless given. */
  paint?: (bar: string) => string;
  /** Applied to the server's message before it is escaped: the session's Redactor, so no secret is shown. */
  redact?: (text: string) => string;
}

const REDRAW_MS = 100;
const BAR_WIDTH = 20;
/** A plain line's message: enough to read, not enough to flood a log. */
const PLAIN_MESSAGE_CHARS = 200;
/** Erases from the cursor to the end of the line: what a longer bar before left. */
const ERASE_LINE_END = "\u001b[K";

export class ProgressDisplay {
  readonly #stream: ProgressStream;
  readonly #terminal: boolean;
  readonly #now: () => number;
  readonly #paint: (bar: string) => string;
  readonly #redact: (text: string) => string;
  #drawnAt = -Infinity;
  #waiting: ProgressReport | undefined;
  /** A bar is on the terminal's last line, with the cursor after it. */
  #barShown = false;
  #finished = false;

  constructor(stream: ProgressStream, options: ProgressDisplayOptions) {
    this.#stream = stream;
    this.#terminal = options.terminal;
    this.#now = options.now ?? (() => performance.now());
    this.#paint = options.paint ?? ((bar) => bar);
    this.#redact = options.redact ?? ((text) => text);
  }

  /** A report from the server: drawn now, or kept until the bound allows (a later one replaces it). */
  report(report: ProgressReport): void {
    if (this.#finished) return;
    const now = this.#now();
    if (now - this.#drawnAt < REDRAW_MS) {
      this.#waiting = report;
      return;
    }
    this.#draw(report, now);
  }

  /** Takes the bar off the terminal, so that another line can be written; the next report draws it again. */
  clear(): void {
    if (!this.#barShown) return;
    this.#stream.write(`\r${ERASE_LINE_END}`);
    this.#barShown = false;
  }

  /** The call is over: the last report kept back is drawn, and a bar gets its newline. */
  finish(): void {
    if (this.#finished) return;
    if (this.#waiting) this.#draw(this.#waiting, this.#now());
    if (this.#barShown) this.#stream.write("\n");
    this.#finished = true;
  }

  #draw(report: ProgressReport, now: number): void {
    this.#drawnAt = now;
    this.#waiting = undefined;
    const message = report.message === undefined ? undefined : this.#redact(report.message);
    const count = report.total === undefined ? `${report.progress}` : `${report.progress}/${report.total}`;
    if (!this.#terminal) {
      this.#stream.write(`progress ${count}${shown(message, PLAIN_MESSAGE_CHARS)}\n`);
      return;
    }
    const bar = report.total === undefined || !(report.total > 0) ? "" : `${barOf(report.progress / report.total)} `;
    const line = `${bar}${count}`;
    // One column kept free: a line as wide as the terminal wraps, and \r would then redraw only its second half.
    const room = (this.#stream.columns || 80) - line.length - 1; // 0: a terminal that does not say
    this.#stream.write(`\r${this.#paint(line)}${shown(message, room)}${ERASE_LINE_END}`);
    this.#barShown = true;
  }
}

/** `[#####---------------]  25%`; a fraction outside 0..1 (a server's mistake) is drawn at its bound. */
function barOf(fraction: number): string {
  const clamped = Math.min(1, Math.max(0, fraction));
  const filled = Math.round(clamped * BAR_WIDTH);
  return `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${`${Math.round(clamped * 100)}%`.padStart(4)}`;
}

/** ` message` on one line, escaped and at most `room` characters with its space; nothing when there is no room. */
function shown(message: string | undefined, room: number): string {
  if (message === undefined || message === "" || room < 2) return "";
  // Cut before escaping too, so that a long message costs no more than the room it is shown in.
  const text = terminalSafe(message.slice(0, room).replace(/[\n\t]+/g, " "));
  return ` ${text.length < room ? text : `${text.slice(0, room - 2)}…`}`;
}
