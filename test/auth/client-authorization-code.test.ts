// The authorization code grant's checks: the redirect (state, iss, error, code), PKCE S256 required,
// and the requests it makes (resource on both, the verifier matching the challenge).
import { test } from "node:test";
import assert from "node:assert/strict";
import { AuthorizationError, authorizationCodeGrant, readRedirect } from "../../src/auth/authorization-code.js";
import type { Discovery } from "../../src/auth/discovery.js";
import { headless, stubAuthorization } from "../helpers/oauth-stubs.js";

const issuer = "https://as.example";
const plain = { issuer, metadata: { issuer } };
const promised = { issuer, metadata: { issuer, authorization_response_iss_parameter_supported: true } };
const back = (query: string) => new URL(`http://127.0.0.1:1/callback?${query}`);

const redirects: { name: string; url: URL; discovery: Pick<Discovery, "issuer" | "metadata">; error?: RegExp; code?: string }[] = [
  { name: "code and matching state", url: back("code=c1&state=s"), discovery: plain, code: "c1" },
  { name: "the issuer's iss when promised", url: back(`code=c1&state=s&iss=${encodeURIComponent(issuer)}`), discovery: promised, code: "c1" },
  { name: "a state that does not match", url: back("code=c1&state=other"), discovery: plain, error: /state does not match/ },
  { name: "no state", url: back("code=c1"), discovery: plain, error: /state does not match/ },
  { name: "no code", url: back("state=s"), discovery: plain, error: /no authorization code/ },
  { name: "an error answer", url: back("error=access_denied&error_description=nope&state=s"), discovery: plain, error: /answered access_denied: nope/ },
  { name: "another issuer's iss (mix-up)", url: back("code=c1&state=s&iss=https%3A%2F%2Fevil.example"), discovery: plain, error: /"iss" is "https:\/\/evil\.example"/ },
  { name: "no iss though the metadata promises it", url: back("code=c1&state=s"), discovery: promised, error: /no "iss" parameter/ },
];

for (const c of redirects) {
  test(`readRedirect: ${c.name}`, () => {
    if (c.code !== undefined) return assert.equal(readRedirect(c.url, "s", c.discovery), c.code);
    assert.throws(() => readRedirect(c.url, "s", c.discovery), (error: unknown) => error instanceof AuthorizationError && c.error!.test(error.message));
  });
}

test("the grant refuses to start without S256 in code_challenge_methods_supported", async () => {
  const agent = headless();
  const discovery: Discovery = { resource: "https://mcp.example/mcp", issuer, metadata: { issuer, authorization_endpoint: `${issuer}/a`, token_endpoint: `${issuer}/t`, code_challenge_methods_supported: ["plain"] } };
  await assert.rejects(authorizationCodeGrant({ discovery, client: { client_id: "c" }, userAgent: agent, redirectUri: "http://127.0.0.1:1/cb", fetchOptions: {} }), /does not list S256/);
});

test("the grant sends resource and scope, then exchanges the code with the verifier; a bad state stops it before the token request", async (t) => {
  const stub = await stubAuthorization();
  t.after(() => stub.close());
  const discovery: Discovery = { resource: stub.url, issuer: stub.origin, metadata: { issuer: stub.origin, authorization_endpoint: `${stub.origin}/authorize`, token_endpoint: `${stub.origin}/token`, code_challenge_methods_supported: ["S256"] } };
  const tokens = await authorizationCodeGrant({ discovery, client: { client_id: "c" }, scope: "a b", userAgent: headless(), redirectUri: "http://127.0.0.1:1/cb", fetchOptions: {} });
  assert.equal(tokens.scope, "a b");
  assert.equal(stub.authorizations[0]!.get("resource"), stub.url);
  assert.equal(stub.authorizations[0]!.get("scope"), "a b");
  assert.equal(stub.tokenRequests[0]!.get("resource"), stub.url);
  const forged = await stubAuthorization({ redirect: (redirect) => (redirect.searchParams.set("state", "forged"), redirect) });
  t.after(() => forged.close());
  const elsewhere = { ...discovery, issuer: forged.origin, metadata: { ...discovery.metadata, issuer: forged.origin, authorization_endpoint: `${forged.origin}/authorize`, token_endpoint: `${forged.origin}/token` } };
  await assert.rejects(authorizationCodeGrant({ discovery: elsewhere, client: { client_id: "c" }, userAgent: headless(), redirectUri: "http://127.0.0.1:1/cb", fetchOptions: {} }), /state does not match/);
  assert.equal(forged.tokenRequests.length, 0);
});
