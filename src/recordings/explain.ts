// `mcp-wire explain FILE`: a recording told the way `npm start` tells its walkthrough, one line per
// message: its number, direction, time (when the recording kept it), what it is (method, or which
// request it answers) and the walkthrough's note on what it means (explain-messages.ts). A batch is
// one recorded line, followed by a line for each message in it.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (the notes link further).
// It prints; it does not judge (that is `mcp-wire check`). What it prints from the recording goes
// through printable(): a recorded ANSI sequence or \r must not drive the reader's terminal.

import { ExitCode, print } from "../cli/output.js";
import { describeRecording, GOLDEN_ORDER, type DescribedMessage } from "./explain-messages.js";
import { HELP_FLAG, readOrReport, readToolArguments, reportUsage } from "./explain-tool.js";
import { printable, type Recording } from "./recording.js";

export const EXPLAIN_USAGE = `usage: mcp-wire explain FILE [--wire] [--color | --no-color]

Prints a recording (any form: golden transcript, session, JSON lines), one line per message:
number, direction, +ms since the session began (when recorded), method or the request it answers,
and a one-line note of what it means (the notes of npm start's walkthrough); a batch's messages
follow it, one line each (4.1, 4.2, ...).
  --wire       also print each line as it was on the wire (long lines shortened)
  --color      color the directions and notes (default: when stdout is a terminal and NO_COLOR is unset)
exit codes: 0 printed, 1 the recording cannot be read, 2 usage error`;

/** Wire lines longer than this are shortened (as the walkthrough does). */
const SHOWN_CHARS = 400;

const ARROWS = { c2s: "→ client → server", s2c: "← server → client" } as const;

/** The explanation of a recording, as lines of text. */
export function explainRecording(recording: Recording, options: { wire?: boolean; color?: boolean } = {}): string[] {
  const paint = (code: string, text: string) => (options.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const messages = describeRecording(recording);
  const timed = messages.some((message) => message.at !== undefined);
  const width = String(messages.length).length;
  const lines = recording.header.lines.map((line) => paint("2", printable(line)));
  if (recording.form === "golden") lines.push(paint("2", `(${GOLDEN_ORDER})`));
  messages.forEach((message, index) => {
    const arrow = paint(message.dir === "c2s" ? "36" : "35", ARROWS[message.dir]);
    const time = timed ? `  ${timeOf(message).padStart(9)}` : "";
    lines.push(`${String(index + 1).padStart(width)}  ${arrow}${time}  ${printable(message.label)}  ${paint("2", printable(message.note))}`);
    // A batch's messages, each under it with its place in the batch.
    (message.items ?? []).forEach((item, i) => lines.push(`${" ".repeat(width)}    ${index + 1}.${i + 1}  ${printable(item.label)}  ${paint("2", printable(item.note))}`));
    if (options.wire) lines.push(`${" ".repeat(width)}    ${printable(shorten(message.text))}`);
  });
  return lines;
}

function timeOf(message: DescribedMessage): string {
  return message.at === undefined ? "" : `+${message.at} ms`;
}

function shorten(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} bytes in all)` : text;
}

export async function run(argv: string[]): Promise<number> {
  const parsed = await readToolArguments("explain", EXPLAIN_USAGE, argv, { wire: { type: "boolean" }, color: { type: "boolean" }, "no-color": { type: "boolean" }, help: HELP_FLAG });
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return usageError(positionals.length === 0 ? "explain needs a recording FILE" : `explain takes one FILE, got ${positionals.length}`);
  const recording = await readOrReport("explain", positionals[0]!);
  if (!recording) return ExitCode.failed;
  const color = values["no-color"] ? false : (values.color ?? (process.stdout.isTTY && !process.env["NO_COLOR"]));
  await print(explainRecording(recording, { wire: values.wire ?? false, color }).join("\n"));
  return ExitCode.ok;
}

function usageError(message: string): number {
  return reportUsage("explain", message, EXPLAIN_USAGE);
}
