// Serving a server definition on this process's own stdin and stdout, with the process-level
// rules: when stdin ends, answer what is in flight, flush stdout, then exit; exit at once on
// SIGTERM and SIGINT; treat a closed stdout (EPIPE) as a shutdown. Spec: basic/lifecycle#stdio
// (shutdown): the host closes our stdin, waits as long as it likes, then signals. No deadline is ours.

import type { Writable } from "node:stream";
import type { McpServer } from "../server/definition.js";
import type { ServerConnection } from "../server/connection.js";
import { StreamTransport, type StreamTransportOptions } from "./stdio.js";

export interface ServeStdioOptions extends StreamTransportOptions {
  /** The process to serve on (default: this one). Tests pass a stand-in. */
  process?: Pick<NodeJS.Process, "stdin" | "stdout" | "stderr" | "exit" | "on">;
  /** The most requests in flight before stdin stops being read (see ConnectionOptions.maxInFlight). */
  maxInFlight?: number;
  /** The name its problem lines on stderr begin with (default: the server's ServerInfo.name), as a program's bin is called. */
  programName?: string;
}

export function serveStdio(server: McpServer, options: ServeStdioOptions = {}): ServerConnection {
  const host = options.process ?? process;
  // A host that sends requests but does not read our answers stops being read (see StreamTransport).
  const transport = new StreamTransport(host.stdin, host.stdout, { pauseWhileOutputBlocked: true, ...options });
  const session = server.connect(transport, { onProblem: problemLog(host.stderr, options.programName ?? server.info.name), maxInFlight: options.maxInFlight });
  let signalled = false;
  session.onClose(() => {
    host.stdin.destroy();
    if (signalled) host.exit(0);
    else afterFlush(host.stdout, () => host.exit(0));
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    host.on(signal, () => {
      // The host wants us gone now: what stdout has not taken yet is not waited for.
      signalled = true;
      if (session.state === "closed") host.exit(0);
      else void session.close();
    });
  }
  return session;
}

/** Calls `done` once everything written to `output` has been handed to the OS (or it failed). */
function afterFlush(output: Writable, done: () => void): void {
  if (output.writableFinished || output.destroyed || output.errored) return done();
  let called = false;
  const once = () => {
    if (!called) (called = true), done();
  };
  output.once("finish", once);
  output.once("close", once);
  output.once("error", once);
  output.end();
}

/**
 * Problem lines for stderr, each `name: message`, under the program's own name: a host that
 * starts several servers shows their stderr side by side. A host that never reads our stderr must
 * not make us buffer its lines without bound: while stderr is backed up, lines are dropped and
 * counted, and the count is reported once it drains. A line per problem is ~100 bytes; stderr's
 * buffer holds 16 KiB of them.
 */
export function problemLog(stderr: Writable, name: string): (message: string) => void {
  let dropped = 0;
  stderr.on("drain", () => {
    if (dropped === 0) return;
    stderr.write(`${name}: ${dropped} problem line${dropped === 1 ? "" : "s"} dropped while stderr was not read\n`);
    dropped = 0;
  });
  return (message) => {
    if (stderr.writableNeedDrain) dropped++;
    else stderr.write(`${name}: ${message}\n`);
  };
}
