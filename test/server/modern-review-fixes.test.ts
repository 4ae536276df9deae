// What a review of the 2026-07-28 server found, each pinned on the wire: no log after a cancel, no
// modern request inside a batch (even where a 2025-03-26 handshake allows batches), capabilities read
// field by field, the envelope and version judged before an unknown method, and a listen that can
// carry nothing holding no slot. Spec: basic/transports/stdio#cancellation (nothing after a cancel),
// our check order (PROTOCOL_NOTES.md, "The era of each message"),
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, text } from "../../src/server/definition.js";
import { settle } from "../helpers/raw-peer.js";
import { envelope, errorOf, LOG_LEVEL, ModernPeer, PV, resultOf, SUBSCRIPTION_ID } from "../helpers/modern-peer.js";

async function ticks(count = 10): Promise<void> {
  for (let i = 0; i < count; i++) await settle();
}

test("modern: a handler that logs after the client cancelled sends nothing more for that request", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let logged = 0;
  server.tool({ name: "stubborn", inputSchema: { type: "object" } }, async (_args, context) => {
    await context.log("info", "before");
    await gate;
    // It ignores its signal: the logs below must go nowhere.
    for (let i = 0; i < 3; i++) await context.log("info", `after ${i}`), logged++;
    return { content: [text("done")] };
  });
  const peer = new ModernPeer(server);
  peer.write({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "stubborn", _meta: envelope({}, { [LOG_LEVEL]: "debug" }) } });
  await ticks();
  assert.equal(peer.notifications("notifications/message").length, 1, "the log before the cancel is sent");
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
  await ticks();
  release();
  await ticks(20);
  assert.equal(logged, 3, "the handler ran on");
  assert.equal(peer.notifications("notifications/message").length, 1, "nothing after the cancel");
  assert.equal(peer.answered(1), false, "and no answer");
});

test("modern: a 2026-07-28 request inside a batch is -32600, even after a 2025-03-26 handshake allows batches", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [text("t")] }));
  const peer = new ModernPeer(server);
  await peer.request("initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "old", version: "1" } });
  peer.write({ jsonrpc: "2.0", method: "notifications/initialized" });
  await ticks();
  peer.write([
    { jsonrpc: "2.0", id: 10, method: "tools/list", params: { _meta: envelope() } },
    { jsonrpc: "2.0", id: 11, method: "tools/list" },
  ] as never);
  await ticks();
  const batch = peer.raw.sent.find((m) => Array.isArray(m)) as unknown as { id: number; error?: { code: number }; result?: object }[];
  assert.ok(batch, "the batch is answered as a batch");
  assert.equal(batch.find((m) => m.id === 10)?.error?.code, -32600);
  assert.ok(batch.find((m) => m.id === 11)?.result, "the legacy item is served as before");
});

for (const [name, capabilities] of [
  ["null elicitation", { elicitation: null }],
  ["false elicitation", { elicitation: false }],
  ["a string for sampling.tools", { sampling: { tools: "yes" } }],
  ["an array for roots", { roots: [] }],
] as const) {
  test(`modern: clientCapabilities are read field by field: ${name} is -32602`, async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [text("t")] }));
    const peer = new ModernPeer(server);
    const answer = await peer.modern("tools/call", { name: "t" }, envelope(capabilities as never));
    assert.equal(errorOf(answer).code, -32602);
    assert.match(errorOf(answer).message, /clientCapabilities/);
  });
}

test("modern: an unknown method's envelope and version are judged first (-32602, -32022), as on HTTP; a good one gets -32601", async () => {
  const peer = new ModernPeer(new McpServer({ name: "s", version: "1" }));
  assert.equal(errorOf(await peer.modern("tasks/get", {}, { ...envelope(), [PV]: "2099-01-01" })).code, -32022);
  assert.equal(errorOf(await peer.modern("tasks/get", {}, { ...envelope(), [PV]: 7 })).code, -32602);
  assert.equal(errorOf(await peer.modern("tasks/get", {})).code, -32601);
});

test("listen: a filter the server can honour none of is acknowledged empty and ended at once, holding no slot", async () => {
  const server = new McpServer({ name: "s", version: "1" }, { maxListens: 1 });
  server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [text("t")] }));
  const peer = new ModernPeer(server);
  // No prompts here: promptsListChanged is not offered, so nothing is left to listen to.
  const ended = resultOf(await peer.modern("subscriptions/listen", { notifications: { promptsListChanged: true } }, envelope(), "empty"));
  assert.deepEqual((ended._meta as object)[SUBSCRIPTION_ID as never], "empty");
  assert.equal(ended.resultType, "complete");
  const acks = peer.notifications("notifications/subscriptions/acknowledged");
  assert.deepEqual(acks.map((m) => (m.params as { notifications: object }).notifications), [{}]);
  // The one slot is still free for a listen that can carry something.
  peer.write({ jsonrpc: "2.0", id: "real", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: envelope() } });
  await ticks();
  assert.equal(peer.answered("real"), false, "the real listen is open");
  assert.equal(peer.notifications("notifications/subscriptions/acknowledged").length, 2);
});

test("modern: a long unsupported version is echoed whole once (data.requested), and cut in the message", async () => {
  const peer = new ModernPeer(new McpServer({ name: "s", version: "1" }));
  const version = "9".repeat(10_000);
  const error = errorOf(await peer.modern("server/discover", {}, { ...envelope(), [PV]: version }));
  assert.equal(error.code, -32022);
  assert.equal((error.data as { requested: string }).requested, version);
  assert.ok(error.message.length < 200, `message is ${error.message.length} characters`);
});
