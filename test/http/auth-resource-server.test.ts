// McpHttpServer as an OAuth resource server, against the test authorization server over loopback
// (both adapters: npm test runs test/http twice): its Protected Resource Metadata at both
// well-known URLs without a token; every MCP request (POST, GET, DELETE, 2026-07-28 POSTs, the
// legacy /sse and /messages) refused without a valid token, with the RFC 6750 challenge each time:
// 401 (invalid_token and why, for each way a token can be bad), 403 insufficient_scope naming the
// scopes, 400 for a token in the query string, 503 when the issuer's keys cannot be had; a
// rotated key works; a session id never stands in for the token, and a session (either
// transport) answers only the user (or client) whose token opened it.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { McpHttpServer } from "../../src/http/server.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { startAuthServer, type TestAuthServer, type TokenSpec } from "../helpers/auth-server.js";
import { ADAPTER, initializeRequest, openGet, openSession, post, raw, request, serve, SseReader, type Served } from "../helpers/http-peer.js";
import { modernRequest, postModern } from "../helpers/http-modern-peer.js";

const SCOPES = ["mcp:read", "mcp:write"];
let as: TestAuthServer;
let served: Served;
const problems: string[] = [];

before(async () => {
  as = await startAuthServer({ scopes: SCOPES });
  // Every kind of key from the start: the server fetches the keys once, then not again for its cooldown.
  as.rotate("ES256");
  as.rotate("EdDSA");
  served = await serve({ authorization: { issuer: as.issuer, scopes: SCOPES }, onProblem: (message) => problems.push(message) });
});
after(async () => {
  await served.close();
  await as.close();
});

const metadataUrl = () => `${served.origin}/.well-known/oauth-protected-resource/mcp`;
const token = (spec: Partial<TokenSpec> = {}) => as.mint({ audience: served.url, scope: SCOPES.join(" "), ...spec });
const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

/** The parameters of a Bearer challenge, after checking its form. */
function challenge(header: string | null): Record<string, string> {
  assert.ok(header !== null && header.startsWith("Bearer "), `a Bearer challenge, got ${header}`);
  return Object.fromEntries([...header.slice(7).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
}

test("resource server: the Protected Resource Metadata, at the path-aware and the root well-known URL, needs no token", async () => {
  for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
    const response = await fetch(served.origin + path);
    assert.equal(response.status, 200, path);
    assert.deepEqual(await response.json(), { resource: served.url, authorization_servers: [as.issuer], scopes_supported: SCOPES, bearer_methods_supported: ["header"] });
  }
  assert.equal((await fetch(`${served.origin}/.well-known/oauth-protected-resource/other`)).status, 404);
  assert.equal((await fetch(metadataUrl(), { method: "POST" })).status, 405);
});

test("resource server: without authorization, the well-known URL is not found, as before", async () => {
  const plain = await serve();
  try {
    assert.equal((await fetch(`${plain.origin}/.well-known/oauth-protected-resource/mcp`)).status, 404);
  } finally {
    await plain.close();
  }
});

test("resource server: no token: 401 with resource_metadata and scope, and no error code (RFC 6750 3.1)", async () => {
  const response = await post(served.url, initializeRequest());
  assert.equal(response.status, 401);
  assert.equal(response.headers.get("www-authenticate"), `Bearer resource_metadata="${metadataUrl()}", scope="mcp:read mcp:write"`);
  assert.match(((await response.json()) as { error: { message: string } }).error.message, /bearer token is required/);
  const basic = await post(served.url, initializeRequest(), { authorization: "Basic dXNlcjpwYXNz" });
  assert.equal(basic.status, 401);
  assert.equal(challenge(basic.headers.get("www-authenticate")).error, undefined);
});

test("resource server: every MCP request needs the token: GET, DELETE, 2026-07-28 POSTs, legacy /sse and /messages", async () => {
  const replies = [
    await openGet(served.url, { "mcp-session-id": "x" }),
    await fetch(served.url, { method: "DELETE", headers: { "mcp-session-id": "x" } }),
    await postModern(served.url, modernRequest(1, "tools/list")),
    await fetch(`${served.origin}/sse`, { headers: { accept: "text/event-stream" } }),
    await post(`${served.origin}/messages?sessionId=x`, request(1, "ping")),
  ];
  for (const reply of replies) {
    assert.equal(reply.status, 401, reply.url);
    assert.equal(challenge(reply.headers.get("www-authenticate")).resource_metadata, metadataUrl());
    await reply.body?.cancel();
  }
});

const badTokens: { name: string; token: () => string; reason: RegExp }[] = [
  { name: "wrong audience", token: () => token({ audience: "http://127.0.0.1:1/mcp" }), reason: /audience is not this server/ },
  { name: "wrong issuer", token: () => token({ issuer: "https://evil.example" }), reason: /not issued by this server's authorization server/ },
  { name: "expired", token: () => token({ expiresIn: -3600 }), reason: /has expired/ },
  { name: "not valid yet", token: () => token({ notBefore: 3600 }), reason: /not valid yet/ },
  { name: "bad signature", token: () => token({ badSignature: true }), reason: /signature is not valid/ },
  { name: "unknown kid", token: () => token({ key: "unpublished" }), reason: /key \(kid\) is not one the issuer publishes/ },
  { name: "alg none", token: () => token({ header: { alg: "none" } }).replace(/[^.]+$/, ""), reason: /algorithm none is not accepted/ },
  { name: "not a JWT", token: () => "opaque-token-value", reason: /not a compact JWS/ },
  { name: "absurd size (10 KB, under node's header limit)", token: () => token({ claims: { pad: "x".repeat(10_000) } }), reason: /longer than 8192 characters/ },
];
for (const c of badTokens) {
  test(`resource server: ${c.name}: 401 invalid_token, the reason in error_description, never the token`, async () => {
    const value = c.token();
    const response = await post(served.url, initializeRequest(), bearer(value));
    assert.equal(response.status, 401);
    const params = challenge(response.headers.get("www-authenticate"));
    assert.equal(params.error, "invalid_token");
    assert.match(params.error_description!, c.reason);
    assert.equal(params.resource_metadata, metadataUrl());
    assert.equal(params.scope, "mcp:read mcp:write");
    const text = await response.text();
    assert.match(JSON.parse(text).error.message, c.reason);
    assert.ok(!text.includes(value.slice(-20)) && !(response.headers.get("www-authenticate") ?? "").includes(value.slice(-20)));
  });
}

test("resource server: a header too big for node:http is refused by it (431), and the server goes on", async () => {
  const reply = await raw(served.origin, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${"x".repeat(64 * 1024)}` }, body: "{}" }).catch((error: Error) => ({ status: 0, error }));
  assert.ok(reply.status === 431 || reply.status === 0, `431 or a closed connection, got ${reply.status}`);
  assert.equal((await post(served.url, initializeRequest(), bearer(token()))).status, 200);
});

test("resource server: a token missing a scope: 403 insufficient_scope, naming every scope needed", async () => {
  const response = await post(served.url, initializeRequest(), bearer(token({ scope: "mcp:read" })));
  assert.equal(response.status, 403);
  const params = challenge(response.headers.get("www-authenticate"));
  assert.deepEqual([params.error, params.scope, params.resource_metadata], ["insufficient_scope", "mcp:read mcp:write", metadataUrl()]);
  assert.match(params.error_description!, /lacks the scope mcp:write/);
  assert.equal((await post(served.url, initializeRequest(), bearer(token({ scope: undefined, claims: { scp: SCOPES } })))).status, 200, "an scp array counts");
});

test("resource server: a token in the query string is never accepted (400 invalid_request), even beside a good header", async () => {
  const good = token();
  for (const headers of [{}, bearer(good)]) {
    const response = await post(`${served.url}?access_token=${good}`, initializeRequest(), headers);
    assert.equal(response.status, 400);
    assert.equal(challenge(response.headers.get("www-authenticate")).error, "invalid_request");
    await response.body?.cancel();
  }
});

test("resource server: a good token opens a session and calls a tool; the session id alone is not enough", async () => {
  const session = await openSession(served.url, undefined, undefined, bearer(token()));
  const answer = await session.call(1, "tools/call", { name: "add", arguments: { a: 2, b: 3 } });
  assert.deepEqual(JSON.parse(answer.result?.content?.[0]?.text), { sum: 5 });
  const { authorization: _, ...withoutToken } = session.headers;
  assert.equal((await post(served.url, request(2, "ping"), withoutToken)).status, 401);
  // Another valid token (a refreshed one, say) is as good: the session is not bound to one token string.
  assert.equal((await session.post(request(3, "ping"), bearer(token({ alg: "EdDSA" })))).status, 200);
  assert.equal((await postModern(served.url, modernRequest(4, "tools/list"), bearer(token({ alg: "ES256" })))).status, 200);
});

test("resource server: a session answers only the user who opened it; another user's valid token finds it not found", async () => {
  const alice = bearer(token({ claims: { sub: "alice" } }));
  const session = await openSession(served.url, undefined, undefined, alice);
  const mallory = bearer(token({ claims: { sub: "mallory" } }));
  for (const reply of [
    await session.post(request(1, "ping"), mallory),
    await openGet(served.url, { ...session.headers, ...mallory }),
    await fetch(served.url, { method: "DELETE", headers: { ...session.headers, ...mallory } }),
  ]) {
    assert.equal(reply.status, 404, "as if there were no such session");
    await reply.body?.cancel();
  }
  // Alice with a fresh token (another jti, another signing key) is still Alice.
  assert.equal((await session.post(request(2, "ping"), bearer(token({ claims: { sub: "alice" }, alg: "ES256" })))).status, 200);
  assert.equal((await post(served.url, request(3, "ping"), { ...session.headers, ...bearer(token({ claims: { sub: "alice" }, issuer: "https://evil.example" })) })).status, 401);
});

test("resource server: a legacy HTTP+SSE session takes POSTs only from the user who opened its stream", async () => {
  const alice = bearer(token({ claims: { sub: "alice" } }));
  const stream = await fetch(`${served.origin}/sse`, { headers: { accept: "text/event-stream", ...alice } });
  assert.equal(stream.status, 200);
  const reader = new SseReader(stream.body!);
  try {
    const endpoint = new URL((await reader.next())!.data, served.origin).href;
    const send = (headers: Record<string, string>) => fetch(endpoint, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(initializeRequest()) });
    const stolen = await send(bearer(token({ claims: { sub: "mallory" } })));
    assert.equal(stolen.status, 404);
    await stolen.body?.cancel();
    const own = await send(alice);
    assert.equal(own.status, 202);
    await own.body?.cancel();
    assert.equal(JSON.parse((await reader.next())!.data).id, 0, "the answer arrives on alice's stream");
  } finally {
    await reader.cancel();
  }
});

test("resource server: a client's own token (client credentials: sub is its client id, RFC 9068) binds the session to that client", async () => {
  const machine = (clientId: string) => bearer(token({ claims: { sub: clientId, client_id: clientId } }));
  const session = await openSession(served.url, undefined, undefined, machine("robot-1"));
  assert.equal((await session.post(request(1, "ping"), machine("robot-1"))).status, 200);
  const other = await session.post(request(2, "ping"), machine("robot-2"));
  assert.equal(other.status, 404);
  await other.body?.cancel();
});

test("resource server: a JWT without sub speaks for no one: 401 invalid_token saying so (RFC 9068 section 2.2)", async () => {
  for (const claims of [{ sub: undefined, client_id: "robot-1" }, { sub: undefined, client_id: undefined }]) {
    const response = await post(served.url, initializeRequest(), bearer(token({ claims })));
    assert.equal(response.status, 401);
    await response.body?.cancel();
    assert.equal(challenge(response.headers.get("www-authenticate")).error_description, "the access token was refused: it has no subject (sub)");
  }
});

test("resource server: a key rotated in after the keys were fetched is found (the cooldown passed)", async () => {
  const rotatingAs = await startAuthServer();
  const rotating = await serve({ authorization: { issuer: rotatingAs.issuer, jwks: { cooldownMs: 0 } } });
  try {
    const mint = () => rotatingAs.mint({ audience: rotating.url });
    assert.equal((await post(rotating.url, initializeRequest(), bearer(mint()))).status, 200);
    rotatingAs.rotate("RS256");
    assert.equal((await post(rotating.url, initializeRequest(), bearer(mint()))).status, 200);
    assert.equal(rotatingAs.jwksFetches(), 2);
  } finally {
    await rotating.close();
    await rotatingAs.close();
  }
});

test("resource server: made-up kids do not make it fetch the keys per request (default cooldown)", async () => {
  assert.equal((await post(served.url, initializeRequest(), bearer(token()))).status, 200);
  const before = as.jwksFetches();
  for (let i = 0; i < 20; i++) {
    const response = await post(served.url, initializeRequest(), bearer(token({ header: { kid: `random-${i}` } })));
    assert.equal(response.status, 401);
    await response.body?.cancel();
  }
  assert.ok(as.jwksFetches() <= before + 1, `fetched ${as.jwksFetches() - before} times`);
});

test("resource server: the issuer's keys cannot be had (slow): 503, the problem reported without the token, no crash", async () => {
  const slowAs = await startAuthServer();
  const seen: string[] = [];
  const slow = await serve({ authorization: { issuer: slowAs.issuer, jwks: { fetchOptions: { timeoutMs: 200 } } }, onProblem: (message) => seen.push(message) });
  try {
    slowAs.jwksMode = "slow";
    const value = slowAs.mint({ audience: slow.url });
    const response = await post(slow.url, initializeRequest(), bearer(value));
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), "30");
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /keys could not be had/);
    assert.equal(seen.length, 1);
    assert.match(seen[0]!, /authorization: could not check a token: jwks: .*: the answer did not finish in time/);
    assert.ok(!seen[0]!.includes(value.slice(-20)));
  } finally {
    await slow.close();
    await slowAs.close();
  }
});

test("resource server: a configured resource is the audience and names the metadata; listen's URL is then not", async () => {
  const resource = "https://mcp.example.com/public/mcp";
  const behind = await serve({ authorization: { issuer: as.issuer, resource } });
  try {
    const document = await (await fetch(`${behind.origin}/.well-known/oauth-protected-resource/public/mcp`)).json();
    assert.equal((document as { resource: string }).resource, resource);
    const refused = await post(behind.url, initializeRequest(), bearer(as.mint({ audience: behind.url })));
    assert.equal(refused.status, 401);
    assert.equal(challenge(refused.headers.get("www-authenticate")).resource_metadata, "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp");
    assert.equal((await post(behind.url, initializeRequest(), bearer(as.mint({ audience: resource })))).status, 200);
  } finally {
    await behind.close();
  }
});

test("resource server: misconfiguration is refused at construction", () => {
  assert.throws(() => new McpHttpServer(createDemoServer(), { authorization: { issuer: as.issuer }, bearerToken: "f3a9c27e5b8d41f09a6c3e7b2d5f8a1c" }), /exclude each other/);
  assert.throws(() => new McpHttpServer(createDemoServer(), { authorization: { issuer: as.issuer, resource: "https://x.example/mcp#frag" } }), /without a fragment/);
  assert.throws(() => new McpHttpServer(createDemoServer(), { authorization: { issuer: as.issuer, resource: "ftp://x.example/" } }), /http\(s\) URL/);
});

test(`resource server: nothing went wrong on our side in this file (${ADAPTER} adapter)`, () => {
  assert.deepEqual(problems, []);
});
