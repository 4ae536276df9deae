// `mcp-wire record` between two peers nobody here wrote: the official TypeScript SDK's Client over
// its StdioClientTransport, and `@modelcontextprotocol/server-everything`, both pinned. The client
// runs the same calls straight against the server and through the proxy, and must get the same
// results; the recording must hold every line that crossed, which a second, independent capture
// (a tiny relay between the client and the proxy, below) logs as well. The recording then passes
// `mcp-wire check` and `mcp-wire replay` against the same server.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// Run: `npm run interop:record` (exits 1 if any check fails). The peers are installed in the same
// cache as scripts/interop-client.ts's, outside this project.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseRecording, type Direction } from "../src/wire/recording.js";
import { EVERYTHING_VERSION } from "./interop-client.js";
import { Checks, installPinned, run, SDK_VERSION, tail, withoutNpmConfig } from "./interop.js";

const PACKAGE = "@modelcontextprotocol/server-everything";
const PEERS_DIR = join(tmpdir(), "mcp-wire-interop", `server-everything-${EVERYTHING_VERSION}_sdk-${SDK_VERSION}`);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist", "cli.cjs");
const REQUEST_TIMEOUT_MS = 10_000;
const TOOL_TIMEOUT_MS = 60_000;
/** The SDK gives a server 2 s after closing its stdin before it signals it: the proxy must be gone by then. */
const EXIT_LIMIT_MS = 2_000;
const LATE_PROGRESS = /^Received a progress notification for an unknown token: .*"progress":4,"total":4/;

/**
 * The independent capture: a relay that passes its stdin to its command's stdin and the command's
 * stdout to its stdout, and logs each complete line of either direction as {"dir","text"}. It
 * shares no code with the proxy. Run as `node -e TAP LOG -- command args...`.
 */
const TAP = `
const { spawn } = require("node:child_process");
const { openSync, writeSync } = require("node:fs");
const [log, , command, ...args] = process.argv.slice(1);
const fd = openSync(log, "w");
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
function tap(dir, from, to) {
  let rest = Buffer.alloc(0);
  from.on("data", (chunk) => {
    to.write(chunk);
    rest = Buffer.concat([rest, chunk]);
    for (let end = rest.indexOf(10); end !== -1; end = rest.indexOf(10)) {
      writeSync(fd, JSON.stringify({ dir, text: rest.subarray(0, end).toString("utf8") }) + "\\n");
      rest = rest.subarray(end + 1);
    }
  });
}
tap("c2s", process.stdin, child.stdin);
tap("s2c", child.stdout, process.stdout);
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {});
child.on("exit", (code) => process.exit(code ?? 1));
`;

interface SdkModule {
  Client: new (clientInfo: { name: string; version: string }, options: { capabilities: Record<string, unknown> }) => SdkClient;
  StdioClientTransport: new (server: { command: string; args: string[]; cwd?: string; stderr?: "pipe" | "inherit" }) => unknown;
}
interface RequestOptions { timeout: number }
interface SdkClient {
  onerror?: (error: Error) => void;
  connect(transport: unknown, options?: RequestOptions): Promise<void>;
  getServerVersion(): unknown;
  getServerCapabilities(): unknown;
  listTools(params?: undefined, options?: RequestOptions): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }, resultSchema?: undefined, options?: RequestOptions): Promise<unknown>;
  listResources(params?: undefined, options?: RequestOptions): Promise<unknown>;
  readResource(params: { uri: string }, options?: RequestOptions): Promise<unknown>;
  listPrompts(params?: undefined, options?: RequestOptions): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }, options?: RequestOptions): Promise<unknown>;
  ping(options?: RequestOptions): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * What the client saw in one session: each step's result in order, what it reported through
 * onerror, and how long close() took. SDK 1.32.2 at times reports the last progress notification
 * of a call as for an unknown token, though it crosses before the answer (the recording shows the
 * order): when both come in one read, it handles the answer first. Whether they do depends on the
 * timing of the reads, with or without the proxy (seen in both, in neither), so that report alone
 * is set apart from the problems, which must be none.
 */
interface Session {
  results: [string, unknown][];
  /** How often the SDK's report of a progress notification handled after its answer came (see above). */
  lateProgress: number;
  closedMs: number;
  problems: string[];
}

/** The same calls for both sessions; none of their results changes from run to run. */
async function session(sdk: SdkModule, command: string, args: string[]): Promise<Session> {
  const transport = new sdk.StdioClientTransport({ command, args, cwd: PEERS_DIR, stderr: "pipe" });
  const client = new sdk.Client({ name: "mcp-wire-interop-record", version: "0.1.0" }, { capabilities: {} });
  const problems: string[] = [];
  let lateProgress = 0;
  client.onerror = (error) => (LATE_PROGRESS.test(error.message) ? lateProgress++ : problems.push(error.message));
  const limit = { timeout: REQUEST_TIMEOUT_MS };
  const results: [string, unknown][] = [];
  const step = async (name: string, call: () => Promise<unknown>) => results.push([name, await call()]);
  try {
    await step("initialize", async () => (await client.connect(transport, limit), { server: client.getServerVersion(), capabilities: client.getServerCapabilities() }));
    await step("tools/list", () => client.listTools(undefined, limit));
    await step("tools/call echo", () => client.callTool({ name: "echo", arguments: { message: "through mcp-wire record" } }, undefined, limit));
    await step("tools/call get-sum", () => client.callTool({ name: "get-sum", arguments: { a: 3, b: 4 } }, undefined, limit));
    await step("tools/call get-structured-content", () => client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } }, undefined, limit));
    // Progress notifications interleave with the answer: the s2c order is part of what is compared.
    await step("tools/call trigger-long-running-operation", () =>
      client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 1, steps: 4 } }, undefined, { timeout: TOOL_TIMEOUT_MS, onprogress: () => {} } as RequestOptions));
    await step("resources/list", () => client.listResources(undefined, limit));
    await step("prompts/list", () => client.listPrompts(undefined, limit));
    await step("prompts/get simple-prompt", () => client.getPrompt({ name: "simple-prompt" }, limit));
    await step("ping", () => client.ping(limit));
  } catch (error) {
    await client.close();
    throw error;
  }
  const started = performance.now();
  await client.close();
  return { results, closedMs: performance.now() - started, problems, lateProgress };
}

/** The recorded lines of one direction, as text, in the order they crossed. */
function linesOf(entries: { dir: Direction; text: string }[], dir: Direction): string[] {
  return entries.filter((entry) => entry.dir === dir).map((entry) => entry.text);
}

async function main(): Promise<void> {
  const checks = new Checks((check) => process.stdout.write(`${check.ok ? "PASS" : "FAIL"}  ${check.name}${check.detail ? `: ${check.detail.replace(/\n/g, "\n      ")}` : ""}\n`));
  const work = mkdtempSync(join(tmpdir(), "mcp-wire-interop-record-"));
  const recording = join(work, "everything.recording");
  const tapLog = join(work, "tap.jsonl");
  const server = [join(PEERS_DIR, "node_modules", ...PACKAGE.split("/"), "dist", "index.js"), "stdio"];
  try {
    const installed = await checks.run(`install ${PACKAGE}@${EVERYTHING_VERSION} with @modelcontextprotocol/sdk@${SDK_VERSION}`, async () => {
      const fresh = await installPinned(PEERS_DIR, "mcp-wire-interop-everything", { [PACKAGE]: EVERYTHING_VERSION });
      // The SDK the server depends on (pinned by installPinned) is the client too, imported from there.
      writeFileSync(join(PEERS_DIR, "sdk-client-record.mjs"), [
        "// Generated by mcp-wire's scripts/interop-record.ts: the official SDK client, resolved from this directory.",
        'export { Client } from "@modelcontextprotocol/sdk/client/index.js";',
        'export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";',
      ].join("\n") + "\n");
      return `${fresh ? "installed into" : "already in"} ${PEERS_DIR}`;
    });
    if (!installed) return;
    const sdk = (await import(pathToFileURL(join(PEERS_DIR, "sdk-client-record.mjs")).href)) as SdkModule;

    let direct: Session | undefined;
    let proxied: Session | undefined;
    await checks.run("sdk client -> server-everything, direct", async () => {
      direct = await session(sdk, process.execPath, server);
      assert.deepEqual(direct.problems, [], "what the client reported through onerror");
      return `${direct.results.length} steps${direct.lateProgress ? "; the SDK handled the last progress notification after the answer" : ""}`;
    });
    await checks.run("sdk client -> tap -> mcp-wire record -> server-everything", async () => {
      proxied = await session(sdk, process.execPath, ["-e", TAP, tapLog, "--", CLI, "record", "--out", recording, "--", process.execPath, ...server]);
      assert.deepEqual(proxied.problems, [], "what the client reported through onerror");
      return `${proxied.results.length} steps${proxied.lateProgress ? "; the SDK handled the last progress notification after the answer" : ""}`;
    });
    if (!direct || !proxied) return;
    await checks.run("the client sees no difference: every result equal to the direct session's", () => {
      assert.deepEqual(proxied!.results, direct!.results);
      return proxied!.results.map(([name]) => name).join(", ");
    });
    await checks.run(`the proxy and its server are gone within ${EXIT_LIMIT_MS} ms of the client closing stdin`, () => {
      assert.ok(proxied!.closedMs < EXIT_LIMIT_MS, `close() took ${Math.round(proxied!.closedMs)} ms: the SDK had to signal the proxy`);
      return `${Math.round(proxied!.closedMs)} ms (direct: ${Math.round(direct!.closedMs)} ms)`;
    });
    await checks.run("the recording holds every line the independent tap saw, in order, each direction", () => {
      const recorded = parseRecording(readFileSync(recording, "utf8"), recording).entries;
      const tapped = readFileSync(tapLog, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as { dir: Direction; text: string });
      for (const dir of ["c2s", "s2c"] as const) assert.deepEqual(linesOf(recorded, dir), linesOf(tapped, dir), `${dir}: the recording and the tap differ`);
      assert.ok(tapped.length >= 2 * proxied!.results.length, `only ${tapped.length} lines for ${proxied!.results.length} calls`);
      return `${linesOf(tapped, "c2s").length} client lines and ${linesOf(tapped, "s2c").length} server lines, byte for byte`;
    });
    await checks.run("mcp-wire check passes the recording", async () => {
      const result = await run(process.execPath, [CLI, "check", recording], { cwd: ROOT, timeoutMs: REQUEST_TIMEOUT_MS, env: withoutNpmConfig() });
      assert.equal(result.code, 0, `${result.failure}\n${tail(result.stdout + result.stderr)}`);
      return tail(result.stdout.trim(), 200);
    });
    await checks.run("mcp-wire replay of the recording against the same server matches", async () => {
      const result = await run(process.execPath, [CLI, "replay", recording, "--", process.execPath, ...server], { cwd: PEERS_DIR, timeoutMs: TOOL_TIMEOUT_MS, env: withoutNpmConfig() });
      assert.equal(result.code, 0, `${result.failure}\n${tail(result.stdout + result.stderr)}`);
      return tail(result.stdout.trim(), 200);
    });
  } finally {
    const failed = checks.list.filter((check) => !check.ok).length;
    process.stdout.write(`interop:record: ${checks.list.length - failed} passed, ${failed} failed${failed ? `; files kept in ${work}` : ""}\n`);
    if (failed === 0) rmSync(work, { recursive: true, force: true });
    process.exitCode = failed === 0 ? 0 : 1;
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
