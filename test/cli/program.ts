// Runs the built CLI as a child process, for the program tests of test/cli/. Run `npm run build`
// first. It is tsc's CLI, unbundled and with source maps, so that coverage reaches src/cli/;
// dist/cli.js is the same program in one file (scripts/bundle.ts), and test/programs/bundle.test.ts
// runs that one.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ExitCode } from "../../src/cli/output.js";

export const CLI = fileURLToPath(new URL("../../dist/cli.unbundled.js", import.meta.url));
export const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
/** The demo server, after "--". */
export const DEMO = ["--", process.execPath, SERVER];

export interface Run { code: number | null; stdout: string; stderr: string }

/** Runs the CLI; a run still going after `guardMs` is killed and fails the test: that is the hang. */
export function runCli(args: string[], guardMs = 30_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the CLI was still running after ${guardMs} ms; stderr:\n${stderr}`));
    }, guardMs);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Checks the exit code (showing stderr when it is wrong) and returns stdout parsed as JSON. */
export function parsedOutput(result: Run, code: number = ExitCode.ok): { [key: string]: any } {
  assert.equal(result.code, code, `exit code; stderr:\n${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** A server command line running `source` with node, after "--". */
export const nodeScript = (source: string): string[] => ["--", process.execPath, "-e", source];
