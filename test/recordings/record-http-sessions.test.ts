// `mcp-wire record --listen --target` in front of the demo server (`node dist/server.js --http`),
// driven the way real hosts drive it (mcp-remote, Claude Code): a GET answered 405, the
// /.well-known/ probes answered 404, an initialize refused with 401 and retried with the token, a
// notification answered 202, a second session from ids 0 again, 2026-07-28 requests (two open
// listens with one id, as two host processes send), a session ended and then used. The recording
// holds every exchange that carried no JSON-RPC message as notes, not messages, and `mcp-wire
// check` finds nothing in it: our server's side is clean, and so is this client's. Nor does
// `record --check`, which tells the sessions apart as they pass.
// Needs `npm run build`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mirroredHeaders } from "../../src/http/mcp-headers.js";
import { parseRecording } from "../../src/recordings/recording.js";
import { listening } from "../helpers/server-program.js";
import { withinLimit } from "../helpers/http-peer.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(root, "dist/cli.js");
const TOKEN = "a-secret-token-0123456789";
const V = "2025-11-25";
const MODERN = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "host", version: "1" } };

/** `record --check --listen` in front of `target`, until it says where it listens. */
async function recorder(out: string, target: string) {
  const child = spawn(process.execPath, [CLI, "record", "--check", "--out", out, "--listen", "127.0.0.1:0", "--target", target], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const origin = await withinLimit("record to listen", new Promise<string>((resolve) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr);
      if (match) resolve(match[1]!);
    });
  }));
  return { origin, stderr: () => stderr, stop: async () => (child.kill("SIGTERM"), await once(child, "exit")) };
}

test("record --listen: a host's HTTP sessions as real hosts drive them are recorded with the HTTP-only exchanges as notes, and check finds nothing", { timeout: 60_000 }, async () => {
  const server = await listening([], { MCP_WIRE_TOKEN: TOKEN });
  const out = join(mkdtempSync(join(tmpdir(), "mcp-wire-record-sessions-")), "host.recording");
  const proxy = await recorder(out, `${server.origin}/mcp`);
  const auth = { authorization: `Bearer ${TOKEN}` };
  const post = async (message: { id?: string | number; method?: string; params?: unknown }, headers: { [name: string]: string } = {}, signal?: AbortSignal) => {
    const mirrored = message.method !== undefined && isModern(message.params) ? mirroredHeaders({ method: message.method, params: message.params } as Parameters<typeof mirroredHeaders>[0]) : {};
    return fetch(`${proxy.origin}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...auth, ...mirrored, ...headers }, body: JSON.stringify({ jsonrpc: "2.0", ...message }), signal });
  };
  /** A handshake-era session from id 0: its session id. The first may first be refused for want of the token. */
  const session = async (call: { method: string; params?: unknown }, refusedFirst = false) => {
    const initialize = { id: 0, method: "initialize", params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "host", version: "1" } } };
    if (refusedFirst) assert.equal((await post(initialize, { authorization: "" })).status, 401);
    const answer = await post(initialize);
    await answer.text();
    const id = answer.headers.get("mcp-session-id")!;
    const headers = { "mcp-session-id": id, "mcp-protocol-version": V };
    assert.equal((await post({ method: "notifications/initialized" }, headers)).status, 202);
    assert.match(await (await post({ id: 1, ...call }, headers)).text(), /"id":1,"result"/);
    return headers;
  };
  const streams = new AbortController();
  try {
    // mcp-remote's probes: the GET stream (405 in 2026-07-28; 400 without a session), then the metadata.
    assert.equal((await fetch(`${proxy.origin}/mcp`, { headers: { accept: "text/event-stream", "mcp-protocol-version": MODERN, ...auth } })).status, 405);
    assert.equal((await fetch(`${proxy.origin}/mcp`, { headers: { accept: "text/event-stream", ...auth } })).status, 400);
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"]) {
      assert.equal((await fetch(`${proxy.origin}${path}`)).status, 404, path);
    }
    const first = await session({ method: "tools/list" }, true);
    await session({ method: "tools/call", params: { name: "echo", arguments: { text: "second session" } } });
    // 2026-07-28: a discovery, and two host processes that each open "listen:0" and call with id 0.
    assert.match(await (await post({ id: "probe-1", method: "server/discover", params: { _meta: META } })).text(), /supportedVersions/);
    for (let process = 0; process < 2; process++) {
      const listen = await post({ id: "listen:0", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: META } }, {}, streams.signal);
      const reader = listen.body!.getReader();
      assert.match(Buffer.from((await reader.read()).value!).toString(), /acknowledged/);
      assert.match(await (await post({ id: 0, method: "tools/call", params: { name: "add", arguments: { a: 1, b: process }, _meta: META } })).text(), /"resultType":"complete"/);
    }
    // The first session ends; a request in it then is refused (404).
    assert.ok((await fetch(`${proxy.origin}/mcp`, { method: "DELETE", headers: { ...first, ...auth } })).ok);
    assert.equal((await post({ id: 2, method: "tools/list" }, first)).status, 404);
  } finally {
    streams.abort();
    await proxy.stop();
    await server.stop();
  }
  const text = readFileSync(out, "utf8");
  for (const note of [/^# < 405 \/mcp/m, /^# < 400 \/mcp/m, /^# < 404 \/\.well-known\/oauth-protected-resource\/mcp/m, /^# < 401 \/mcp/m, /^# < 404 \/mcp/m, /^# < its body, not a message: /m]) assert.match(text, note);
  const recording = parseRecording(text, out);
  const received = recording.entries.filter((entry) => entry.dir === "s2c").map((entry) => entry.message as { id?: unknown; method?: string });
  assert.deepEqual(received.filter((message) => message.id === undefined && message.method === undefined), [], "no HTTP error's body is a message");
  assert.equal(received.length, 9, "initialize x2, tools/list, tools/call, server/discover, 2 acknowledgements, 2 tools/call (2026-07-28)");
  assert.equal(new Set([...recording.exchanges.values()].map((exchange) => exchange.session).filter((id) => id !== undefined)).size, 2, "two sessions, by their ids");
  assert.deepEqual(proxy.stderr().split("\n").filter((line) => line.startsWith("mcp-wire record --check:")), [], "record --check tells the sessions apart as it goes");
  const check = spawnSync(process.execPath, [CLI, "check", out], { encoding: "utf8" });
  assert.equal(check.stdout, "");
  assert.equal(check.status, 0, check.stderr);
});

function isModern(params: unknown): boolean {
  return typeof params === "object" && params !== null && "_meta" in params;
}
