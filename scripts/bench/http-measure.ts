// The HTTP side of the benchmark: starts a server that listens on a free loopback port and prints
// its endpoint on stderr, runs scripts/bench/http-load.mjs against it in a process of its own, and
// stops the server with SIGTERM. Returns the driver's figures; wrong answers become
// BenchCorrectnessError, a server that does not start or a driver that crashes a plain Error.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { CLOCK_TICKS_PER_SECOND, type ServerCommand } from "./child.js";
import { runDriverScript } from "./client-measure.js";
import { BenchCorrectnessError } from "./measure.js";

/** How answers come back: one application/json body, or an SSE stream per POST. */
export type HttpMode = "json" | "sse";

export interface HttpLoadResult {
  callsPerSecond: number;
  /** The server's user+sys CPU time over the timed calls, per call. */
  cpuMicrosecondsPerCall: number;
  /** The load driver's own CPU per call: near a whole core's worth per second, the driver is the limit. */
  driverCpuMicrosecondsPerCall: number;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const DRIVER = here("./http-load.mjs");

/** The servers compared in each mode: ours answers with SSE streams unless told to answer with JSON. */
export const HTTP_SERVERS: Record<HttpMode, { ours: ServerCommand; baseline: ServerCommand }> = {
  json: {
    ours: { name: "ours", script: here("./http-json-server.mjs"), args: [] },
    baseline: { name: "baseline", script: here("./baseline-http.mjs"), args: ["json"] },
  },
  sse: {
    ours: { name: "ours", script: here("../../dist/server.js"), args: ["--http", "--port", "0"] },
    baseline: { name: "baseline", script: here("./baseline-http.mjs"), args: ["sse"] },
  },
};
const ENDPOINT = /(http:\/\/\S+?\/mcp)\b/;
const STDERR_KEPT = 4096;
const START_TIMEOUT_MS = 10_000;
const DRIVER_TIMEOUT_MS = 60_000;
const EXIT_WAIT_MS = 10_000;

/** `calls` echo calls over one session, `inFlight` outstanding, against a fresh `command` server. */
export async function httpLoad(command: ServerCommand, mode: HttpMode, calls: number, inFlight: number): Promise<HttpLoadResult> {
  const server = spawn(process.execPath, [...(command.nodeArgs ?? []), command.script, ...command.args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const failure = (message: string) => new Error(`${command.name}: http ${mode} load: ${message}${stderr.trim() ? `\n  server stderr: ${stderr.trim()}` : ""}`);
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(failure(`no endpoint printed within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      server.once("exit", (code) => (clearTimeout(timer), reject(failure(`server exited with code ${code} before listening`))));
      let listening = false;
      server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr = (stderr + chunk).slice(-STDERR_KEPT);
        const match = listening ? null : ENDPOINT.exec(stderr);
        if (!match) return;
        // From here on, stderr keeps only what the server says after its endpoint line.
        listening = true;
        stderr = stderr.slice(stderr.indexOf("\n", match.index) + 1);
        clearTimeout(timer);
        resolve(match[1]!);
      });
    });
    const args = [endpoint, mode, String(calls), String(inFlight), String(server.pid), String(CLOCK_TICKS_PER_SECOND)];
    const figures = await runDriverScript([DRIVER, ...args], failure);
    if (server.exitCode !== null) throw failure(`server exited with code ${server.exitCode} during the run`);
    const { seconds, serverCpuMicroseconds, driverCpuMicroseconds } = figures as { seconds: number; serverCpuMicroseconds: number; driverCpuMicroseconds: number };
    return { callsPerSecond: calls / seconds, cpuMicrosecondsPerCall: serverCpuMicroseconds / calls, driverCpuMicrosecondsPerCall: driverCpuMicroseconds / calls };
  } finally {
    server.kill("SIGTERM");
    const timer = setTimeout(() => server.kill("SIGKILL"), EXIT_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }
}

