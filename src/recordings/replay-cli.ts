// `mcp-wire replay FILE [--timeout MS] [--ignore POINTER]... [--edition NAME] [--update] -- <server
// command>` (or `--url URL`): a recording as a golden test against a freshly started stdio server,
// or a running HTTP one (Streamable HTTP or the legacy HTTP+SSE transport, as the recording shows;
// src/recordings/replay.ts). The recording's "# args:" go after the server command, given or recorded; its
// placeholders and editions (src/recordings/directives.ts) say what it means, so it needs nothing else.
// The report goes to stdout (it is the tool's output); the server's stderr passes through to ours.
// Exit 0: every message as recorded (or, with --update, the recording rewritten). 1: a difference
// (a notification or server request that never came from a server still answering is one).
// 2: a usage error or a recording that cannot be read. 3: the server failed (exited, or left an
// answer owed past --timeout, could not be started or reached, broke --max-line-bytes or
// --max-unexpected); then --update writes nothing.
// 130/143: interrupted; the server is stopped.

import { readFileSync, writeFileSync } from "node:fs";
import { DEFAULT_IGNORE } from "./compare.js";
import { DirectiveError } from "./directives.js";
import { formatRecording, printable, quoteArgument, RecordingFormatError, type Recording } from "./recording.js";
import { DEFAULT_MAX_UNEXPECTED, DEFAULT_TIMEOUT_MS, replay, type ReplayReport } from "./replay.js";
import { httpPeer, httpPlan, withPlanNotes } from "./replay-http.js";
import { DEFAULT_MAX_LINE_BYTES, spawnPeer } from "./replay-peer.js";
import { describeReport, verdictOf } from "./replay-report.js";
import { ReplaySetupError, setUpReplay, type ReplaySetup } from "./replay-setup.js";

// Where the report is written and the verdict reached (replay-report.ts), for those who import them from here.
export { describeReport, SERVER_FAILED } from "./replay-report.js";

export const REPLAY_USAGE = `usage: mcp-wire replay FILE [--timeout MS] [--ignore POINTER]... [--edition NAME] [--update] -- <server command> [args...]
       mcp-wire replay FILE [options] --url URL [--header NAME:VALUE]...
       mcp-wire replay FILE [options]     (runs the recording's "# command:" with its "# args:",
                                           shown on stderr first)

Plays the client's side of a recording against a freshly started stdio server and compares what
the server sends with the recording (ids of server requests mapped, notifications in order per
method). Values that change from run to run are ignored: ISO 8601 timestamps, /result/requestState,
the file's "# ignore:" pointers and --ignore; the file's "# placeholder:" lines name the others
(the time, a file's text). The file's "# args:" go after the server command. Prints each difference
on stdout with its JSON path. A 2026-07-28 subscriptions/listen the recording leaves open (a session
saved live) had not closed yet: the server ending it once its input ends (its result, or
notifications/cancelled for it) is no difference.
Exit 0 when all matches, 1 on a difference (a recorded notification or server request that never
came counts as one), 2 on a usage error or an unreadable recording, 3 when the server failed: it
exited or left an answer owed past --timeout, could not be started or
reached, or broke a bound (--max-line-bytes, --max-unexpected).

  --timeout MS       wait at most MS ms for each expected message (default ${DEFAULT_TIMEOUT_MS})
  --ignore POINTER   a JSON pointer (RFC 6901) to ignore in every server message; "*" matches any
                     one step, e.g. /result/content/*/text (repeatable)
  --edition NAME     the server is this edition of the program: the recording must list it in its
                     "# editions:" line (else exit 2), and its "# differs in NAME:" pointers are ignored
  --update           rewrite the recording's server side with what came (review the change)
  --max-line-bytes N   the longest line (or HTTP body, or SSE event) the server may send (default
                     ${DEFAULT_MAX_LINE_BYTES}); a longer one stops it (exit 3)
  --max-unexpected N   how many server messages past the recording's own count are kept (default
                     ${DEFAULT_MAX_UNEXPECTED}); one more stops the server (exit 3), the rest are only counted
  --url URL          replay over HTTP to a server already running at URL: each client line is
                     POSTed, each message of the answer (JSON or SSE) compared; where the
                     recording's notes show a GET stream, it is opened there too; where they show
                     the legacy HTTP+SSE transport, its stream (the recorded path, on URL's origin)
                     is opened first and the lines POSTed to the endpoint it names
  --header NAME:VALUE  send this header on every HTTP request (repeatable; with --url)`;

interface ReplayLine {
  file: string;
  timeoutMs: number;
  ignore: string[];
  update: boolean;
  command: string[];
  url?: string;
  headers: Record<string, string>;
  maxLineBytes: number;
  maxUnexpected: number;
  edition?: string;
}

class ReplayUsageError extends Error {}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") && !argv.slice(0, argv.indexOf("--help")).includes("--")) {
    process.stdout.write(REPLAY_USAGE + "\n");
    return 0;
  }
  let line: ReplayLine;
  let text: string;
  let setup: ReplaySetup;
  try {
    line = parseReplayLine(argv);
    text = readRecording(line.file);
    setup = setUpReplay(text, line.file, { command: line.command, noCommand: line.url !== undefined, ...(line.edition !== undefined && { edition: line.edition }) });
    // Nothing runs unseen: the command comes from a file, which may not be the user's own.
    if (setup.commandFromRecording) process.stderr.write(`mcp-wire replay: running the recording's server: ${printable(setup.command.map(quoteArgument).join(" "))}\n`);
  } catch (error) {
    if (!(error instanceof ReplayUsageError || error instanceof ReplaySetupError || error instanceof RecordingFormatError || error instanceof DirectiveError)) throw error;
    process.stderr.write(`mcp-wire replay: ${(error as Error).message}\n(mcp-wire replay --help shows the usage)\n`);
    return 2;
  }
  const { recording, command, normalize } = setup;
  const limits = { maxLineBytes: line.maxLineBytes };
  const peer = line.url === undefined
    ? spawnPeer(command[0]!, command.slice(1), (chunk) => process.stderr.write(chunk), limits)
    : httpPeer(line.url, line.headers, limits, httpPlan(text));
  // The server has its own process group, so an interrupt does not reach it unless passed on.
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    process.once(signal, () => {
      peer.stop();
      process.exit(code);
    });
  }
  const report = await replay(recording, peer, { timeoutMs: line.timeoutMs, ignore: [...DEFAULT_IGNORE, ...line.ignore, ...setup.ignore], maxUnexpected: line.maxUnexpected, normalize });
  process.stdout.write(describeReport(report, line.file));
  if (line.update && !report.failure) {
    writeFileSync(line.file, withPlanNotes(formatRecording(updated(recording, report, normalize)), httpPlan(text)));
    process.stdout.write(`${line.file}: the server side was rewritten with what came\n`);
    return 0;
  }
  if (line.update) process.stdout.write(`${line.file}: not rewritten: the replay did not get to the end\n`);
  return verdictOf(report);
}

/**
 * The recording with its server side as it came on this run (golden: the client's side as it was),
 * each value a placeholder stands for written as the placeholder again.
 */
function updated(recording: Recording, report: ReplayReport, normalize?: (message: unknown) => unknown): Recording {
  // Times are kept where the recording kept them, so an update changes no more than it must.
  const timed = recording.entries.some((entry) => entry.at !== undefined);
  const named = report.transcript.map((entry) => normalize && entry.dir === "s2c" && entry.message !== undefined
    ? { ...entry, message: normalize(entry.message), text: JSON.stringify(normalize(entry.message)) } : entry);
  const transcript = timed ? named : named.map(({ at: _at, ...entry }) => entry);
  if (recording.form !== "golden") return { ...recording, entries: transcript };
  const client = recording.entries.filter((entry) => entry.dir === "c2s");
  return { ...recording, entries: [...client, ...transcript.filter((entry) => entry.dir === "s2c")] };
}

function parseReplayLine(argv: string[]): ReplayLine {
  const dashes = argv.indexOf("--");
  const options = dashes < 0 ? argv : argv.slice(0, dashes);
  const command = dashes < 0 ? [] : argv.slice(dashes + 1);
  const line: ReplayLine = {
    file: "", timeoutMs: DEFAULT_TIMEOUT_MS, ignore: [], update: false, command, headers: {},
    maxLineBytes: DEFAULT_MAX_LINE_BYTES, maxUnexpected: DEFAULT_MAX_UNEXPECTED,
  };
  for (let i = 0; i < options.length; i++) {
    const option = options[i]!;
    const value = () => {
      const next = options[++i];
      if (next === undefined) throw new ReplayUsageError(`${option} needs a value`);
      return next;
    };
    const positive = (what: string) => {
      const text = value();
      if (!/^\d+$/.test(text) || Number(text) <= 0) throw new ReplayUsageError(`${option} takes a positive number${what}, not ${JSON.stringify(text)}`);
      return Number(text);
    };
    if (option === "--update") line.update = true;
    else if (option === "--timeout") line.timeoutMs = positive(" of milliseconds");
    else if (option === "--max-line-bytes") line.maxLineBytes = positive(" of bytes");
    else if (option === "--max-unexpected") line.maxUnexpected = positive("");
    else if (option === "--edition") line.edition = value();
    else if (option === "--ignore") {
      const pointer = value();
      if (!pointer.startsWith("/")) throw new ReplayUsageError(`--ignore takes a JSON pointer starting with "/", not ${JSON.stringify(pointer)}`);
      line.ignore.push(pointer);
    } else if (option === "--url") {
      line.url = value();
      if (!URL.canParse(line.url) || !/^https?:$/.test(new URL(line.url).protocol)) throw new ReplayUsageError(`--url takes an http(s) URL, not ${JSON.stringify(line.url)}`);
    } else if (option === "--header") {
      const header = /^([^:\s]+):\s*(.*)$/.exec(value());
      if (!header) throw new ReplayUsageError("--header takes NAME:VALUE");
      line.headers[header[1]!.toLowerCase()] = header[2]!;
    } else if (option.startsWith("-")) throw new ReplayUsageError(`unknown option ${option}`);
    else if (line.file === "") line.file = option;
    else throw new ReplayUsageError(`one recording at a time (found ${JSON.stringify(line.file)} and ${JSON.stringify(option)})`);
  }
  if (line.file === "") throw new ReplayUsageError("which recording? (mcp-wire replay FILE -- <server command>)");
  if (command.length > 0 && line.url !== undefined) throw new ReplayUsageError('give the server command after "--", or --url URL (one of the two)');
  if (line.url === undefined && Object.keys(line.headers).length > 0) throw new ReplayUsageError("--header goes with --url");
  return line;
}

function readRecording(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new ReplayUsageError(`cannot read the recording ${JSON.stringify(file)}: ${(error as Error).message}`);
  }
}
