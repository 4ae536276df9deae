// The checks in front of every HTTP endpoint: Host and Origin against DNS rebinding (403), the
// optional bearer token (401, compared in constant time, weak tokens refused at start-up), and
// session ids that never stand in for the token. Unit tables for security.ts, then the same rules
// over real sockets on /mcp, /sse and /messages.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
// and basic/security_best_practices (session ids are not authentication).
import { mock, test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpHttpServer } from "../../src/http/server.js";
import { bearerMatches, checkTokenStrength, hostAllowed, originAllowed } from "../../src/http/security.js";
import { ACCEPT_BOTH, initializeRequest, openSession, raw, request, serve, SseReader } from "../helpers/http-peer.js";

const TOKEN = "f3a9c27e5b8d41f09a6c3e7b2d5f8a1c";

const hostCases: { host: string | null; allowed?: string[]; ok: boolean }[] = [
  { host: "localhost", ok: true },
  { host: "localhost:3000", ok: true },
  { host: "LOCALHOST:3000", ok: true },
  { host: "127.0.0.1", ok: true },
  { host: "127.0.0.1:8080", ok: true },
  { host: "[::1]", ok: true },
  { host: "[::1]:8080", ok: true },
  { host: null, ok: false },
  { host: "", ok: false },
  { host: "evil.example", ok: false },
  { host: "evil.example:3000", ok: false },
  { host: "localhost.evil.example", ok: false },
  { host: "127.0.0.1.nip.io:3000", ok: false },
  { host: "0.0.0.0:3000", ok: false },
  { host: "192.168.1.10:3000", ok: false },
  { host: "mcp.example.com", allowed: ["mcp.example.com"], ok: true },
  { host: "mcp.example.com:443", allowed: ["mcp.example.com"], ok: true },
  { host: "MCP.example.com", allowed: ["mcp.example.com"], ok: true },
  { host: "localhost:3000", allowed: ["mcp.example.com"], ok: false },
  { host: "mcp.example.com:8443", allowed: ["mcp.example.com:8443"], ok: true },
  { host: "mcp.example.com:9999", allowed: ["mcp.example.com:8443"], ok: false },
];
for (const c of hostCases) {
  test(`hostAllowed(${JSON.stringify(c.host)}${c.allowed ? `, ${JSON.stringify(c.allowed)}` : ""}) is ${c.ok}`, () => {
    assert.equal(hostAllowed(c.host, c.allowed), c.ok);
  });
}

const originCases: { origin: string | null; allowed?: string[]; ok: boolean }[] = [
  { origin: null, ok: true },
  { origin: "http://localhost", ok: true },
  { origin: "http://localhost:5173", ok: true },
  { origin: "https://localhost:8443", ok: true },
  { origin: "http://127.0.0.1:3000", ok: true },
  { origin: "http://[::1]:8080", ok: true },
  { origin: "http://evil.example", ok: false },
  { origin: "http://localhost.evil.example", ok: false },
  { origin: "http://127.0.0.1.evil.example:3000", ok: false },
  { origin: "null", ok: false },
  { origin: "", ok: false },
  { origin: "not a url", ok: false },
  { origin: "https://app.example", allowed: ["https://app.example"], ok: true },
  { origin: "https://other.example", allowed: ["https://app.example"], ok: false },
  { origin: "http://localhost:5173", allowed: ["https://app.example"], ok: false },
];
for (const c of originCases) {
  test(`originAllowed(${JSON.stringify(c.origin)}${c.allowed ? `, ${JSON.stringify(c.allowed)}` : ""}) is ${c.ok}`, () => {
    assert.equal(originAllowed(c.origin, c.allowed), c.ok);
  });
}

const weakTokens: { token: string; why: RegExp }[] = [
  { token: "", why: /at least 16/ },
  { token: "short", why: /at least 16/ },
  { token: "fifteen-chars-x", why: /at least 16/ },
  { token: "0123456789abcdef", why: /sample/ },
  { token: "abcdefghijklmnop", why: /sample/ },
  { token: "CHANGE-ME-PLEASE", why: /sample/ },
  { token: "aaaaaaaaaaaaaaaaaaaa", why: /sample/ },
  { token: "f3a9c27e5b8d 41f09a6c3e7b", why: /visible ASCII/ },
  { token: " f3a9c27e5b8d41f09a6c3e7b", why: /visible ASCII/ },
  { token: "f3a9c27e5b8d41f09a6c3e7b\n", why: /visible ASCII/ },
];
for (const c of weakTokens) {
  test(`checkTokenStrength refuses ${JSON.stringify(c.token)}, and so does the server's constructor`, () => {
    assert.throws(() => checkTokenStrength(c.token), c.why);
    assert.throws(() => new McpHttpServer(createDemoServer(), { bearerToken: c.token }), c.why);
  });
}

test("checkTokenStrength accepts a random token", () => {
  assert.doesNotThrow(() => checkTokenStrength(TOKEN));
  assert.doesNotThrow(() => checkTokenStrength(crypto.randomBytes(32).toString("base64url")));
});

const bearerCases: { header: string | null; ok: boolean }[] = [
  { header: `Bearer ${TOKEN}`, ok: true },
  { header: `bearer ${TOKEN}`, ok: true },
  { header: `Bearer   ${TOKEN}  `, ok: true },
  { header: null, ok: false },
  { header: "", ok: false },
  { header: "Bearer", ok: false },
  { header: "Bearer ", ok: false },
  { header: TOKEN, ok: false },
  { header: `Basic ${TOKEN}`, ok: false },
  { header: `Bearer ${TOKEN}x`, ok: false },
  { header: `Bearer ${TOKEN.slice(0, -1)}`, ok: false },
  { header: `Bearer ${TOKEN.toUpperCase()}`, ok: false },
];
for (const c of bearerCases) {
  test(`bearerMatches(${JSON.stringify(c.header)}) is ${c.ok}`, () => {
    assert.equal(bearerMatches(c.header, TOKEN), c.ok);
  });
}

test("bearerMatches compares with timingSafeEqual on equal-length digests, whatever the presented length", () => {
  const spy = mock.method(crypto, "timingSafeEqual");
  syncBuiltinESMExports();
  try {
    for (const header of [`Bearer ${TOKEN}`, "Bearer x", `Bearer ${TOKEN}${TOKEN}`, null]) bearerMatches(header, TOKEN);
    assert.equal(spy.mock.callCount(), 4, "every comparison goes through timingSafeEqual, even for a wrong length or no header");
    for (const call of spy.mock.calls) {
      const [a, b] = call.arguments as unknown as [Buffer, Buffer];
      assert.equal(a.length, b.length);
      assert.notEqual(a.toString("hex"), TOKEN, "the token itself is not what is compared");
    }
  } finally {
    spy.mock.restore();
    syncBuiltinESMExports();
  }
});

const INIT = JSON.stringify(initializeRequest());
const POST_HEADERS = { accept: ACCEPT_BOTH, "content-type": "application/json" };

test("Host and Origin over the wire: rebinding attempts get 403 on every endpoint; loopback names with ports pass", async () => {
  const served = await serve();
  try {
    const port = new URL(served.origin).port;
    const endpoints: { method: string; path: string; headers: Record<string, string>; body?: string }[] = [
      { method: "POST", path: "/mcp", headers: POST_HEADERS, body: INIT },
      { method: "GET", path: "/mcp", headers: { accept: "text/event-stream" } },
      { method: "DELETE", path: "/mcp", headers: {} },
      { method: "GET", path: "/sse", headers: { accept: "text/event-stream" } },
      { method: "POST", path: "/messages?sessionId=x", headers: POST_HEADERS, body: INIT },
    ];
    const refused: { host?: string; origin?: string }[] = [{ host: "evil.example" }, { host: `evil.example:${port}` }, { host: `localhost.evil.example:${port}` }, { origin: "http://evil.example" }, { origin: "null" }];
    for (const endpoint of endpoints) {
      for (const bad of refused) {
        const headers: Record<string, string> = { ...endpoint.headers };
        if (bad.host) headers.host = bad.host;
        if (bad.origin) headers.origin = bad.origin;
        const reply = await raw(served.origin, { method: endpoint.method, path: endpoint.path, headers, body: endpoint.body });
        assert.equal(reply.status, 403, `${endpoint.method} ${endpoint.path} with ${JSON.stringify(bad)}`);
        const body = JSON.parse(reply.body);
        assert.equal("id" in body, false);
        assert.equal(typeof body.error.message, "string");
      }
    }
    const accepted: { host?: string; origin?: string }[] = [
      { host: `localhost:${port}` },
      { host: `127.0.0.1:${port}` },
      { host: `[::1]:${port}` },
      { host: "localhost" },
      { origin: "http://localhost:5173" },
      { origin: "http://127.0.0.1:3000" },
      { origin: "http://[::1]:8080" },
    ];
    for (const good of accepted) {
      const headers: Record<string, string> = { ...POST_HEADERS };
      if (good.host) headers.host = good.host;
      if (good.origin) headers.origin = good.origin;
      const reply = await raw(served.origin, { method: "POST", headers, body: INIT });
      assert.equal(reply.status, 200, `initialize with ${JSON.stringify(good)}`);
    }
  } finally {
    await served.close();
  }
});

test("allowedHosts / allowedOrigins replace the loopback defaults", async () => {
  const served = await serve({ allowedHosts: ["mcp.example.com"], allowedOrigins: ["https://app.example"] });
  try {
    const cases: { headers: Record<string, string>; status: number }[] = [
      { headers: { host: "mcp.example.com" }, status: 200 },
      { headers: { host: "mcp.example.com", origin: "https://app.example" }, status: 200 },
      { headers: { host: "mcp.example.com", origin: "http://localhost:3000" }, status: 403 },
      { headers: { host: "localhost" }, status: 403 },
    ];
    for (const c of cases) {
      const reply = await raw(served.origin, { method: "POST", headers: { ...POST_HEADERS, ...c.headers }, body: INIT });
      assert.equal(reply.status, c.status, JSON.stringify(c.headers));
    }
  } finally {
    await served.close();
  }
});

test("bearer token: missing or wrong gets 401 with WWW-Authenticate: Bearer; the right one passes", async () => {
  const served = await serve({ bearerToken: TOKEN });
  try {
    const cases: { authorization?: string; status: number }[] = [
      { status: 401 },
      { authorization: "Bearer wrong-token-wrong-token", status: 401 },
      { authorization: `Basic ${TOKEN}`, status: 401 },
      { authorization: `Bearer ${TOKEN}`, status: 200 },
    ];
    for (const c of cases) {
      const headers: Record<string, string> = { ...POST_HEADERS };
      if (c.authorization) headers.authorization = c.authorization;
      const reply = await raw(served.origin, { method: "POST", headers, body: INIT });
      assert.equal(reply.status, c.status, `Authorization ${JSON.stringify(c.authorization)}`);
      if (c.status === 401) {
        assert.match(String(reply.headers["www-authenticate"]), /^Bearer\b/);
        assert.equal(JSON.parse(reply.body).error.code, -32000);
      }
    }
  } finally {
    await served.close();
  }
});

test("bearer token: a valid session id is not authentication; every method without the token gets 401", async () => {
  const served = await serve({ bearerToken: TOKEN });
  try {
    const s = await openSession(served.url, undefined, {}, { authorization: `Bearer ${TOKEN}` });
    const { authorization: _, ...withoutToken } = s.headers;
    for (const method of ["POST", "GET", "DELETE"]) {
      const headers = { ...withoutToken, ...POST_HEADERS, accept: method === "GET" ? "text/event-stream" : ACCEPT_BOTH };
      const reply = await raw(served.origin, { method, headers, body: method === "POST" ? JSON.stringify(request(1, "tools/list")) : undefined });
      assert.equal(reply.status, 401, `${method} with the session id and no token`);
    }
    // The session is still there for the holder of the token.
    assert.equal((await s.call(2, "tools/list")).result.tools.length, 7);
  } finally {
    await served.close();
  }
});

test("bearer token: the legacy /sse and /messages endpoints need it too", async () => {
  const served = await serve({ bearerToken: TOKEN });
  try {
    assert.equal((await fetch(served.origin + "/sse", { headers: { accept: "text/event-stream" } })).status, 401);
    const opened = await fetch(served.origin + "/sse", { headers: { accept: "text/event-stream", authorization: `Bearer ${TOKEN}` } });
    assert.equal(opened.status, 200);
    const reader = new SseReader(opened.body!);
    const endpoint = (await reader.next())!;
    assert.equal(endpoint.event, "endpoint");
    const posted = await fetch(new URL(endpoint.data, served.origin), { method: "POST", headers: { "content-type": "application/json" }, body: INIT });
    assert.equal(posted.status, 401);
    await reader.cancel();
  } finally {
    await served.close();
  }
});
