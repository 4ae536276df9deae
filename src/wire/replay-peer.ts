// The server a replay talks to, seen as lines: write a line, end the input, hear each line the
// server writes, learn when it has closed. Two kinds: a spawned stdio command (mcp-wire replay),
// and any pair of streams (our golden tests run the demo server in process over them).
// Lines are written and read as raw text, not as messages: a recording's malformed line must reach
// the server exactly as it was recorded.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio

import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { launchCommand } from "../transports/windows-command.js";

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

/** A peer over two streams: `input` is what the server reads, `output` what it writes. */
export function streamPeer(input: Writable, output: Readable, finished: Promise<PeerExit> = ended(output)): ReplayPeer {
  let listener: (line: string) => void = () => {};
  splitLines(output, (line) => listener(line));
  input.on("error", () => {}); // a server that stopped reading: what it wrote is what counts
  return {
    write: (line) => void input.write(line + "\n"),
    end: () => void input.end(),
    onLine: (next) => void (listener = next),
    closed: finished,
    stop: () => void input.destroy(),
  };
}

/** Starts `command args...` as a stdio server; its stderr is passed to `onStderr` (default: dropped). */
export function spawnPeer(command: string, args: string[], onStderr: (chunk: Buffer) => void = () => {}): ReplayPeer {
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
  const peer = streamPeer(child.stdin, child.stdout, exited);
  return {
    ...peer,
    stop: () => {
      try {
        if (process.platform === "win32" || child.pid === undefined) child.kill("SIGKILL");
        else process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    },
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

/** Calls `each` with every newline-terminated line (and a last unterminated one at the end). */
function splitLines(output: Readable, each: (line: string) => void): void {
  let rest = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    for (const part of parts) each(part.endsWith("\r") ? part.slice(0, -1) : part);
  });
  output.on("end", () => {
    if (rest !== "") each(rest);
  });
}
