// A wire tap for stdio MCP: it sits between a client and the server it spawns, passes every line
// through unchanged, and appends each one to a log as {"dir":"c2s"|"s2c","msg":<message>}, the
// format of the recorded sessions in fixtures/modern/. Appending lets several runs (SDK v2's
// throwaway probe process, then the real one) share one log, in the order they happened.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio (framing)
// Usage: node tap.mjs <log file> <server command> [args...]

import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [log, command, ...args] = process.argv.slice(2);
if (!log || !command) {
  process.stderr.write("usage: node tap.mjs <log file> <server command> [args...]\n");
  process.exit(2);
}

const server = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

/** Logs one line and passes it on; a line that is not JSON is logged as a string. */
function relay(dir, line, to) {
  let msg = line;
  try {
    msg = JSON.parse(line);
  } catch {}
  appendFileSync(log, JSON.stringify({ dir, msg }) + "\n");
  to.write(line + "\n");
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => relay("c2s", line, server.stdin)).on("close", () => server.stdin.end());
createInterface({ input: server.stdout, crlfDelay: Infinity }).on("line", (line) => relay("s2c", line, process.stdout));
server.stdin.on("error", () => {});
// The client may kill the tap rather than close its stdin; the server must not outlive it.
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => (server.kill(signal), process.exit(143)));
server.on("close", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
