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

/** Runs the CLI (in `env`, ours unless given); a run still going after `guardMs` is killed and fails the test: that is the hang. */
export function runCli(args: string[], guardMs = 30_000, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
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

export interface BrowsingRun extends Run { browsed: number }

/**
 * Runs the CLI with its config directory at `config`; with `browse`, opens the authorization URL it
 * prints (an /authorize URL on 127.0.0.1) and follows the redirect to its loopback listener, as a
 * person's browser would.
 */
export function runBrowsing(args: string[], config: string, browse: boolean): Promise<BrowsingRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, XDG_CONFIG_HOME: config }, stdio: ["ignore", "pipe", "pipe"] });
    const result: BrowsingRun = { code: null, stdout: "", stderr: "", browsed: 0 };
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the CLI was still running after 20 s; stderr:\n${result.stderr}`));
    }, 20_000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (result.stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      result.stderr += chunk;
      const url = /\n {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)\n/.exec(result.stderr)?.[1];
      if (!browse || url === undefined || result.browsed > 0) return;
      result.browsed++;
      void (async () => {
        const approved = await fetch(url, { redirect: "manual" });
        const page = await fetch(approved.headers.get("location")!);
        assert.match(await page.text(), /close this window/);
      })();
    });
    child.once("close", (code) => {
      clearTimeout(guard);
      resolve({ ...result, code });
    });
  });
}
