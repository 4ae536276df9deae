// The 2026-07-28 request path of the dual-era server, on the wire: server/discover, each method's
// modern result shape (and none of it on legacy results), the envelope checks and their errors,
// removed and modern-only methods, resource-not-found per era, per-request log level, progress and
// cancellation. Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning, basic#meta,
// basic#result-responses, basic#error-codes, server/discover, server/utilities/caching and basic/transports/stdio#cancellation
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpServer, text } from "../../src/server/definition.js";
import { ALL_PROTOCOL_VERSIONS } from "../../src/mcp/versions.js";
import { settle } from "../helpers/raw-peer.js";
import { CAPS, envelope, errorOf, LOG_LEVEL, ModernPeer, MODERN, PV, resultOf, SERVER_INFO } from "../helpers/modern-peer.js";

const DEMO_CAPABILITIES = { logging: {}, completions: {}, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } };
const NOTES_URI = "docs://demo/protocol-notes";

test("modern: server/discover says the modern versions, capabilities, instructions, resultType, cache fields and serverInfo", async () => {
  const peer = new ModernPeer(createDemoServer());
  const result = resultOf(await peer.modern("server/discover"));
  assert.deepEqual(result.supportedVersions, [MODERN], "the handshake versions are initialize's to offer");
  assert.deepEqual(result.capabilities, DEMO_CAPABILITIES);
  assert.match(String(result.instructions), /^A demo MCP server/);
  assert.equal(result.resultType, "complete");
  assert.ok(Number.isInteger(result.ttlMs) && (result.ttlMs as number) >= 0, `ttlMs ${String(result.ttlMs)}`);
  assert.ok(result.cacheScope === "private" || result.cacheScope === "public");
  assert.equal(((result._meta as { [SERVER_INFO]: { name: string } })[SERVER_INFO]).name, "mcp-wire-demo");
  assert.equal(Object.hasOwn((result._meta as object)[SERVER_INFO as never] as object, "instructions"), false, "instructions are not identity");
  assert.equal((result._meta as { [SERVER_INFO]: { title?: string } })[SERVER_INFO].title, "mcp-wire demo server", "discover names the server in full");
});

test("modern: a configured cache hint is sent as a whole ttlMs >= 0 with its scope", async () => {
  const server = new McpServer({ name: "c", version: "1" }, { cache: { discover: { ttlMs: 1500.7, cacheScope: "public" }, lists: { ttlMs: -5, cacheScope: "public" } } });
  server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [] }));
  const peer = new ModernPeer(server);
  const discover = resultOf(await peer.modern("server/discover"));
  assert.deepEqual([discover.ttlMs, discover.cacheScope], [1500, "public"]);
  const list = resultOf(await peer.modern("tools/list"));
  assert.deepEqual([list.ttlMs, list.cacheScope], [0, "public"]);
  assert.equal(discover.instructions, undefined, "no instructions key when the server has none");
});

/** Each method with params that succeed on the demo server, and whether its result is cacheable. */
const METHODS: { method: string; params: { [key: string]: unknown }; field: string; cacheable: boolean }[] = [
  { method: "tools/list", params: {}, field: "tools", cacheable: true },
  { method: "prompts/list", params: {}, field: "prompts", cacheable: true },
  { method: "resources/list", params: {}, field: "resources", cacheable: true },
  { method: "resources/templates/list", params: {}, field: "resourceTemplates", cacheable: true },
  { method: "resources/read", params: { uri: NOTES_URI }, field: "contents", cacheable: true },
  { method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } }, field: "content", cacheable: false },
  { method: "prompts/get", params: { name: "review_message", arguments: { message: "{}" } }, field: "messages", cacheable: false },
  { method: "completion/complete", params: { ref: { type: "ref/prompt", name: "explain_topic" }, argument: { name: "audience", value: "b" } }, field: "completion", cacheable: false },
];

for (const c of METHODS) {
  test(`modern: ${c.method} answers resultType complete, serverInfo${c.cacheable ? ", ttlMs and cacheScope" : ", no cache fields"}`, async () => {
    const peer = new ModernPeer(createDemoServer());
    const result = resultOf(await peer.modern(c.method, c.params));
    assert.ok(result[c.field] !== undefined, `${c.field} is there`);
    assert.equal(result.resultType, "complete");
    assert.deepEqual((result._meta as { [SERVER_INFO]: object })[SERVER_INFO], { name: "mcp-wire-demo", version: "0.1.0" }, "other results name it by name and version");
    assert.equal(Number.isInteger(result.ttlMs) && (result.ttlMs as number) >= 0, c.cacheable);
    assert.equal(result.cacheScope !== undefined, c.cacheable);
  });

  test(`legacy: ${c.method} has no resultType, cache fields or serverInfo in a handshake session`, async () => {
    const peer = new ModernPeer(createDemoServer());
    await peer.initialize();
    const result = resultOf(await peer.request(c.method, c.params));
    assert.ok(result[c.field] !== undefined);
    for (const field of ["resultType", "ttlMs", "cacheScope", "_meta"]) assert.equal(Object.hasOwn(result, field), false, field);
  });
}

test("modern: tools/list order is deterministic (registration order), the same on every request", async () => {
  const peer = new ModernPeer(createDemoServer());
  const names = async () => (resultOf(await peer.modern("tools/list")).tools as { name: string }[]).map((t) => t.name);
  const first = await names();
  assert.deepEqual(first.slice(0, 3), ["echo", "add", "get_time"]);
  assert.deepEqual(await names(), first);
});

/** Envelopes that are not acceptable, and what each gets. */
const BAD_ENVELOPES: { name: string; meta: { [key: string]: unknown }; code: number; match: RegExp }[] = [
  { name: "a claim without clientCapabilities", meta: { [PV]: MODERN }, code: -32602, match: /io\.modelcontextprotocol\/clientCapabilities/ },
  { name: "a protocolVersion that is not a string", meta: { [PV]: 20260728, [CAPS]: {} }, code: -32602, match: /protocolVersion/ },
  { name: "clientCapabilities that are not an object", meta: { [PV]: MODERN, [CAPS]: "all" }, code: -32602, match: /clientCapabilities/ },
  { name: "clientInfo without a version", meta: { ...envelope(), "io.modelcontextprotocol/clientInfo": { name: "x" } }, code: -32602, match: /clientInfo/ },
  { name: "an unknown logLevel", meta: envelope({}, { [LOG_LEVEL]: "loud" }), code: -32602, match: /logLevel/ },
  // The capabilities a server reads must be objects, as deep as it reads them (both ways of reading the envelope, mcp/read.ts).
  { name: "a null clientInfo", meta: { ...envelope(), "io.modelcontextprotocol/clientInfo": null }, code: -32602, match: /clientInfo/ },
  { name: "elicitation: false", meta: { [PV]: MODERN, [CAPS]: { elicitation: false } }, code: -32602, match: /elicitation/ },
  { name: "sampling.context: null", meta: { [PV]: MODERN, [CAPS]: { sampling: { context: null } } }, code: -32602, match: /sampling\.context/ },
  { name: "elicitation.url: true", meta: { [PV]: MODERN, [CAPS]: { elicitation: { form: {}, url: true } } }, code: -32602, match: /elicitation\.url/ },
  { name: "roots: []", meta: { [PV]: MODERN, [CAPS]: { roots: [] } }, code: -32602, match: /roots/ },
];

test("modern envelope: capabilities declared as objects, as deep as the server reads them, are accepted", async () => {
  const peer = new ModernPeer(createDemoServer());
  const capabilities = { experimental: {}, roots: { listChanged: true }, extensions: {}, sampling: { context: {}, tools: {} }, elicitation: { form: {}, url: {} }, unknown: 1 };
  const result = resultOf(await peer.modern("tools/list", {}, { [PV]: MODERN, [CAPS]: capabilities, [LOG_LEVEL]: "debug" }));
  assert.ok(Array.isArray(result.tools));
});

for (const c of BAD_ENVELOPES) {
  test(`modern envelope: ${c.name} is ${c.code}, never the legacy era`, async () => {
    const peer = new ModernPeer(createDemoServer());
    const error = errorOf(await peer.modern("tools/list", {}, c.meta));
    assert.equal(error.code, c.code);
    assert.match(error.message, c.match);
  });
}

test("modern envelope: the same checks hold on tools/call, whatever the method", async () => {
  const peer = new ModernPeer(createDemoServer());
  assert.equal(errorOf(await peer.modern("tools/call", { name: "add", arguments: { a: 1, b: 2 } }, { [PV]: MODERN })).code, -32602);
});

for (const requested of ["2099-01-01", "2025-11-25", ""]) {
  test(`modern envelope: version ${JSON.stringify(requested)} is -32022 with data.supported (newest first) and data.requested`, async () => {
    const peer = new ModernPeer(createDemoServer());
    const error = errorOf(await peer.modern("tools/list", {}, { [PV]: requested, [CAPS]: {} }));
    assert.equal(error.code, -32022);
    assert.deepEqual(error.data, { supported: [...ALL_PROTOCOL_VERSIONS], requested });
    const supported = error.data!.supported as string[];
    assert.deepEqual(supported, [...supported].sort().reverse(), "newest first");
    assert.equal(supported[0], MODERN);
  });
}

test("modern envelope: _meta without a protocolVersion is no claim: the request is the legacy session's", async () => {
  const peer = new ModernPeer(createDemoServer());
  // Before initialize, a legacy tools/list is refused as not initialized, not as a bad envelope.
  const error = errorOf(await peer.request("tools/list", { _meta: { [CAPS]: {} } }));
  assert.equal(error.code, -32600);
  assert.match(error.message, /not initialized/);
});

for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]) {
  test(`modern: ${method}, removed in 2026-07-28, is -32601 with the envelope`, async () => {
    const peer = new ModernPeer(createDemoServer());
    const params: { [key: string]: unknown } = method === "initialize"
      ? { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: "x", version: "1" } }
      : method === "logging/setLevel" ? { level: "info" } : method.startsWith("resources/") ? { uri: NOTES_URI } : {};
    const error = errorOf(await peer.modern(method, params));
    assert.equal(error.code, -32601);
    assert.match(error.message, /not a method of protocol 2026-07-28/);
  });
}

test("modern: a legacy session stays as it was after a removed method was refused to a modern request", async () => {
  const peer = new ModernPeer(createDemoServer());
  assert.equal(errorOf(await peer.modern("initialize", { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: "x", version: "1" } })).code, -32601);
  const init = resultOf(await peer.initialize());
  assert.equal(init.protocolVersion, "2025-11-25");
  assert.deepEqual(resultOf(await peer.request("ping")), {});
});

test("modern: initialize with an invalid claim opens the handshake session (its sender speaks only that)", async () => {
  const peer = new ModernPeer(createDemoServer());
  const result = resultOf(await peer.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" }, _meta: { [PV]: "2099-01-01" } }));
  assert.equal(result.protocolVersion, "2025-11-25");
});

for (const method of ["server/discover", "subscriptions/listen"]) {
  test(`legacy: ${method} without the envelope is -32601, before and after initialize`, async () => {
    const peer = new ModernPeer(createDemoServer());
    const params = method === "subscriptions/listen" ? { notifications: { toolsListChanged: true } } : {};
    assert.equal(errorOf(await peer.request(method, params)).code, -32601);
    await peer.initialize();
    assert.equal(errorOf(await peer.request(method, params)).code, -32601);
  });
}

test("resource not found: -32602 with data.uri for a modern request, -32002 for the legacy session, in one process", async () => {
  const peer = new ModernPeer(createDemoServer());
  await peer.initialize();
  for (const uri of ["nope://x", `${NOTES_URI}/no-such-section`]) {
    const modern = errorOf(await peer.modern("resources/read", { uri }));
    assert.equal(modern.code, -32602, uri);
    assert.deepEqual(modern.data, { uri });
    const legacy = errorOf(await peer.request("resources/read", { uri }));
    assert.equal(legacy.code, -32002, uri);
    assert.deepEqual(legacy.data, { uri });
  }
});

test("modern log level: no notifications/message without logLevel in the envelope", async () => {
  const peer = new ModernPeer(createDemoServer());
  resultOf(await peer.modern("tools/call", { name: "countdown", arguments: { steps: 2, intervalMs: 1 } }));
  resultOf(await peer.modern("tools/call", { name: "echo", arguments: { text: "x" } }));
  assert.deepEqual(peer.notifications("notifications/message"), []);
});

test("modern log level: messages at or above the request's level only, for that request only", async () => {
  const peer = new ModernPeer(createDemoServer());
  resultOf(await peer.modern("tools/call", { name: "countdown", arguments: { steps: 2, intervalMs: 1 } }, envelope({}, { [LOG_LEVEL]: "info" })));
  assert.deepEqual(peer.notifications("notifications/message").map((m) => (m.params as { level: string }).level), ["info"]);
  resultOf(await peer.modern("tools/call", { name: "countdown", arguments: { steps: 2, intervalMs: 1 } }, envelope({}, { [LOG_LEVEL]: "debug" })));
  assert.deepEqual(peer.notifications("notifications/message").map((m) => (m.params as { level: string }).level), ["info", "info", "debug", "debug"]);
  resultOf(await peer.modern("tools/call", { name: "countdown", arguments: { steps: 1, intervalMs: 1 } }, envelope({}, { [LOG_LEVEL]: "error" })));
  assert.equal(peer.notifications("notifications/message").length, 4, "error is above everything countdown logs");
});

test("modern log level: a legacy session's logging/setLevel does not reach modern requests", async () => {
  const peer = new ModernPeer(createDemoServer());
  await peer.initialize();
  resultOf(await peer.request("logging/setLevel", { level: "debug" }));
  resultOf(await peer.modern("tools/call", { name: "echo", arguments: { text: "x" } }));
  assert.deepEqual(peer.notifications("notifications/message"), []);
});

test("modern: progress with the request's progressToken, verbatim", async () => {
  const peer = new ModernPeer(createDemoServer());
  resultOf(await peer.modern("tools/call", { name: "countdown", arguments: { steps: 2, intervalMs: 1 } }, envelope({}, { progressToken: "tok" })));
  const progress = peer.notifications("notifications/progress").map((m) => m.params);
  assert.deepEqual(progress, [
    { progressToken: "tok", progress: 1, total: 2, message: "1 to go" },
    { progressToken: "tok", progress: 2, total: 2, message: "0 to go" },
  ]);
});

test("modern: a cancelled request gets no answer and its handler stops", async () => {
  const server = new McpServer({ name: "c", version: "1" });
  let aborted: unknown;
  server.tool({ name: "wait", inputSchema: { type: "object" } }, (_args, context) => new Promise((_resolve, reject) => {
    context.signal.addEventListener("abort", () => reject((aborted = context.signal.reason)));
  }));
  const peer = new ModernPeer(server);
  peer.write({ jsonrpc: "2.0", id: "w", method: "tools/call", params: { name: "wait", _meta: envelope() } });
  await settle();
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "w", reason: "no longer needed" } });
  for (let i = 0; i < 10; i++) await settle();
  assert.ok(aborted instanceof Error, "the handler's signal aborted");
  assert.equal(peer.answered("w"), false);
  assert.deepEqual(peer.raw.unansweredIds, ["w"]);
});

test("modern: a result's own serverInfo wins; other _meta keys are kept", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  server.tool({ name: "own", inputSchema: { type: "object" } }, () => ({ content: [text("x")], _meta: { "com.example/k": 1 } }));
  const peer = new ModernPeer(server);
  const result = resultOf(await peer.modern("tools/call", { name: "own" }));
  assert.deepEqual(result._meta, { "com.example/k": 1, [SERVER_INFO]: { name: "s", version: "1" } });
});
