// Opaque access tokens checked by asking the issuer (RFC 7662), against the test authorization
// server over loopback: an active token for us passes with its scopes; inactive (revoked,
// expired, unknown), for another audience, without an audience, or from another issuer is refused
// (TokenRejectedError: a 401); our own credentials refused, or no introspection endpoint, is our
// failure (a 503), and discovery is tried again; an absurd token is never sent on. Through the
// resource server: opaque tokens go to introspection, JWTs to their signature.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { introspectionVerifier } from "../../src/auth/introspection.js";
import { TokenRejectedError, type VerifiedToken } from "../../src/auth/jwt-verify.js";
import { AuthMetadataError } from "../../src/auth/metadata.js";
import { OAuthError } from "../../src/auth/token-endpoint.js";
import { ResourceServer } from "../../src/auth/resource-server.js";
import { HttpAnswer, type HttpRequest } from "../../src/http/exchange.js";
import { startAuthServer, type TestAuthServer } from "../helpers/auth-server.js";

const RESOURCE = "https://mcp.example/mcp";
const CLIENT = { clientId: "resource-server", clientSecret: "rs-secret-0123456789" };
let as: TestAuthServer;

before(async () => {
  as = await startAuthServer({ clients: [{ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, redirect_uris: [] }] });
});
after(() => as.close());

const verifier = () => introspectionVerifier(CLIENT, { issuer: as.issuer });

test("introspection: an active token for us passes, with what the issuer says of it", async () => {
  const verified = await verifier()(as.opaque({ audience: RESOURCE, scope: "mcp:read", claims: { client_id: "c9" } }), RESOURCE);
  assert.deepEqual([verified.scopes, verified.clientId, verified.subject], [["mcp:read"], "c9", "test-user"]);
  assert.deepEqual(as.requests.slice(-2).map((r) => r.path), ["/.well-known/oauth-authorization-server", "/introspect"]);
});

const refused: { name: string; token: () => string; reason: RegExp }[] = [
  { name: "revoked", token: () => { const t = as.opaque({ audience: RESOURCE }); as.revoke(t); return t; }, reason: /not active/ },
  { name: "expired", token: () => as.opaque({ audience: RESOURCE, expiresIn: -600 }), reason: /not active/ },
  { name: "unknown to the issuer", token: () => "never-issued-token", reason: /not active/ },
  { name: "for another audience", token: () => as.opaque({ audience: "https://other.example/mcp" }), reason: /audience is not this server/ },
  { name: "without an audience", token: () => as.opaque({ audience: RESOURCE, claims: { aud: undefined } }), reason: /audience/ },
  { name: "from another issuer", token: () => as.opaque({ audience: RESOURCE, issuer: "https://evil.example" }), reason: /not issued by/ },
  { name: "of absurd size (never sent)", token: () => "z".repeat(9000), reason: /longer than 8192/ },
];
for (const c of refused) {
  test(`introspection: a token ${c.name} is refused`, async () => {
    const before = as.requests.length;
    await assert.rejects(verifier()(c.token(), RESOURCE), (error: Error) => error instanceof TokenRejectedError && c.reason.test(error.reason));
    if (c.name.includes("never sent")) assert.equal(as.requests.length, before);
  });
}

test("introspection: an answer without exp is accepted (RFC 7662 makes it optional)", async () => {
  assert.equal((await verifier()(as.opaque({ audience: RESOURCE, claims: { exp: undefined } }), RESOURCE)).expiresAt, undefined);
});

test("introspection: our credentials refused is an OAuthError (our side), not a judgement of the token", async () => {
  const wrong = introspectionVerifier({ ...CLIENT, clientSecret: "wrong" }, { issuer: as.issuer });
  await assert.rejects(wrong(as.opaque({ audience: RESOURCE }), RESOURCE), (error: Error) => error instanceof OAuthError && error.error === "invalid_client");
});

test("introspection: no introspection_endpoint is an AuthMetadataError, and discovery is tried again next time", async () => {
  const endpoint = as.metadata.introspection_endpoint;
  delete as.metadata.introspection_endpoint;
  const check = verifier();
  try {
    await assert.rejects(check(as.opaque({ audience: RESOURCE }), RESOURCE), (error: Error) => error instanceof AuthMetadataError && /names no introspection_endpoint/.test(error.message));
  } finally {
    as.metadata.introspection_endpoint = endpoint;
  }
  assert.deepEqual((await check(as.opaque({ audience: RESOURCE, scope: "a" }), RESOURCE)).scopes, ["a"]);
});

test("introspection: through the resource server, opaque tokens are asked about and JWTs checked by signature", async () => {
  const server = new ResourceServer({ issuer: as.issuer, resource: RESOURCE, scopes: ["mcp:read"], introspection: CLIENT });
  const requestWith = (token: string): HttpRequest => ({
    method: "POST", path: "/mcp", query: () => null, header: (name) => (name === "authorization" ? `Bearer ${token}` : null),
    body: async () => new Uint8Array(0), onClientGone: () => {},
  });
  assert.deepEqual(((await server.authorize(requestWith(as.opaque({ audience: RESOURCE, scope: "mcp:read" })))) as VerifiedToken).scopes, ["mcp:read"]);
  assert.equal(((await server.authorize(requestWith(as.mint({ audience: RESOURCE, scope: "mcp:read" })))) as VerifiedToken).subject, "test-user");
  const revoked = as.opaque({ audience: RESOURCE, scope: "mcp:read" });
  as.revoke(revoked);
  const refusal = await server.authorize(requestWith(revoked));
  assert.ok(refusal instanceof HttpAnswer);
  assert.equal(refusal.status, 401);
  assert.match(refusal.headers["www-authenticate"] ?? "", /error="invalid_token", error_description="the access token was refused: it is not active/);
  const wrongClient = new ResourceServer({ issuer: as.issuer, resource: RESOURCE, introspection: { ...CLIENT, clientSecret: "wrong" } });
  assert.equal(((await wrongClient.authorize(requestWith(as.opaque({ audience: RESOURCE })))) as HttpAnswer).status, 503);
});
