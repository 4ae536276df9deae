import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, verify } from "node:crypto";
import { clientCredentialsGrant, GrantError, type ClientCredentials } from "../../src/auth/grant-client-credentials.js";
import type { GrantContext } from "../../src/auth/grant.js";
import { AuthMetadataError, readAuthorizationServerMetadata, type AuthorizationServerMetadata } from "../../src/auth/metadata.js";
import { JwtSignError } from "../../src/auth/jwt-sign.js";
import { OAuthError } from "../../src/auth/token-endpoint.js";
import { basicCredentials, decodeJwt, tokenEndpointStub, type StubAnswer, type TokenEndpointStub } from "../helpers/token-endpoint-stub.js";

const RESOURCE = "https://mcp.example/mcp";
const OK: StubAnswer = { json: { access_token: "at-1", token_type: "Bearer", expires_in: 60 } };

async function authorizationServer(t: { after(fn: () => unknown): void }, answer: () => StubAnswer = () => OK): Promise<TokenEndpointStub> {
  const stub = await tokenEndpointStub(answer);
  t.after(() => stub.close());
  return stub;
}

function context(stub: TokenEndpointStub, metadata: Partial<AuthorizationServerMetadata> = {}, chosen: { scope?: string } = { scope: "mcp:read mcp:write" }): GrantContext {
  return { resource: RESOURCE, issuer: stub.url, metadata: { issuer: stub.url, token_endpoint: `${stub.url}/token`, ...metadata }, ...chosen, fetchOptions: {} };
}

test("client secret: client_secret_basic by default, form-encoded; grant_type, resource and scope in the form, the secret not", async (t) => {
  const as = await authorizationServer(t);
  const grant = clientCredentialsGrant({ issuer: as.url, client_id: "svc one", client_secret: "s3cr%t:+" }, { now: () => 1_000_000 });
  const tokens = await grant(context(as));
  assert.deepEqual(tokens, { access_token: "at-1", token_type: "Bearer", expires_at: 1_060_000, scope: "mcp:read mcp:write" });
  const [request] = as.requests;
  assert.equal(request?.path, "/token");
  assert.deepEqual(basicCredentials(request!), { id: "svc one", secret: "s3cr%t:+" });
  assert.match(request!.headers.authorization!, /^Basic c3ZjK29uZTpzM2NyJTI1dCUzQSUyQg==$/, "RFC 6749 2.3.1: each part form-encoded first");
  assert.deepEqual(Object.fromEntries(request!.form), { grant_type: "client_credentials", resource: RESOURCE, scope: "mcp:read mcp:write" });
});

test("client secret: client_secret_post when the metadata lists only that; no scope sent when none was chosen", async (t) => {
  const as = await authorizationServer(t);
  await clientCredentialsGrant({ issuer: as.url, client_id: "svc", client_secret: "pw" })(context(as, { token_endpoint_auth_methods_supported: ["client_secret_post"] }, {}));
  const [request] = as.requests;
  assert.equal(request?.headers.authorization, undefined);
  assert.deepEqual(Object.fromEntries(request!.form), { grant_type: "client_credentials", resource: RESOURCE, client_id: "svc", client_secret: "pw" });
});

const keyTypes = [
  { alg: "ES256", pair: () => generateKeyPairSync("ec", { namedCurve: "P-256" }) },
  { alg: "RS256", pair: () => generateKeyPairSync("rsa", { modulusLength: 2048 }) },
  { alg: "EdDSA", pair: () => generateKeyPairSync("ed25519") },
];

for (const { alg, pair } of keyTypes) {
  test(`private_key_jwt ${alg}: a fresh signed assertion per request, iss = sub = client_id, aud = the issuer, a short exp`, async (t) => {
    const as = await authorizationServer(t);
    const { privateKey, publicKey } = pair();
    const now = 1_700_000_000_000;
    const grant = clientCredentialsGrant({ issuer: as.url, client_id: "svc", private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), kid: "key-1" }, { now: () => now });
    const metadata = { token_endpoint_auth_methods_supported: ["private_key_jwt"], token_endpoint_auth_signing_alg_values_supported: [alg] };
    await grant(context(as, metadata));
    await grant(context(as, metadata));
    const assertions = as.requests.map((request) => {
      assert.equal(request.form.get("client_assertion_type"), "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
      assert.equal(request.form.get("grant_type"), "client_credentials");
      assert.equal(request.form.get("resource"), RESOURCE);
      assert.equal(request.headers.authorization, undefined);
      return decodeJwt(request.form.get("client_assertion") ?? "");
    });
    for (const { header, claims, input, signature } of assertions) {
      assert.deepEqual(header, { alg, typ: "JWT", kid: "key-1" });
      const ok = alg === "EdDSA" ? verify(null, input, publicKey, signature)
        : verify("sha256", input, alg === "ES256" ? { key: publicKey, dsaEncoding: "ieee-p1363" } : publicKey, signature);
      assert.ok(ok, "the assertion verifies with the client's public key");
      assert.equal(claims.iss, "svc");
      assert.equal(claims.sub, "svc");
      assert.equal(claims.aud, as.url);
      assert.equal(claims.iat, now / 1000);
      assert.equal(claims.exp, now / 1000 + 60);
      assert.match(String(claims.jti), /^[0-9a-f-]{36}$/);
    }
    assert.notEqual(assertions[0]?.claims.jti, assertions[1]?.claims.jti, "jti never repeats");
  });
}

test("the authorization server's refusal is an OAuthError with its code; no secret in the message", async (t) => {
  const as = await authorizationServer(t, () => ({ status: 401, json: { error: "invalid_client", error_description: "unknown client" } }));
  await assert.rejects(clientCredentialsGrant({ issuer: as.url, client_id: "svc", client_secret: "hunter2" })(context(as)), (error: unknown) => {
    assert.ok(error instanceof OAuthError);
    assert.equal(error.error, "invalid_client");
    assert.equal(error.status, 401);
    assert.match(error.message, /^client credentials grant: the authorization server answered 401 invalid_client: unknown client$/);
    assert.doesNotMatch(error.message, /hunter2/);
    return true;
  });
});

test("a token answer that is not a Bearer token is refused", async (t) => {
  const as = await authorizationServer(t, () => ({ json: { access_token: "x", token_type: "N_A" } }));
  await assert.rejects(clientCredentialsGrant({ issuer: as.url, client_id: "svc", client_secret: "pw" })(context(as)), /client credentials grant: .*not Bearer/);
});

test("what the server cannot accept fails before anything is sent, naming the step", async (t) => {
  const as = await authorizationServer(t);
  const key = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
  const cases: { name: string; credentials: ClientCredentials; metadata: Partial<AuthorizationServerMetadata>; message: RegExp }[] = [
    { name: "a secret, the server wants keys", credentials: { issuer: as.url, client_id: "svc", client_secret: "pw" }, metadata: { token_endpoint_auth_methods_supported: ["private_key_jwt"] }, message: /accepts private_key_jwt; a client secret cannot be sent/ },
    { name: "a key, the server wants secrets", credentials: { issuer: as.url, client_id: "svc", private_key: key }, metadata: { token_endpoint_auth_methods_supported: ["client_secret_basic"] }, message: /accepts client_secret_basic, not private_key_jwt/ },
    { name: "an algorithm the server does not take", credentials: { issuer: as.url, client_id: "svc", private_key: key }, metadata: { token_endpoint_auth_signing_alg_values_supported: ["RS256"] }, message: /signed with RS256, not ES256/ },
    { name: "no token endpoint", credentials: { issuer: as.url, client_id: "svc", client_secret: "pw" }, metadata: { token_endpoint: undefined }, message: /names no token_endpoint/ },
  ];
  for (const c of cases) {
    await assert.rejects(clientCredentialsGrant(c.credentials)(context(as, c.metadata)), (error: unknown) => {
      assert.ok(error instanceof GrantError, c.name);
      assert.match(error.message, /^client credentials grant: /, c.name);
      assert.match(error.message, c.message, c.name);
      return true;
    });
  }
  assert.equal(as.requests.length, 0);
});

test("a bad private key or assertion lifetime is refused when the grant is configured, not at the first 401", () => {
  assert.throws(() => clientCredentialsGrant({ issuer: "https://as.example", client_id: "svc", private_key: "not a key" }), JwtSignError);
  assert.throws(() => clientCredentialsGrant({ issuer: "https://as.example", client_id: "svc", private_key: generateKeyPairSync("ed25519").privateKey, algorithm: "RS256" }), /signs EdDSA, not "RS256"/);
  for (const lifetime of [0, -5, 1.5, Number.NaN]) {
    assert.throws(() => clientCredentialsGrant({ issuer: "https://as.example", client_id: "svc", private_key: generateKeyPairSync("ed25519").privateKey, assertion_lifetime_s: lifetime }), /^GrantError: client assertion: assertion_lifetime_s must be a positive whole number of seconds/);
  }
});

test("AS metadata: token_endpoint_auth_signing_alg_values_supported must be an array of strings (the grant reads it)", () => {
  const url = "https://as.example/.well-known/oauth-authorization-server";
  assert.throws(() => readAuthorizationServerMetadata({ issuer: "https://as.example", token_endpoint_auth_signing_alg_values_supported: "ES256" }, url, "https://as.example"),
    (error: unknown) => error instanceof AuthMetadataError && /"token_endpoint_auth_signing_alg_values_supported" must be an array of strings/.test(error.message));
});

test("assertion_lifetime_s sets how long each assertion lives", async (t) => {
  const as = await authorizationServer(t);
  await clientCredentialsGrant({ issuer: as.url, client_id: "svc", private_key: generateKeyPairSync("ed25519").privateKey, assertion_lifetime_s: 300 }, { now: () => 2_000_000_000 })(context(as));
  const { claims } = decodeJwt(as.requests[0]?.form.get("client_assertion") ?? "");
  assert.deepEqual([claims.iat, claims.exp], [2_000_000, 2_000_300]);
});

test("credentials go only to the issuer they are registered at: another issuer is refused before anything is sent, naming both", async (t) => {
  const as = await authorizationServer(t);
  const key = generateKeyPairSync("ed25519").privateKey;
  for (const credentials of [{ issuer: "https://trusted.example", client_id: "svc", client_secret: "hunter2" }, { issuer: "https://trusted.example", client_id: "svc", private_key: key }]) {
    await assert.rejects(clientCredentialsGrant(credentials)(context(as)), (error: unknown) =>
      error instanceof GrantError && /^client credentials grant: the client "svc" is registered at https:\/\/trusted\.example, not at http:\/\/127\.0\.0\.1:\d+ /.test(error.message) && !error.message.includes("hunter2"));
  }
  assert.equal(as.requests.length, 0);
});
