// `mcp-wire record`: its command line, and the run of the stdio proxy (record-stdio.ts), whose
// server's way of ending is passed on as ours, or of the HTTP reverse proxy (record-http.ts), which
// runs until a signal. Exit 2 for a usage error, 1 when the server cannot be started, the port not
// taken or the recording not created. With --check, each message is checked as it passes
// (check.ts's SessionChecker, the same rules as `mcp-wire check`), violations said on stderr.

import { constants } from "node:os";
import { httpUrl, UsageError } from "../cli/arguments.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../jsonrpc/framing.js";
import { SpawnError } from "../transports/stdio-client.js";
import { RecordFileError } from "./record-file.js";
import { DECODER_BYTES } from "./record-http-kept.js";
import type { HttpRecordOptions } from "./record-http.js";
import type { StdioRecordOptions } from "./record-stdio.js";
import type { Direction, Exchange } from "./recording.js";

export const RECORD_USAGE = `usage: mcp-wire record --out FILE [options] [--] <server command> [server arguments...]
       mcp-wire record --out FILE [options] --listen HOST:PORT --target URL

A transparent stdio proxy: put it in a host's configuration in place of the server command. Bytes
pass through unchanged in both directions, the server's stderr goes to stderr, and each line is
appended to FILE as it passes (the session form of a recording: "> +MS line" from the host,
"< +MS line" from the server). The proxy writes nothing of its own to stdout. SIGINT, SIGTERM and
SIGHUP are passed to the server's process group; the server's exit code or signal is the proxy's.
Killed with SIGKILL, the proxy cannot stop the server, which runs in its own process group (its id
is the server's pid): one that ignores the end of its stdin keeps running, so stop the proxy with
SIGTERM, or kill the server's process group too.

With --listen and --target, a reverse proxy for a Streamable HTTP (or HTTP+SSE) server: requests
and answers pass through unchanged, SSE streamed; POST bodies, JSON answers and SSE messages are
recorded (decoded copies of gzip, deflate or br bodies), each request and status as a "#" note
with the session's headers (Authorization and cookie values redacted, and the userinfo and query
values of URLs). The target's query goes with each request, and its userinfo as Authorization:
Basic when the client sent none. It says where it listens on stderr and runs until SIGINT or SIGTERM.

The server's command starts at the first word that is not one of the options below (as with env
or npx), or after "--"; everything from there on is the server's, options too. A command whose
first word begins with "-" needs the "--".

options (before the server's command):
  --out FILE              the recording to write (created, or truncated)
  --max-line-bytes N      the longest line recorded whole (default ${DEFAULT_MAX_MESSAGE_BYTES}, the
                          server's message limit); a longer one passes through and is noted by its size
  --grace-ms MS           after passing a signal on, how long the server has to exit before its
                          process group is killed (default 2000)
  --check                 check each message against the spec as it passes (the rules of
                          mcp-wire check), and say each violation on stderr at once
  --listen HOST:PORT      where the HTTP proxy listens (PORT alone: 127.0.0.1; port 0: any free one)
  --target URL            the server's endpoint, e.g. http://127.0.0.1:3000/mcp (or
                          http://user:password@host/mcp?key=K: these reach it, not the file)
  --max-kept-bytes N      over HTTP, what all open requests and answers keep at once for the file
                          (decoded copies of bodies not yet ended, SSE events under way, decoders:
                          64 KiB for gzip or deflate, 16 MiB for br, and the input waiting in
                          them); default --max-line-bytes + 16 MiB 64 KiB, one body at that bound
                          and a br decoder. Past it, a body passes through and is noted
  -h, --help              print this help

exit codes:
  the server's exit code (or its signal); 1 if it could not be started, the port not taken or
  FILE not created; 2 for a usage error; over HTTP, 130 or 143 once stopped by SIGINT or SIGTERM

examples:
  mcp-wire record --out session.recording node dist/server.js
  mcp-wire record --out session.recording -- node dist/server.js --page-size 10
  mcp-wire record --out session.recording --listen 127.0.0.1:3001 --target http://127.0.0.1:3000/mcp`;

const DEFAULT_GRACE_MS = 2000;

/** What to run: the stdio proxy, or the HTTP one. */
export type RecordMode = ({ transport: "stdio"; options: StdioRecordOptions } | { transport: "http"; options: HttpRecordOptions }) & { check: boolean };

/**
 * Parses `record`'s arguments (argv after "record"); undefined means --help. The first word that is
 * not one of ours starts the server's command, as with `env` and `npx`: a launcher that drops the
 * first "--" (the MCP Inspector's does) still runs the server. A "--" still ends our options, and
 * is the one way to start a command whose first word begins with "-".
 */
export function parseRecordArguments(argv: readonly string[]): RecordMode | undefined {
  let server: readonly string[] | undefined;
  let out: string | undefined;
  let maxLineBytes = DEFAULT_MAX_MESSAGE_BYTES;
  let maxKeptBytes: number | undefined;
  let graceMs = DEFAULT_GRACE_MS;
  let listen: { host: string; port: number } | undefined;
  let target: URL | undefined;
  let check = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--" || !arg.startsWith("-")) {
      server = argv.slice(arg === "--" ? i + 1 : i);
      break;
    }
    if (arg === "-h" || arg === "--help") return undefined;
    const equals = arg.indexOf("=");
    const flag = arg.startsWith("--") && equals !== -1 ? arg.slice(0, equals) : arg;
    const value = (): string => {
      if (equals !== -1 && arg.startsWith("--")) return arg.slice(equals + 1);
      if (i + 1 >= argv.length) throw new UsageError(`${flag} needs a value`);
      return argv[++i]!;
    };
    switch (flag) {
      case "--out": out = value(); break;
      case "--max-line-bytes": maxLineBytes = positiveInteger(flag, value()); break;
      case "--max-kept-bytes": maxKeptBytes = positiveInteger(flag, value()); break;
      case "--grace-ms": graceMs = positiveInteger(flag, value()); break;
      case "--listen": listen = hostAndPort(value()); break;
      case "--target": target = new URL(httpUrl(value(), flag)); break;
      case "--check": check = true; break;
      default: throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
    }
  }
  if (out === undefined || out === "") throw new UsageError("missing --out FILE: where to write the recording");
  if (listen || target) {
    if (!listen || !target) throw new UsageError("--listen and --target go together: where the proxy listens, and the server's URL");
    if (server !== undefined) throw new UsageError("give either --listen/--target or a server command, not both");
    return { transport: "http", options: { out, ...listen, target, maxLineBytes, maxKeptBytes: maxKeptBytes ?? defaultKeptBytes(maxLineBytes) }, check };
  }
  if (server === undefined || server.length === 0) throw new UsageError("missing server: put its command after record's options (e.g. mcp-wire record --out s.recording node dist/server.js)");
  return { transport: "stdio", options: { out, command: server[0]!, args: server.slice(1), maxLineBytes, graceMs }, check };
}

/**
 * What all open exchanges keep at once unless told: one body at --max-line-bytes, decoded by the
 * largest decoder. More would let a few compressed bodies never finished (a few KiB each) hold as
 * many times that bound; a body that finds no room is noted, and still passes through.
 */
function defaultKeptBytes(maxLineBytes: number): number {
  return maxLineBytes + Math.max(...Object.values(DECODER_BYTES));
}

/** HOST:PORT, or PORT alone for 127.0.0.1 (an IPv6 host in brackets); port 0 takes a free one. */
function hostAndPort(text: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:]+):)?(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port > 65535) throw new UsageError(`--listen: expected HOST:PORT (e.g. 127.0.0.1:3001), got ${JSON.stringify(text)}`);
  return { host: (match[1] ?? "127.0.0.1").replace(/^\[(.*)\]$/, "$1"), port };
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) throw new UsageError(`${flag}: expected a positive whole number, got ${JSON.stringify(text)}`);
  return value;
}

export async function run(argv: string[]): Promise<number> {
  let mode: RecordMode | undefined;
  try {
    mode = parseRecordArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`mcp-wire record: ${error.message}\n(mcp-wire record --help shows the usage)\n`);
    return 2;
  }
  if (!mode) {
    process.stdout.write(RECORD_USAGE + "\n");
    return 0;
  }
  if (mode.check) mode.options.onLine = await liveChecker(mode.options.out);
  try {
    if (mode.transport === "http") {
      const { recordHttp } = await import("./record-http.js");
      const out = mode.options.out;
      return await recordHttp(mode.options, (url) => process.stderr.write(`mcp-wire record: listening on ${url}, recording to ${out}\n`));
    }
    const { recordStdio } = await import("./record-stdio.js");
    const end = await recordStdio(mode.options);
    // Every byte for the host is taken before the proxy ends (a host may read slowly).
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
    if (end.signal === null) return end.code ?? 1;
    // Ended by a signal: so do we, with the same one, as the host would have seen without us.
    process.kill(process.pid, end.signal);
    return 128 + (constants.signals[end.signal] ?? 0);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    const listenFailed = "syscall" in error && error.syscall === "listen";
    if (!(error instanceof SpawnError || error instanceof RecordFileError || listenFailed)) throw error;
    process.stderr.write(`mcp-wire record: ${listenFailed ? `cannot listen: ${error.message}` : error.message}\n`);
    return 1;
  }
}

/**
 * record --check: each recorded line goes through the SessionChecker of its session (check-live.ts:
 * over HTTP, told apart by its exchange), which learns the version and capabilities as the session
 * goes; a violation is said on stderr at once, never on stdout.
 */
async function liveChecker(out: string): Promise<(dir: Direction, bytes: Buffer, exchange?: Exchange) => void> {
  const [{ formatFinding }, { LiveSessions }, { parseLine }] = await Promise.all([import("./check.js"), import("./check-live.js"), import("./recording.js")]);
  const sessions = new LiveSessions();
  return (dir, bytes, exchange) => {
    const text = bytes.toString("utf8");
    for (const finding of sessions.check({ dir, text, message: parseLine(text) }, exchange)) process.stderr.write(`mcp-wire record --check: ${formatFinding(out, finding)}\n`);
  };
}
