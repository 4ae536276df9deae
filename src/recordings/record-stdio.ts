// `mcp-wire record` over stdio: a transparent proxy that a host starts in place of the server
// command. Our stdin goes to the server's stdin and the server's stdout to our stdout, byte for
// byte (a malformed line included); its stderr goes to our stderr; each complete line of either
// direction is appended to the recording as it passes. The server's exit (code or signal) is ours.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio and
// https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#stdio (stopping a server)
// Nothing of the proxy's own goes to stdout: it would corrupt the host's stream. Its messages go to
// stderr. It does not parse what passes: the recording keeps lines, the readers make sense of them.

import { spawn, type ChildProcess } from "node:child_process";
import { SpawnError, signalGroup } from "../transports/stdio-client.js";
import { launchCommand } from "../transports/windows-command.js";
import { LineCutter, RecordFileError, SessionFile } from "./record-file.js";
import { quoteArgument } from "./recording.js";

export interface StdioRecordOptions {
  /** The recording to write (created or truncated). */
  out: string;
  command: string;
  args: string[];
  /** The longest line recorded whole, in bytes; a longer one passes through and is noted by its length. */
  maxLineBytes: number;
  /** After a signal is passed on, how long the server has to exit before its group is killed (ms). */
  graceMs: number;
  /** Told each line as it is recorded (record --check). */
  onLine?: (dir: "c2s" | "s2c", bytes: Buffer) => void;
}

/** How the server ended: the proxy ends the same way. */
export interface ServerEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Signals a host sends to stop its server: each is passed on to the server's process group. */
const PASSED_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
/**
 * After the server exits, how long its stdout may stay quiet before the proxy stops waiting for
 * its end (a grandchild may hold the pipe open). Quiet means nothing arrives while the host is
 * taking what it was given: a host that reads slowly is waited for, or its last lines would be lost.
 */
const DRAIN_AFTER_EXIT_MS = 100;

/** Runs the proxy until the server exits; rejects with SpawnError if it cannot start, or RecordFileError if the file cannot be created. */
export async function recordStdio(options: StdioRecordOptions): Promise<ServerEnd> {
  const file = new SessionFile(options.out, {
    prose: [`Recorded by mcp-wire record on ${new Date().toISOString()}.`],
    transport: "stdio",
    command: [options.command, ...options.args].map(quoteArgument).join(" "),
  }, options.onLine);
  const cutter = (dir: "c2s" | "s2c") => new LineCutter(
    options.maxLineBytes,
    (bytes, start, end) => file.line(dir, bytes, start, end),
    (bytes) => file.note(`${dir === "c2s" ? ">" : "<"} +${Math.round(file.elapsed)} a line of ${bytes} bytes passed through, longer than --max-line-bytes ${options.maxLineBytes}: not recorded`),
  );
  const clientLines = cutter("c2s");
  const serverLines = cutter("s2c");

  const { file: program, args, windowsVerbatimArguments } = launchCommand(options.command, options.args);
  const child = spawn(program, args, {
    stdio: ["pipe", "pipe", "pipe"],
    // Its own process group (POSIX), as our client starts a server, so that stopping it stops all it started.
    detached: process.platform !== "win32",
    windowsHide: true,
    windowsVerbatimArguments,
  });
  const killOnExit = () => signalGroup(child, "SIGKILL");
  // Whatever ends this process (an uncaught error included), the server does not outlive it.
  process.once("exit", killOnExit);
  const stopOnSignal = (signal: NodeJS.Signals) => {
    signalGroup(child, signal);
    setTimeout(() => signalGroup(child, "SIGKILL"), options.graceMs).unref();
  };
  for (const signal of PASSED_SIGNALS) process.on(signal, stopOnSignal);

  try {
    return await new Promise<ServerEnd>((resolve, reject) => {
      child.once("error", (error) => reject(new SpawnError(options.command, error)));
      let quiet: NodeJS.Timeout | undefined;
      child.once("exit", (code, signal) => {
        const finish = () => {
          clearTimeout(quiet);
          resolve({ code, signal });
        };
        // Still feeding the host (its pipe full, or the server's output paused for it): not quiet yet.
        const feeding = () => process.stdout.writableLength > 0 || child.stdout!.readableFlowing === false;
        quiet = setTimeout(function waited() {
          if (feeding()) quiet = setTimeout(waited, DRAIN_AFTER_EXIT_MS);
          else finish();
        }, DRAIN_AFTER_EXIT_MS);
        if (child.stdout!.readableEnded) finish();
        else child.stdout!.once("end", finish);
      });
      const fromClient = (chunk: Buffer) => file.record(() => clientLines.push(chunk));
      // The quiet wait counts from the end of the last write to the host, which may have blocked.
      const fromServer = (chunk: Buffer) => (file.record(() => serverLines.push(chunk)), quiet?.refresh());
      pipeThrough(child, fromClient, fromServer);
      // The host's last line may have no newline: it is recorded when the host closes the stream.
      process.stdin.once("end", () => file.record(() => clientLines.end()));
    });
  } finally {
    for (const signal of PASSED_SIGNALS) process.off(signal, stopOnSignal);
    process.off("exit", killOnExit);
    // The server is gone; anything it started in its group goes with it.
    killOnExit();
    process.stdin.unpipe(child.stdin!);
    process.stdin.destroy();
    // A last line without its newline is still recorded.
    file.record(() => (clientLines.end(), serverLines.end()));
    file.close();
  }
}

/** The three pipes, each passed on unchanged; `fromClient` and `fromServer` see each chunk after it is passed on. */
function pipeThrough(child: ChildProcess, fromClient: (chunk: Buffer) => void, fromServer: (chunk: Buffer) => void): void {
  // pipe() handles backpressure both ways; its "data" listener is added first, so the bytes are
  // passed on before they are recorded.
  process.stdin.pipe(child.stdin!);
  process.stdin.on("data", fromClient);
  // A server that exits while the host still writes: EPIPE here, and the exit is what gets reported.
  child.stdin!.on("error", () => {});
  // Spec (basic/transports#stdio): a server MUST NOT write to stdout anything that is not an MCP
  // message; the proxy stands in for the server, so stdout carries the server's bytes and nothing else.
  child.stdout!.pipe(process.stdout, { end: false });
  child.stdout!.on("data", fromServer);
  child.stderr!.pipe(process.stderr, { end: false });
  // A host gone away (EPIPE) is not a failure of ours; our stdin ends too, and the server with it.
  process.stdout.on("error", () => {});
}
