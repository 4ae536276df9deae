// What the era cache may keep and for how long: the era only, never a DiscoverResult (which may be
// private to one bearer token, server/utilities/caching#cache-scope-field), and never a verdict reached by a
// timeout; a remembered handshake verdict is dropped when initialize fails as a modern server fails it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { EraCache } from "../../src/client/modern/era-cache.js";
import { discoverResult, initializeResult, MODERN, ScriptedServer, type Sent } from "../helpers/client-modern-peer.js";

const info = { name: "test-client", version: "1.0.0" };
const ORIGIN = "http://127.0.0.1:1";

function atOrigin(answer: (m: Sent, peer: ScriptedServer) => (object | string)[] | void): ScriptedServer {
  const server = new ScriptedServer(answer);
  server.peerKey = ORIGIN;
  return server;
}

test("era cache: a second client of the same origin gets its own DiscoverResult, not the first one's", async () => {
  const cache = new EraCache();
  const forAlice = atOrigin((m) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: { ...discoverResult({ tools: {} }), instructions: "alice's private tools" } }];
  });
  const alice = new McpClient(info, { eraCache: cache });
  await alice.connect(forAlice);
  await alice.close();

  const forBob = atOrigin((m) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: { ...discoverResult({ prompts: {} }), instructions: "bob's" } }];
  });
  const bob = new McpClient(info, { eraCache: cache });
  const result = await bob.connect(forBob);
  assert.equal(bob.era, "modern");
  assert.equal(result.instructions, "bob's", "the discover result Bob's server gave Bob");
  assert.deepEqual(result.capabilities, { prompts: {} });
  assert.equal(forBob.methods()[0], "server/discover", "asked again: the probe is the discover");
  await bob.close();
});

test("era cache: a probe that timed out falls back to initialize for this connect only; the next connect probes again", async () => {
  const cache = new EraCache();
  let slow = true;
  const dualEra = () => atOrigin((m) => {
    if (m.method === "server/discover") return slow ? [] : [{ jsonrpc: "2.0", id: m.id, result: discoverResult({ tools: {} }) }];
    if (m.method === "initialize") return [{ jsonrpc: "2.0", id: m.id, result: initializeResult() }];
  });
  const first = new McpClient(info, { eraCache: cache, probeTimeoutMs: 20 });
  await first.connect(dualEra());
  assert.equal(first.era, "handshake");
  assert.match(first.eraReason ?? "", /no answer within 20 ms/);
  await first.close();
  assert.equal(cache.get(ORIGIN), undefined, "a timeout is not remembered");

  slow = false;
  const second = new McpClient(info, { eraCache: cache, probeTimeoutMs: 20 });
  const server = dualEra();
  await second.connect(server);
  assert.equal(second.era, "modern", "warmed up: probed again and found modern");
  assert.equal(server.methods()[0], "server/discover");
  await second.close();
});

test("era cache: a remembered handshake verdict is forgotten when initialize answers -32022", async () => {
  const cache = new EraCache();
  cache.set(ORIGIN, { era: "handshake", reason: "server/discover answered -32601" });
  const upgraded = atOrigin((m) => {
    if (m.method === "initialize") return [{ jsonrpc: "2.0", id: m.id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: [MODERN], requested: "2025-11-25" } } }];
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: discoverResult() }];
  });
  const client = new McpClient(info, { eraCache: cache });
  await assert.rejects(client.connect(upgraded), (e: unknown) => (e as { code?: number }).code === -32022);
  assert.deepEqual(upgraded.methods(), ["initialize"], "the remembered verdict spared the probe");
  assert.equal(cache.get(ORIGIN), undefined, "forgotten: the next connect probes");

  const again = atOrigin(upgraded.answer);
  await client.connect(again);
  assert.equal(client.era, "modern");
  await client.close();
});

test("era cache: a remembered handshake verdict is forgotten on an HTTP 400 naming an unsupported version, kept on other failures", async () => {
  const cache = new EraCache();
  const refusing = (error: Error) => {
    const server = atOrigin(() => {});
    server.send = async () => { throw error; };
    return server;
  };
  const httpError = (status: number, message: string) => Object.assign(new Error(message), { status });
  const client = new McpClient(info, { eraCache: cache });
  cache.set(ORIGIN, { era: "handshake", reason: "remembered" });
  await assert.rejects(client.connect(refusing(httpError(500, "initialize: the server answered HTTP 500"))));
  assert.equal(cache.get(ORIGIN)?.era, "handshake", "a failing server says nothing about its era");
  await assert.rejects(client.connect(refusing(httpError(400, "initialize: the server answered HTTP 400 Bad Request: Unsupported protocol version 2025-11-25"))));
  assert.equal(cache.get(ORIGIN), undefined);
});

test("era cache: a -32601 forgets the era only for a method the server advertised", async () => {
  const cache = new EraCache();
  const server = atOrigin((m) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: discoverResult({ tools: {} }) }];
    return [{ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } }];
  });
  const client = new McpClient(info, { eraCache: cache, enforceServerCapabilities: false });
  await client.connect(server);
  await assert.rejects(client.listPrompts(), (e: unknown) => (e as { code?: number }).code === -32601);
  assert.deepEqual(cache.get(ORIGIN), { era: "modern", version: MODERN }, "prompts were never advertised: the server did not change");
  await assert.rejects(client.listTools(), (e: unknown) => (e as { code?: number }).code === -32601);
  assert.equal(cache.get(ORIGIN), undefined, "tools were: it did");
  await client.close();
});
