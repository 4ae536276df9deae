// Serving a server definition on this process's own stdin and stdout, with the process-level
// rules: exit when stdin ends (after answering what is in flight), on SIGTERM and SIGINT, and
// treat a closed stdout (EPIPE) as a shutdown. Spec: basic/lifecycle#stdio (shutdown).

import type { McpServer } from "../server/definition.js";
import type { ServerSession } from "../server/session.js";
import { StreamTransport, type StreamTransportOptions } from "./stdio.js";

/** How long after the session closes the process may take to exit on its own before it is made to. */
const EXIT_GRACE_MS = 300;

export interface ServeStdioOptions extends StreamTransportOptions {
  /** The process to serve on (default: this one). Tests pass a stand-in. */
  process?: Pick<NodeJS.Process, "stdin" | "stdout" | "stderr" | "exit" | "on">;
}

export function serveStdio(server: McpServer, options: ServeStdioOptions = {}): ServerSession {
  const host = options.process ?? process;
  const transport = new StreamTransport(host.stdin, host.stdout, options);
  const session = server.connect(transport, {
    onProblem: (message) => host.stderr.write(`mcp-wire-server: ${message}\n`),
  });
  session.onClose(() => {
    host.stdin.destroy();
    // Let queued writes reach stdout, then go; an unref'd timer never holds the process up itself.
    setTimeout(() => host.exit(0), EXIT_GRACE_MS).unref();
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    host.on(signal, () => void session.close());
  }
  return session;
}
