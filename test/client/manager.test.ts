// The multi-server manager against in-process servers (memory pairs), one real child over stdio,
// and broken servers; plus the exposed-name rule and the LLM tool shapes on their own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { McpClientManager, ServerStartError, UnknownToolError, type AuditEvent, type ManagerOptions, type ServerConfig } from "../../src/client/manager.js";
import { closeMatches, EXPOSED_NAME_PATTERN, toExposedName } from "../../src/client/tool-names.js";
import { ErrorCode, RpcError, type JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import type { Tool } from "../../src/mcp/tools.js";
import { createMemoryPair, type Transport, type TransportHandlers } from "../../src/protocol/transport.js";
import { McpServer, text } from "../../src/server/definition.js";

const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const info = { name: "test-manager", version: "1.0.0" };
const OBJECT = { type: "object" } as const;
const LONG = "x".repeat(100);

/** A server whose tools answer "<server>: <tool>" so a test can see where a call landed. */
function makeServer(name: string, toolNames: string[]): McpServer {
  const server = new McpServer({ name, version: "1" });
  for (const tool of toolNames) server.tool({ name: tool, description: `${tool} on ${name}`, inputSchema: OBJECT }, () => ({ content: [text(`${name}: ${tool}`)] }));
  return server;
}

/** A transport factory that serves `server` in process; `ends` collects the server-side ends. */
function inProcess(server: McpServer, ends: Transport[] = []): () => Transport {
  return () => {
    const [clientEnd, serverEnd] = createMemoryPair();
    server.connect(serverEnd);
    ends.push(serverEnd);
    return clientEnd;
  };
}

/** A "server" that answers initialize with a JSON-RPC error. */
class RefusingTransport implements Transport {
  #handlers: TransportHandlers | undefined;
  start(handlers: TransportHandlers): void { this.#handlers = handlers; }
  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const request = message as { id?: string | number; method?: string };
    if (request.method !== "initialize") return;
    const answer = { jsonrpc: "2.0", id: request.id, error: { code: ErrorCode.InternalError, message: "not today" } };
    setImmediate(() => this.#handlers?.message(JSON.stringify(answer)));
  }
  async close(): Promise<void> { this.#handlers?.close(); }
}

async function started(servers: ServerConfig[], options: Partial<ManagerOptions> = {}): Promise<McpClientManager> {
  const manager = new McpClientManager(info, { servers, ...options });
  await manager.start();
  return manager;
}

function firstText(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

const nameCases: { name: string; input: string; expected: string }[] = [
  { name: "kept as is", input: "alpha__echo", expected: "alpha__echo" },
  { name: "dots", input: "files__read.file", expected: "files__read_file" },
  { name: "spaces", input: "my files__read", expected: "my_files__read" },
  { name: "unicode, one _ per code point", input: "héllo__wörld😀", expected: "h_llo__w_rld_" },
  { name: "empty", input: "", expected: "_" },
  { name: "exactly 64", input: "a".repeat(64), expected: "a".repeat(64) },
  // 55 characters, "_", then the first 8 hex digits of sha256("a" x 65).
  { name: "65 is shortened", input: "a".repeat(65), expected: `${"a".repeat(55)}_635361c4` },
];

for (const c of nameCases) {
  test(`tool names: ${c.name}`, () => {
    const exposed = toExposedName(c.input);
    assert.match(exposed, EXPOSED_NAME_PATTERN);
    assert.equal(exposed, c.expected);
  });
}

test("tool names: long names that differ only near the end stay distinct, and the rule is deterministic", () => {
  const a = toExposedName(`server__${LONG}_first`);
  const b = toExposedName(`server__${LONG}_second`);
  assert.notEqual(a, b);
  assert.equal(a.length, 64);
  assert.equal(a, toExposedName(`server__${LONG}_first`));
  assert.equal(toExposedName(`server__${LONG}.first`), a, "sanitizing happens before hashing, so a.b and a_b still collide");
});

const matchCases: { name: string; input: string; expected: string[] }[] = [
  { name: "a typo", input: "alpha__ecko", expected: ["alpha__echo"] },
  { name: "the bare tool name", input: "echo", expected: ["alpha__echo", "beta__echo"] },
  { name: "nothing alike", input: "launch_rockets", expected: [] },
];
for (const c of matchCases) {
  test(`close matches: ${c.name}`, () => {
    assert.deepEqual(closeMatches(c.input, ["alpha__echo", "beta__echo", "alpha__add", "beta__secret"]), c.expected);
  });
}

test("manager: exposes every server's tools as <server>__<tool> and routes each call to its server", async () => {
  const manager = await started([
    { name: "alpha", transport: inProcess(makeServer("alpha", ["echo", "add"])) },
    { name: "beta", transport: inProcess(makeServer("beta", ["echo"])) },
    { name: "my files", transport: inProcess(makeServer("files", ["read.file", LONG])) },
  ]);
  const names = manager.tools.map((t) => t.name);
  assert.deepEqual(names.slice(0, 4), ["alpha__echo", "alpha__add", "beta__echo", "my_files__read_file"]);
  assert.equal(names.length, 5);
  for (const name of names) assert.match(name, EXPOSED_NAME_PATTERN);
  assert.deepEqual(manager.servers, ["alpha", "beta", "my files"]);
  assert.deepEqual(manager.failures, []);
  const cases = [
    ["alpha__echo", "alpha: echo"],
    ["beta__echo", "beta: echo"],
    ["my_files__read_file", "files: read.file"],
    [names[4]!, `files: ${LONG}`],
  ] as const;
  for (const [exposed, expected] of cases) assert.equal(firstText(await manager.callTool(exposed, {})), expected, exposed);
  await assert.rejects(manager.callTool("alpha__ecko"), (e: unknown) =>
    e instanceof UnknownToolError && e.message === 'callTool: no exposed tool is named "alpha__ecko"; did you mean "alpha__echo"?');
  await manager.close();
  assert.equal(manager.client("alpha")?.isConnected, false);
});

const exposureCases: {
  name: string;
  options?: Partial<ManagerOptions>;
  allowAlpha?: string[];
  tools: string[];
  collisions?: { exposedName: string; sources: { server: string; tool: string }[] }[];
}[] = [
  {
    name: "two tools of one server that sanitize alike are both withheld",
    tools: ["alpha__echo", "beta__echo", "beta__secret"],
    collisions: [{ exposedName: "alpha__a_b", sources: [{ server: "alpha", tool: "a.b" }, { server: "alpha", tool: "a_b" }] }],
  },
  {
    name: "an allow-list per server, by the server's tool names",
    allowAlpha: ["echo", "nope"],
    tools: ["alpha__echo", "beta__echo", "beta__secret"],
  },
  {
    name: "a predicate filter",
    options: { filter: (server, tool) => !(server === "beta" && tool.name === "secret") && !tool.name.startsWith("a") },
    tools: ["alpha__echo", "beta__echo"],
  },
  {
    name: "a mapper whose output is still sanitized",
    options: { rename: (server, tool, name) => (tool.name === "secret" ? "géheim tool" : name), filter: (_s, tool) => tool.name.length > 3 },
    tools: ["alpha__echo", "beta__echo", "g_heim_tool"],
  },
  {
    name: "a mapper that drops the prefix makes a cross-server collision",
    options: { rename: (_server, tool) => tool.name, filter: (_s, tool) => !tool.name.startsWith("a") },
    tools: ["secret"],
    collisions: [{ exposedName: "echo", sources: [{ server: "alpha", tool: "echo" }, { server: "beta", tool: "echo" }] }],
  },
];

for (const c of exposureCases) {
  test(`manager exposure: ${c.name}`, async () => {
    const manager = await started([
      { name: "alpha", transport: inProcess(makeServer("alpha", ["echo", "a.b", "a_b"])), allowTools: c.allowAlpha },
      { name: "beta", transport: inProcess(makeServer("beta", ["echo", "secret"])) },
    ], c.options);
    assert.deepEqual(manager.tools.map((t) => t.name), c.tools);
    assert.deepEqual(manager.collisions, c.collisions ?? []);
    for (const collision of c.collisions ?? []) {
      await assert.rejects(manager.callTool(collision.exposedName), (e: unknown) =>
        e instanceof UnknownToolError && e.collision?.exposedName === collision.exposedName && /is withheld because several tools map to it/.test(e.message));
    }
    await manager.close();
  });
}

test("manager: arguments may be the JSON text a model produced", async () => {
  const server = new McpServer({ name: "calc", version: "1" });
  server.tool({ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
    (args) => ({ content: [text(String((args.a as number) + (args.b as number)))] }));
  const manager = await started([{ name: "calc", transport: inProcess(server) }]);
  assert.equal(firstText(await manager.callTool("calc__add", '{"a":2,"b":3}')), "5");
  await assert.rejects(manager.callTool("calc__add", "{a:2"), /^Error: callTool calc__add: arguments are not valid JSON/);
  await assert.rejects(manager.callTool("calc__add", "[1,2]"), /callTool calc__add: arguments must be a JSON object/);
  await manager.close();
});

const failingServers: { name: string; config: ServerConfig; error: RegExp }[] = [
  { name: "a factory that throws", config: { name: "broken", transport: () => { throw new Error("no route"); } }, error: /server "broken" failed: no route/ },
  {
    name: "a transport that closes at once",
    config: { name: "broken", transport: () => { const [clientEnd, serverEnd] = createMemoryPair(); void serverEnd.close(); return clientEnd; } },
    error: /server "broken" failed: .*clos/,
  },
  { name: "a server that refuses initialize", config: { name: "broken", transport: () => new RefusingTransport() }, error: /server "broken" failed: not today/ },
  { name: "a command that does not exist", config: { name: "broken", stdio: { command: "/nonexistent/mcp-server" } }, error: /server "broken" failed: .*ENOENT/ },
];

for (const c of failingServers) {
  test(`manager start, ${c.name}: reported and skipped by default`, async () => {
    const manager = new McpClientManager(info, { servers: [{ name: "good", transport: inProcess(makeServer("good", ["echo"])) }, c.config] });
    const reported: unknown[] = [];
    manager.on("serverFailed", (failure) => reported.push(failure));
    await manager.start();
    assert.equal(manager.failures.length, 1);
    assert.equal(manager.failures[0]!.server, "broken");
    assert.ok(manager.failures[0]!.error instanceof ServerStartError);
    assert.match(manager.failures[0]!.error.message, c.error);
    assert.deepEqual(reported, manager.failures);
    assert.deepEqual(manager.servers, ["good"]);
    assert.equal(firstText(await manager.callTool("good__echo")), "good: echo");
    await manager.close();
  });

  test(`manager start, ${c.name}: rejects and closes the others with failIfOneServerFails`, async () => {
    const good = makeServer("good", ["echo"]);
    const manager = new McpClientManager(info, { servers: [{ name: "good", transport: inProcess(good) }, c.config], failIfOneServerFails: true });
    await assert.rejects(manager.start(), (e: unknown) => e instanceof ServerStartError && e.server === "broken" && c.error.test(e.message));
    assert.equal(manager.client("good")?.isConnected, false);
    assert.deepEqual(manager.tools, []);
    await assert.rejects(manager.callTool("good__echo"), UnknownToolError);
  });
}

test("manager: a server whose connection closes later is reported and its tools withdrawn", async () => {
  const ends: Transport[] = [];
  const manager = await started([
    { name: "alpha", transport: inProcess(makeServer("alpha", ["echo"]), ends) },
    { name: "beta", transport: inProcess(makeServer("beta", ["echo"])) },
  ]);
  const failed = once(manager, "serverFailed");
  await ends[0]!.close();
  const [failure] = await failed;
  assert.equal(failure.server, "alpha");
  assert.deepEqual(manager.tools.map((t) => t.name), ["beta__echo"]);
  assert.deepEqual(manager.servers, ["beta"]);
  await manager.close();
  assert.equal(manager.failures.length, 1, "closing the manager is not a failure");
});

test("manager: a server's list_changed rebuilds the exposed table", async () => {
  const alpha = makeServer("alpha", ["echo"]);
  const manager = await started([{ name: "alpha", transport: inProcess(alpha) }]);
  let changed = once(manager, "toolsChanged");
  alpha.tool({ name: "late", inputSchema: OBJECT }, () => ({ content: [text("late")] }));
  await changed;
  assert.deepEqual(manager.tools.map((t) => t.name), ["alpha__echo", "alpha__late"]);
  assert.equal(firstText(await manager.callTool("alpha__late")), "late");
  changed = once(manager, "toolsChanged");
  alpha.removeTool("echo");
  await changed;
  assert.deepEqual(manager.tools.map((t) => t.name), ["alpha__late"]);
  await assert.rejects(manager.callTool("alpha__echo"), UnknownToolError);
  await manager.close();
});

test("manager: tool definitions in the OpenAI and Anthropic shapes", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  const schema = { type: "object" as const, properties: { q: { type: "string" } }, required: ["q"] };
  server.tool({ name: "search.web", description: "searches the web", inputSchema: schema }, () => ({ content: [] }));
  server.tool({ name: "bare", title: "Bare tool", inputSchema: OBJECT }, () => ({ content: [] }));
  const manager = await started([{ name: "web", transport: inProcess(server) }]);
  assert.deepEqual(manager.openAITools(), [
    { type: "function", function: { name: "web__search_web", description: "searches the web", parameters: schema } },
    { type: "function", function: { name: "web__bare", description: "Bare tool", parameters: OBJECT } },
  ]);
  assert.deepEqual(manager.anthropicTools(), [
    { name: "web__search_web", description: "searches the web", input_schema: schema },
    { name: "web__bare", description: "Bare tool", input_schema: OBJECT },
  ]);
  await manager.close();
});

const auditCases: {
  name: string;
  tool: string;
  audit?: (event: AuditEvent) => void;
  outcome: "result" | "isError" | RegExp;
  problem?: RegExp;
}[] = [
  { name: "a successful call", tool: "ok", outcome: "result" },
  { name: "a tool that fails (isError result)", tool: "fails", outcome: "isError" },
  { name: "a protocol error", tool: "refuses", outcome: /^RpcError: refused by the server$/ },
  { name: "a veto from the before hook", tool: "ok", audit: (e) => { if (e.phase === "before") throw new Error("not approved"); }, outcome: /not approved/ },
  { name: "a failing after hook", tool: "ok", audit: (e) => { if (e.phase === "after") throw new Error("log full"); }, outcome: "result", problem: /audit: the "after" hook failed for s__ok: log full/ },
];

for (const c of auditCases) {
  test(`manager audit: ${c.name}`, async () => {
    const server = new McpServer({ name: "s", version: "1" });
    let ran = 0;
    server.tool({ name: "ok", inputSchema: OBJECT }, () => (ran++, { content: [text("fine")] }));
    server.tool({ name: "fails", inputSchema: OBJECT }, () => { ran++; throw new Error("disk on fire"); });
    server.tool({ name: "refuses", inputSchema: OBJECT }, () => { ran++; throw new RpcError(ErrorCode.InvalidParams, "refused by the server"); });
    const events: AuditEvent[] = [];
    const manager = await started([{ name: "s", transport: inProcess(server) }], {
      audit: (event) => { events.push(event); c.audit?.(event); },
    });
    const problems: string[] = [];
    manager.on("problem", (message: string) => problems.push(message));
    const call = manager.callTool(`s__${c.tool}`, { n: 1 });
    if (c.outcome instanceof RegExp) await assert.rejects(call, c.outcome);
    else assert.equal((await call).isError === true, c.outcome === "isError");

    const base = { server: "s", tool: c.tool, exposedName: `s__${c.tool}`, arguments: { n: 1 } };
    assert.equal(events.length, 2);
    assert.deepEqual(events[0], { phase: "before", ...base });
    const after = events[1]!;
    assert.equal(after.phase, "after");
    if (after.phase !== "after") return;
    assert.deepEqual({ server: after.server, tool: after.tool, exposedName: after.exposedName, arguments: after.arguments }, base);
    assert.ok(after.durationMs >= 0);
    if (c.outcome instanceof RegExp) {
      assert.equal(after.result, undefined);
      assert.match(String(after.error), c.outcome);
    } else {
      assert.equal(after.error, undefined);
      assert.equal(after.result?.isError === true, c.outcome === "isError");
    }
    assert.equal(ran, /not approved/.test(String(c.outcome)) ? 0 : 1, "a vetoed call never reaches the server");
    if (c.problem) assert.match(problems.join("\n"), c.problem);
    else assert.deepEqual(problems, []);
    await manager.close();
  });
}

test("manager: configuration errors are caught in the constructor", () => {
  const transport = inProcess(makeServer("x", ["t"]));
  assert.throws(() => new McpClientManager(info, { servers: [{ name: "a", transport }, { name: "a", transport }] }), /manager: two servers are named "a"/);
  assert.throws(() => new McpClientManager(info, { servers: [{ name: "", transport }] }), /manager: every server needs a non-empty name/);
});

test("manager: a server over stdio (node dist/server.js) next to an in-process one", async () => {
  const manager = await started([
    { name: "demo", stdio: { command: process.execPath, args: [SERVER] } },
    { name: "local", transport: inProcess(makeServer("local", ["echo"])) },
  ]);
  assert.ok(manager.tools.some((t: { name: string; tool: Tool }) => t.name === "demo__add" && t.tool.name === "add"));
  assert.deepEqual((await manager.callTool("demo__add", { a: 1, b: 2 })).content, [{ type: "text", text: '{"sum":3}' }]);
  assert.equal(firstText(await manager.callTool("local__echo")), "local: echo");
  await manager.close();
});

const turns = async (count: number) => { for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve)); };
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await turns(1);
}

/** A server whose tools/list answers wait until release(); it counts the listings asked for. */
class HeldListings implements Transport {
  #handlers: TransportHandlers | undefined;
  readonly #held: (() => void)[] = [];
  listings = 0;
  /** The tool names the next answered listing holds; or, with `failing`, an error. */
  names = ["first"];
  failing = false;
  start(handlers: TransportHandlers): void { this.#handlers = handlers; }
  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const request = message as { id?: string | number; method?: string; params?: { protocolVersion?: string } };
    const answer = (result: object) => setImmediate(() => this.#handlers?.message(JSON.stringify({ jsonrpc: "2.0", id: request.id, result })));
    if (request.method === "initialize") answer({ protocolVersion: request.params?.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: "held", version: "1" } });
    if (request.method !== "tools/list") return;
    this.listings++;
    this.#held.push(() => {
      if (!this.failing) return answer({ tools: this.names.map((name) => ({ name, inputSchema: OBJECT })) });
      setImmediate(() => this.#handlers?.message(JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: ErrorCode.InternalError, message: "no list today" } })));
    });
  }
  get waiting(): number { return this.#held.length; }
  release(): void { for (const answer of this.#held.splice(0)) answer(); }
  changed(): void { this.#handlers?.message(JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })); }
  async close(): Promise<void> { this.#handlers?.close(); }
}

test("manager: a burst of list_changed makes one listing at a time, and one more after it, not one each", async () => {
  const server = new HeldListings();
  const manager = new McpClientManager(info, { servers: [{ name: "held", transport: () => server }], clientOptions: { protocolVersion: "2025-11-25" } });
  const starting = manager.start();
  await until(() => server.waiting > 0);
  server.release();
  await starting;
  const burst = 50;
  for (let i = 0; i < burst; i++) server.changed();
  await until(() => server.waiting > 0);
  // Every notification has been read: more listings would have been asked for by now.
  await turns(10);
  assert.equal(server.waiting, 1, "one listing in flight");
  server.names = ["second"];
  const changed = once(manager, "toolsChanged");
  server.release();
  // The changes announced while it was in flight get one listing more.
  await until(() => server.waiting > 0);
  server.names = ["third"];
  server.release();
  await changed;
  while (manager.tools[0]?.name !== "held__third") await once(manager, "toolsChanged");
  assert.equal(server.listings, 3, "the first listing, the one the burst started, and one for what it announced meanwhile");
  await manager.close();
});

test("manager: a listing that fails while a burst of list_changed waits on it is reported once", async () => {
  const server = new HeldListings();
  const manager = new McpClientManager(info, { servers: [{ name: "held", transport: () => server }], clientOptions: { protocolVersion: "2025-11-25" } });
  const problems: string[] = [];
  manager.on("problem", (message: string) => problems.push(message));
  const starting = manager.start();
  await until(() => server.waiting > 0);
  server.release();
  await starting;
  for (let i = 0; i < 20; i++) server.changed();
  await until(() => server.waiting > 0);
  await turns(10);
  server.failing = true;
  server.release();
  await until(() => problems.length > 0);
  await turns(10);
  assert.equal(problems.length, 1, problems.join("\n"));
  assert.match(problems[0]!, /no list today/);
  await manager.close();
});
