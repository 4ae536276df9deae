// `mcp-wire record`: its command line, and the run of the stdio proxy (record-stdio.ts) with the
// server's way of ending passed on as ours. Exit 2 for a usage error, 1 when the server cannot be
// started or the recording cannot be created; otherwise the server's exit code, or its signal.
// Leaves out (not yet built): the HTTP reverse proxy (--listen/--target) and live checking (--check).

import { constants } from "node:os";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../jsonrpc/framing.js";
import { SpawnError } from "../transports/stdio-client.js";
import { RecordFileError } from "./record-file.js";
import type { StdioRecordOptions } from "./record-stdio.js";

export const RECORD_USAGE = `usage: mcp-wire record --out FILE [options] -- <server command> [server arguments...]

A transparent stdio proxy: put it in a host's configuration in place of the server command. Bytes
pass through unchanged in both directions, the server's stderr goes to stderr, and each line is
appended to FILE as it passes (the session form of a recording: "> +MS line" from the host,
"< +MS line" from the server). The proxy writes nothing of its own to stdout. SIGINT, SIGTERM and
SIGHUP are passed to the server's process group; the server's exit code or signal is the proxy's.

options (before "--"):
  --out FILE              the recording to write (created, or truncated)
  --max-line-bytes N      the longest line recorded whole (default ${DEFAULT_MAX_MESSAGE_BYTES}, the
                          server's message limit); a longer one passes through and is noted by its size
  --grace-ms MS           after passing a signal on, how long the server has to exit before its
                          process group is killed (default 2000)
  -h, --help              print this help

exit codes:
  the server's exit code (or its signal); 1 if it could not be started or FILE not created;
  2 for a usage error

example:
  mcp-wire record --out session.recording -- node dist/server.js`;

/** A command line `record` cannot run; the message says what is wrong with it. */
export class RecordUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RecordUsageError";
  }
}

const DEFAULT_GRACE_MS = 2000;

/** Parses `record`'s arguments (argv after "record"); undefined means --help. */
export function parseRecordArguments(argv: readonly string[]): StdioRecordOptions | undefined {
  const split = argv.indexOf("--");
  const ours = split === -1 ? argv : argv.slice(0, split);
  const server = split === -1 ? [] : argv.slice(split + 1);
  let out: string | undefined;
  let maxLineBytes = DEFAULT_MAX_MESSAGE_BYTES;
  let graceMs = DEFAULT_GRACE_MS;
  for (let i = 0; i < ours.length; i++) {
    const arg = ours[i]!;
    if (arg === "-h" || arg === "--help") return undefined;
    const equals = arg.indexOf("=");
    const flag = arg.startsWith("--") && equals !== -1 ? arg.slice(0, equals) : arg;
    const value = (): string => {
      if (equals !== -1 && arg.startsWith("--")) return arg.slice(equals + 1);
      if (i + 1 >= ours.length) throw new RecordUsageError(`${flag} needs a value`);
      return ours[++i]!;
    };
    switch (flag) {
      case "--out": out = value(); break;
      case "--max-line-bytes": maxLineBytes = positiveInteger(flag, value()); break;
      case "--grace-ms": graceMs = positiveInteger(flag, value()); break;
      case "--listen":
      case "--target":
      case "--check": throw new RecordUsageError(`${flag} is not built yet: record works over stdio only, for now`);
      default: throw new RecordUsageError(`unknown option ${JSON.stringify(arg)}`);
    }
  }
  if (out === undefined || out === "") throw new RecordUsageError("missing --out FILE: where to write the recording");
  if (server.length === 0) throw new RecordUsageError('missing server: put its command after "--" (e.g. mcp-wire record --out s.recording -- node dist/server.js)');
  return { out, command: server[0]!, args: server.slice(1), maxLineBytes, graceMs };
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) throw new RecordUsageError(`${flag}: expected a positive whole number, got ${JSON.stringify(text)}`);
  return value;
}

export async function run(argv: string[]): Promise<number> {
  let options: StdioRecordOptions | undefined;
  try {
    options = parseRecordArguments(argv);
  } catch (error) {
    if (!(error instanceof RecordUsageError)) throw error;
    process.stderr.write(`mcp-wire record: ${error.message}\n(mcp-wire record --help shows the usage)\n`);
    return 2;
  }
  if (!options) {
    process.stdout.write(RECORD_USAGE + "\n");
    return 0;
  }
  const { recordStdio } = await import("./record-stdio.js");
  try {
    const end = await recordStdio(options);
    if (end.signal === null) return end.code ?? 1;
    // Ended by a signal: so do we, with the same one, as the host would have seen without us.
    process.kill(process.pid, end.signal);
    return 128 + (constants.signals[end.signal] ?? 0);
  } catch (error) {
    if (!(error instanceof SpawnError || error instanceof RecordFileError)) throw error;
    process.stderr.write(`mcp-wire record: ${error.message}\n`);
    return 1;
  }
}
