// What each line of a recording is, for the tools that show a session to a person (`mcp-wire
// explain`, `mcp-wire diagram`): its kind, a short label (method, or which id it answers and how)
// and the walkthrough's one-line note on what it means (src/walkthrough-notes.ts, the same notes
// `npm start` prints). One description per recorded line: a batch is one line, so one entry.
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
  /** The line as it was on the wire. */
  text: string;
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
    if (Array.isArray(entry.message)) {
      const items = entry.message.map(classify).flatMap((item) => ("message" in item ? [item.message] : []));
      return { ...base, kind: "batch", label: `batch of ${entry.message.length}`, note: noted(NOTE_DIRECTION[entry.dir], items).note };
    }
    const incoming = classify(entry.message);
    if (incoming.kind === "invalid" || incoming.kind === "batch") {
      const why = incoming.kind === "invalid" ? incoming.error.message : "a batch";
      return { ...base, kind: "invalid", label: "not JSON-RPC", note: `not a valid JSON-RPC message (${why}).` };
    }
    const { note, answered } = noted(NOTE_DIRECTION[entry.dir], incoming.message);
    return { ...base, ...labelOf(incoming.message, answered), note };
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
