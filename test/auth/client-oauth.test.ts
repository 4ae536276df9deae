// The OAuth client end to end over loopback: McpClient over HttpClientTransport with
// `authorization`, against the demo server behind test/helpers/oauth-stubs.ts's bearer check and authorization server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { AuthorizationError } from "../../src/auth/authorization-code.js";
import { MemoryCredentialStore } from "../../src/auth/credentials.js";
import { oauthClientFor, type OAuthOptions } from "../../src/auth/oauth-client.js";
import { headless, stubAuthorization, type Stub, type StubOptions } from "../helpers/oauth-stubs.js";

async function connect(t: { after(fn: () => Promise<void>): void }, stub: Stub, authorization: OAuthOptions): Promise<McpClient> {
  const client = new McpClient({ name: "oauth-test", version: "1" }, { handshakeTimeoutMs: 5000 });
  t.after(() => client.close());
  await client.connect(new HttpClientTransport(stub.url, { authorization }));
  return client;
}

async function withStub(t: { after(fn: () => Promise<void>): void }, options: StubOptions = {}): Promise<Stub> {
  const stub = await stubAuthorization(options);
  t.after(() => stub.close());
  return stub;
}

test("a 401 runs discovery, registration and the authorization code grant, then the request succeeds", async (t) => {
  const stub = await withStub(t);
  const agent = headless();
  const client = await connect(t, stub, { userAgent: agent });
  const result = await client.callTool("add", { a: 2, b: 3 });
  assert.equal(result.isError, undefined);
  // The discovery chain, in the spec's order, once.
  const chain = stub.log.filter((line) => !/^\w+ \/mcp$/.test(line));
  assert.deepEqual(chain, [
    "GET /.well-known/oauth-protected-resource/mcp",
    "GET /.well-known/oauth-authorization-server",
    "POST /register",
    "GET /authorize",
    "POST /token",
  ]);
  const authorization = stub.authorizations[0]!;
  assert.equal(authorization.get("resource"), stub.url);
  assert.equal(authorization.get("code_challenge_method"), "S256");
  assert.equal(stub.tokenRequests[0]!.get("resource"), stub.url);
  assert.equal(agent.closed, 1);
});

test("tokens are shared by transports given the same options; a static token alone still works", async (t) => {
  const stub = await withStub(t);
  const options: OAuthOptions = { userAgent: headless() };
  await connect(t, stub, options);
  await connect(t, stub, options);
  assert.equal(stub.authorizations.length, 1);
  // The token the OAuth client holds, sent as a plain static token by a transport without OAuth.
  const token = await oauthClientFor(options).accessToken(new URL(stub.url));
  assert.ok(token);
  const plain = new McpClient({ name: "plain", version: "1" });
  t.after(() => plain.close());
  await plain.connect(new HttpClientTransport(stub.url, { token }));
  assert.equal(stub.authorizations.length, 1);
});

test("a token about to expire is refreshed before the next request, without a new authorization", async (t) => {
  // Only the clock is mocked: the sockets' timers stay real.
  t.mock.timers.enable({ apis: ["Date"], now: 1_700_000_000_000 });
  const stub = await withStub(t, { expiresIn: 3600 });
  const client = await connect(t, stub, { userAgent: headless() });
  assert.equal(stub.tokenRequests.length, 1);
  t.mock.timers.tick(3600_000 - 10_000);
  await client.callTool("add", { a: 1, b: 2 });
  assert.equal(stub.authorizations.length, 1);
  assert.ok(stub.tokenRequests.some((form) => form.get("grant_type") === "refresh_token" && form.get("resource") === stub.url));
});

test("a short-lived token is refreshed only in the second half of its life (margin: min(30 s, half its lifetime))", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: 1_700_000_000_000 });
  const stub = await withStub(t, { expiresIn: 20 });
  const client = await connect(t, stub, { userAgent: headless() });
  const refreshes = () => stub.tokenRequests.filter((form) => form.get("grant_type") === "refresh_token").length;
  t.mock.timers.tick(5_000);
  await client.callTool("add", { a: 1, b: 2 });
  await client.callTool("add", { a: 1, b: 2 });
  assert.equal(refreshes(), 0, "15 s left of 20: not yet");
  t.mock.timers.tick(6_000);
  await client.callTool("add", { a: 1, b: 2 });
  assert.equal(refreshes(), 1, "9 s left of 20: within half its lifetime");
});

test("a rejected token with a spent refresh token leads to a new authorization", async (t) => {
  const stub = await withStub(t);
  const store = new MemoryCredentialStore();
  const client = await connect(t, stub, { userAgent: headless(), store });
  stub.tokens.clear();
  await client.listAllTools();
  // The refresh was tried first (and its new token is valid, so no second authorization).
  assert.equal(stub.authorizations.length, 1);
  assert.equal(stub.tokenRequests.filter((form) => form.get("grant_type") === "refresh_token").length, 1);
  const noRefresh = await withStub(t, { refresh: false });
  const other = await connect(t, noRefresh, { userAgent: headless() });
  noRefresh.tokens.clear();
  await other.listAllTools();
  assert.equal(noRefresh.authorizations.length, 2);
});

test("403 insufficient_scope: step-up with the union of scopes, then success", async (t) => {
  const stub = await withStub(t, {
    challenge: (origin) => `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="read"`,
    needs: (method) => (method === "tools/call" ? "read write" : undefined),
  });
  const client = await connect(t, stub, { userAgent: headless() });
  await client.callTool("add", { a: 1, b: 1 });
  assert.deepEqual(stub.authorizations.map((query) => query.get("scope")), ["read", "read write"]);
});

test("403 insufficient_scope forever: maxStepUps bounds the re-authorizations, and the error says so", async (t) => {
  const stub = await withStub(t, { needs: (method) => (method === "tools/call" ? "admin" : undefined), grantable: ["basic"] });
  const client = await connect(t, stub, { userAgent: headless(), maxStepUps: 1, scope: "basic" });
  const before = stub.authorizations.length;
  await assert.rejects(client.callTool("add", { a: 1, b: 1 }), (error: unknown) => error instanceof AuthorizationError && /insufficient_scope \(scope "admin"\) after 1 step-up/.test(error.message));
  assert.equal(stub.authorizations.length - before, 1);
  assert.equal(stub.authorizations[0]!.get("scope"), "basic");
});

test("without a user agent or a grant, a 401 fails with an error naming what to configure", async (t) => {
  const stub = await withStub(t);
  await assert.rejects(connect(t, stub, {}), (error: unknown) => error instanceof AuthorizationError && /no user agent \(OAuthOptions\.userAgent\) or grant/.test(error.message));
});

test("a grant without a person replaces the authorization code grant and gets the discovered context", async (t) => {
  const stub = await withStub(t, { prm: () => ({ scopes_supported: ["a", "b"] }) });
  const seen: unknown[] = [];
  await connect(t, stub, {
    grant: async (context) => {
      seen.push({ resource: context.resource, issuer: context.issuer, scope: context.scope });
      stub.tokens.set("granted", []);
      return { access_token: "granted", token_type: "Bearer" };
    },
  });
  assert.deepEqual(seen, [{ resource: stub.url, issuer: stub.origin, scope: "a b" }]);
  assert.equal(stub.authorizations.length, 0);
});

test("concurrent 401s share one authorization", async (t) => {
  const stub = await withStub(t);
  const options: OAuthOptions = { userAgent: headless() };
  const oauth = oauthClientFor(options);
  const url = new URL(stub.url);
  await Promise.all([1, 2, 3].map(() => oauth.authorize(url, undefined, undefined, false)));
  assert.equal(stub.authorizations.length, 1);
});

test("offline_access is added only when the authorization server lists it, and never to an omitted scope", async (t) => {
  const cases: { as?: string[]; prm?: string[]; expected: string | null }[] = [
    { as: ["read", "offline_access"], prm: ["read"], expected: "read offline_access" },
    { as: ["read"], prm: ["read"], expected: "read" },
    { as: ["offline_access"], expected: null },
  ];
  for (const c of cases) {
    const stub = await withStub(t, { metadata: () => ({ scopes_supported: c.as }), prm: () => (c.prm ? { scopes_supported: c.prm } : {}) });
    await connect(t, stub, { userAgent: headless() });
    assert.equal(stub.authorizations[0]!.get("scope"), c.expected, JSON.stringify(c));
  }
});

test("an expired token that cannot be refreshed (none kept, or invalid_grant) is not sent; a new authorization follows", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: 1_700_000_000_000 });
  for (const options of [{ refresh: false }, { refuseRefresh: true }]) {
    const stub = await withStub(t, { expiresIn: 60, ...options });
    const client = await connect(t, stub, { userAgent: headless() });
    // Short-lived, but not expired: sent as it is, even without a way to refresh it.
    t.mock.timers.tick(40_000);
    await client.callTool("add", { a: 1, b: 2 });
    assert.equal(stub.authorizations.length, 1, JSON.stringify(options));
    t.mock.timers.tick(30_000);
    await client.callTool("add", { a: 1, b: 2 });
    assert.equal(stub.authorizations.length, 2, JSON.stringify(options));
    // A refused refresh is tried once, then forgotten.
    assert.equal(stub.tokenRequests.filter((form) => form.get("grant_type") === "refresh_token").length, options.refuseRefresh ? 1 : 0);
  }
});

test("failures name the step and the server, never a secret (client secret, code, verifier, token)", async (t) => {
  const secret = "s3cret-value";
  const failures: StubOptions[] = [
    { redirect: (redirect) => (redirect.searchParams.set("code", "code-wrong-1"), redirect) },
    { redirect: (redirect) => (redirect.searchParams.set("state", "forged"), redirect) },
    { redirect: (redirect) => (redirect.searchParams.set("iss", "https://evil.example"), redirect) },
  ];
  for (const options of failures) {
    const stub = await withStub(t, { ...options, metadata: () => ({ token_endpoint_auth_methods_supported: ["client_secret_post"] }) });
    const agent = headless();
    const client = new McpClient({ name: "secrets", version: "1" });
    t.after(() => client.close());
    const error = await client.connect(new HttpClientTransport(stub.url, { authorization: { userAgent: agent, client: { issuer: stub.origin, client_id: "pre", client_secret: secret } } })).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof Error, JSON.stringify(Object.keys(options)));
    const verifier = stub.tokenRequests[0]?.get("code_verifier");
    for (const hidden of [secret, "code-wrong-1", "code-1", verifier, stub.authorizations[0]?.get("state")]) {
      if (hidden) assert.ok(!error.message.includes(hidden), `${error.message} shows a secret`);
    }
    assert.match(error.message, /authorization redirect|token request/);
  }
});

test("a server that refuses the token it just authorized: further 401s fail at once for refusedCooldownMs, no browser per request", async (t) => {
  // With no cool-down the second attempt gets new tokens again (here by its refresh token) and is refused again.
  for (const [refusedCooldownMs, tokenRequests] of [[undefined, 1], [0, 2]] as const) {
    const stub = await withStub(t);
    // The MCP server accepts no token it is given.
    stub.tokens.set = () => stub.tokens;
    const options: OAuthOptions = { userAgent: headless(), ...(refusedCooldownMs !== undefined && { refusedCooldownMs }) };
    await assert.rejects(connect(t, stub, options), (error: unknown) => error instanceof AuthorizationError && /401 again after a new authorization/.test(error.message));
    await assert.rejects(connect(t, stub, options), (error: unknown) =>
      error instanceof AuthorizationError && (refusedCooldownMs === 0 || /refused the token it was just authorized for; no new authorization for 30 s \(OAuthOptions\.refusedCooldownMs\)/.test(error.message)));
    assert.deepEqual([stub.authorizations.length, stub.tokenRequests.length], [1, tokenRequests], `refusedCooldownMs ${refusedCooldownMs}`);
  }
});
