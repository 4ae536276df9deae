// Interop with MCP peers nobody here wrote: the official TypeScript SDK's Client over its
// StdioClientTransport, and the Inspector CLI, each driving `node dist/server.js` (or, with
// `--server dist/textbook/demo.js`, the textbook edition: both serve the same demo).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// The peers are installed at pinned versions into a cache under the OS temp dir, never into this
// project. Run after `npm run build`: `npx tsx scripts/interop.ts` (exits 1 if any check fails).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const SDK_VERSION = "1.32.2";
/** The last standalone Inspector CLI; inspector 2.x needs Node >= 22.19 and this project supports 20. */
export const INSPECTOR_CLI_VERSION = "1.0.3";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER = join(ROOT, "dist", "server.js");
const NOTES = join(ROOT, "PROTOCOL_NOTES.md");
const DEFAULT_PEERS_DIR = join(tmpdir(), "mcp-wire-interop", `sdk-${SDK_VERSION}_inspector-cli-${INSPECTOR_CLI_VERSION}`);
const INSTALL_TIMEOUT_MS = 300_000;
const REQUEST_TIMEOUT_MS = 10_000;
const INSPECTOR_TIMEOUT_MS = 30_000;
const EXIT_LIMIT_MS = 2_000;

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface InteropOptions {
  /** Where the pinned peers are installed (and reused when already there). */
  peersDir?: string;
  /** The server script to run with node; dist/server.js unless told otherwise. */
  server?: string;
  /** Called as each check finishes, e.g. to print it. */
  report?: (check: Check) => void;
}

/** Installs the peers, runs every check, and returns them all; it never throws for a failed check. */
export async function runInterop(options: InteropOptions = {}): Promise<Check[]> {
  const checks = new Checks(options.report);
  const peersDir = options.peersDir ?? DEFAULT_PEERS_DIR;
  const server = options.server ?? SERVER;
  if (!(await checks.run("build: dist/server.js exists", () => assert.ok(existsSync(server), `${server} is missing; run \`npm run build\` first`)))) return checks.list;
  const installed = await checks.run(`peers: @modelcontextprotocol/sdk@${SDK_VERSION} and @modelcontextprotocol/inspector-cli@${INSPECTOR_CLI_VERSION}`, () => installPeers(peersDir));
  if (!installed) return checks.list;
  const notes = readFileSync(NOTES, "utf8");
  await driveWithSdk(peersDir, server, notes, checks);
  await driveWithInspector(peersDir, server, notes, checks);
  return checks.list;
}

export class Checks {
  readonly list: Check[] = [];
  #report: ((check: Check) => void) | undefined;

  constructor(report?: (check: Check) => void) {
    this.#report = report;
  }

  /** Runs one check: it passes unless `body` throws; a string it returns becomes the detail. */
  async run(name: string, body: () => unknown): Promise<boolean> {
    let check: Check;
    try {
      const detail = await body();
      check = { name, ok: true, detail: typeof detail === "string" ? detail : "" };
    } catch (error) {
      check = { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
    }
    this.list.push(check);
    this.#report?.(check);
    return check.ok;
  }
}

// The result shapes checked below, as both peers hand them back (spec: server/tools, resources, prompts).
interface ListToolsResult { tools: { name: string }[] }
interface CallToolResult { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean }
interface ListResourcesResult { resources: { uri: string; mimeType?: string }[] }
interface ReadResourceResult { contents: { uri: string; mimeType?: string; text?: string }[] }
interface ListPromptsResult { prompts: { name: string }[] }
interface GetPromptResult { description?: string; messages: { role: string; content: { type: string; text?: string; resource?: { uri: string } } }[] }

function expectTools(result: ListToolsResult): string {
  const names = result.tools.map((t) => t.name);
  for (const name of ["echo", "add", "get_time"]) assert.ok(names.includes(name), `tools/list: no tool "${name}" in ${JSON.stringify(names)}`);
  return names.join(", ");
}

function expectToolText(result: CallToolResult, expected: string | RegExp): string {
  assert.notEqual(result.isError, true, `tools/call: isError result ${JSON.stringify(result)}`);
  const text = result.content[0]?.text ?? "";
  if (typeof expected === "string") assert.equal(text, expected);
  else assert.match(text, expected);
  return JSON.stringify(text);
}

function expectSum(result: CallToolResult): string {
  expectToolText(result, '{"sum":7}');
  assert.equal(result.structuredContent?.sum, 7, `tools/call add: structuredContent is ${JSON.stringify(result.structuredContent)}`);
  return `'{"sum":7}', structuredContent ${JSON.stringify(result.structuredContent)}`;
}

function expectNotes(result: ReadResourceResult, notes: string): string {
  assert.equal(result.contents.length, 1, "resources/read: expected one content item");
  assert.equal(result.contents[0].uri, "docs://demo/protocol-notes");
  assert.ok(result.contents[0].text === notes, "resources/read: the text differs from PROTOCOL_NOTES.md");
  return `${notes.length} characters, equal to PROTOCOL_NOTES.md`;
}

/** The textbook edition has one prompt, review_message, and the notes only whole (no sections). */
const isTextbook = (server: string) => server.endsWith(join("textbook", "demo.js"));

function expectReview(result: GetPromptResult): string {
  assert.match(result.messages[0]?.content.text ?? "", /^Here is an MCP message sent under protocol version 2025-11-25:\n\{\}\n/);
  return `${result.messages.length} message, ${JSON.stringify(result.description)}`;
}

function expectPrompt(result: GetPromptResult, slug: string): string {
  assert.ok(result.messages.length > 0, "prompts/get: no messages");
  const attached = result.messages.find((m) => m.content.type === "resource")?.content.resource?.uri;
  assert.equal(attached, `docs://demo/protocol-notes/${slug}`, "prompts/get: the attached section");
  return `${result.messages.length} messages, ${JSON.stringify(result.description)}`;
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// ---------------------------------------------------------------------------------------------
// Installing the peers

/**
 * Installs `pinned` (package -> exact version) into `dir`, made its own npm project, unless it is
 * there already; the SDK v1 is overridden to SDK_VERSION whatever range a package asks for, so runs
 * are repeatable. Shared by every interop script. Resolves to whether it installed.
 */
export async function installPinned(dir: string, project: string, pinned: Record<string, string>): Promise<boolean> {
  const wanted: Record<string, string> = { ...pinned, "@modelcontextprotocol/sdk": SDK_VERSION };
  if (Object.entries(wanted).every(([name, version]) => installedVersion(dir, name) === version)) return false;
  mkdirSync(dir, { recursive: true });
  const manifest = { name: project, private: true, dependencies: pinned, overrides: { "@modelcontextprotocol/sdk": SDK_VERSION } };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = await run(npm, ["install", "--prefix", dir, "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, timeoutMs: INSTALL_TIMEOUT_MS, env: withoutNpmConfig() });
  if (result.code !== 0) throw new Error(`npm install in ${dir}: ${result.failure}\n${tail(result.stderr.trim())}`);
  for (const [name, version] of Object.entries(wanted)) assert.equal(installedVersion(dir, name), version, `npm install: ${name}`);
  return true;
}

async function installPeers(dir: string): Promise<string> {
  // The SDK override also gives the Inspector CLI the pinned SDK instead of its ^1.25.2 range.
  const installed = await installPinned(dir, "mcp-wire-interop-peers", { "@modelcontextprotocol/sdk": SDK_VERSION, "@modelcontextprotocol/inspector-cli": INSPECTOR_CLI_VERSION });
  // Bare specifiers resolve from the importing file, so this entry file finds the SDK in `dir`
  // through the SDK's own "exports" map, exactly as an application's import would.
  const entry = [
    "// Generated by mcp-wire's scripts/interop.ts: the official SDK client, resolved from this directory.",
    'export { Client } from "@modelcontextprotocol/sdk/client/index.js";',
    'export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";',
  ];
  writeFileSync(join(dir, "sdk-client.mjs"), entry.join("\n") + "\n");
  return `${installed ? "installed into" : "already in"} ${dir}`;
}

export function installedVersion(dir: string, name: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/** Under `npm run`, npm_config_* variables name this project; a nested npm must not see them. */
export function withoutNpmConfig(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(config|package|lifecycle)_/i.test(key)));
}

// ---------------------------------------------------------------------------------------------
// The official SDK client

interface SdkModule {
  Client: new (clientInfo: { name: string; version: string }, options: { capabilities: Record<string, unknown> }) => SdkClient;
  StdioClientTransport: new (server: { command: string; args: string[]; cwd?: string; stderr?: "pipe" }) => SdkTransport;
}
interface SdkTransport {
  readonly pid: number | null;
  readonly stderr: NodeJS.ReadableStream | null;
}
interface RequestOptions { timeout: number }
interface SdkClient {
  onerror?: (error: Error) => void;
  connect(transport: SdkTransport, options?: RequestOptions): Promise<void>;
  getServerVersion(): { name: string; version: string } | undefined;
  getServerCapabilities(): Record<string, unknown> | undefined;
  listTools(params?: undefined, options?: RequestOptions): Promise<ListToolsResult>;
  callTool(params: { name: string; arguments: Record<string, unknown> }, resultSchema?: undefined, options?: RequestOptions): Promise<CallToolResult>;
  listResources(params?: undefined, options?: RequestOptions): Promise<ListResourcesResult>;
  readResource(params: { uri: string }, options?: RequestOptions): Promise<ReadResourceResult>;
  listPrompts(params?: undefined, options?: RequestOptions): Promise<ListPromptsResult>;
  getPrompt(params: { name: string; arguments: Record<string, string> }, options?: RequestOptions): Promise<GetPromptResult>;
  ping(options?: RequestOptions): Promise<unknown>;
  close(): Promise<void>;
}

async function driveWithSdk(peersDir: string, server: string, notes: string, checks: Checks): Promise<void> {
  const sdk = (await import(pathToFileURL(join(peersDir, "sdk-client.mjs")).href)) as SdkModule;
  // Started from an unrelated directory, as hosts do; the server must not depend on its cwd.
  const transport = new sdk.StdioClientTransport({ command: process.execPath, args: [server], cwd: peersDir, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new sdk.Client({ name: "mcp-wire-interop", version: "0.1.0" }, { capabilities: {} });
  const problems: string[] = [];
  client.onerror = (error) => problems.push(error.message);
  const limit = { timeout: REQUEST_TIMEOUT_MS };
  // Each SDK check's failure carries what the server wrote to stderr, which often says why.
  const step = (name: string, body: () => unknown) =>
    checks.run(`sdk: ${name}`, async () => {
      try {
        return await body();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(stderr ? `${message}\nserver stderr: ${tail(stderr)}` : message);
      }
    });
  let pid: number | null = null;
  try {
    const connected = await step("initialize", async () => {
      // The SDK itself rejects a server that answers with a protocol version it does not support.
      await client.connect(transport, limit);
      pid = transport.pid;
      const info = client.getServerVersion();
      assert.equal(info?.name, "mcp-wire-demo");
      const capabilities = Object.keys(client.getServerCapabilities() ?? {});
      for (const name of ["tools", "resources", "prompts"]) assert.ok(capabilities.includes(name), `initialize: no ${name} capability in ${capabilities}`);
      return `${info?.name} ${info?.version}, capabilities ${capabilities.join(", ")}`;
    });
    if (!connected) return;
    await step("tools/list", async () => expectTools(await client.listTools(undefined, limit)));
    await step("tools/call echo {text:\"hi\"}", async () => expectToolText(await client.callTool({ name: "echo", arguments: { text: "hi" } }, undefined, limit), "echo: hi"));
    // The SDK checks structuredContent against the tool's outputSchema before returning it.
    await step("tools/call add {a:3,b:4}", async () => expectSum(await client.callTool({ name: "add", arguments: { a: 3, b: 4 } }, undefined, limit)));
    // Bad arguments are the tool's error (isError), an unknown tool a protocol error (spec: server/tools#error-handling).
    await step("tools/call add {a:\"two\",b:2} is an isError result", async () => {
      const result = await client.callTool({ name: "add", arguments: { a: "two", b: 2 } }, undefined, limit);
      assert.equal(result.isError, true, JSON.stringify(result));
      return JSON.stringify(result.content[0]?.text);
    });
    await step("tools/call no_such_tool is -32602", async () => {
      const error = await client.callTool({ name: "no_such_tool", arguments: {} }, undefined, limit).then(() => undefined, (e: { code?: number }) => e);
      assert.equal(error?.code, -32602, `expected a -32602 error, got ${JSON.stringify(error)}`);
      return "-32602";
    });
    await step("tools/call get_time {}", async () => {
      const result = await client.callTool({ name: "get_time", arguments: {} }, undefined, limit);
      const detail = expectToolText(result, ISO_8601);
      assert.ok(Math.abs(Date.parse(result.content[0].text ?? "") - Date.now()) < 60_000, "get_time: more than a minute off this clock");
      return detail;
    });
    await step("resources/list", async () => {
      const { resources } = await client.listResources(undefined, limit);
      const notesResource = resources.find((r) => r.uri === "docs://demo/protocol-notes");
      assert.equal(notesResource?.mimeType, "text/markdown", `resources/list: ${JSON.stringify(resources)}`);
      return resources.map((r) => r.uri).join(", ");
    });
    await step("resources/read docs://demo/protocol-notes", async () => expectNotes(await client.readResource({ uri: "docs://demo/protocol-notes" }, limit), notes));
    await step("prompts/list", async () => {
      const names = (await client.listPrompts(undefined, limit)).prompts.map((p) => p.name);
      const expected = isTextbook(server) ? ["review_message"] : ["explain_topic", "review_message"];
      for (const name of expected) assert.ok(names.includes(name), `prompts/list: no "${name}" in ${JSON.stringify(names)}`);
      return names.join(", ");
    });
    if (!isTextbook(server)) {
      await step("prompts/get explain_topic {topic:\"lifecycle\"}", async () =>
        expectPrompt(await client.getPrompt({ name: "explain_topic", arguments: { topic: "lifecycle" } }, limit), "lifecycle"));
    }
    await step("prompts/get review_message {message:\"{}\"}", async () =>
      expectReview(await client.getPrompt({ name: "review_message", arguments: { message: "{}" } }, limit)));
    await step("ping", async () => assert.deepEqual(await client.ping(limit), {}));
  } finally {
    // The SDK ends the child's stdin, waits up to 2 s for it to exit, then sends SIGTERM; so
    // close() returning before 2 s, with the pid gone, means the server left on its own.
    const started = performance.now();
    await client.close();
    const closedMs = performance.now() - started;
    // Without a pid, initialize has already failed and said why.
    const serverPid = pid;
    if (serverPid !== null) {
      await step("server exits within 2 s of its stdin closing", async () => {
        assert.ok(closedMs < EXIT_LIMIT_MS, `the server was still running ${Math.round(closedMs)} ms after its stdin closed, and the SDK had to signal it`);
        while (isAlive(serverPid) && performance.now() - started < EXIT_LIMIT_MS) await sleep(20);
        assert.ok(!isAlive(serverPid), `pid ${serverPid} is still alive ${EXIT_LIMIT_MS} ms after its stdin closed`);
        return `exited ${Math.round(performance.now() - started)} ms after stdin closed`;
      });
    }
    await step("no errors reported by the client", () => assert.deepEqual(problems, []));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// ---------------------------------------------------------------------------------------------
// The Inspector CLI

async function driveWithInspector(peersDir: string, server: string, notes: string, checks: Checks): Promise<void> {
  const buildDir = join(peersDir, "node_modules", "@modelcontextprotocol", "inspector-cli", "build");
  const cases: { method: string; args: string[]; verify: (output: never) => string }[] = [
    { method: "tools/list", args: [], verify: expectTools },
    { method: "tools/call add", args: ["--tool-name", "add", "--tool-arg", "a=3", "b=4"], verify: expectSum },
    { method: "resources/read", args: ["--uri", "docs://demo/protocol-notes"], verify: (result: ReadResourceResult) => expectNotes(result, notes) },
    ...(isTextbook(server) ? [] : [{ method: "prompts/get explain_topic topic=tools", args: ["--prompt-name", "explain_topic", "--prompt-args", "topic=tools"], verify: (result: GetPromptResult) => expectPrompt(result, "tools") }]),
    { method: "prompts/get review_message message={}", args: ["--prompt-name", "review_message", "--prompt-args", "message={}"], verify: expectReview },
  ];
  for (const c of cases) {
    await checks.run(`inspector-cli: ${c.method}`, async () => {
      const args = [join(buildDir, "cli.js"), "--cli", process.execPath, server, "--method", c.method.split(" ")[0], ...c.args];
      // inspector-cli 1.0.3 tests for "../package.json" relative to the cwd but imports it
      // relative to its module, so it only starts when the two agree: run it from its build dir.
      const result = await run(process.execPath, args, { cwd: buildDir, timeoutMs: INSPECTOR_TIMEOUT_MS });
      // Its stderr opens with a three-line v1 deprecation banner, which says nothing about us.
      const stderr = result.stderr.replace(/^\s*\S+\s+@modelcontextprotocol\/inspector v1 is deprecated\.\n.*\n.*\n/, "").trim();
      if (result.code !== 0) throw new Error(`${result.failure}${stderr ? `\n${tail(stderr)}` : ""}`);
      return `exit 0 in ${result.ms} ms, ${c.verify(JSON.parse(result.stdout) as never)}`;
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Child processes with a deadline

export interface RunResult { code: number | null; stdout: string; stderr: string; ms: number; failure: string }

/** Runs a command to completion; past `timeoutMs` it kills the command's whole process group. */
export function run(command: string, args: string[], options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      timedOut = true;
      // The CLIs start children of their own (the Inspector CLI runs a second node, which runs
      // the server), so the group is killed, not just the direct child.
      try {
        if (child.pid !== undefined) process.kill(process.platform === "win32" ? child.pid : -child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, options.timeoutMs);
    const finish = (code: number | null, failure: string) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started), failure });
    };
    child.on("error", (error) => finish(null, `could not start ${command}: ${error.message}`));
    child.on("close", (code, signal) => {
      finish(timedOut ? null : code, timedOut ? `timed out after ${options.timeoutMs} ms` : signal ? `killed by ${signal}` : `exit code ${code}`);
    });
  });
}

export function tail(text: string, max = 1500): string {
  return text.length > max ? "..." + text.slice(-max) : text;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function main(): Promise<void> {
  const at = process.argv.indexOf("--server");
  const server = at > 0 ? join(process.cwd(), process.argv[at + 1] ?? "") : undefined;
  const checks = await runInterop({ server,
    report: (check) => process.stdout.write(`${check.ok ? "PASS" : "FAIL"}  ${check.name}${check.detail ? `: ${check.detail.replace(/\n/g, "\n      ")}` : ""}\n`),
  });
  const failed = checks.filter((c) => !c.ok).length;
  process.stdout.write(`interop: ${checks.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
