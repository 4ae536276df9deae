// Recordings of MCP sessions, as the recording tools read and write them (record, replay, check,
// explain, diagram). One reader for three forms, so every tool takes any of them:
//
// 1. A golden transcript (fixtures/transcripts/*.transcript), the form mcp-wire's own tests are
//    written in: "#" header lines (prose, and "# key: value" fields), "-- client --" and the lines
//    the client wrote, then "-- server --" and the messages the server sent. It keeps each side's
//    order, not the order between them.
// 2. The same header, then "-- session --" and both directions in the order they crossed the wire,
//    one message per line: "> " client to server, "< " server to client, then "+MS " (milliseconds
//    since the session began, optional), then the line exactly as it was on the wire. A line that was
//    not JSON is kept as it was; the tools report it as such. This is what `mcp-wire record` writes,
//    a line at a time, so a recording cut short is complete up to its last whole line. A "#" line
//    among them is the recorder's note (e.g. a line too long to keep): readers skip it, except
//    "# exchange N" (recording-exchange.ts: over HTTP, the exchange the lines after it crossed in,
//    and what the wire said of it), which gives each entry its exchange.
// 3. JSON lines as other recorders write them (fixtures/recorded/):
//    {"dir":"c2s"|"s2c","msg":<the message>,"t"?:<ms>}, one per line.
//
// Header fields (form 1 and 2): "# transport: stdio|http", "# command: <the server command>",
// "# url: <the server URL>", "# protocol: <negotiated version>", "# ignore: <JSON pointer>" (may
// repeat: values that change from run to run), "# args: <more server arguments>" (the golden
// tests' flags, which replay adds after "# command:" when it runs the recording's server). Both
// command lines hold words as quoteArgument writes them and splitArguments reads them back: a word
// bare, or a JSON string when it has spaces, quotes or anything but [\w@%+=:,./-].
// Any other "#" line is prose, kept and written back as it was.
// A message nested deeper than MAX_NESTING levels is refused (RecordingFormatError naming its
// line): every tool walks messages with the engine's recursive JSON.stringify, structuredClone
// and readers, which a hostile line 5000 levels deep would run out of stack in.

import { splitArguments, ArgumentSyntaxError } from "./recording-arguments.js";
import { olderAnswerNote, readExchangeNote, type Exchange } from "./recording-exchange.js";
import type { Direction, Recording, RecordingHeader, WireEntry } from "./recording-shape.js";

export { ArgumentSyntaxError, quoteArgument, splitArguments } from "./recording-arguments.js";
export { formatRecording, formatSession, headerLines, sessionLine, sessionLinePrefix, sessionNote } from "./recording-write.js";
export type { Exchange } from "./recording-exchange.js";
export type { Direction, Recording, RecordingHeader, WireEntry } from "./recording-shape.js";
export { printable } from "./printable.js";

/** A recording that cannot be read: which line, and why. */
export class RecordingFormatError extends Error {
  constructor(readonly source: string, readonly line: number, why: string) {
    super(`${source}:${line}: ${why}`);
    this.name = "RecordingFormatError";
  }
}

// The "s" flag: the wire's line may hold a \r (before its \n) or a raw U+2028, which "." skips.
const SESSION_LINE = /^([<>]) (?:\+(\d+) )?(.*)$/s;

/** How deep the tools follow a message's arrays and objects, by default (no real message comes near). */
export const MAX_NESTING = 256;

export interface ReadOptions {
  /** The deepest nesting of arrays and objects a message may have (default MAX_NESTING). */
  maxNesting?: number;
}

/** Reads any of the three forms; `source` names the file in errors. */
export function parseRecording(text: string, source = "recording", options: ReadOptions = {}): Recording {
  const limit = options.maxNesting ?? MAX_NESTING;
  const lines = linesOf(text);
  lines.forEach((line, i) => {
    // A JSON-lines record wraps its message in one more object; a "#" line is the header's or a note.
    if (!line.startsWith("#") && deeperThan(line, line.startsWith("{") ? limit + 1 : limit)) throw new RecordingFormatError(source, i + 1, `a message nested deeper than ${limit} levels (the tools read at most ${limit})`);
  });
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first < 0) throw new RecordingFormatError(source, 1, "the recording is empty");
  if (lines[first]!.startsWith("{")) return parseJsonLines(lines, source);
  const header: RecordingHeader = { lines: [], ignore: [], args: [] };
  let at = 0;
  for (; at < lines.length && lines[at]!.startsWith("#"); at++) readHeaderLine(header, lines[at]!, source, at + 1);
  while (at < lines.length && lines[at]!.trim() === "") at++;
  const marker = lines[at];
  const exchanges = new Map<number, Exchange>();
  if (marker === "-- session --") return { form: "session", header, entries: parseSession(lines, at + 1, source, exchanges, header.transport === "http"), exchanges };
  if (marker === "-- client --") return { form: "golden", header, entries: parseGolden(lines, at, source), exchanges };
  throw new RecordingFormatError(source, at + 1, `expected "-- session --" or "-- client --" after the header, found ${JSON.stringify((marker ?? "").slice(0, 40))}`);
}

/**
 * The file's lines. A \r before a line's \n is kept: in a message line it is the wire's own byte
 * (a peer that ends its lines with CRLF). Only a file whose own first line ends in \r was saved
 * with CRLF line endings (by an editor, not by the wire), and loses them all.
 */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  return lines[0]!.endsWith("\r") ? lines.map((line) => line.replace(/\r$/, "")) : lines;
}

function readHeaderLine(header: RecordingHeader, line: string, source: string, number: number): void {
  header.lines.push(line);
  const field = /^# (transport|command|url|protocol|ignore|args): (.*)$/.exec(line);
  if (!field) return;
  const value = field[2]!.trim();
  switch (field[1]) {
    case "transport": if (value === "stdio" || value === "http") header.transport = value; break;
    case "command": header.command = value; break;
    case "url": header.url = value; break;
    case "protocol": header.protocol = value; break;
    case "ignore":
      // An empty pointer is the whole message: ignoring it would make every replay match.
      if (!value.startsWith("/")) throw new RecordingFormatError(source, number, `"# ignore:" needs a JSON pointer that starts with "/", got ${JSON.stringify(value)}`);
      header.ignore.push(value);
      break;
    case "args":
      try {
        header.args = splitArguments(value);
      } catch (error) {
        if (!(error instanceof ArgumentSyntaxError)) throw error;
        throw new RecordingFormatError(source, number, `"# args:" ${error.message}`);
      }
      break;
  }
}

function parseSession(lines: string[], from: number, source: string, exchanges: Map<number, Exchange>, http: boolean): WireEntry[] {
  const entries: WireEntry[] = [];
  let exchange: number | undefined;
  let answerNote: ReturnType<typeof olderAnswerNote>;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("#")) {
      // An exchange's facts are one flat object: a hostile note is not handed to JSON.parse to nest.
      if (line.startsWith("# exchange ") && deeperThan(line, 1)) throw new RecordingFormatError(source, i + 1, "an exchange note whose facts are not a flat JSON object");
      const read = readExchangeNote(line, exchanges);
      if (typeof read === "string") throw new RecordingFormatError(source, i + 1, read);
      if (read !== undefined) exchange = read;
      // Read as the recorder now writes it, an older HTTP recording's answer body is a note when it carried no message.
      else if (http && exchanges.size === 0) answerNote = olderAnswerNote(line) ?? answerNote;
      continue;
    }
    if (line === "") continue;
    const match = SESSION_LINE.exec(line);
    if (!match) throw new RecordingFormatError(source, i + 1, `a session line starts with "> " or "< ", found ${JSON.stringify(line.slice(0, 40))}`);
    const entry = entryOf(match[1] === ">" ? "c2s" : "s2c", match[3]!);
    if (match[2] !== undefined) entry.at = Number(match[2]);
    if (exchange !== undefined) entry.exchange = exchange;
    const body = answerNote;
    answerNote = undefined;
    if (entry.dir === "s2c" && body?.notAMessage(entry.message)) continue;
    entries.push(entry);
  }
  return entries;
}

function parseGolden(lines: string[], clientAt: number, source: string): WireEntry[] {
  const serverAt = lines.indexOf("-- server --", clientAt);
  if (serverAt < 0) throw new RecordingFormatError(source, lines.length, 'a golden transcript needs "-- server --" after "-- client --"');
  // A client line of blanks is kept: it was written to the server (a test of how blank lines are
  // read); only empty lines separate. The server's side keeps messages only.
  const side = (dir: Direction, from: number, to: number, keep: (line: string) => boolean) => lines.slice(from, to).filter(keep).map((line) => entryOf(dir, line));
  return [...side("c2s", clientAt + 1, serverAt, (line) => line !== ""), ...side("s2c", serverAt + 1, lines.length, (line) => line.trim() !== "")];
}

function parseJsonLines(lines: string[], source: string): Recording {
  const entries: WireEntry[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new RecordingFormatError(source, i + 1, "not a JSON line (a recording cut short?)");
    }
    const record = value as { dir?: unknown; msg?: unknown; t?: unknown };
    if (typeof value !== "object" || value === null || (record.dir !== "c2s" && record.dir !== "s2c") || !("msg" in record)) {
      throw new RecordingFormatError(source, i + 1, 'each line must be {"dir":"c2s"|"s2c","msg":...}');
    }
    const entry: WireEntry = { dir: record.dir, text: JSON.stringify(record.msg), message: record.msg };
    if (typeof record.t === "number") entry.at = record.t;
    entries.push(entry);
  });
  return { form: "jsonl", header: { lines: [], ignore: [], args: [] }, entries, exchanges: new Map() };
}

function entryOf(dir: Direction, text: string): WireEntry {
  return { dir, text, message: parseLine(text) };
}

/** A line's JSON value, or undefined when it is not JSON (a recording keeps such lines as they were). */
export function parseLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether a line's arrays and objects nest deeper than `limit`, found without recursion (brackets
 * inside JSON strings do not count). A line that is not JSON is measured the same way: nothing
 * that deep is a message a peer meant.
 */
export function deeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++; // a backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}
