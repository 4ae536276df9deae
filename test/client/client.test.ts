// The client against our own demo server, in process (memory pair) and as a spawned child.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { McpClient } from "../../src/client/client.js";
import { ServerCapabilityError, NotConnectedError } from "../../src/client/errors.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { McpServer, text } from "../../src/server/definition.js";
import { StdioClientTransport } from "../../src/transports/stdio-client.js";

const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const info = { name: "test-client", version: "1.0.0" };

async function inProcess(server = createDemoServer({ pageSize: 2 }), options = {}) {
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new McpClient(info, options);
  await client.connect(clientEnd);
  return { client, server };
}

// Every feature in both generations: the default ("auto") finds our dual-era server modern.
for (const [mode, version] of [[undefined, "2026-07-28"], ["2025-11-25", "2025-11-25"]] as const) {
test(`client: connects, keeps what the server said, and calls every feature (${mode ?? "default"}: ${version})`, async () => {
  const { client } = await inProcess(undefined, mode === undefined ? {} : { protocolVersion: mode });
  assert.equal(client.protocolVersion, version);
  assert.equal(client.serverInfo?.name, "mcp-wire-demo");
  assert.match(client.instructions ?? "", /demo MCP server/);
  assert.ok(client.serverCapabilities?.tools);
  const tools = await client.listAllTools();
  assert.deepEqual(tools.map((t) => t.name), ["echo", "add", "get_time", "countdown", "greet", "summarize", "toggle_extra"], "all pages, at 2 per page");
  const page = await client.listTools();
  assert.equal(page.tools.length, 2);
  assert.equal(typeof page.nextCursor, "string");
  assert.deepEqual((await client.callTool("echo", { text: "hi" })).content, [{ type: "text", text: "echo: hi" }]);
  assert.deepEqual((await client.callTool("add", { a: 3, b: 4 })).structuredContent, { sum: 7 });
  assert.equal((await client.listAllResources())[0]!.uri, "docs://demo/protocol-notes");
  assert.equal((await client.listAllResourceTemplates())[0]!.uriTemplate, "docs://demo/protocol-notes/{section}");
  assert.match((((await client.readResource("docs://demo/protocol-notes/tools")).contents[0]) as { text: string }).text, /^## Tools/);
  assert.deepEqual((await client.listAllPrompts()).map((p) => p.name), ["explain_topic", "review_message"]);
  assert.equal((await client.getPrompt("review_message", { message: "{}" })).messages.length, 1);
  assert.deepEqual((await client.complete({ ref: { type: "ref/prompt", name: "explain_topic" }, argument: { name: "audience", value: "b" } })).completion.values, ["beginner"]);
  await client.setLoggingLevel("debug");
  await client.ping();
  await assert.rejects(client.callTool("nope"), (e: unknown) => e instanceof RpcError && e.code === -32602);
  await client.close();
  await assert.rejects(client.ping(), NotConnectedError);
});
}

test("client: progress, abort and log events", async () => {
  const { client } = await inProcess();
  const logs: unknown[] = [];
  client.on("log", (params) => logs.push(params));
  await client.setLoggingLevel("debug");
  const progress: number[] = [];
  await client.callTool("countdown", { steps: 3, intervalMs: 1 }, { onProgress: (p) => progress.push(p.progress) });
  assert.deepEqual(progress, [1, 2, 3]);
  assert.ok(logs.length >= 4, "info start + debug per step");
  const controller = new AbortController();
  const call = client.callTool("countdown", { steps: 100, intervalMs: 50 }, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error("changed my mind")), 20);
  await assert.rejects(call, /aborted by the caller: changed my mind/);
  await client.ping();
  await client.close();
});

test("client: list_changed invalidates cached lists and raises events; resource updates arrive", async () => {
  const { client, server } = await inProcess(createDemoServer());
  const first = await client.listAllTools();
  assert.equal(await client.listAllTools(), first, "cached");
  const changed = new Promise((resolve) => client.once("toolsChanged", resolve));
  server.tool({ name: "late", description: "added later", inputSchema: { type: "object" } }, () => ({ content: [text("late")] }));
  await changed;
  assert.ok((await client.listAllTools()).some((t) => t.name === "late"));
  await client.subscribe("docs://demo/protocol-notes");
  const updated = new Promise((resolve) => client.once("resourceUpdated", resolve));
  server.resourceUpdated("docs://demo/protocol-notes");
  assert.equal(await updated, "docs://demo/protocol-notes");
  await client.unsubscribe("docs://demo/protocol-notes");
  await client.close();
});

test("client: methods the server did not declare fail locally unless the check is off", async () => {
  const bare = new McpServer({ name: "bare", version: "1" });
  bare.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [] }));
  const { client } = await inProcess(bare);
  await assert.rejects(client.listAllPrompts(), (e: unknown) => e instanceof ServerCapabilityError && /did not declare the prompts capability/.test(e.message));
  await client.close();
  const { client: loose } = await inProcess(bare, { enforceServerCapabilities: false });
  await assert.rejects(loose.listAllPrompts(), (e: unknown) => e instanceof RpcError && e.code === -32601);
  await loose.close();
});

// What the server sees of the declaration: the handshake's capabilities, or the 2026 shape of the
// envelope (no roots.listChanged: 2026-07-28 has no roots notification; elicitation names its mode).
const declared = {
  "2025-11-25": { roots: { listChanged: true }, sampling: {}, elicitation: {} },
  "2026-07-28": { roots: {}, sampling: {}, elicitation: { form: {} } },
};
for (const version of ["2025-11-25", "2026-07-28"] as const) {
test(`client: declares only what it has handlers for, and answers the server's requests (${version})`, async () => {
  const server = new McpServer({ name: "asker", version: "1" });
  server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const roots = await ctx.listRoots();
    const sampled = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
    const form = await ctx.elicit({ message: "who?", requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" }, age: { type: "integer", default: 36 } } } });
    return { content: [text(JSON.stringify({ roots, sampled, form, caps: ctx.clientCapabilities }))] };
  });
  const { client } = await inProcess(server, {
    roots: () => [{ uri: "file:///work", name: "work" }],
    sampling: () => ({ role: "assistant", content: { type: "text", text: "hello" }, model: "m" }),
    elicitation: { form: () => ({ action: "accept", content: { age: 40 } }) },
    protocolVersion: version,
  });
  const answer = JSON.parse(((await client.callTool("ask")).content[0] as { text: string }).text);
  assert.deepEqual(answer.roots, { roots: [{ uri: "file:///work", name: "work" }] });
  assert.equal(answer.sampled.content.text, "hello");
  assert.deepEqual(answer.form, { action: "accept", content: { age: 40, name: "Ada" } }, "defaults fill what the user left out");
  assert.deepEqual(answer.caps, declared[version]);
  await client.close();
});
}

test("client: over stdio against node dist/server.js, and the server exits on close", async () => {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], onStderr: (line) => stderr.push(line) });
  const client = new McpClient(info);
  await client.connect(transport);
  assert.deepEqual((await client.callTool("add", { a: 1, b: 2 })).content, [{ type: "text", text: '{"sum":3}' }]);
  const pid = transport.pid!;
  const started = Date.now();
  await client.close();
  assert.ok(Date.now() - started < 2000, "closing stdin was enough");
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
});

test("client: URL elicitation, and its completion notice only for ids it accepted", async () => {
  const server = new McpServer({ name: "url", version: "1" });
  let session: import("../../src/server/connection.js").ServerConnection | undefined;
  server.tool({ name: "login", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ mode: "url", message: "sign in", url: "https://example.com/login", elicitationId: "e-1" });
    return { content: [text(answer.action)] };
  });
  const [clientEnd, serverEnd] = createMemoryPair();
  session = server.connect(serverEnd);
  const seen: string[] = [];
  // notifications/elicitation/complete is legacy only (2026-07-28 removed it): the handshake era, pinned.
  const client = new McpClient(info, { protocolVersion: "2025-11-25", elicitation: { url: (params) => (seen.push(params.url), { action: "accept" }) } });
  await client.connect(clientEnd);
  assert.deepEqual((await client.callTool("login")).content, [{ type: "text", text: "accept" }]);
  assert.deepEqual(seen, ["https://example.com/login"]);
  const completed: string[] = [];
  client.on("elicitationComplete", (id) => completed.push(id));
  for (const id of ["unknown", "e-1", "e-1"]) await session.connection.notify("notifications/elicitation/complete", { elicitationId: id });
  await client.ping();
  assert.deepEqual(completed, ["e-1"], "unknown and repeated ids are ignored");
  await client.close();
});

test("client: a listing that raced a list_changed is not cached", async () => {
  const server = createDemoServer();
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  let listings = 0;
  const { traceTransport } = await import("../../src/protocol/trace.js");
  const client = new McpClient(info);
  await client.connect(traceTransport(clientEnd, (event) => {
    if (event.kind === "sent" && event.text.includes('"tools/list"')) listings++;
  }));
  await client.ping(); // the server has taken notifications/initialized (or the listen sent before the ping), so it announces changes
  const racing = client.listAllTools();
  server.tool({ name: "raced", inputSchema: { type: "object" } }, () => ({ content: [] }));
  await racing;
  await client.listAllTools();
  assert.equal(listings, 2, "the list fetched during the change was not kept");
  await client.listAllTools();
  assert.equal(listings, 2, "the next one was");
  await client.close();
});
