// The server a replay talks to, seen as lines: write a line, end the input, hear each line the
// server writes, learn when it has closed. Two kinds: a spawned stdio command (mcp-wire replay),
// and any pair of streams (our golden tests run the demo server in process over them).
// Lines are written and read as raw text, not as messages: a recording's malformed line must reach
// the server exactly as it was recorded. What the server writes is cut by record's LineCutter, so a
// line is bounded (maxLineBytes): a server that writes a longer one, or one without end, is stopped.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio

import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../jsonrpc/framing.js";
import { launchCommand } from "../transports/windows-command.js";
import { LineCutter } from "./record-file.js";

/** How a server ended: its exit code or signal (null for an in-process server). */
export interface PeerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the server could not be started or reached at all, as the end of "the server ...". */
  error?: string;
}

export interface ReplayPeer {
  write(line: string): void;
  /** Ends the server's input: the stdio way of ending a session. */
  end(): void;
  /** Called with each line the server writes, without its newline. */
  onLine(listener: (line: string) => void): void;
  /** Settles once the server's output has ended (and, for a process, it has exited). */
  readonly closed: Promise<PeerExit>;
  /** Stops a server that did not close by itself. */
  stop(): void;
}

export interface PeerOptions {
  /**
   * The longest line the server may write, in bytes (default DEFAULT_MAX_LINE_BYTES, as record's
   * --max-line-bytes). One longer, even one still without its end, stops the server: `closed`
   * settles with an error saying so.
   */
  maxLineBytes?: number;
}

/** The default bound on one line from the server: the one on a message, wherever we read one whole. */
export const DEFAULT_MAX_LINE_BYTES = DEFAULT_MAX_MESSAGE_BYTES;

/** A peer over two streams: `input` is what the server reads, `output` what it writes. */
export function streamPeer(input: Writable, output: Readable, finished: Promise<PeerExit> = ended(output), options: PeerOptions = {}): ReplayPeer {
  return linePeer(input, output, finished, () => void input.destroy(), options);
}

/** Starts `command args...` as a stdio server; its stderr is passed to `onStderr` (default: dropped). */
export function spawnPeer(command: string, args: string[], onStderr: (chunk: Buffer) => void = () => {}, options: PeerOptions = {}): ReplayPeer {
  const launch = launchCommand(command, args);
  // Its own process group, so that stop() reaches whatever the command started (npx, a shell).
  const child = spawn(launch.file, launch.args, {
    stdio: ["pipe", "pipe", "pipe"],
    detached: process.platform !== "win32",
    windowsVerbatimArguments: launch.windowsVerbatimArguments,
  });
  child.stderr.on("data", onStderr);
  const exited = new Promise<PeerExit>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal }));
    child.on("error", (error) => resolve({ code: null, signal: null, error: `could not be started (${error.message})` }));
  });
  const stop = () => {
    try {
      if (process.platform === "win32" || child.pid === undefined) child.kill("SIGKILL");
      else process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  return linePeer(child.stdin, child.stdout, exited, stop, options);
}

function linePeer(input: Writable, output: Readable, finished: Promise<PeerExit>, stop: () => void, options: PeerOptions): ReplayPeer {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let listener: (line: string) => void = () => {};
  let overflowed: (exit: PeerExit) => void = () => {};
  const overflow = new Promise<PeerExit>((resolve) => (overflowed = resolve));
  readLines(output, maxLineBytes, (line) => listener(line), () => {
    stop();
    overflowed({ code: null, signal: null, error: `wrote a line longer than the limit of ${maxLineBytes} bytes (--max-line-bytes), and was stopped` });
  });
  input.on("error", () => {}); // a server that stopped reading: what it wrote is what counts
  return {
    write: (line) => void input.write(line + "\n"),
    end: () => void input.end(),
    onLine: (next) => void (listener = next),
    closed: Promise.race([finished, overflow]),
    stop,
  };
}

function ended(output: Readable): Promise<PeerExit> {
  return new Promise((resolve) => {
    const done = () => resolve({ code: null, signal: null });
    output.on("end", done);
    output.on("close", done);
    output.on("error", done);
  });
}

/**
 * Calls `each` with every newline-terminated line (and a last unterminated one at the end), as UTF-8
 * text; `tooLong` once a line passes `maxLineBytes`, as soon as its bytes so far do (a line that
 * never ends must not wait for its newline), and then no more lines.
 */
function readLines(output: Readable, maxLineBytes: number, each: (line: string) => void, tooLong: () => void): void {
  let over = false;
  const fail = () => {
    if (over) return;
    over = true;
    tooLong();
  };
  const cutter = new LineCutter(maxLineBytes, (bytes, start, end) => {
    if (over) return;
    const line = bytes.toString("utf8", start, end);
    each(line.endsWith("\r") ? line.slice(0, -1) : line);
  }, fail);
  /** Bytes of the line under way, which the cutter reports only when its newline comes. */
  let open = 0;
  output.on("data", (chunk: Buffer) => {
    if (over) return;
    const last = chunk.lastIndexOf(0x0a);
    open = last === -1 ? open + chunk.length : chunk.length - last - 1;
    cutter.push(chunk);
    if (open > maxLineBytes) fail();
  });
  output.on("end", () => cutter.end());
}
