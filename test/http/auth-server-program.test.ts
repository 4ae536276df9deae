// The demo program as an OAuth resource server, run as users run it: `node dist/server.js --http
// --auth-issuer URL [--auth-resource URL] [--auth-scopes "a b"]` in front of the test authorization
// server, all over loopback. Its flags refused when wrong (exit 2); its metadata; a token got
// through the authorization code flow with PKCE calls a tool; every bad token gets the right status
// and challenge; a JWK Set that is huge or not JSON gets 503 and the program goes on; nothing
// secret reaches its stderr. Builds first: `npm test` does.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { startAuthServer, type TestAuthServer, type TokenSpec } from "../helpers/auth-server.js";
import { initializeRequest, openSession, post, raw } from "../helpers/http-peer.js";
import { listening, SERVER, start } from "../helpers/server-program.js";

const SCOPES = "mcp:read mcp:write";
let as: TestAuthServer;
let program: Awaited<ReturnType<typeof listening>>;
let url: string;
const secrets: string[] = [];

before(async () => {
  as = await startAuthServer({ scopes: SCOPES.split(" "), clients: [{ client_id: "demo-client", redirect_uris: ["http://127.0.0.1:9/callback"] }] });
  as.rotate("ES256");
  as.rotate("EdDSA");
  program = await listening(["--auth-issuer", as.issuer, "--auth-scopes", SCOPES]);
  url = `${program.origin}/mcp`;
});
after(async () => {
  await program.stop();
  assert.ok(secrets.every((secret) => !program.stderr().includes(secret)), "no token in the program's output");
  await as.close();
});

const mint = (spec: Partial<TokenSpec> = {}) => {
  const token = as.mint({ audience: url, scope: SCOPES, ...spec });
  secrets.push(token.slice(-24));
  return token;
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const flagCases: { args: string[]; env?: Record<string, string>; error: RegExp }[] = [
  { args: ["--auth-issuer", "not a url"], error: /--auth-issuer needs an http\(s\) URL/ },
  { args: ["--auth-issuer", "https://as.example/#x"], error: /without a fragment/ },
  { args: ["--auth-issuer", "https://as.example", "--auth-resource", "ftp://x"], error: /--auth-resource needs an http\(s\) URL/ },
  { args: ["--auth-issuer", "http://as.example"], error: /--auth-issuer needs an https URL \(plain http only to this machine: localhost, 127\.0\.0\.1, \[::1\]\), got "http:\/\/as\.example"/ },
  { args: ["--auth-issuer", "http://198.51.100.7/"], error: /--auth-issuer needs an https URL/ },
  { args: ["--auth-issuer", "https://as.example/\t"], error: /--auth-issuer needs an http\(s\) URL without a fragment, spaces or control characters/ },
  { args: ["--auth-issuer", "https://as.example", "--auth-resource", "https://mcp.example/mc\r\nX-Injected: 1"], error: /--auth-resource needs an http\(s\) URL without a fragment, spaces or control characters/ },
  { args: ["--auth-issuer", "https://as.example", "--auth-scopes", "a\r\nX-Injected:1"], error: /--auth-scopes needs scope names/ },
  { args: ["--auth-scopes", "a b"], error: /--auth-scopes need --auth-issuer/ },
  { args: ["--auth-issuer", "https://as.example", "--auth-scopes", ""], error: /--auth-scopes needs scope names/ },
  { args: ["--auth-issuer", "https://as.example", "--auth-scopes", 'a"b'], error: /--auth-scopes needs scope names/ },
  { args: ["--auth-issuer", "https://as.example"], env: { MCP_WIRE_TOKEN: "f3a9c27e5b8d41f09a6c3e7b2d5f8a1c" }, error: /exclude each other/ },
];
for (const c of flagCases) {
  test(`auth program: ${c.args.join(" ")}${c.env ? " with MCP_WIRE_TOKEN" : ""} is refused with exit 2`, async () => {
    const started = await start(c.args, c.env);
    assert.ok("exitCode" in started, "the program must not listen");
    assert.equal(started.exitCode, 2);
    assert.match(started.stderr, c.error);
  });
}

test("auth program: --auth-issuer needs --http; --help names the flags", () => {
  const stdio = spawnSync(process.execPath, [SERVER, "--auth-issuer", "https://as.example"], { input: "", encoding: "utf8", timeout: 10_000 });
  assert.equal(stdio.status, 2);
  assert.match(stdio.stderr, /--auth-issuer needs --http/);
  const help = spawnSync(process.execPath, [SERVER, "--help"], { encoding: "utf8", timeout: 10_000 });
  assert.match(help.stderr, /--auth-issuer URL \[--auth-resource URL\] \[--auth-scopes "a b"\]/);
});

test("auth program: the banner and the metadata name the endpoint's own URL as the resource by default", async () => {
  assert.match(program.stderr(), new RegExp(`an OAuth resource server for ${url}, tokens from ${as.issuer}`));
  const response = await fetch(`${program.origin}/.well-known/oauth-protected-resource/mcp`);
  assert.deepEqual(await response.json(), { resource: url, authorization_servers: [as.issuer], scopes_supported: SCOPES.split(" "), bearer_methods_supported: ["header"] });
});

test("auth program: a token from the authorization code flow with PKCE (and its refresh) calls a tool", async () => {
  const verifier = randomBytes(32).toString("base64url");
  const authorize = new URL(`${as.issuer}/authorize`);
  const query = { response_type: "code", client_id: "demo-client", redirect_uri: "http://127.0.0.1:9/callback", state: "s1", resource: url, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256" };
  for (const [name, value] of Object.entries(query)) authorize.searchParams.set(name, value);
  const redirect = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("location")!);
  assert.deepEqual([redirect.searchParams.get("state"), redirect.searchParams.get("iss")], ["s1", as.issuer]);
  const form = { grant_type: "authorization_code", code: redirect.searchParams.get("code")!, redirect_uri: query.redirect_uri, client_id: "demo-client", code_verifier: verifier, resource: url };
  const tokens = (await (await fetch(`${as.issuer}/token`, { method: "POST", body: new URLSearchParams(form) })).json()) as { access_token: string; refresh_token: string };
  secrets.push(tokens.access_token.slice(-24));
  const session = await openSession(url, undefined, undefined, bearer(tokens.access_token));
  assert.deepEqual(JSON.parse((await session.call(1, "tools/call", { name: "add", arguments: { a: 1, b: 2 } })).result.content[0].text), { sum: 3 });
  const refreshed = (await (await fetch(`${as.issuer}/token`, { method: "POST", body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: "demo-client" }) })).json()) as { access_token: string };
  secrets.push(refreshed.access_token.slice(-24));
  assert.deepEqual((await session.call(2, "ping", {})).result, {});
  assert.equal((await session.post({ jsonrpc: "2.0", id: 3, method: "ping" }, bearer(refreshed.access_token))).status, 200);
});

const refusals: { name: string; token: () => string; status: number; error: string; description?: RegExp }[] = [
  { name: "wrong audience", token: () => mint({ audience: "http://127.0.0.1:1/mcp" }), status: 401, error: "invalid_token", description: /audience/ },
  { name: "wrong issuer", token: () => mint({ issuer: "http://127.0.0.1:1" }), status: 401, error: "invalid_token", description: /not issued by/ },
  { name: "expired", token: () => mint({ expiresIn: -600 }), status: 401, error: "invalid_token", description: /expired/ },
  { name: "bad signature", token: () => mint({ badSignature: true }), status: 401, error: "invalid_token", description: /signature/ },
  { name: "unknown kid", token: () => mint({ key: "unpublished", alg: "ES256" }), status: 401, error: "invalid_token", description: /kid/ },
  { name: "absurd size", token: () => mint({ claims: { pad: "x".repeat(7000) } }), status: 401, error: "invalid_token", description: /longer than/ },
  { name: "missing scope", token: () => mint({ scope: "mcp:read" }), status: 403, error: "insufficient_scope" },
];
for (const c of refusals) {
  test(`auth program: ${c.name}: ${c.status} ${c.error}`, async () => {
    const response = await post(url, initializeRequest(), bearer(c.token()));
    assert.equal(response.status, c.status);
    const challenge = response.headers.get("www-authenticate") ?? "";
    assert.match(challenge, new RegExp(`^Bearer error="${c.error}", error_description="[^"]*", resource_metadata="${program.origin}/.well-known/oauth-protected-resource/mcp", scope="${SCOPES}"$`));
    if (c.description) assert.match(challenge, c.description);
    await response.body?.cancel();
  });
}

test("auth program: a header past node:http's limit is refused by node, and the program goes on", async () => {
  const reply = await raw(program.origin, { method: "POST", headers: { authorization: `Bearer ${"y".repeat(100_000)}` }, body: "{}" }).catch(() => ({ status: 0 }));
  assert.ok(reply.status === 431 || reply.status === 0, String(reply.status));
  assert.equal((await post(url, initializeRequest(), bearer(mint()))).status, 200);
});

for (const mode of ["huge", "not-json"] as const) {
  test(`auth program: a JWK Set that is ${mode}: 503, the problem on stderr, and the program goes on`, async () => {
    const broken = await startAuthServer();
    const server = await listening(["--auth-issuer", broken.issuer]);
    try {
      broken.jwksMode = mode;
      const token = broken.mint({ audience: `${server.origin}/mcp` });
      const response = await post(`${server.origin}/mcp`, initializeRequest(), bearer(token));
      assert.equal(response.status, 503);
      await response.body?.cancel();
      assert.match(server.stderr(), mode === "huge" ? /could not check a token: jwks: .*limit/ : /could not check a token: .*is not a JWK Set/);
      assert.ok(!server.stderr().includes(token.slice(-24)));
      assert.equal((await fetch(`${server.origin}/.well-known/oauth-protected-resource`)).status, 200, "still serving");
    } finally {
      await server.stop();
      await broken.close();
    }
  });
}

test("auth program: --auth-resource sets the audience and the metadata's place", async () => {
  const resource = "https://mcp.example.com/mcp";
  const server = await listening(["--auth-issuer", as.issuer, "--auth-resource", resource]);
  try {
    assert.equal(((await (await fetch(`${server.origin}/.well-known/oauth-protected-resource/mcp`)).json()) as { resource: string }).resource, resource);
    assert.equal((await post(`${server.origin}/mcp`, initializeRequest(), bearer(mint({ audience: resource })))).status, 200);
    assert.equal((await post(`${server.origin}/mcp`, initializeRequest(), bearer(mint({ audience: `${server.origin}/mcp` })))).status, 401);
  } finally {
    await server.stop();
  }
});
