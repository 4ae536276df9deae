// The server role beyond what the demo's golden transcripts show: notifications the server sends
// on its own, requests to the client and their capability checks, and version fitting.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import type { Row } from "../../src/protocol/method-table.js";
import { RpcError } from "../../src/jsonrpc/messages.js";
import type { FieldReader } from "../../src/jsonrpc/field-reader.js";
import { Connection, type RequestContext } from "../../src/protocol/connection.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { CapabilityError } from "../../src/server/capabilities.js";
import { McpServer, text } from "../../src/server/definition.js";
import type { HandlerContext } from "../../src/server/connection.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { RawPeer } from "../helpers/raw-peer.js";

interface Client {
  connection: Connection;
  notifications: { method: string; params?: unknown }[];
}

/** A bare client on a memory pair: answers server requests with `rows`, records notifications. */
async function connect(server: McpServer, options: { version?: string; capabilities?: object; rows?: Row<RequestContext>[] } = {}): Promise<Client & { init: Record<string, unknown> }> {
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const notifications: Client["notifications"] = [];
  const recorder: Row<RequestContext>[] = ["notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/prompts/list_changed", "notifications/resources/updated", "notifications/message"].map((method) => ({
    method, kind: "notification" as const, handle: (p: FieldReader) => void notifications.push({ method, params: p.value }),
  }));
  const connection = new Connection(clientEnd, { dispatcher: new Dispatcher([...recorder, ...(options.rows ?? [])]) });
  connection.start();
  const init = await connection.request("initialize", {
    protocolVersion: options.version ?? "2025-11-25",
    capabilities: options.capabilities ?? {},
    clientInfo: { name: "test", version: "1" },
  });
  await connection.notify("notifications/initialized");
  await tick();
  return { connection, notifications, init };
}

/** Lets messages cross the memory pair: each hop is one setImmediate, so this does not depend on load. */
async function tick(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

function demo(): McpServer {
  const server = new McpServer({ name: "t", version: "1" }, { pageSize: 100 });
  server.tool({ name: "t1", inputSchema: { type: "object" } }, () => ({ content: [text("one")] }));
  server.resource({ uri: "mem://a", name: "a" }, (uri) => [{ uri, text: "A" }]);
  server.prompt({ name: "p" }, () => ({ messages: [] }));
  return server;
}

test("server: list_changed goes to initialized sessions when the definition changes", async () => {
  const server = demo();
  const client = await connect(server);
  server.tool({ name: "t2", inputSchema: { type: "object" } }, () => ({ content: [] }));
  server.resource({ uri: "mem://b", name: "b" }, (uri) => [{ uri, text: "B" }]);
  server.removePrompt("p");
  assert.equal(server.removePrompt("p"), false, "removing twice changes nothing");
  await tick();
  assert.deepEqual(client.notifications.map((n) => n.method), [
    "notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/prompts/list_changed",
  ]);
  const listed = await client.connection.request("tools/list");
  assert.deepEqual((listed.tools as { name: string }[]).map((t) => t.name), ["t1", "t2"]);
});

test("server: no list_changed for a kind the session did not declare, nor before initialized", async () => {
  const server = new McpServer({ name: "t", version: "1" });
  server.tool({ name: "t1", inputSchema: { type: "object" } }, () => ({ content: [] }));
  const client = await connect(server);
  assert.equal((client.init.capabilities as Record<string, unknown>).prompts, undefined);
  server.prompt({ name: "late" }, () => ({ messages: [] }));
  await tick();
  assert.deepEqual(client.notifications, []);
  // And a capability that was not declared makes its methods -32601.
  await assert.rejects(client.connection.request("prompts/list"), (e: unknown) => e instanceof RpcError && e.code === -32601);
});

test("server: resources/updated goes only to sessions subscribed to that URI", async () => {
  const server = demo();
  const subscribed = await connect(server);
  const other = await connect(server);
  await subscribed.connection.request("resources/subscribe", { uri: "mem://a" });
  server.resourceUpdated("mem://a");
  server.resourceUpdated("mem://elsewhere");
  await tick();
  assert.deepEqual(subscribed.notifications, [{ method: "notifications/resources/updated", params: { uri: "mem://a" } }]);
  assert.deepEqual(other.notifications, []);
  await subscribed.connection.request("resources/unsubscribe", { uri: "mem://a" });
  server.resourceUpdated("mem://a");
  await tick();
  assert.equal(subscribed.notifications.length, 1);
});

test("server: a closed session is forgotten by its definition", async () => {
  const server = demo();
  const client = await connect(server);
  assert.equal(server.sessionCount, 1);
  await client.connection.close();
  await tick();
  assert.equal(server.sessionCount, 0);
});

/** A tool that asks the client for sampling, elicitation and roots, and reports what happened. */
function askingServer(): McpServer {
  const server = new McpServer({ name: "asker", version: "1" });
  const attempt = async (what: () => Promise<unknown>) => {
    try {
      return JSON.stringify(await what());
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  };
  server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx: HandlerContext) => ({
    content: [
      text(await attempt(() => ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }))),
      text(await attempt(() => ctx.sample({ messages: [], maxTokens: 5, tools: [{ name: "x", inputSchema: { type: "object" } }] }))),
      text(await attempt(() => ctx.elicit({ mode: "form", message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } }))),
      text(await attempt(() => ctx.elicit({ mode: "url", message: "go", url: "https://example.com/x", elicitationId: "e1" }))),
      text(await attempt(() => ctx.listRoots())),
    ],
  }));
  return server;
}

const clientRows: Row<RequestContext>[] = [
  { method: "sampling/createMessage", kind: "request", handle: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "m" }) },
  { method: "elicitation/create", kind: "request", handle: (p) => ({ action: "accept", content: { mode: p.value.mode ?? "none" } }) },
  { method: "roots/list", kind: "request", handle: () => ({ roots: [{ uri: "file:///w" }] }) },
];

test("server: requests to the client are refused locally when the client lacks the capability", async () => {
  const client = await connect(askingServer(), { rows: clientRows });
  const result = await client.connection.request("tools/call", { name: "ask" });
  const texts = (result.content as { text: string }[]).map((c) => c.text);
  assert.match(texts[0]!, /^CapabilityError: sampling\/createMessage: the client did not declare the sampling capability$/);
  assert.match(texts[2]!, /^CapabilityError: elicitation\/create: the client did not declare the elicitation capability$/);
  assert.match(texts[4]!, /^CapabilityError: roots\/list: the client did not declare the roots capability$/);
});

test("server: requests to the client go out when declared, within each capability's limits", async () => {
  const client = await connect(askingServer(), { rows: clientRows, capabilities: { sampling: {}, elicitation: {}, roots: {} } });
  const result = await client.connection.request("tools/call", { name: "ask" });
  const texts = (result.content as { text: string }[]).map((c) => c.text);
  assert.equal(JSON.parse(texts[0]!).content.text, "sampled");
  assert.match(texts[1]!, /did not declare sampling\.tools/);
  assert.deepEqual(JSON.parse(texts[2]!), { action: "accept", content: { mode: "form" } });
  assert.match(texts[3]!, /did not declare url-mode elicitation/);
  assert.deepEqual(JSON.parse(texts[4]!), { roots: [{ uri: "file:///w" }] });
});

test("server: URL elicitation needs elicitation.url and protocol 2025-11-25", async () => {
  const modern = await connect(askingServer(), { rows: clientRows, capabilities: { elicitation: { url: {} } } });
  const texts = ((await modern.connection.request("tools/call", { name: "ask" })).content as { text: string }[]).map((c) => c.text);
  assert.deepEqual(JSON.parse(texts[3]!), { action: "accept", content: { mode: "url" } });
  assert.match(texts[2]!, /did not declare form-mode elicitation/);
  const older = await connect(askingServer(), { rows: clientRows, version: "2025-06-18", capabilities: { elicitation: { url: {} } } });
  const olderTexts = ((await older.connection.request("tools/call", { name: "ask" })).content as { text: string }[]).map((c) => c.text);
  assert.match(olderTexts[3]!, /protocol 2025-06-18 has no URL-mode elicitation/);
  const formOnly = await connect(askingServer(), { rows: clientRows, version: "2025-06-18", capabilities: { elicitation: {} } });
  const formTexts = ((await formOnly.connection.request("tools/call", { name: "ask" })).content as { text: string }[]).map((c) => c.text);
  assert.deepEqual(JSON.parse(formTexts[2]!), { action: "accept", content: { mode: "none" } }, "no mode field sent to 2025-06-18");
});

test("server: elicitation declared to a version that has none (before 2025-06-18) is refused, and says why", async () => {
  // The Python SDK (mcp 2.3.0) declares elicitation whatever version it offers; 2025-03-26 has no
  // elicitation/create, so the server must not send it, and must not claim the client left it out.
  const older = await connect(askingServer(), { rows: clientRows, version: "2025-03-26", capabilities: { elicitation: {} } });
  const texts = ((await older.connection.request("tools/call", { name: "ask" })).content as { text: string }[]).map((c) => c.text);
  assert.match(texts[2]!, /^CapabilityError: elicitation\/create: protocol 2025-03-26 has no elicitation \(it arrived in 2025-06-18\)$/);
});

test("server: requests to the client before notifications/initialized are refused", async () => {
  const server = askingServer();
  const [clientEnd, serverEnd] = createMemoryPair();
  const session = server.connect(serverEnd);
  const connection = new Connection(clientEnd, { dispatcher: new Dispatcher(clientRows) });
  connection.start();
  await connection.request("initialize", { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "x", version: "1" } });
  await assert.rejects(session.listRoots(), (e: unknown) => e instanceof CapabilityError && /has not finished initializing/.test(e.message));
});

test("server: tool failures become isError results; RpcErrors stay protocol errors; output that breaks its outputSchema is isError", async () => {
  const server = new McpServer({ name: "t", version: "1" });
  server.tool({ name: "throws", inputSchema: { type: "object" } }, () => { throw new Error("disk full"); });
  server.tool({ name: "refuses", inputSchema: { type: "object" } }, () => { throw new RpcError(-32602, "refused on purpose"); });
  // @ts-expect-error -- the compiler now refuses this wrong structuredContent too; the test is of the run-time check.
  server.tool({ name: "lies", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } }, () => ({ content: [], structuredContent: { n: "x" } }));
  server.tool({ name: "overflows", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } }, () => ({ content: [], structuredContent: { n: Infinity } }));
  server.tool({ name: "mirrors", inputSchema: { type: "object" }, outputSchema: { type: "object" } }, () => ({ content: [], structuredContent: { n: 1 } }));
  const client = await connect(server);
  assert.deepEqual(await client.connection.request("tools/call", { name: "throws" }), { content: [{ type: "text", text: "disk full" }], isError: true });
  await assert.rejects(client.connection.request("tools/call", { name: "refuses" }), (e: unknown) => e instanceof RpcError && e.message === "refused on purpose");
  const mismatch = "structuredContent does not match the tool's outputSchema";
  assert.deepEqual(await client.connection.request("tools/call", { name: "lies" }), { content: [{ type: "text", text: `tools/call lies: ${mismatch}: n: must be number, got string` }], isError: true });
  // Infinity is a number in memory but null on the wire: it is checked as the client would read it.
  assert.deepEqual(await client.connection.request("tools/call", { name: "overflows" }), { content: [{ type: "text", text: `tools/call overflows: ${mismatch}: n: must be number, got null` }], isError: true });
  assert.deepEqual(await client.connection.request("tools/call", { name: "mirrors" }), { content: [{ type: "text", text: '{"n":1}' }], structuredContent: { n: 1 } });
});

test("demo: add keeps its output schema: a sum that is not finite is an isError result", async () => {
  const client = await connect(createDemoServer());
  const result = await client.connection.request("tools/call", { name: "add", arguments: { a: 1e308, b: 1e308 } });
  assert.deepEqual(result, { content: [{ type: "text", text: "add: the sum of 1e+308 and 1e+308 is not a finite number" }], isError: true });
  assert.deepEqual((await client.connection.request("tools/call", { name: "add", arguments: { a: 2, b: 3 } })).structuredContent, { sum: 5 });
});

test("server: content is fitted to the negotiated version", async () => {
  const server = new McpServer({ name: "t", version: "1" });
  server.tool({ name: "media", inputSchema: { type: "object" } }, () => ({
    content: [
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      { type: "resource_link", uri: "mem://x", name: "x", title: "X" },
      { type: "text", text: "t", annotations: { priority: 1, lastModified: "2025-01-01T00:00:00Z" } },
    ],
  }));
  const content = async (version: string) => ((await (await connect(server, { version })).connection.request("tools/call", { name: "media" })).content as object[]);
  assert.deepEqual(await content("2025-11-25"), [
    { type: "audio", data: "AAAA", mimeType: "audio/wav" },
    { type: "resource_link", uri: "mem://x", name: "x", title: "X" },
    { type: "text", text: "t", annotations: { priority: 1, lastModified: "2025-01-01T00:00:00Z" } },
  ]);
  assert.deepEqual(await content("2025-03-26"), [
    { type: "audio", data: "AAAA", mimeType: "audio/wav" },
    { type: "text", text: "Resource: mem://x (x)" },
    { type: "text", text: "t", annotations: { priority: 1 } },
  ]);
  const oldest = await content("2024-11-05");
  assert.match((oldest[0] as { text: string }).text, /audio content \(audio\/wav\) omitted/);
});

test("server: completion caps values at 100 and says how many there are", async () => {
  const server = new McpServer({ name: "t", version: "1" });
  server.prompt({ name: "p", arguments: [{ name: "n" }] }, () => ({ messages: [] }), { n: () => Array.from({ length: 250 }, (_, i) => `v${i}`) });
  const client = await connect(server);
  const result = await client.connection.request("completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "n", value: "" } });
  const completion = result.completion as { values: string[]; total: number; hasMore: boolean };
  assert.equal(completion.values.length, 100);
  assert.equal(completion.total, 250);
  assert.equal(completion.hasMore, true);
});

test("server: definitions refuse bad tools early", () => {
  const server = new McpServer({ name: "t", version: "1" });
  assert.throws(() => server.tool({ name: "has space", inputSchema: { type: "object" } }, () => ({ content: [] })), /tool name/);
  assert.throws(() => server.tool({ name: "x", inputSchema: { type: "string" } as never }, () => ({ content: [] })), /type "object"/);
  assert.throws(() => server.tool({ name: "y", inputSchema: { type: "object", $schema: "http://json-schema.org/draft-04/schema#" } }, () => ({ content: [] })), /draft-04|dialect/);
  assert.throws(() => new McpServer({ name: "t", version: "1" }, { pageSize: 0 }), /pageSize/);
});

test("server: maxInFlight given to connect bounds the session's connection (input pauses at it)", async () => {
  const server = new McpServer({ name: "bounded", version: "1" });
  let release: () => void = () => {};
  server.tool({ name: "hold", inputSchema: { type: "object" } }, () => new Promise((resolve) => (release = () => resolve({ content: [text("done")] }))));
  const peer = new RawPeer();
  server.connect(peer, { maxInFlight: 1 });
  peer.write({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  await peer.waitForSent(1);
  peer.write({ jsonrpc: "2.0", method: "notifications/initialized" });
  peer.write({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hold", arguments: {} } });
  await tick();
  assert.equal(peer.paused, true, "one call in flight is the bound: input must pause");
  release();
  await peer.waitForSent(2);
  await tick();
  assert.equal(peer.paused, false);
});

test("server: a prompt whose question the client answers with an error fails with -32603, not the client's code", async () => {
  const server = new McpServer({ name: "t", version: "1" });
  server.prompt({ name: "asks" }, async (_args, ctx) => {
    await ctx.sample({ messages: [], maxTokens: 5 });
    return { messages: [] };
  });
  const problems: string[] = [];
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd, { onProblem: (message) => problems.push(message) });
  const rejecting: Row<RequestContext> = { method: "sampling/createMessage", kind: "request", handle: () => { throw new RpcError(-1, "User rejected sampling request"); } };
  const connection = new Connection(clientEnd, { dispatcher: new Dispatcher([rejecting]) });
  connection.start();
  await connection.request("initialize", { protocolVersion: "2025-11-25", capabilities: { sampling: {} }, clientInfo: { name: "x", version: "1" } });
  await connection.notify("notifications/initialized");
  await assert.rejects(connection.request("prompts/get", { name: "asks" }), (e: unknown) =>
    e instanceof RpcError && e.code === -32603 && e.message === "prompts/get: internal error");
  assert.match(problems.join("\n"), /ClientRequestError: sampling\/createMessage: the client answered -1 User rejected sampling request/);
  await connection.close();
});

test("server: ping goes to the client before notifications/initialized; roots/list goes without params", async () => {
  const server = new McpServer({ name: "t", version: "1" });
  const [clientEnd, serverEnd] = createMemoryPair();
  const session = server.connect(serverEnd);
  const seen: { method: string; params: unknown }[] = [];
  const record = (method: string, result: { [key: string]: unknown }): Row<RequestContext> => ({ method, kind: "request", handle: (p) => (seen.push({ method, params: p.value }), result) });
  const raw: unknown[] = [];
  const connection = new Connection(traceReceived(clientEnd, raw), { dispatcher: new Dispatcher([record("ping", {}), record("roots/list", { roots: [] })]) });
  connection.start();
  await connection.request("initialize", { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "x", version: "1" } });
  assert.deepEqual(await session.request("ping"), {});
  await connection.notify("notifications/initialized");
  await tick();
  assert.deepEqual(await session.listRoots(), { roots: [] });
  const rootsList = raw.find((message) => (message as { method?: string }).method === "roots/list") as { [key: string]: unknown } | undefined;
  assert.ok(rootsList && !("params" in rootsList), `roots/list went out as ${JSON.stringify(rootsList)}`);
  await connection.close();
});

/** `transport`, keeping each message it receives (as parsed from the wire) in `into`. */
function traceReceived(transport: ReturnType<typeof createMemoryPair>[0], into: unknown[]): ReturnType<typeof createMemoryPair>[0] {
  const start = transport.start.bind(transport);
  transport.start = (handlers) => start({ ...handlers, message: (text) => (into.push(JSON.parse(text)), handlers.message(text)) });
  return transport;
}

// Invalid traffic the server answered before the readers (issue 8), and answers the same way now.
test("server: ping and tools/list with a null _meta are answered, the null read as absent", async () => {
  const client = await connect(demo());
  assert.deepEqual(await client.connection.request("ping", { _meta: null }), {});
  const listed = await client.connection.request("tools/list", { _meta: null });
  assert.deepEqual((listed.tools as { name: string }[]).map((tool) => tool.name), ["t1"]);
  await client.connection.close();
});

test("server: a second initialize is refused as already initialized, whatever its params", async () => {
  const client = await connect(demo());
  await assert.rejects(client.connection.request("initialize", { protocolVersion: "2025-11-25" }), (e: unknown) =>
    e instanceof RpcError && e.code === -32600 && e.message === "initialize: the session is already initialized");
  await client.connection.close();
});

test("server: a notification its reader refuses is reported as dropped and malformed, not as a handler failure", async () => {
  const problems: string[] = [];
  const [clientEnd, serverEnd] = createMemoryPair();
  demo().connect(serverEnd, { onProblem: (message) => problems.push(message) });
  const connection = new Connection(clientEnd, { dispatcher: new Dispatcher([]) });
  connection.start();
  await connection.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } });
  await connection.notify("notifications/initialized", { _meta: "not an object" });
  await connection.request("ping");
  assert.deepEqual(problems, ['dropped a malformed notification: notifications/initialized: "_meta" must be an object']);
  await connection.close();
});
