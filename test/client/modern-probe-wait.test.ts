// How long the server/discover probe waits, and what a late answer to it does: the probe waits as
// long as the handshake timeout, longer than 3 s too (a server behind a proxy that takes seconds to
// come up); after a fallback the probe's id stays reserved, so its late answer is understood and
// remembered as an answer in time would have been, not dropped as a stray. Mock timers: no real waits.
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { McpClient, type ClientOptions } from "../../src/client/client.js";
import { ModernRefusedError } from "../../src/client/errors.js";
import { EraCache } from "../../src/client/modern/era-cache.js";
import { discoverResult, initializeResult, ScriptedServer, type Sent } from "../helpers/client-modern-peer.js";

const info = { name: "test-client", version: "1.0.0" };
const ORIGIN = "http://127.0.0.1:1";

const turns = async (count = 5) => { for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve)); };

/**
 * A dual-era server that holds its server/discover answer until the test gives it (answerProbe),
 * and answers initialize and tools/list at once. Time is mocked, so nothing moves unless the test ticks it.
 */
async function slowDiscover(t: TestContext, options: ClientOptions) {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  let probe: Sent | undefined;
  const server = new ScriptedServer((m) => {
    if (m.method === "server/discover") probe = m;
    if (m.method === "initialize") return [{ jsonrpc: "2.0", id: m.id, result: initializeResult() }];
    if (m.method === "tools/list") return [{ jsonrpc: "2.0", id: m.id, result: { tools: [] } }];
  });
  server.peerKey = ORIGIN;
  const problems: string[] = [];
  const client = new McpClient(info, { onProblem: (p) => problems.push(p), ...options });
  const connecting = client.connect(server);
  connecting.catch(() => {});
  await turns();
  assert.ok(probe, "the probe was sent");
  const answerProbe = (answer: object) => server.deliver({ jsonrpc: "2.0", id: probe!.id, ...answer });
  return { client, server, connecting, problems, answerProbe };
}

test("auto: the probe waits as long as the handshake timeout, past 3 s, and a slow modern server is talked to in 2026-07-28", async (t) => {
  const { client, server, connecting, answerProbe } = await slowDiscover(t, { handshakeTimeoutMs: 10_000 });
  t.mock.timers.tick(9_000);
  await turns();
  assert.ok(!server.methods().includes("initialize"), "still waiting for server/discover after 9 s of a 10 s handshake timeout");
  answerProbe({ result: discoverResult() });
  await connecting;
  assert.equal(client.era, "modern");
  await client.close();
});

test("a pinned 2026-07-28 waits as long as the handshake timeout too", async (t) => {
  const { client, connecting, answerProbe } = await slowDiscover(t, { handshakeTimeoutMs: 10_000, protocolVersion: "2026-07-28" });
  t.mock.timers.tick(9_000);
  await turns();
  answerProbe({ result: discoverResult() });
  await connecting;
  assert.equal(client.protocolVersion, "2026-07-28");
  await client.close();
});

test("a shorter handshake timeout shortens the probe: a pinned 2026-07-28 fails at it", async (t) => {
  const { connecting } = await slowDiscover(t, { handshakeTimeoutMs: 800, protocolVersion: "2026-07-28" });
  t.mock.timers.tick(800);
  await assert.rejects(connecting, (e: unknown) => e instanceof ModernRefusedError && /no answer within 800 ms/.test(e.message));
});

test("a late DiscoverResult after the fallback is understood: no dropped-response problem, noted in eraReason, remembered", async (t) => {
  const eraCache = new EraCache();
  const { client, connecting, problems, answerProbe } = await slowDiscover(t, { handshakeTimeoutMs: 1000, eraCache });
  t.mock.timers.tick(1000);
  await connecting;
  assert.equal(client.era, "handshake");
  assert.equal(eraCache.get(ORIGIN), undefined, "a timeout is not remembered");
  answerProbe({ result: discoverResult() });
  await turns();
  assert.deepEqual(problems, [], "the late answer is the probe's, not a stray");
  assert.equal(client.era, "handshake", "this connection stays in the handshake it opened");
  assert.match(client.eraReason ?? "", /late.*2026-07-28/);
  assert.deepEqual(eraCache.get(ORIGIN), { era: "modern", version: "2026-07-28" });
  assert.deepEqual(await client.listTools(), { tools: [] });
  await client.close();
});

test("a late -32601 to the probe is remembered as a handshake-era server: the next connect skips the probe", async (t) => {
  const eraCache = new EraCache();
  const { client, connecting, problems, answerProbe } = await slowDiscover(t, { handshakeTimeoutMs: 1000, eraCache });
  t.mock.timers.tick(1000);
  await connecting;
  answerProbe({ error: { code: -32601, message: "Method not found" } });
  await turns();
  assert.deepEqual(problems, []);
  assert.equal(eraCache.get(ORIGIN)?.era, "handshake");
  await client.close();
});

test("the reserved probe id takes one answer only: a second one is a stray again", async (t) => {
  const { client, connecting, problems, answerProbe } = await slowDiscover(t, { handshakeTimeoutMs: 1000 });
  t.mock.timers.tick(1000);
  await connecting;
  answerProbe({ result: discoverResult() });
  answerProbe({ result: discoverResult() });
  await turns();
  assert.equal(problems.filter((p) => /dropped a response for id 0/.test(p)).length, 1);
  await client.close();
});

test("auto: a server slow to start that then refuses the fallback initialize with -32022 is probed again and talked to in 2026-07-28", async (t) => {
  // What the Python SDK's MCPServer (mcp 2.3.0) does when it starts after the probe timed out: it
  // reads server/discover first, serves 2026-07-28 from then on, and answers initialize with -32022
  // naming its versions, a modern server's answer (basic/versioning): the same connect() re-probes.
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  let probes = 0;
  const server = new ScriptedServer((m) => {
    if (m.method === "server/discover" && ++probes > 1) return [{ jsonrpc: "2.0", id: m.id, result: discoverResult() }];
    if (m.method === "initialize") {
      return [{ jsonrpc: "2.0", id: m.id, error: { code: -32022, message: "connection is serving 2026-07-28", data: { supported: ["2026-07-28"], requested: "2025-11-25" } } }];
    }
    if (m.method === "tools/list") return [{ jsonrpc: "2.0", id: m.id, result: { tools: [], resultType: "complete" } }];
  });
  const client = new McpClient(info, { handshakeTimeoutMs: 1000 });
  const connecting = client.connect(server);
  await turns();
  t.mock.timers.tick(1000);
  await connecting;
  assert.equal(client.era, "modern");
  assert.match(client.eraReason ?? "", /initialize answered -32022.*probed again.*server\/discover answered 2026-07-28/);
  assert.deepEqual(server.methods().filter((m) => m !== "notifications/cancelled" && m !== "subscriptions/listen"), ["server/discover", "initialize", "server/discover"]);
  assert.deepEqual((await client.listTools()).tools, []);
  await client.close();
});

test("auto: -32022 to initialize after a probe that was answered (not a timeout) is the server's error, not probed again", async () => {
  const server = new ScriptedServer((m) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } }];
    if (m.method === "initialize") return [{ jsonrpc: "2.0", id: m.id, error: { code: -32022, message: "no", data: { supported: ["2026-07-28"], requested: "2025-11-25" } } }];
  });
  const client = new McpClient(info, { handshakeTimeoutMs: 1000 });
  await assert.rejects(client.connect(server), /-32022|no/);
  assert.deepEqual(server.methods().filter((m) => m !== "notifications/cancelled"), ["server/discover", "initialize"]);
});
