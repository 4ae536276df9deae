// The dual-era client choosing its era: the server/discover probe against our real server (memory
// pair and stdio), and against scripted servers of each kind a probe can meet (basic/transports/stdio#backward-compatibility).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { McpClient } from "../../src/client/client.js";
import { ModernRefusedError, ProbeEndedError, RemovedMethodError } from "../../src/client/errors.js";
import { EraCache } from "../../src/client/modern/era-cache.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { StdioClientTransport } from "../../src/transports/stdio-client.js";
import { discoverResult, legacyServer, MODERN, ScriptedServer, type Sent } from "../helpers/client-modern-peer.js";

const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const info = { name: "test-client", version: "1.0.0" };
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

test("auto against our dual-era server (memory pair): modern, no initialize, the envelope on every request", async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  const sent: Sent[] = [];
  const send = clientEnd.send.bind(clientEnd);
  clientEnd.send = (message, options) => { sent.push(JSON.parse(JSON.stringify(message))); return send(message, options); };
  createDemoServer({ pageSize: 2 }).connect(serverEnd);
  const client = new McpClient(info, { protocolVersion: "auto" });
  const result = await client.connect(clientEnd);
  assert.equal(client.era, "modern");
  assert.equal(client.eraReason, "server/discover answered 2026-07-28");
  assert.equal(client.protocolVersion, MODERN);
  assert.equal(result.protocolVersion, MODERN);
  assert.equal(client.serverInfo?.name, "mcp-wire-demo");
  assert.match(client.instructions ?? "", /demo MCP server/);
  assert.ok(client.serverCapabilities?.tools);
  const tools = await client.listAllTools();
  assert.ok(tools.some((t) => t.name === "echo"));
  assert.deepEqual((await client.callTool("echo", { text: "hi" }, { onProgress: () => {} })).content, [{ type: "text", text: "echo: hi" }]);
  await client.ping();
  await client.setLoggingLevel("debug");
  await client.callTool("echo", { text: "logged" });
  await assert.rejects(client.request("logging/setLevel", { level: "info" }), RemovedMethodError);
  const requests = sent.filter((m) => "method" in m && "id" in m);
  assert.ok(!requests.some((m) => m.method === "initialize" || m.method === "ping" || m.method === "logging/setLevel"), "no legacy method on the wire");
  for (const request of requests) assert.equal((request.params?._meta as Record<string, unknown>)[VERSION_KEY], MODERN, `${request.method} carries the envelope`);
  const call = requests.find((m) => m.method === "tools/call")!;
  const meta = call.params!._meta as Record<string, unknown>;
  assert.equal(typeof meta.progressToken, "number", "the caller's progressToken is kept beside the envelope");
  assert.deepEqual(meta["io.modelcontextprotocol/clientInfo"], info);
  assert.deepEqual(meta["io.modelcontextprotocol/clientCapabilities"], {}, "no handlers, no capabilities");
  const logged = requests.filter((m) => m.method === "tools/call").at(-1)!;
  assert.equal((logged.params!._meta as Record<string, unknown>)["io.modelcontextprotocol/logLevel"], "debug", "setLoggingLevel became the per-request logLevel");
  await client.close();
});

test("auto over stdio against node dist/server.js: modern, and the calls work", async () => {
  const client = new McpClient(info, { protocolVersion: "auto" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER] }));
  assert.equal(client.era, "modern");
  assert.deepEqual((await client.callTool("add", { a: 3, b: 4 })).structuredContent, { sum: 7 });
  assert.equal((await client.readResource("docs://demo/protocol-notes/tools")).contents.length, 1);
  await client.close();
});

/** What a legacy server may do with server/discover before initialize; each must end in the handshake. */
const legacyAnswers: { name: string; answer: (m: Sent) => (object | string)[] | void; reason: RegExp }[] = [
  { name: "-32601 method not found", answer: (m) => [{ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } }], reason: /^server\/discover answered -32601 .*: fell back to initialize$/ },
  { name: "-32600 not initialized", answer: (m) => [{ jsonrpc: "2.0", id: m.id, error: { code: -32600, message: "Server not initialized" } }], reason: /answered -32600/ },
  { name: "-32602 invalid params", answer: (m) => [{ jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "bad params" } }], reason: /answered -32602/ },
  { name: "a result that is no DiscoverResult", answer: (m) => [{ jsonrpc: "2.0", id: m.id, result: { hello: "world" } }], reason: /malformed result/ },
  { name: "a DiscoverResult without resultType", answer: (m) => [{ jsonrpc: "2.0", id: m.id, result: { supportedVersions: [MODERN], capabilities: {} } }], reason: /malformed result.*resultType/ },
  { name: "a DiscoverResult listing no version we speak", answer: (m) => [{ jsonrpc: "2.0", id: m.id, result: discoverResult({}, ["2099-01-01"]) }], reason: /no modern version we speak/ },
  { name: "nothing at all", answer: () => [], reason: /no answer within 50 ms/ },
];

for (const c of legacyAnswers) {
  test(`auto against a legacy server that answers the probe with ${c.name}: falls back to initialize`, async () => {
    const server = legacyServer(c.answer);
    const client = new McpClient(info, { protocolVersion: "auto", probeTimeoutMs: 50 });
    const result = await client.connect(server);
    assert.equal(client.era, "handshake");
    assert.match(client.eraReason ?? "", c.reason);
    assert.equal(result.protocolVersion, "2025-11-25");
    const methods = server.methods();
    assert.equal(methods[0], "server/discover");
    assert.ok(methods.includes("initialize") && methods.includes("notifications/initialized"));
    const init = server.sent.find((m) => m.method === "initialize")!;
    assert.deepEqual(init.params, { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: info }, "initialize exactly as a handshake-only client sends it");
    assert.deepEqual(await client.listTools(), { tools: [] });
    assert.equal(server.sent.find((m) => m.method === "tools/list")!.params, undefined, "legacy requests carry no envelope");
    await client.close();
  });
}

test("a late answer to a timed-out probe confuses nothing: initialize gets its own answer", async () => {
  let probeId: string | number | undefined;
  const server = legacyServer((m) => { probeId = m.id; });
  const problems: string[] = [];
  const client = new McpClient(info, { protocolVersion: "auto", probeTimeoutMs: 20, onProblem: (p) => problems.push(p) });
  await client.connect(server);
  assert.equal(client.era, "handshake");
  assert.ok(server.methods().includes("notifications/cancelled"), "the probe given up is cancelled");
  server.deliver({ jsonrpc: "2.0", id: probeId, result: discoverResult() });
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(client.era, "handshake");
  assert.deepEqual(await client.listTools(), { tools: [] });
  assert.deepEqual(problems, [], "the probe's id stays reserved for its late answer: no stray response (modern-probe-wait.test.ts)");
  await client.close();
});

test("a strict legacy server that exits on the probe: a clear ProbeEndedError", async () => {
  const server = legacyServer((_m) => void setImmediate(() => server.exit()));
  const client = new McpClient(info, { protocolVersion: "auto" });
  await assert.rejects(client.connect(server), (e: unknown) => e instanceof ProbeEndedError && /pin protocolVersion/.test(e.message));
});

test("a real process that exits on a request before initialize: ProbeEndedError, promptly", async () => {
  const exitsOnFirstLine = "process.stdin.once('data', () => process.exit(3))";
  const client = new McpClient(info, { protocolVersion: "auto", probeTimeoutMs: 10_000 });
  await assert.rejects(client.connect(new StdioClientTransport({ command: process.execPath, args: ["-e", exitsOnFirstLine] })), ProbeEndedError);
});

test("a modern-only server: no initialize is ever sent", async () => {
  const server = new ScriptedServer((m) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: discoverResult() }];
    if (m.method === "tools/list") return [{ jsonrpc: "2.0", id: m.id, result: { tools: [], resultType: "complete", ttlMs: 0, cacheScope: "private" } }];
  });
  const client = new McpClient(info, { protocolVersion: "auto" });
  const result = await client.connect(server);
  assert.deepEqual(result.serverInfo, { name: "scripted", version: "1.0.0" });
  assert.deepEqual(await client.listTools(), { tools: [], resultType: "complete", ttlMs: 0, cacheScope: "private" });
  assert.ok(!server.methods().includes("initialize"));
  await client.close();
});

test("-32022 whose data.supported names a modern version we speak: asked once more with it, and modern (no fallback)", async () => {
  const server = new ScriptedServer((m) => {
    if (m.method !== "server/discover") return;
    if (server.methods().filter((x) => x === "server/discover").length === 1) {
      return [{ jsonrpc: "2.0", id: m.id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2099-01-01", MODERN, "2025-11-25"], requested: MODERN } } }];
    }
    return [{ jsonrpc: "2.0", id: m.id, result: discoverResult() }];
  });
  const client = new McpClient(info, { protocolVersion: "auto" });
  await client.connect(server);
  assert.equal(client.era, "modern");
  assert.deepEqual(server.methods(), ["server/discover", "server/discover", "subscriptions/listen"]);
  const second = server.sent[1]!;
  assert.notEqual(second.id, server.sent[0]!.id, "the retry is a new request");
  await client.close();
});

test("-32022 again after the retry: a clear error, no fallback to initialize", async () => {
  const server = new ScriptedServer((m) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, error: { code: -32022, message: "Unsupported", data: { supported: [MODERN], requested: MODERN } } }];
  });
  const client = new McpClient(info, { protocolVersion: "auto" });
  await assert.rejects(client.connect(server), (e: unknown) => e instanceof ModernRefusedError && /-32022 twice/.test(e.message));
  assert.deepEqual(server.methods(), ["server/discover", "server/discover"]);
});

test("-32022 listing no modern version we speak: the handshake", async () => {
  const server = legacyServer((m) => [{ jsonrpc: "2.0", id: m.id, error: { code: -32022, message: "Unsupported", data: { supported: ["2099-01-01", "2025-11-25"], requested: MODERN } } }]);
  const client = new McpClient(info, { protocolVersion: "auto" });
  await client.connect(server);
  assert.equal(client.era, "handshake");
  assert.match(client.eraReason ?? "", /-32022 .*fell back to initialize/);
  assert.deepEqual(server.methods().slice(0, 2), ["server/discover", "initialize"]);
  await client.close();
});

test("pinned 2026-07-28 against a legacy server: a clear error naming what the server said, no initialize", async () => {
  const server = legacyServer((m) => [{ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } }]);
  const client = new McpClient(info, { protocolVersion: MODERN });
  await assert.rejects(client.connect(server), (e: unknown) => e instanceof ModernRefusedError && /asked for 2026-07-28; server\/discover answered -32601/.test(e.message));
  assert.ok(!server.methods().includes("initialize"));
});

test("pinned handshake version: initialize only, no probe", async () => {
  const server = legacyServer(() => assert.fail("no request before initialize"));
  const client = new McpClient(info, { protocolVersion: "2025-06-18" });
  await client.connect(server);
  assert.equal(client.era, "handshake");
  assert.match(client.eraReason ?? "", /pinned to 2025-06-18/);
  assert.equal(server.methods()[0], "initialize");
  await client.close();
});

test("era cache: the era is remembered per peerKey (and per client without one), and forgotten on -32022", async () => {
  const cache = new EraCache(2);
  const modernServer = () => {
    const server = new ScriptedServer((m) => {
      if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: discoverResult() }];
      if (m.method === "tools/list") return [{ jsonrpc: "2.0", id: m.id, error: { code: -32022, message: "Unsupported", data: { supported: ["2027-01-01"], requested: MODERN } } }];
    });
    server.peerKey = "http://127.0.0.1:1";
    return server;
  };
  const first = modernServer();
  const client = new McpClient(info, { protocolVersion: "auto", eraCache: cache });
  await client.connect(first);
  await client.close();
  const second = modernServer();
  const other = new McpClient(info, { protocolVersion: "auto", eraCache: cache });
  await other.connect(second);
  assert.equal(other.era, "modern");
  // Changed in issue 9 review: a modern server is asked server/discover on every connect (its
  // result may be private to one token, and ttlMs 0 is stale at once); only the era is remembered.
  assert.deepEqual(cache.get("http://127.0.0.1:1"), { era: "modern", version: MODERN });
  assert.equal(second.methods()[0], "server/discover", "a remembered modern server is still probed");
  await assert.rejects(other.listTools(), (e: unknown) => (e as { code?: number }).code === -32022);
  await other.close();
  assert.equal(cache.get("http://127.0.0.1:1"), undefined, "-32022 on a modern call: forgotten, so the next connect probes");

  // No peerKey (stdio, a memory pair): remembered by the client instance.
  const legacy = () => legacyServer((m) => [{ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } }]);
  const own = new McpClient(info, { protocolVersion: "auto", eraCache: cache });
  await own.connect(legacy());
  await own.close();
  const again = legacy();
  await own.connect(again);
  assert.equal(again.methods()[0], "initialize", "the second connect of the same client skips the probe");
  await own.close();
});

test("era cache: bounded, the oldest server forgotten first", () => {
  const cache = new EraCache(2);
  for (const key of ["a", "b", "c"]) cache.set(key, { era: "handshake", reason: key });
  assert.equal(cache.get("a"), undefined);
  assert.deepEqual(cache.get("c"), { era: "handshake", reason: "c" });
});
