// What each line of a recording is, for the tools that show a session to a person (`mcp-wire
// explain`, `mcp-wire diagram`): its kind, a short label (method, or which id it answers and how)
// and the walkthrough's one-line note on what it means (src/walkthrough-notes.ts, the same notes
// `npm start` prints). One description per recorded line: a batch is one line, so one entry,
// which lists the messages in it (items) for a diagram to draw each.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (the message kinds).
// It judges nothing: a line that is not a JSON-RPC message is shown as such; `mcp-wire check` says
// which rule it breaks.

import { classify, type JSONRPCMessage } from "../jsonrpc/messages.js";
import { noteTracker, type Direction as NoteDirection } from "../walkthrough-notes.js";
import type { Direction, Recording } from "./recording.js";

export type MessageKind = "request" | "notification" | "result" | "error" | "batch" | "invalid" | "not-json";

export interface DescribedMessage {
  dir: Direction;
  /** Milliseconds since the session began, when the recording kept time. */
  at?: number;
  kind: MessageKind;
  /** What an arrow says: "2: tools/call echo", "2: result (tools/call)", "4: error -32601 (foo)". */
  label: string;
  /** A result with isError: true: the tool failed, the protocol did not. */
  isError?: true;
  /** The walkthrough's note for it, one line. */
  note: string;
  /** The line as it was on the wire (a batch's item: that message, encoded alone). */
  text: string;
  /** A batch's messages, each described as a line of its own would be (empty for an empty batch). */
  items?: DescribedMessage[];
}

/** Said wherever a golden transcript is shown: its form does not keep the order between the sides. */
export const GOLDEN_ORDER = "a golden transcript keeps each side's order only: the client's lines, then the server's";

const NOTE_DIRECTION: Record<Direction, NoteDirection> = { c2s: "client→server", s2c: "server→client" };

/** Describes every line of a recording, in its order. */
export function describeRecording(recording: Recording): DescribedMessage[] {
  const noted = noteTracker();
  return recording.entries.map((entry) => {
    const base = { dir: entry.dir, text: entry.text, ...(entry.at === undefined ? {} : { at: entry.at }) };
    if (entry.message === undefined) {
      return { ...base, kind: "not-json", label: "not JSON", note: "not JSON: a line that no JSON-RPC peer can read; it crossed the wire as it is." };
    }
    if (!Array.isArray(entry.message)) return { ...base, ...describeMessage(entry.message, entry.dir, noted) };
    const messages = entry.message.map(classify).flatMap((item) => ("message" in item ? [item.message] : []));
    const note = noted(NOTE_DIRECTION[entry.dir], messages).note;
    // Each item after the batch's own note, so that the tracker knows the requests in it.
    const items = entry.message.map((item): DescribedMessage => ({ ...base, text: JSON.stringify(item), ...describeMessage(item, entry.dir, noted) }));
    // An empty batch is no message at all (JSON-RPC: an Invalid Request).
    if (items.length === 0) return { ...base, kind: "invalid", label: "empty batch", note, items };
    return { ...base, kind: "batch", label: `batch of ${items.length}`, note, items };
  });
}

/** One JSON value that is not a batch: a message, or what makes it none. */
function describeMessage(value: unknown, dir: Direction, noted: ReturnType<typeof noteTracker>): Pick<DescribedMessage, "kind" | "label" | "note" | "isError"> {
  const incoming = classify(value);
  if (incoming.kind === "invalid" || incoming.kind === "batch") {
    const why = incoming.kind === "invalid" ? incoming.error.message : "a batch";
    return { kind: "invalid", label: "not JSON-RPC", note: `not a valid JSON-RPC message (${why}).` };
  }
  const { note, answered } = noted(NOTE_DIRECTION[dir], incoming.message);
  return { ...labelOf(incoming.message, answered), note };
}

/** What a diagram draws: one per message, a batch's messages each with where it stands in its batch. */
export interface DrawnMessage extends DescribedMessage {
  /** The number it is drawn with: the line's ("4"), or the line's and its place in the batch ("4.2"). */
  number: string;
  batch?: { size: number; position: number };
}

/** Every message to draw, in order: a batch's messages one by one; an empty batch as itself. */
export function drawnMessages(messages: DescribedMessage[]): DrawnMessage[] {
  return messages.flatMap((message, index) => {
    const number = String(index + 1);
    if (!message.items?.length) return [{ ...message, number }];
    const size = message.items.length;
    return message.items.map((item, i) => ({ ...item, number: `${number}.${i + 1}`, batch: { size, position: i + 1 } }));
  });
}

/** `answered`: the method of the request a response answers, when the recording holds that request. */
function labelOf(message: JSONRPCMessage, answered: string | undefined): { kind: MessageKind; label: string; isError?: true } {
  if ("method" in message) {
    if (!("id" in message)) return { kind: "notification", label: message.method };
    return { kind: "request", label: `${String(message.id)}: ${message.method}${subjectOf(message.params)}` };
  }
  const id = message.id === null || message.id === undefined ? "?" : String(message.id);
  const of = answered ? ` (${answered})` : "";
  if ("error" in message) return { kind: "error", label: `${id}: error ${message.error.code}${of}` };
  if (message.result["isError"] === true) return { kind: "result", label: `${id}: result${of}, isError`, isError: true };
  // 2026-07-28: not the answer yet, but a round of questions for the client (the note says more).
  const round = message.result["resultType"] === "input_required" ? ", input_required" : "";
  return { kind: "result", label: `${id}: result${of}${round}` };
}

/** What a request is about, where one field names it: the tool, the prompt, the resource. */
function subjectOf(params: { [key: string]: unknown } | undefined): string {
  const subject = params?.["name"] ?? params?.["uri"];
  return typeof subject === "string" ? ` ${subject}` : "";
}
