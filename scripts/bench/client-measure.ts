// The client side of the benchmark: runs scripts/bench/client-driver.mjs, our McpClient or a raw
// JSON-line client in a process of its own against the baseline echo server, and returns the
// figures the driver printed. Wrong answers reported by the driver become BenchCorrectnessError.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BenchCorrectnessError } from "./measure.js";

/** Which client drives the server: ours (McpClient over StdioClientTransport) or the raw one. */
export type ClientSide = "ours" | "raw";

export interface ClientLoadResult {
  cpuMicrosecondsPerCall: number;
  callsPerSecond: number;
  peakRssBytes: number;
}

const DRIVER = fileURLToPath(new URL("./client-driver.mjs", import.meta.url));
const STDERR_KEPT = 4096;
const DRIVER_TIMEOUT_MS = 120_000;

/** `calls` echo calls with `window` outstanding; CPU is the client process's, from first call to last answer. */
export async function clientLoad(side: ClientSide, calls: number, window: number, nodeArgs: string[] = []): Promise<ClientLoadResult> {
  const figures = await runDriver(side, ["load", String(calls), String(window)], `client load of ${calls} calls`, nodeArgs);
  const { cpuMicroseconds, seconds, peakRssBytes } = figures as { cpuMicroseconds: number; seconds: number; peakRssBytes: number };
  return { cpuMicrosecondsPerCall: cpuMicroseconds / calls, callsPerSecond: calls / seconds, peakRssBytes };
}

/** Milliseconds from the call made to the result in hand, for an echo of a `bytes`-byte text. */
export async function clientLarge(side: ClientSide, bytes: number, nodeArgs: string[] = []): Promise<number> {
  const figures = await runDriver(side, ["large", String(bytes)], `client echo of ${bytes} bytes`, nodeArgs);
  return (figures as { elapsedMs: number }).elapsedMs;
}

/** Runs the client driver; see runDriverScript. */
function runDriver(side: ClientSide, args: string[], step: string, nodeArgs: string[]): Promise<{ [key: string]: unknown }> {
  const name = `${side} client`;
  return runDriverScript([...nodeArgs, DRIVER, side, ...args], (message) => new Error(`${name}: ${step}: ${message}`));
}

/**
 * Runs a driver script (with node's own options first) to its end and returns the JSON object on
 * the last line of its stdout; a `problem` there is a BenchCorrectnessError. Shared by the client
 * and HTTP measurements.
 */
export function runDriverScript(nodeArgsAndScript: string[], failure: (message: string) => Error): Promise<{ [key: string]: unknown }> {
  const child = spawn(process.execPath, nodeArgsAndScript, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-STDERR_KEPT)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), DRIVER_TIMEOUT_MS);
    const fail = (message: string) => reject(failure(`${message}${stderr.trim() ? `\n  stderr: ${stderr.trim()}` : ""}`));
    child.on("error", (error) => (clearTimeout(timer), fail(error.message)));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return fail(signal === "SIGKILL" ? `no result after ${DRIVER_TIMEOUT_MS} ms` : `driver exited with code ${code ?? signal}`);
      const lines = stdout.trim().split("\n");
      let figures: { [key: string]: unknown };
      try {
        figures = JSON.parse(lines[lines.length - 1]!) as { [key: string]: unknown };
      } catch {
        return fail(`unreadable driver output ${JSON.stringify(stdout.slice(0, 300))}`);
      }
      if (typeof figures.problem === "string") reject(new BenchCorrectnessError(failure(figures.problem).message));
      else resolve(figures);
    });
  });
}
