// Interop the other way round: our McpClient over our StdioClientTransport driving the official
// reference server `@modelcontextprotocol/server-everything`, through every feature it offers a
// client (tools, server-to-client requests, progress, resources, prompts, completion, logging).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/ (client/*, server/*, basic/lifecycle#stdio)
// The server is installed at a pinned version into a cache under the OS temp dir, never into this
// project. Run: `npx tsx scripts/interop-client.ts` (exits 1 if any check fails). POSIX only for
// the process-tree checks, which read `ps`.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpClient } from "../src/client/client.js";
import type { CreateMessageRequestParams, CreateMessageResult, Root } from "../src/mcp/client-features.js";
import type { ElicitRequestFormParams, ElicitRequestURLParams } from "../src/mcp/elicitation.js";
import type { LoggingMessageNotificationParams } from "../src/mcp/logging.js";
import type { CallToolResult } from "../src/mcp/tools.js";
import { traceTransport } from "../src/protocol/trace.js";
import { validate, type JsonSchema } from "../src/schema/json-schema.js";
import { StdioClientTransport } from "../src/transports/stdio-client.js";
import { Checks, installPinned, isAlive, SDK_VERSION, sleep, withoutNpmConfig, type Check } from "./interop.js";

export const EVERYTHING_VERSION = "2026.8.31";
const PACKAGE = "@modelcontextprotocol/server-everything";
const DEFAULT_PEERS_DIR = join(tmpdir(), "mcp-wire-interop", `server-everything-${EVERYTHING_VERSION}_sdk-${SDK_VERSION}`);
/** How long to wait for something the server sends on its own (an update, a log line). */
const EVENT_WAIT_MS = 15_000;

export interface ClientInteropOptions {
  /** Where the pinned server is installed (and reused when already there). */
  peersDir?: string;
  /** Also start the server the way hosts do, through `npx -y` (default true). */
  viaNpx?: boolean;
  /** Called as each check finishes, e.g. to print it. */
  report?: (check: Check) => void;
  /** Every wire message, as it crosses. */
  trace?: (line: string) => void;
}

/** Installs the server, runs every check, and returns them all; it never throws for a failed check. */
export async function runClientInterop(options: ClientInteropOptions = {}): Promise<Check[]> {
  const checks = new Checks(options.report);
  const peersDir = options.peersDir ?? DEFAULT_PEERS_DIR;
  if (!(await checks.run(`install ${PACKAGE}@${EVERYTHING_VERSION}`, () => installServer(peersDir)))) return checks.list;
  const entry = join(peersDir, "node_modules", ...PACKAGE.split("/"), "dist", "index.js");
  await driveEverything({ command: process.execPath, args: [entry, "stdio"], cwd: peersDir }, checks, options.trace);
  if (options.viaNpx !== false) await driveThroughNpx(peersDir, checks, options.trace);
  return checks.list;
}

async function installServer(dir: string): Promise<string> {
  // The server asks for the SDK as ^1.30.0; installPinned's override pins it.
  const installed = await installPinned(dir, "mcp-wire-interop-everything", { [PACKAGE]: EVERYTHING_VERSION });
  return `with @modelcontextprotocol/sdk@${SDK_VERSION}, ${installed ? "installed into" : "already in"} ${dir}`;
}

// ---------------------------------------------------------------------------------------------
// One session: our client with every handler, and a record of what the server made them do

interface Session {
  client: McpClient;
  transport: StdioClientTransport;
  /** The last wire messages and stderr lines, for failure messages. */
  recent: string[];
  remember: (line: string) => void;
  sent: unknown[];
  problems: string[];
  roots: Root[];
  rootsAsked: number;
  sampled: CreateMessageRequestParams[];
  forms: ElicitRequestFormParams[];
  urls: ElicitRequestURLParams[];
  logs: LoggingMessageNotificationParams[];
  updates: string[];
  toolsChanged: number;
}

interface SpawnWith { command: string; args: string[]; cwd: string; env?: NodeJS.ProcessEnv }

/** `holdRoots`: count roots/list requests but never answer them. */
function openSession(spawnWith: SpawnWith, trace?: (line: string) => void, { holdRoots = false } = {}): Session {
  const remember = (line: string) => {
    s.recent.push(line.length > 400 ? line.slice(0, 400) + "..." : line);
    if (s.recent.length > 12) s.recent.shift();
    trace?.(line);
  };
  const transport = new StdioClientTransport({ ...spawnWith, onStderr: (line) => remember(`stderr: ${line}`) });
  const s: Session = {
    client: undefined as never, transport, recent: [], remember, sent: [], problems: [], roots: [{ uri: "file:///work/mcp-wire-interop", name: "interop" }],
    rootsAsked: 0, sampled: [], forms: [], urls: [], logs: [], updates: [], toolsChanged: 0,
  };
  s.client = new McpClient({ name: "mcp-wire-interop-client", version: "0.1.0" }, {
    handshakeTimeoutMs: 180_000, // npx may first have to download the server
    onProblem: (message) => s.problems.push(message),
    roots: () => (s.rootsAsked++, holdRoots ? new Promise<Root[]>(() => {}) : s.roots),
    sampling: (params): CreateMessageResult => {
      s.sampled.push(params);
      return { role: "assistant", content: { type: "text", text: "sampled by mcp-wire" }, model: "mcp-wire-stub-model", stopReason: "endTurn" };
    },
    elicitation: {
      form: (params) => (s.forms.push(params), { action: "accept", content: { name: "Ada Lovelace", check: true, email: "ada@example.com" } }),
      url: (params) => (s.urls.push(params), { action: "accept" }),
    },
  });
  s.client.on("log", (params: LoggingMessageNotificationParams) => s.logs.push(params));
  s.client.on("resourceUpdated", (uri: string) => s.updates.push(uri));
  s.client.on("toolsChanged", () => s.toolsChanged++);
  return s;
}

/** Connects through a trace of the wire: what we sent is kept, and the latest lines for failures. */
function connect(s: Session): Promise<unknown> {
  const traced = traceTransport(s.transport, (event) => {
    if (event.kind === "sent") s.sent.push(event.message);
    if (event.kind === "sent" || event.kind === "received") s.remember(`${event.kind === "sent" ? "->" : "<-"} ${event.text}`);
    else s.remember(`[${event.kind}${event.kind === "closed" && event.cause ? `: ${event.cause.message}` : ""}${event.kind === "unreadable" ? ` ${JSON.stringify(event.problem)}` : ""}]`);
  });
  return s.client.connect(traced);
}

/** Polls until `ready()` holds; past `ms` it fails naming what never happened. */
async function until(ready: () => boolean, ms: number, what: string): Promise<number> {
  const started = performance.now();
  while (!ready()) {
    if (performance.now() - started > ms) throw new Error(`${what}: nothing within ${ms} ms`);
    await sleep(20);
  }
  return Math.round(performance.now() - started);
}

type Step = (name: string, body: () => unknown) => Promise<boolean>;

/** Runs checks whose failures carry the last lines on the wire and on stderr, which often say why. */
function stepsFor(s: Session, checks: Checks): Step {
  return (name, body) =>
    checks.run(name, async () => {
      try {
        return await body();
      } catch (error) {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\nlast on the wire:\n${s.recent.join("\n")}`);
      }
    });
}

function texts(result: CallToolResult): string {
  assert.notEqual(result.isError, true, `tools/call: isError result ${JSON.stringify(result).slice(0, 500)}`);
  return result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
}

async function driveEverything(spawnWith: SpawnWith, checks: Checks, trace?: (line: string) => void): Promise<void> {
  const s = openSession(spawnWith, trace);
  const c = s.client;
  const step = stepsFor(s, checks);

  const connected = await step("the server/discover probe, then the fallback to initialize, declaring roots, sampling and elicitation", async () => {
    await connect(s);
    // Dual-era by default: the probe goes first; a 2025-11-25 server answers it with an error (or
    // not at all), and the client falls back to the handshake, exactly as a handshake-only client.
    const sent = s.sent as { method?: string; params?: { capabilities?: unknown } }[];
    assert.equal(sent[0]?.method, "server/discover");
    assert.equal(c.era, "handshake", `the client chose ${c.era}: ${c.eraReason}`);
    assert.match(c.eraReason ?? "", /fell back to initialize$/);
    const initialize = sent.find((m) => m.method === "initialize");
    assert.ok(initialize, "initialize was sent after the probe");
    const ours = { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } };
    assert.deepEqual(initialize.params?.capabilities, ours);
    assert.equal(c.serverInfo?.name, "mcp-servers/everything");
    const declared = Object.keys(c.serverCapabilities ?? {});
    for (const name of ["tools", "resources", "prompts", "logging", "completions"]) assert.ok(declared.includes(name), `no ${name} in ${declared}`);
    return `${c.eraReason}; we declared ${JSON.stringify(ours)}; ${c.serverInfo?.name} ${c.serverInfo?.version}, protocol ${c.protocolVersion}, server capabilities ${declared.join(", ")}`;
  });
  if (!connected) {
    await c.close();
    return;
  }
  const pid = s.transport.pid!;
  try {
    await step("roots/list from the server, answered by our handler", async () => {
      const ms = await until(() => s.rootsAsked > 0, 5000, "roots/list from the server");
      return `asked ${ms} ms after connect`;
    });
    await step("tools/list, every page, after list_changed", async () => {
      const wanted = ["echo", "get-sum", "get-structured-content", "get-resource-links", "trigger-long-running-operation", "toggle-simulated-logging",
        "toggle-subscriber-updates", "trigger-sampling-request", "trigger-elicitation-request", "trigger-url-elicitation", "get-roots-list"];
      await until(() => s.toolsChanged > 0, 5000, "notifications/tools/list_changed");
      const names = (await c.listAllTools()).map((t) => t.name);
      const missing = wanted.filter((name) => !names.includes(name));
      assert.deepEqual(missing, [], `tools/list: missing tools; got ${JSON.stringify(names)}`);
      return `${names.length} tools after ${s.toolsChanged} toolsChanged events`;
    });
    await step("tools/call echo", async () => {
      const text = texts(await c.callTool("echo", { message: "hello from mcp-wire" }));
      assert.equal(text, "Echo: hello from mcp-wire");
      return `{message:"hello from mcp-wire"} -> ${JSON.stringify(text)}`;
    });
    await step("tools/call get-sum", async () => {
      const text = texts(await c.callTool("get-sum", { a: 3, b: 4 }));
      assert.equal(text, "The sum of 3 and 4 is 7.");
      return `{a:3,b:4} -> ${JSON.stringify(text)}`;
    });
    await step("tools/call get-structured-content, checked against outputSchema", async () => {
      const tool = (await c.listAllTools()).find((t) => t.name === "get-structured-content");
      assert.ok(tool?.outputSchema, "the tool has no outputSchema");
      const result = await c.callTool("get-structured-content", { location: "Chicago" });
      texts(result);
      assert.deepEqual(result.structuredContent, { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
      assert.deepEqual(validate(tool.outputSchema as JsonSchema, result.structuredContent), []);
      return JSON.stringify(result.structuredContent);
    });
    await step("tools/call get-resource-links", async () => {
      const result = await c.callTool("get-resource-links", { count: 3 });
      texts(result);
      const links = result.content.filter((item) => item.type === "resource_link");
      assert.equal(links.length, 3, JSON.stringify(result.content));
      return links.map((link) => (link as { uri: string }).uri).join(", ");
    });
    await step("sampling/createMessage via trigger-sampling-request", async () => {
      const text = texts(await c.callTool("trigger-sampling-request", { prompt: "say hi", maxTokens: 50 }));
      assert.equal(s.sampled.length, 1, "the sampling handler did not run exactly once");
      assert.equal(s.sampled[0].maxTokens, 50);
      assert.match(JSON.stringify(s.sampled[0].messages), /say hi/);
      assert.match(text, /mcp-wire-stub-model/);
      assert.match(text, /sampled by mcp-wire/);
      return "our handler ran once (maxTokens 50, the prompt in messages); the result quotes our model and text";
    });
    await step("elicitation/create form mode via trigger-elicitation-request", async () => {
      const text = texts(await c.callTool("trigger-elicitation-request", {}));
      assert.equal(s.forms.length, 1, "the form handler did not run exactly once");
      assert.match(text, /- Name: Ada Lovelace/);
      assert.match(text, /- Agreed to terms: true/);
      // Left out of our answer, so they come from the schema's defaults.
      assert.match(text, /- Favorite Integer: 42/);
      assert.match(text, /"firstLine": "It was a dark and stormy night\."/);
      return "accepted with name, check, email; integer and firstLine from defaults";
    });
    await step("elicitation/create url mode via trigger-url-elicitation", async () => {
      const url = "https://example.com/mcp-wire-consent";
      const text = texts(await c.callTool("trigger-url-elicitation", { url }));
      assert.equal(s.urls.length, 1, "the URL handler did not run exactly once");
      assert.equal(s.urls[0].url, url);
      assert.match(text, /User completed the URL elicitation flow/);
      return `our handler got ${url} (elicitationId ${s.urls[0].elicitationId}) and accepted`;
    });
    await step("roots via get-roots-list, then rootsChanged()", async () => {
      assert.match(texts(await c.callTool("get-roots-list", {})), /Current MCP Roots \(1 total\)[\s\S]*file:\/\/\/work\/mcp-wire-interop/);
      const asked = s.rootsAsked;
      s.roots = [...s.roots, { uri: "file:///work/mcp-wire-second", name: "second" }];
      await c.rootsChanged();
      await until(() => s.rootsAsked > asked, 5000, "roots/list after notifications/roots/list_changed");
      assert.match(texts(await c.callTool("get-roots-list", {})), /Current MCP Roots \(2 total\)[\s\S]*file:\/\/\/work\/mcp-wire-second/);
      return `1 root, then 2 after rootsChanged(); roots/list answered ${s.rootsAsked} times`;
    });
    await step("progress via trigger-long-running-operation", async () => {
      const seen: { progress: number; total?: number }[] = [];
      const text = texts(await c.callTool("trigger-long-running-operation", { duration: 2, steps: 4 }, { onProgress: (p) => seen.push(p) }));
      assert.match(text, /Long running operation completed/);
      assert.ok(seen.length >= 2, `only ${seen.length} progress notifications`);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, `progress did not increase: ${JSON.stringify(seen)}`);
      return seen.map((p) => `${p.progress}/${p.total}`).join(" ");
    });

    let staticUri = "";
    await step("resources/list page by page", async () => {
      let pages = 0;
      let cursor: string | undefined;
      const uris: string[] = [];
      do {
        const page = await c.listResources(cursor);
        pages++;
        uris.push(...page.resources.map((r) => r.uri));
        cursor = page.nextCursor;
      } while (cursor !== undefined && pages < 100);
      assert.equal(cursor, undefined, "more than 100 pages");
      assert.deepEqual((await c.listAllResources()).map((r) => r.uri), uris, "listAllResources differs from the pages");
      staticUri = uris.find((uri) => uri.startsWith("demo://resource/static/")) ?? "";
      assert.ok(staticUri, `no static resource in ${JSON.stringify(uris)}`);
      return `${uris.length} resources in ${pages} page(s)${pages === 1 ? " (the server does not paginate)" : ""}`;
    });
    await step("resources/read a static resource", async () => {
      const { contents } = await c.readResource(staticUri);
      assert.equal(contents.length, 1);
      assert.equal(contents[0].uri, staticUri);
      assert.ok("text" in contents[0] && contents[0].text.length > 0, "no text");
      return `${staticUri}: ${(contents[0] as { text: string }).text.length} characters`;
    });
    await step("resources/read a templated resource", async () => {
      const templates = await c.listAllResourceTemplates();
      const template = templates.find((t) => t.uriTemplate.includes("/text/{resourceId}"));
      assert.ok(template, `no text template in ${JSON.stringify(templates.map((t) => t.uriTemplate))}`);
      const uri = template.uriTemplate.replace("{resourceId}", "7");
      const { contents } = await c.readResource(uri);
      assert.equal(contents[0]?.uri, uri);
      assert.match((contents[0] as { text?: string }).text ?? "", /^Resource 7: This is a plaintext resource/);
      return `${templates.length} templates; read ${uri}`;
    });
    await step("resources/subscribe and unsubscribe", async () => {
      await c.subscribe(staticUri);
      // Turning the simulated updates on sends one at once for each subscribed URI, then every 5 s.
      await c.callTool("toggle-subscriber-updates", {});
      const ms = await until(() => s.updates.includes(staticUri), EVENT_WAIT_MS, `notifications/resources/updated for ${staticUri}`);
      await c.callTool("toggle-subscriber-updates", {});
      await c.unsubscribe(staticUri);
      const before = s.updates.length;
      await c.callTool("toggle-subscriber-updates", {});
      await sleep(1000);
      await c.callTool("toggle-subscriber-updates", {});
      assert.equal(s.updates.length, before, "an update arrived after unsubscribe");
      return `resourceUpdated ${staticUri} ${ms} ms after turning updates on; none after unsubscribe`;
    });
    await step("prompts/list and prompts/get args-prompt", async () => {
      const names = (await c.listAllPrompts()).map((p) => p.name);
      for (const name of ["simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"]) assert.ok(names.includes(name), `no ${name} in ${names}`);
      const { messages } = await c.getPrompt("args-prompt", { city: "Paris", state: "Texas" });
      assert.deepEqual(messages, [{ role: "user", content: { type: "text", text: "What's weather in Paris, Texas?" } }]);
      return `${names.join(", ")}; got ${JSON.stringify(messages[0].content)}`;
    });
    await step("completion/complete a prompt argument", async () => {
      const department = await c.complete({ ref: { type: "ref/prompt", name: "completable-prompt" }, argument: { name: "department", value: "E" } });
      assert.deepEqual(department.completion.values, ["Engineering"]);
      const name = await c.complete({
        ref: { type: "ref/prompt", name: "completable-prompt" }, argument: { name: "name", value: "" }, context: { arguments: { department: "Sales" } },
      });
      assert.deepEqual(name.completion.values, ["David", "Eve", "Frank"]);
      return `department "E" -> ${JSON.stringify(department.completion.values)}; name in Sales -> ${JSON.stringify(name.completion.values)}`;
    });
    await step("completion/complete a resource template variable", async () => {
      const result = await c.complete({ ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" }, argument: { name: "resourceId", value: "5" } });
      assert.deepEqual(result.completion.values, ["5"]);
      return `resourceId "5" -> ${JSON.stringify(result.completion.values)}`;
    });
    await step("logging/setLevel debug, then a log event", async () => {
      await c.setLoggingLevel("debug");
      const before = s.logs.length;
      await c.callTool("toggle-simulated-logging", {});
      const ms = await until(() => s.logs.length > before, EVENT_WAIT_MS, "notifications/message");
      await c.callTool("toggle-simulated-logging", {});
      const log = s.logs[before];
      return `${ms} ms after turning simulated logging on: ${log.level} ${JSON.stringify(log.data)}`;
    });
    await step("ping", () => c.ping());
    await step("no local problems reported by the client", () => assert.deepEqual(s.problems, []));
  } finally {
    await closeAndCheck(s, pid, "close leaves no process behind", step);
  }
}

// ---------------------------------------------------------------------------------------------
// Closing, and proving with `ps` that nothing is left behind

interface Proc { pid: number; ppid: number; pgid: number; stat: string; args: string }

function processes(): Proc[] {
  const out = execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,stat=,args="], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.trim()).map((line) => {
    const [pid, ppid, pgid, stat, ...args] = line.trim().split(/\s+/);
    return { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), stat, args: args.join(" ") };
  });
}

/** The process and all its descendants, or everything in its group. */
function treeOf(pid: number): Proc[] {
  const all = processes();
  const tree = all.filter((p) => p.pid === pid || p.pgid === pid);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) if (!tree.includes(p) && tree.some((t) => t.pid === p.ppid)) (tree.push(p), (grew = true));
  }
  return tree;
}

async function closeAndCheck(s: Session, pid: number, name: string, step: Step): Promise<void> {
  const before = process.platform === "win32" ? [] : treeOf(pid);
  const started = performance.now();
  await s.client.close();
  const closedMs = Math.round(performance.now() - started);
  await step(name, async () => {
    assert.ok(!isAlive(pid), `pid ${pid} is still alive after close()`);
    if (process.platform === "win32") return `closed in ${closedMs} ms`;
    // A killed grandchild may linger a moment before it is reaped.
    const left = () => processes().filter((p) => p.pgid === pid || before.some((b) => b.pid === p.pid));
    await until(() => left().length === 0, 2000, "the process group emptying").catch(() => {
      throw new Error(`processes left behind: ${left().map((p) => `${p.pid} ${p.stat} ${p.args}`).join(" | ")}`);
    });
    const how = closedMs < 2000 ? "exited on its own once stdin closed" : "needed a signal after the 2 s grace";
    return `closed in ${closedMs} ms (${how}); gone: ${before.map((p) => `${p.pid} ${p.args.split(" ").slice(0, 3).join(" ")}`).join(" | ")}`;
  });
}

// ---------------------------------------------------------------------------------------------
// Started the way hosts start it: `npx -y <package>@<version> stdio`

async function driveThroughNpx(peersDir: string, checks: Checks, trace?: (line: string) => void): Promise<void> {
  // Outside the install dir, so npx resolves the package itself rather than reusing that project.
  const cwd = join(peersDir, "..", "npx-cwd");
  mkdirSync(cwd, { recursive: true });
  const npx = process.platform === "win32" ? "npx.cmd" : "npx";
  // roots/list is left unanswered on purpose: the server's own timeout for it then keeps it running
  // after its stdin closes, so close() has to signal the process group, which is the path under test.
  const s = openSession({ command: npx, args: ["-y", `${PACKAGE}@${EVERYTHING_VERSION}`, "stdio"], cwd, env: withoutNpmConfig() }, trace, { holdRoots: true });

  const step = stepsFor(s, checks);
  const ok = await step("npx -y: initialize and echo", async () => {
    await connect(s);
    assert.equal(texts(await s.client.callTool("echo", { message: "via npx" })), "Echo: via npx");
    await until(() => s.rootsAsked > 0, 5000, "roots/list from the server");
    const tree = process.platform === "win32" ? [] : treeOf(s.transport.pid!);
    return `${s.client.serverInfo?.name} ${s.client.serverInfo?.version}; process tree: ${tree.map((p) => `${p.pid}<-${p.ppid} ${p.args.split(" ").slice(0, 2).join(" ")}`).join(" | ")}`;
  });
  const pid = s.transport.pid;
  if (!ok || pid === undefined) {
    await s.client.close();
    return;
  }
  await closeAndCheck(s, pid, "npx -y: close leaves no process behind", step);
}

async function main(): Promise<void> {
  const checks = await runClientInterop({
    report: (check) => process.stdout.write(`${check.ok ? "PASS" : "FAIL"}  ${check.name}${check.detail ? `: ${check.detail.replace(/\n/g, "\n      ")}` : ""}\n`),
    trace: process.env.MCP_WIRE_TRACE === "1" ? (line) => process.stderr.write(line + "\n") : undefined,
  });
  const failed = checks.filter((c) => !c.ok).length;
  process.stdout.write(`interop-client: ${checks.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
