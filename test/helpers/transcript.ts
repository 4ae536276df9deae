// Golden transcripts: reading, replaying and rewriting fixtures/transcripts/*.transcript.
//
// A transcript is a recording in the golden form (src/recordings/recording.ts reads it): a prose header
// (lines starting with "#": what is checked and which spec rule), then "-- client --" and the
// client's lines exactly as written to the server's stdin, then "-- server --" and the server's
// expected messages, one JSON message per line. A header line "# args: ..." passes arguments to
// the server program.
//
// Replays go through the product's own replay (src/recordings/replay.ts, what `mcp-wire replay` runs):
// every client line written, the input ended, everything the server writes until it closes
// compared in order, the same thing `cat` piping the client part into `node dist/server.js` shows.
// The volatile values are the transcript's own "# placeholder:" lines (src/recordings/directives.ts), read
// as the shipped replay reads them: nothing here knows what a transcript means.

import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { readNotes, sections } from "../../src/demo/notes.js";
import { StreamTransport } from "../../src/transports/stdio.js";
import { placeholders } from "../../src/recordings/directives.js";
import { parseRecording, type Recording } from "../../src/recordings/recording.js";
import { replay, type ReplayReport } from "../../src/recordings/replay.js";
import { spawnPeer, streamPeer } from "../../src/recordings/replay-peer.js";

export interface Transcript {
  header: string[];
  client: string[];
  server: string[];
  args: string[];
}

export function parseTranscript(text: string, name: string): Transcript {
  const recording = parseRecording(text, name);
  if (recording.form !== "golden") throw new Error(`${name}: needs "-- client --" then "-- server --"`);
  const side = (dir: "c2s" | "s2c") => recording.entries.filter((entry) => entry.dir === dir).map((entry) => entry.text);
  return { header: recording.header.lines, client: side("c2s"), server: side("s2c"), args: recording.header.args };
}

export function formatTranscript(transcript: Transcript, serverLines: string[]): string {
  return [...transcript.header, "-- client --", ...transcript.client, "-- server --", ...serverLines, ""].join("\n");
}

function recordingOf(transcript: Transcript): Recording {
  return parseRecording(formatTranscript(transcript, transcript.server), "transcript");
}

const TRANSCRIPTS = fileURLToPath(new URL("../../fixtures/transcripts/", import.meta.url));

/** The transcript's placeholders, as `mcp-wire replay` applies them (paths from fixtures/transcripts/). */
export function placeholdersOf(transcript: Transcript): (message: unknown) => unknown {
  return placeholders(recordingOf(transcript), TRANSCRIPTS) ?? ((message) => message);
}

/**
 * Replays over an in-process server, through the real stdio transport on in-memory streams. The
 * golden comparison is exact but for the transcript's placeholders: no default ignores.
 */
export async function goldenInMemory(transcript: Transcript): Promise<ReplayReport> {
  const input = new PassThrough();
  const output = new PassThrough();
  const pageSize = flagValue(transcript.args, "--page-size");
  const maxMessageBytes = flagValue(transcript.args, "--max-message-bytes");
  const server = createDemoServer({ pageSize });
  const session = server.connect(new StreamTransport(input, output, { maxMessageBytes }));
  // Closed once the session has closed and what it wrote last has been read.
  const closed = new Promise<{ code: null; signal: null }>((resolve) => session.onClose(() => setImmediate(() => resolve({ code: null, signal: null }))));
  return replay(recordingOf(transcript), streamPeer(input, output, closed), { ignore: [], normalize: placeholdersOf(transcript) });
}

const SERVER_PROGRAM = fileURLToPath(new URL("../../dist/server.js", import.meta.url));

/** Replays over a real `node dist/server.js` child, as a host would run it; it is stopped if it does not close within `closeMs` of its input ending. */
export async function goldenChild(transcript: Transcript, closeMs = 2000): Promise<ReplayReport> {
  return replay(recordingOf(transcript), spawnPeer(process.execPath, [SERVER_PROGRAM, ...transcript.args]), { ignore: [], normalize: placeholdersOf(transcript), timeoutMs: closeMs });
}

/** What the server wrote in a replay, line by line. */
export function serverLines(report: ReplayReport): string[] {
  return report.transcript.filter((entry) => entry.dir === "s2c").map((entry) => entry.text);
}

/** Replays the client's lines over an in-process server and returns what it wrote. */
export async function replayInMemory(transcript: Transcript): Promise<string[]> {
  return serverLines(await goldenInMemory({ ...transcript, server: [] }));
}

/** Replays over a real `node dist/server.js` child and returns what it wrote, and its exit code. */
export async function replayChild(transcript: Transcript): Promise<{ lines: string[]; code: number | null }> {
  const report = await goldenChild({ ...transcript, server: [] });
  return { lines: serverLines(report), code: report.exit?.code ?? null };
}

function flagValue(args: string[], flag: string): number | undefined {
  const at = args.indexOf(flag);
  return at >= 0 ? Number(args[at + 1]) : undefined;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * The volatile values of a client transcript (fixtures/client-transcripts/), replaced explicitly so
 * that they stay stable: the current time, and the text of PROTOCOL_NOTES.md, which changes whenever
 * the notes are edited. (The server transcripts name theirs in "# placeholder:" lines.)
 */
export function normalize(value: unknown): unknown {
  const notes = notesTexts();
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") {
      if (ISO_TIME.test(node)) return "<time>";
      return notes.get(node) ?? node;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  return walk(value);
}

let notesCache: Map<string, string> | undefined;
function notesTexts(): Map<string, string> {
  if (!notesCache) {
    const whole = readNotes();
    notesCache = new Map([[whole, "<PROTOCOL_NOTES.md>"]]);
    for (const section of sections(whole)) notesCache.set(section.text, `<PROTOCOL_NOTES.md section ${section.slug}>`);
  }
  return notesCache;
}

/** Parses and normalizes each line; a line that is not JSON stays as text, to fail visibly. */
export function normalizeLines(lines: string[]): unknown[] {
  return lines.map((line) => {
    try {
      return normalize(JSON.parse(line));
    } catch {
      return `NOT JSON: ${line}`;
    }
  });
}

export function readTranscript(path: string): Transcript {
  return parseTranscript(readFileSync(path, "utf8"), path);
}
