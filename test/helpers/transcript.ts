// Golden transcripts: reading, replaying and rewriting fixtures/transcripts/*.transcript.
//
// A transcript is a prose header (lines starting with "#": what is checked and which spec rule),
// then "-- client --" and the client's lines exactly as written to the server's stdin, then
// "-- server --" and the server's expected messages, one JSON message per line. A header line
// "# args: ..." passes arguments to the server program.
//
// Replays feed every client line, end the input, and collect everything the server writes until
// it closes: the same thing `cat` piping the client part into `node dist/server.js` would see.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { readNotes, sections } from "../../src/demo/notes.js";
import { StreamTransport } from "../../src/transports/stdio.js";

export interface Transcript {
  header: string[];
  client: string[];
  server: string[];
  args: string[];
}

export function parseTranscript(text: string, name: string): Transcript {
  const lines = text.split("\n");
  const clientAt = lines.indexOf("-- client --");
  const serverAt = lines.indexOf("-- server --");
  if (clientAt < 0 || serverAt < clientAt) throw new Error(`${name}: needs "-- client --" then "-- server --"`);
  const header = lines.slice(0, clientAt);
  const argsLine = header.find((line) => line.startsWith("# args:"));
  return {
    header,
    client: lines.slice(clientAt + 1, serverAt).filter((line) => line !== ""),
    server: lines.slice(serverAt + 1).filter((line) => line.trim() !== ""),
    args: argsLine ? argsLine.slice("# args:".length).trim().split(/\s+/).filter(Boolean) : [],
  };
}

export function formatTranscript(transcript: Transcript, serverLines: string[]): string {
  return [...transcript.header, "-- client --", ...transcript.client, "-- server --", ...serverLines, ""].join("\n");
}

/** Replays over an in-process server, through the real stdio transport on in-memory streams. */
export async function replayInMemory(transcript: Transcript): Promise<string[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  const pageSize = flagValue(transcript.args, "--page-size");
  const maxMessageBytes = flagValue(transcript.args, "--max-message-bytes");
  const server = createDemoServer({ pageSize });
  const session = server.connect(new StreamTransport(input, output, { maxMessageBytes }));
  const closed = new Promise<void>((resolve) => session.onClose(() => resolve()));
  const chunks: Buffer[] = [];
  output.on("data", (chunk: Buffer) => chunks.push(chunk));
  for (const line of transcript.client) input.write(line + "\n");
  input.end();
  await closed;
  await new Promise((resolve) => setImmediate(resolve));
  return splitLines(Buffer.concat(chunks).toString("utf8"));
}

const SERVER_PROGRAM = fileURLToPath(new URL("../../dist/server.js", import.meta.url));

/** Replays over a real `node dist/server.js` child, as a host would run it. */
export async function replayChild(transcript: Transcript): Promise<{ lines: string[]; code: number | null; exitMs: number }> {
  const child = spawn(process.execPath, [SERVER_PROGRAM, ...transcript.args], { stdio: ["pipe", "pipe", "pipe"] });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stderr.resume();
  child.stdin.end(transcript.client.map((line) => line + "\n").join(""));
  const endedAt = Date.now();
  const code = await new Promise<number | null>((resolve) => child.on("close", (exitCode) => resolve(exitCode)));
  return { lines: splitLines(Buffer.concat(chunks).toString("utf8")), code, exitMs: Date.now() - endedAt };
}

function splitLines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

function flagValue(args: string[], flag: string): number | undefined {
  const at = args.indexOf(flag);
  return at >= 0 ? Number(args[at + 1]) : undefined;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * The volatile values, replaced explicitly so that transcripts stay stable: the current time
 * (get_time), and the text of PROTOCOL_NOTES.md, which changes whenever the notes are edited.
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
