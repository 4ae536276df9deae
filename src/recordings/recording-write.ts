// Writing recordings (recording.ts describes the forms): a new one's header, its session lines and
// notes as `mcp-wire record` appends them, and a whole recording written back in its form.

import { exchangeNote } from "./recording-exchange.js";
import type { Direction, Recording } from "./recording-shape.js";

/** The header lines of a new recording, from its fields (prose lines first, if any). */
export function headerLines(fields: { prose?: string[]; transport?: "stdio" | "http"; command?: string; url?: string; protocol?: string; ignore?: string[] }): string[] {
  const lines = (fields.prose ?? []).map((line) => `# ${line}`);
  if (fields.transport) lines.push(`# transport: ${fields.transport}`);
  if (fields.command) lines.push(`# command: ${fields.command}`);
  if (fields.url) lines.push(`# url: ${fields.url}`);
  if (fields.protocol) lines.push(`# protocol: ${fields.protocol}`);
  for (const pointer of fields.ignore ?? []) lines.push(`# ignore: ${pointer}`);
  return lines;
}

/** One line of a session recording (form 2): written as each message crosses the wire. */
export function sessionLine(dir: Direction, text: string, at?: number): string {
  return sessionLinePrefix(dir, at) + text;
}

/** What comes before the wire's bytes on a session line: for a writer that appends those bytes as they came. */
export function sessionLinePrefix(dir: Direction, at?: number): string {
  return `${dir === "c2s" ? ">" : "<"} ${at === undefined ? "" : `+${Math.round(at)} `}`;
}

/** A note of the recorder's among the session lines (form 2), which readers skip. */
export function sessionNote(text: string): string {
  return `# ${text.replace(/[\r\n]+/g, " ")}`;
}

/** A whole recording in the session form (form 2), whatever form it was read from; its exchanges' notes too. */
export function formatSession(recording: Recording): string {
  const lines = [...recording.header.lines, "-- session --"];
  const noted = new Set<number>();
  let current: number | undefined;
  for (const entry of recording.entries) {
    if (entry.exchange !== undefined && entry.exchange !== current) {
      // An exchange's facts, all known by now, go with its first line.
      lines.push(exchangeNote(entry.exchange, noted.has(entry.exchange) ? undefined : recording.exchanges.get(entry.exchange)));
      noted.add(entry.exchange);
    }
    current = entry.exchange;
    lines.push(sessionLine(entry.dir, entry.text, entry.at));
  }
  return [...lines, ""].join("\n");
}

/** A recording written back in the form it was read in (what `replay --update` writes). */
export function formatRecording(recording: Recording): string {
  const side = (dir: Direction) => recording.entries.filter((entry) => entry.dir === dir).map((entry) => entry.text);
  switch (recording.form) {
    case "session": return formatSession(recording);
    case "golden": return [...recording.header.lines, "-- client --", ...side("c2s"), "-- server --", ...side("s2c"), ""].join("\n");
    case "jsonl": return recording.entries.map((entry) => JSON.stringify({ dir: entry.dir, msg: entry.message === undefined ? entry.text : entry.message, ...(entry.at === undefined ? {} : { t: entry.at }) }) + "\n").join("");
  }
}
