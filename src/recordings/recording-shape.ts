// What a recording is once read, whatever its form (golden, session or JSON lines): the lines that
// crossed the wire, in order, with the header's fields and what it says of each HTTP exchange.
// recording.ts reads the forms into it; recording-write.ts writes it back.

import type { Exchange } from "./recording-exchange.js";

export type Direction = "c2s" | "s2c";

/** One line that crossed the wire. */
export interface WireEntry {
  dir: Direction;
  /** The line as it was on the wire (for JSON lines recordings, the message re-encoded). */
  text: string;
  /** The parsed JSON value, or undefined when the line was not JSON. */
  message: unknown;
  /** Milliseconds since the session began, if the recording kept time. */
  at?: number;
  /** The HTTP exchange it crossed in, when the recording says (a key of Recording.exchanges). */
  exchange?: number;
}

export interface RecordingHeader {
  /** Every "#" line as written, prose and fields alike, for writing the file back unchanged. */
  lines: string[];
  transport?: "stdio" | "http";
  command?: string;
  url?: string;
  protocol?: string;
  /** JSON pointers (RFC 6901) of values to ignore when comparing: they change from run to run. */
  ignore: string[];
  /** More server arguments ("# args:"), after "# command:"'s; the golden tests' flags. */
  args: string[];
}

export interface Recording {
  form: "golden" | "session" | "jsonl";
  header: RecordingHeader;
  /** In wire order where the form keeps it (session, jsonl); golden: the client's lines, then the server's. */
  entries: WireEntry[];
  /** What the wire said of each HTTP exchange, by number; empty when the recording does not say. */
  exchanges: Map<number, Exchange>;
}
