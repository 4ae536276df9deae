// subscriptions/listen on the wire, and a legacy session beside modern requests on one connection:
// the acknowledgement narrowed to what is offered, notifications tagged with the listen's id (kept
// verbatim), nothing after the client's cancel, the bounds (open listens, resource subscriptions),
// and the end of the client's input ending every listen with its result.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
// (#acknowledgment, #receiving-notifications, #graceful-closure) and basic/transports/stdio#cancellation
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpServer, text, type ServerOptions } from "../../src/server/definition.js";
import { StreamTransport } from "../../src/transports/stdio.js";
import { settle } from "../helpers/raw-peer.js";
import { envelope, errorOf, ModernPeer, resultOf, SUBSCRIPTION_ID } from "../helpers/modern-peer.js";

type Json = { [key: string]: unknown };

function toolsOnly(options: ServerOptions = {}): McpServer {
  const server = new McpServer({ name: "tools-only", version: "1" }, options);
  server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [text("t")] }));
  return server;
}

function everything(options: ServerOptions = {}): McpServer {
  const server = toolsOnly(options);
  server.resource({ uri: "mem://a", name: "a" }, (uri) => [{ uri, text: "A" }]);
  server.prompt({ name: "p" }, () => ({ messages: [] }));
  return server;
}

function listen(peer: ModernPeer, id: string | number, notifications: Json): void {
  peer.write({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta: envelope() } });
}

/** Lets messages through: each hop of the session is a promise turn or an immediate. */
async function ticks(): Promise<void> {
  for (let i = 0; i < 10; i++) await settle();
}

function tagged(peer: ModernPeer, method: string): unknown[] {
  return peer.notifications(method).map((m) => ((m.params as Json)._meta as Json | undefined)?.[SUBSCRIPTION_ID]);
}

const ALL_FILTER = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["mem://a", "mem://a", "mem://b"] };

test("listen: the acknowledgement is first and names only what the server offers (no prompts, no resources here)", async () => {
  const peer = new ModernPeer(toolsOnly());
  listen(peer, 10, ALL_FILTER);
  await ticks();
  assert.deepEqual(peer.messages, [{
    jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged",
    params: { notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 10 } },
  }]);
});

test("listen: with resources.subscribe the URIs are honoured (once each); an empty filter is acknowledged empty", async () => {
  const peer = new ModernPeer(everything());
  listen(peer, 1, ALL_FILTER);
  listen(peer, 2, {});
  await ticks();
  const acks = peer.notifications("notifications/subscriptions/acknowledged").map((m) => m.params);
  assert.deepEqual(acks, [
    { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["mem://a", "mem://b"] }, _meta: { [SUBSCRIPTION_ID]: 1 } },
    { notifications: {}, _meta: { [SUBSCRIPTION_ID]: 2 } },
  ]);
});

test("listen: list changes and resource updates go to the listens that asked, tagged with their ids verbatim", async () => {
  const server = everything();
  const peer = new ModernPeer(server);
  listen(peer, "s-1", { toolsListChanged: true, resourceSubscriptions: ["mem://a"] });
  listen(peer, 1, { toolsListChanged: true, promptsListChanged: true });
  listen(peer, "1", { resourcesListChanged: true });
  await ticks();
  server.tool({ name: "t2", inputSchema: { type: "object" } }, () => ({ content: [] }));
  server.removePrompt("p");
  server.resourceUpdated("mem://a");
  server.resourceUpdated("mem://other");
  server.resource({ uri: "mem://b", name: "b" }, (uri) => [{ uri, text: "B" }]);
  await ticks();
  assert.deepEqual(tagged(peer, "notifications/tools/list_changed"), ["s-1", 1]);
  assert.deepEqual(tagged(peer, "notifications/prompts/list_changed"), [1]);
  assert.deepEqual(tagged(peer, "notifications/resources/list_changed"), ["1"]);
  assert.deepEqual(peer.notifications("notifications/resources/updated").map((m) => m.params), [{ uri: "mem://a", _meta: { [SUBSCRIPTION_ID]: "s-1" } }]);
  assert.equal(peer.messages.filter((m) => m.id !== undefined).length, 0, "listens are held open: no answers yet");
});

test("listen: nothing more after the client's notifications/cancelled, no answer, and its slot is free again", async () => {
  const server = toolsOnly({ maxListens: 1 });
  const peer = new ModernPeer(server);
  listen(peer, "a", { toolsListChanged: true });
  await ticks();
  const refused = errorOf(await peer.modern("subscriptions/listen", { notifications: { toolsListChanged: true } }, envelope(), "b"));
  assert.equal(refused.code, -32603);
  assert.deepEqual(refused.data, { limit: 1 });
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "a", reason: "done" } });
  await ticks();
  server.tool({ name: "t2", inputSchema: { type: "object" } }, () => ({ content: [] }));
  await ticks();
  assert.deepEqual(tagged(peer, "notifications/tools/list_changed"), []);
  assert.equal(peer.answered("a"), false);
  assert.deepEqual(peer.raw.unansweredIds, ["a"]);
  listen(peer, "c", { toolsListChanged: true });
  await ticks();
  assert.deepEqual(tagged(peer, "notifications/subscriptions/acknowledged"), ["a", "c"]);
});

test("listen: a flood past maxListens is refused one by one (-32603, data.limit); closing the connection frees every slot", async () => {
  const server = toolsOnly({ maxListens: 8 });
  const peer = new ModernPeer(server);
  for (let i = 0; i < 200; i++) listen(peer, i, { toolsListChanged: true });
  await ticks();
  assert.equal(peer.notifications("notifications/subscriptions/acknowledged").length, 8);
  const errors = peer.messages.filter((m) => m.error !== undefined).map((m) => (m.error as Json).code);
  assert.deepEqual(errors, new Array(192).fill(-32603));
  assert.equal(peer.session.listens.size, 8);
  await peer.session.close();
  await ticks();
  const next = new ModernPeer(server);
  for (let i = 0; i < 8; i++) listen(next, i, { toolsListChanged: true });
  await ticks();
  assert.equal(next.notifications("notifications/subscriptions/acknowledged").length, 8, "the closed connection's slots were released");
});

const BAD_FILTERS: { name: string; params: Json; match: RegExp; data?: Json }[] = [
  { name: "no notifications", params: {}, match: /notifications/ },
  { name: "a flag that is not a boolean", params: { notifications: { toolsListChanged: "yes" } }, match: /toolsListChanged/ },
  { name: "a URI that is not a string", params: { notifications: { resourceSubscriptions: [1] } }, match: /resourceSubscriptions\[0\]/ },
  { name: "more URIs than maxSubscriptions", params: { notifications: { resourceSubscriptions: ["mem://1", "mem://2", "mem://3"] } }, match: /names 3 URIs, over the limit of 2/, data: { limit: 2 } },
  { name: "a URI longer than maxUriLength", params: { notifications: { resourceSubscriptions: ["mem://" + "x".repeat(40)] } }, match: /over the limit of 32/, data: { limit: 32 } },
];

for (const c of BAD_FILTERS) {
  test(`listen: ${c.name} is -32602 and opens nothing`, async () => {
    const server = everything({ maxSubscriptions: 2, maxUriLength: 32 });
    const peer = new ModernPeer(server);
    const error = errorOf(await peer.modern("subscriptions/listen", c.params));
    assert.equal(error.code, -32602);
    assert.match(error.message, c.match);
    if (c.data) assert.deepEqual(error.data, c.data);
    assert.equal(peer.session.listens.size, 0);
    assert.equal(server.claimListen(), true, "no slot was taken");
  });
}

test("dual-era: an initialized legacy session hears unsolicited list_changed while a modern listen on the same connection hears tagged ones", async () => {
  const server = everything();
  const peer = new ModernPeer(server);
  const other = new ModernPeer(server);
  resultOf(await peer.modern("tools/list"));
  await peer.initialize();
  listen(peer, "L", { toolsListChanged: true });
  listen(other, 5, { promptsListChanged: true });
  await ticks();
  server.tool({ name: "t2", inputSchema: { type: "object" } }, () => ({ content: [] }));
  await ticks();
  const changes = peer.notifications("notifications/tools/list_changed").map((m) => m.params ?? null);
  assert.deepEqual(changes.sort((a) => (a === null ? -1 : 1)), [null, { _meta: { [SUBSCRIPTION_ID]: "L" } }]);
  assert.deepEqual(other.notifications("notifications/tools/list_changed"), [], "a modern-only connection hears only what its listens asked for");
});

test("dual-era: modern requests before initialize are served, and the handshake still opens afterwards", async () => {
  const peer = new ModernPeer(createDemoServer());
  assert.equal(resultOf(await peer.modern("tools/call", { name: "echo", arguments: { text: "hi" } })).resultType, "complete");
  assert.equal(errorOf(await peer.request("tools/list", {})).code, -32600, "the legacy session is still waiting for initialize");
  resultOf(await peer.initialize());
  const legacy = resultOf(await peer.request("tools/list", {}));
  assert.equal(legacy.resultType, undefined);
});

/** Serves the demo over the real stdio transport on in-memory streams; resolves with every line once closed. */
async function overStdio(lines: Json[]): Promise<Json[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  const session = createDemoServer().connect(new StreamTransport(input, output));
  const closed = new Promise<void>((resolve) => session.onClose(() => resolve()));
  const chunks: Buffer[] = [];
  output.on("data", (chunk: Buffer) => chunks.push(chunk));
  input.end(lines.map((line) => JSON.stringify(line) + "\n").join(""));
  await closed;
  return Buffer.concat(chunks).toString("utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Json);
}

const LISTEN = (id: string | number) => ({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: envelope() } });
const COUNTDOWN = { jsonrpc: "2.0", id: "c", method: "tools/call", params: { name: "countdown", arguments: { steps: 1, intervalMs: 5 }, _meta: envelope() } };
const LISTEN_RESULT = (id: string | number) => ({
  jsonrpc: "2.0", id,
  result: { _meta: { [SUBSCRIPTION_ID]: id, "io.modelcontextprotocol/serverInfo": { name: "mcp-wire-demo", version: "0.1.0" } }, resultType: "complete" },
});

test("listen over stdio: the end of input ends every open listen with its result, even one opened after input ended", async () => {
  // The listen behind a slow call is opened only after the transport saw the end of input.
  const messages = await overStdio([LISTEN(1), COUNTDOWN, LISTEN("late")]);
  const answers = messages.filter((m) => m.id !== undefined);
  assert.deepEqual(answers.filter((m) => m.id !== "c"), [LISTEN_RESULT(1), LISTEN_RESULT("late")]);
  const acks = messages.filter((m) => m.method === "notifications/subscriptions/acknowledged");
  assert.deepEqual(acks.map((m) => ((m.params as Json)._meta as Json)[SUBSCRIPTION_ID]), [1, "late"]);
});

test("listen over stdio: node dist/server.js answers open listens at EOF and exits 0", async () => {
  const program = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
  const child = spawn(process.execPath, [program], { stdio: ["pipe", "pipe", "ignore"] });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stdin.end([LISTEN("x"), COUNTDOWN, LISTEN(2)].map((line) => JSON.stringify(line) + "\n").join(""));
  const timer = setTimeout(() => child.kill(), 5000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  const answers = Buffer.concat(chunks).toString("utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Json).filter((m) => m.id !== undefined && m.id !== "c");
  assert.deepEqual(answers, [LISTEN_RESULT("x"), LISTEN_RESULT(2)]);
  assert.equal(code, 0);
});
