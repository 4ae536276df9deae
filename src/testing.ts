// mcp-wire/testing: the recording tools inside a `node:test` suite, for a user's own server. What
// `mcp-wire replay`, `record` and `check` do as commands, called as functions, on the same engine
// (src/recordings/): a golden replayed against a command, a running HTTP server or an McpServer in
// this process; a session driven with an McpClient and kept as a recording; a recording checked
// against the spec. The assert* forms throw an AssertionError whose message is the CLI's report.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (what replay and check judge)

import { AssertionError } from "node:assert";
import { checkRecording as findViolations, formatFinding, type Finding } from "./recordings/check.js";
import { DEFAULT_IGNORE } from "./recordings/compare.js";
import { parseRecording } from "./recordings/recording.js";
import { DEFAULT_MAX_UNEXPECTED, DEFAULT_TIMEOUT_MS, replay, type ReplayReport } from "./recordings/replay.js";
import { httpPeer, httpPlan } from "./recordings/replay-http.js";
import { spawnPeer, type ReplayPeer } from "./recordings/replay-peer.js";
import { describeReport, verdictOf, type SERVER_FAILED } from "./recordings/replay-report.js";
import { setUpReplay } from "./recordings/replay-setup.js";
import type { McpServer } from "./server/definition.js";
import type { ServerConnectionOptions } from "./server/connection.js";
import { serverPeer } from "./testing/server-peer.js";
import { readSource, type RecordingSource } from "./testing/source.js";

export { recordSession, type RecordSessionOptions, type RecordTarget } from "./testing/record-session.js";
export type { RecordingSource } from "./testing/source.js";
export type { Finding } from "./recordings/check.js";
export type { MessageDifference, ReplayReport } from "./recordings/replay.js";
export type { Difference } from "./recordings/compare.js";
export { RecordingFormatError } from "./recordings/recording.js";
export { DirectiveError } from "./recordings/directives.js";
export { ReplaySetupError } from "./recordings/replay-setup.js";

/**
 * The server a replay talks to: a command started over stdio (the recording's "# args:" go after
 * `args`; its stderr goes to `onStderr`, by default to ours, as the CLI does), an HTTP endpoint
 * already running, or an McpServer served in this process. Absent: the recording's "# command:".
 */
export type ReplayTarget =
  | { command: string; args?: string[]; onStderr?: (chunk: Buffer) => void }
  | { url: string; headers?: Record<string, string> }
  | { server: McpServer; connection?: ServerConnectionOptions };

/** replay's own flags, as options; defaults as the CLI's. */
export interface ReplayTranscriptOptions {
  /** How long to wait for each expected message, and for the server to close (default DEFAULT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** JSON pointers to ignore in every server message, on top of DEFAULT_IGNORE and the recording's "# ignore:" lines. */
  ignore?: string[];
  /** The edition the server is: the recording's "# editions:" must list it, and its "# differs in" pointers are ignored. */
  edition?: string;
  /** The longest line the server may send (default DEFAULT_MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /** How many server messages past the recording's own count are kept (default DEFAULT_MAX_UNEXPECTED). */
  maxUnexpected?: number;
}

/** A replay's report, with its verdict and the words `mcp-wire replay` would print. */
export interface ReplayResult extends ReplayReport {
  /** What the replay was called, as in `text`: the file's path, or the text's name. */
  name: string;
  /** Every message as recorded. */
  ok: boolean;
  /** What `mcp-wire replay` would exit with: 0, 1 (a difference) or 3 (the server failed). */
  exitCode: 0 | 1 | typeof SERVER_FAILED;
  /** The CLI's report: each difference by JSON pointer, then the verdict line. */
  text: string;
}

/**
 * Plays the client's side of the recording against the server and compares what comes back.
 * A recording that cannot be read, or cannot be replayed as asked, throws (RecordingFormatError,
 * DirectiveError, ReplaySetupError); a server that differs or fails is in the result.
 */
export async function replayTranscript(source: RecordingSource, target?: ReplayTarget, options: ReplayTranscriptOptions = {}): Promise<ReplayResult> {
  const { text, name, directory } = readSource(source);
  const command = target && "command" in target ? target : undefined;
  const setup = setUpReplay(text, name, {
    command: command ? [command.command, ...(command.args ?? [])] : [],
    noCommand: target !== undefined && command === undefined,
    ...(options.edition !== undefined && { edition: options.edition }),
  }, directory);
  const limits = options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes };
  let peer: ReplayPeer;
  if (target && "server" in target) peer = serverPeer(target.server, { ...limits, ...(target.connection && { connection: target.connection }) });
  else if (target && "url" in target) peer = httpPeer(target.url, target.headers, limits, httpPlan(text));
  else peer = spawnPeer(setup.command[0]!, setup.command.slice(1), command?.onStderr ?? ((chunk) => void process.stderr.write(chunk)), limits);
  const report = await replay(setup.recording, peer, {
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ignore: [...DEFAULT_IGNORE, ...(options.ignore ?? []), ...setup.ignore],
    maxUnexpected: options.maxUnexpected ?? DEFAULT_MAX_UNEXPECTED,
    ...(setup.normalize && { normalize: setup.normalize }),
  });
  const exitCode = verdictOf(report);
  return { ...report, name, ok: exitCode === 0, exitCode, text: describeReport(report, name) };
}

/** replayTranscript, failing the test unless every message came as recorded: the message is the CLI's report. */
export async function assertReplays(source: RecordingSource, target?: ReplayTarget, options: ReplayTranscriptOptions = {}): Promise<ReplayResult> {
  const result = await replayTranscript(source, target, options);
  if (!result.ok) throw new AssertionError({ message: result.text.trimEnd(), operator: "replay", stackStartFn: assertReplays });
  return result;
}

/** The spec linter's verdict on a recording, as `mcp-wire check` gives it. */
export interface CheckResult {
  name: string;
  findings: Finding[];
  ok: boolean;
  /** The CLI's lines, `NAME:#N c2s|s2c rule: what is wrong (spec link)`, one per finding; "" when none. */
  text: string;
}

/** Checks a recording in any form against the spec of the version its session negotiated. */
export function checkRecording(source: RecordingSource): CheckResult {
  const { text, name } = readSource(source);
  const findings = findViolations(parseRecording(text, name));
  return { name, findings, ok: findings.length === 0, text: findings.map((finding) => `${formatFinding(name, finding)}\n`).join("") };
}

/** checkRecording, failing the test on any finding: the message lists them as `mcp-wire check` does. */
export function assertChecks(source: RecordingSource): CheckResult {
  const result = checkRecording(source);
  const count = result.findings.length;
  if (!result.ok) throw new AssertionError({ message: `${result.text}${result.name}: ${count} violation${count === 1 ? "" : "s"} of the spec`, operator: "check", stackStartFn: assertChecks });
  return result;
}
