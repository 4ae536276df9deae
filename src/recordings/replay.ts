// A recording as a golden test (mcp-wire replay): play the client's side of a recording against a
// server and compare what the server sends with what the recording expects.
// Two ways, by the form of the recording (src/recordings/recording.ts):
// - golden: the form keeps no order between the sides, so every client line is written, the input
//   ended, and the server's lines compared in order with the expected ones (what `cat` into the
//   server shows);
// - session and JSON lines: one line at a time in recorded order. Before each client line, every
//   server message recorded ahead of it must have come (each within the timeout). A message that
//   came is matched to an expected one of its kind: a response by id, a notification by method in
//   order, a server request by method and params (its id is the server's to choose: the recorded
//   answer goes back under the id that came).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (ids, requests, notifications)
// A 2026-07-28 retry echoes the requestState the server sealed; the replay echoes this run's.
// The server is a ReplayPeer: a stdio command (replay-peer.ts) or an HTTP endpoint (replay-http.ts),
// each bounding a line. Here, what it may send beyond the recording is bounded (maxUnexpected), so a
// server that floods holds no more memory than the recording and that bound.

import { compareValues, DEFAULT_IGNORE, shorten, type Difference } from "./compare.js";
import { parseLine, type Recording, type WireEntry } from "./recording.js";
import type { PeerExit, ReplayPeer } from "./replay-peer.js";
import { endsOpenListen, openListens } from "./replay-open-listens.js";

export interface ReplayOptions {
  /** How long to wait for each expected message, and for the server to close after its input ended (default 5000 ms). */
  timeoutMs?: number;
  /** JSON pointers to ignore, on top of the recording's "# ignore:" lines (default: DEFAULT_IGNORE). */
  ignore?: readonly string[];
  /** Applied to both sides' messages before comparing (our golden tests' placeholders). */
  normalize?: (message: unknown) => unknown;
  /**
   * How many server messages beyond the recording's are kept (default DEFAULT_MAX_UNEXPECTED): one
   * more stops the server and the replay, and the rest are only counted (ReplayReport.dropped).
   */
  maxUnexpected?: number;
}

export const DEFAULT_TIMEOUT_MS = 5000;
/** Enough to show what went wrong with a server that says more than it should; a flood is cut here. */
export const DEFAULT_MAX_UNEXPECTED = 100;

/** One expected server message that did not come as recorded, or one that came unexpected. */
export interface MessageDifference {
  /** Position of the expected message among the recording's server messages (1-based); absent for an unexpected one. */
  expectedAt?: number;
  expected?: string;
  actual?: string;
  /** Where they differ; empty when one of the two is missing. */
  differences: Difference[];
}

export interface ReplayReport {
  differences: MessageDifference[];
  /**
   * Why the replay stopped early: the server exited, did not answer in time, could not be started
   * or reached, wrote a line past the limit, or sent more than maxUnexpected messages too many.
   */
  failure?: string;
  /** Server messages past the maxUnexpected bound: counted, not kept (nor compared). */
  dropped?: number;
  /** What crossed the wire on this run, in order (with ms since the start): what --update writes. */
  transcript: WireEntry[];
  /** How the server ended; absent if it had to be stopped. */
  exit?: PeerExit;
  /**
   * The server was still running `timeoutMs` after its input ended (or after the replay stopped), and
   * was stopped. Not a difference: the spec has the client stop such a server.
   */
  stopped?: boolean;
}

interface Arrival {
  entry: WireEntry;
  taken: boolean;
}

export async function replay(recording: Recording, peer: ReplayPeer, options: ReplayOptions = {}): Promise<ReplayReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const ignore = [...(options.ignore ?? DEFAULT_IGNORE), ...recording.header.ignore];
  const normalize = options.normalize ?? ((message: unknown) => message);
  const started = Date.now();
  const report: ReplayReport = { differences: [], transcript: [] };
  const arrivals: Arrival[] = [];
  let wake = () => {};
  let exit: PeerExit | undefined;
  const expectedServer = recording.entries.filter((entry) => entry.dir === "s2c");
  // Each arrival past the recording's own count is one the recording does not have, whatever
  // matches later: past the bound, the server floods; memory stays that of the recording plus it.
  const maxUnexpected = options.maxUnexpected ?? DEFAULT_MAX_UNEXPECTED;
  const flood = `the server sent more than ${maxUnexpected} messages the recording does not have, and was stopped`;
  let flooded = false;
  peer.onLine((text) => {
    if (flooded || arrivals.length >= expectedServer.length + maxUnexpected) {
      report.dropped = (report.dropped ?? 0) + 1;
      if (!flooded) peer.stop();
      flooded = true;
      wake();
      return;
    }
    const entry = { dir: "s2c" as const, text, message: parseLine(text), at: Date.now() - started };
    arrivals.push({ entry, taken: false });
    report.transcript.push(entry);
    wake();
  });
  void peer.closed.then((how) => {
    exit = how;
    wake();
  });
  const send = (text: string) => {
    report.transcript.push({ dir: "c2s", text, message: parseLine(text), at: Date.now() - started });
    peer.write(text);
  };
  /** Waits until `find` sees what it wants, the server closes, or the timeout passes. */
  const waitFor = async <T>(find: () => T | undefined, ms: number): Promise<T | "closed" | "timeout"> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (exit || flooded) return "closed";
      if (Date.now() >= deadline) return "timeout";
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  const compare = (expectedAt: number, expected: WireEntry, actual: WireEntry, extra: string[] = []) => {
    const differences = expected.message === undefined || actual.message === undefined
      ? (expected.text === actual.text ? [] : [{ path: "", expected: expected.text, actual: actual.text }])
      : compareValues(normalize(expected.message), normalize(actual.message), [...ignore, ...extra]);
    if (differences.length > 0) report.differences.push({ expectedAt, expected: expected.text, actual: actual.text, differences });
  };

  if (recording.form === "golden") {
    for (const entry of recording.entries) if (entry.dir === "c2s") send(entry.text);
    peer.end();
    await waitFor(() => undefined, timeoutMs);
    // A server that never ran (or was never reached) is not a server whose answers differ.
    if (exit?.error) report.failure = `the server ${exit.error}`;
    expectedServer.forEach((expected, i) => {
      const arrival = arrivals[i];
      if (!arrival) report.differences.push({ expectedAt: i + 1, expected: expected.text, differences: [] });
      else {
        arrival.taken = true;
        compare(i + 1, expected, arrival.entry);
      }
    });
  } else {
    // The recorded id of each server request, mapped to the id it came with on this run; and each
    // recorded requestState to the one this run's server sealed, which the client echoes back.
    const serverIds = new Map<string, unknown>();
    const requestStates = new Map<string, string>();
    let position = 0;
    for (const entry of recording.entries) {
      if (entry.dir === "c2s") {
        send(mapped(entry, serverIds, requestStates));
        continue;
      }
      position++;
      const found = await waitFor(() => arrivals.find((arrival) => !arrival.taken && matches(entry.message, arrival.entry.message, ignore)), timeoutMs);
      // A notification or a request of the server's that never came, from a server still running and
      // answering: a difference (exit 1), not a failure. A response that never came is the server's
      // failure to answer (exit 3). Either way the replay stops here: what follows may depend on it.
      if (found === "timeout" && kind(entry.message) !== "response" && !flooded) {
        report.differences.push({ expectedAt: position, expected: entry.text, differences: [] });
        break;
      }
      if (found === "closed" || found === "timeout") {
        const how = found === "timeout" ? `nothing matching came within ${timeoutMs} ms` : flooded ? flood : `the server ${describeExit(exit!)}`;
        report.failure = `server message ${position} of the recording never came: ${how}; expected ${shorten(entry.text)}`;
        break;
      }
      found.taken = true;
      const request = kind(entry.message) === "request";
      if (request) serverIds.set(JSON.stringify(idOf(entry.message)), idOf(found.entry.message));
      const state = [entry.message, found.entry.message].map(requestStateOf);
      if (state[0] !== undefined && state[1] !== undefined) requestStates.set(state[0], state[1]);
      compare(position, entry, found.entry, request ? ["/id"] : []);
    }
    // A listen the recording leaves open had not closed yet (replay-open-listens.ts): the server may
    // end it once its input ends, as at any shutdown.
    const open = report.failure ? new Set<string>() : openListens(recording.entries);
    const ended = arrivals.length;
    peer.end();
    if (!report.failure) await waitFor(() => undefined, timeoutMs);
    for (const arrival of arrivals.slice(ended)) if (!arrival.taken && endsOpenListen(arrival.entry.message, open)) arrival.taken = true;
  }
  if (flooded) report.failure ??= flood;
  // Spec (basic/lifecycle#stdio): a server that does not exit once its input is closed is stopped.
  if (!exit && !flooded) {
    report.stopped = true;
    peer.stop();
  }
  report.exit = exit;
  for (const arrival of arrivals) if (!arrival.taken) report.differences.push({ actual: arrival.entry.text, differences: [] });
  return report;
}

type Kind = "request" | "notification" | "response" | "other";

function kind(message: unknown): Kind {
  if (!isObject(message)) return "other";
  if (typeof message.method === "string") return "id" in message ? "request" : "notification";
  return "id" in message ? "response" : "other";
}

/** Whether `actual` is the message that `expected` stands for (not whether they are equal). */
function matches(expected: unknown, actual: unknown, ignore: readonly string[]): boolean {
  const which = kind(expected);
  if (which !== kind(actual)) return false;
  if (which === "other") return Array.isArray(expected) === Array.isArray(actual) && (expected === undefined) === (actual === undefined);
  const want = expected as { [key: string]: unknown };
  const got = actual as { [key: string]: unknown };
  switch (which) {
    case "response": return JSON.stringify(want.id) === JSON.stringify(got.id);
    case "notification": return want.method === got.method;
    case "request": return want.method === got.method && compareValues(want.params, got.params, ignore.filter((p) => p.startsWith("/params/")).map((p) => p.slice("/params".length))).length === 0;
  }
}

/**
 * A client line as this run needs it: an answer to a server request under the id the request came
 * with, a retry with the requestState this run's server sealed. Any other line goes as recorded.
 */
// Spec (basic#requests): an id is its requestor's choice, unique only among its own requests.
function mapped(entry: WireEntry, serverIds: Map<string, unknown>, requestStates: Map<string, string>): string {
  const message = entry.message;
  const which = kind(message);
  if (which === "response" && serverIds.has(JSON.stringify(idOf(message)))) {
    return JSON.stringify({ ...(message as object), id: serverIds.get(JSON.stringify(idOf(message))) });
  }
  const params = (message as { params?: unknown } | undefined)?.params;
  // Spec (2026-07-28 basic/patterns/mrtr): the retry carries the server's requestState unchanged.
  if (which === "request" && isObject(params) && typeof params.requestState === "string" && requestStates.has(params.requestState)) {
    return JSON.stringify({ ...(message as object), params: { ...params, requestState: requestStates.get(params.requestState) } });
  }
  return entry.text;
}

/** An input_required result's requestState (2026-07-28), if the message is one. */
function requestStateOf(message: unknown): string | undefined {
  const result = isObject(message) ? message.result : undefined;
  return isObject(result) && typeof result.requestState === "string" ? result.requestState : undefined;
}

function idOf(message: unknown): unknown {
  return (message as { id?: unknown }).id;
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function describeExit(exit: PeerExit): string {
  if (exit.error) return exit.error;
  if (exit.signal) return `was killed by ${exit.signal}`;
  return exit.code === null ? "closed its output" : `exited with code ${exit.code}`;
}
