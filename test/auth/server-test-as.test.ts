// The test authorization server (test/helpers/auth-server.ts) does what the client tests will
// rely on: RFC 8414 metadata, Dynamic Client Registration, /authorize redirecting at once with
// code, state and iss (or refusing an unregistered redirect URI without redirecting), /token
// checking PKCE S256, redirect_uri, client and resource, refresh tokens rotated, client
// credentials for confidential clients, and tokenOverrides and authorizeMode making its tokens and
// redirects bad on purpose.
// Its tokens are checked here with the resource server's own verifier.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { defaultVerifier } from "../../src/auth/resource-server.js";
import { basicAuthorization } from "../../src/auth/token-endpoint.js";
import { startAuthServer, type TestAuthServer } from "../helpers/auth-server.js";

const RESOURCE = "http://127.0.0.1:9/mcp";
const REDIRECT = "http://127.0.0.1:9/callback";
let as: TestAuthServer;

before(async () => {
  as = await startAuthServer({ issuerPath: "/tenant" });
});
after(() => as.close());

async function register(body: object): Promise<{ client_id: string; client_secret?: string }> {
  const response = await fetch(as.metadata.registration_endpoint as string, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(response.status, 201);
  return (await response.json()) as { client_id: string; client_secret?: string };
}

/** /authorize with PKCE; the redirect's parameters and the verifier. */
async function authorize(clientId: string, extra: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(as.metadata.authorization_endpoint as string);
  const query = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, state: "st", resource: RESOURCE, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256", ...extra };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await fetch(url, { redirect: "manual" });
  return { status: response.status, location: response.headers.get("location"), verifier };
}

async function token(form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(as.metadata.token_endpoint as string, { method: "POST", headers, body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

test("test AS: metadata at the path-inserted URL, with what MCP clients need", async () => {
  const metadata = (await (await fetch(`${as.origin}/.well-known/oauth-authorization-server/tenant`)).json()) as Record<string, unknown>;
  assert.equal(metadata.issuer, as.issuer);
  assert.deepEqual(metadata.code_challenge_methods_supported, ["S256"]);
  assert.equal(metadata.authorization_response_iss_parameter_supported, true);
  for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint", "jwks_uri", "introspection_endpoint"]) assert.ok(String(metadata[field]).startsWith(as.issuer), field);
});

test("test AS: register, authorize, exchange the code with PKCE, refresh (rotated); the tokens verify", async () => {
  const client = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "t" });
  assert.equal(client.client_secret, undefined, "a public client gets no secret");
  const { status, location, verifier } = await authorize(client.client_id, { scope: "mcp:read" });
  assert.equal(status, 302);
  const back = new URL(location!);
  assert.deepEqual([back.origin + back.pathname, back.searchParams.get("state"), back.searchParams.get("iss")], [REDIRECT, "st", as.issuer]);
  const code = back.searchParams.get("code")!;
  const exchange = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: verifier, resource: RESOURCE };
  const first = await token(exchange);
  assert.equal(first.status, 200);
  assert.deepEqual([first.body.token_type, first.body.scope], ["Bearer", "mcp:read"]);
  const verify = defaultVerifier({ issuer: as.issuer });
  assert.deepEqual((await verify(first.body.access_token!, RESOURCE)).scopes, ["mcp:read"]);
  assert.equal((await token(exchange)).body.error, "invalid_grant", "a code is used once");
  const refreshed = await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token!, client_id: client.client_id });
  assert.equal(refreshed.status, 200);
  assert.notEqual(refreshed.body.refresh_token, first.body.refresh_token);
  assert.equal((await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token!, client_id: client.client_id })).body.error, "invalid_grant", "the old refresh token is spent");
  assert.equal((await verify(refreshed.body.access_token!, RESOURCE)).claims.client_id, client.client_id);
});

test("test AS: a wrong verifier, redirect_uri or resource is refused at /token", async () => {
  const client = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
  const cases: [Record<string, string>, string][] = [
    [{ code_verifier: "wrong" }, "invalid_grant"],
    [{ redirect_uri: "http://127.0.0.1:9/other" }, "invalid_grant"],
    [{ resource: "http://127.0.0.1:9/elsewhere" }, "invalid_target"],
  ];
  for (const [change, error] of cases) {
    const { location, verifier } = await authorize(client.client_id);
    const code = new URL(location!).searchParams.get("code")!;
    const answer = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: verifier, resource: RESOURCE, ...change });
    assert.equal(answer.body.error, error, JSON.stringify(change));
  }
});

test("test AS: an unregistered redirect URI is never redirected to; a missing PKCE challenge is an error redirect", async () => {
  const client = await register({ redirect_uris: [REDIRECT] });
  const refused = await authorize(client.client_id, { redirect_uri: "http://evil.example/cb" });
  assert.deepEqual([refused.status, refused.location], [400, null]);
  const noPkce = await authorize(client.client_id, { code_challenge_method: "plain" });
  assert.equal(new URL(noPkce.location!).searchParams.get("error"), "invalid_request");
});

test("test AS: authorizeMode spoils the redirect in one way each", async () => {
  const client = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
  const seen: Record<string, (string | null)[]> = {};
  for (const mode of ["no-code", "wrong-state", "wrong-iss", "no-iss"] as const) {
    as.authorizeMode = mode;
    const back = new URL((await authorize(client.client_id)).location!).searchParams;
    seen[mode] = [back.get("code") === null ? null : "code", back.get("state"), back.get("iss")];
  }
  as.authorizeMode = "normal";
  assert.deepEqual(seen, {
    "no-code": [null, "st", as.issuer],
    "wrong-state": ["code", "forged-state", as.issuer],
    "wrong-iss": ["code", "st", "https://evil.example"],
    "no-iss": ["code", "st", null],
  });
});

test("test AS: client credentials for a confidential client (basic or post); a public client may not; tokenOverrides spoil tokens", async () => {
  const client = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" });
  const form = { grant_type: "client_credentials", resource: RESOURCE, scope: "mcp:write" };
  const basic = await token(form, { authorization: basicAuthorization(client.client_id, client.client_secret!) });
  assert.equal(basic.status, 200);
  assert.equal(basic.body.refresh_token, undefined);
  assert.equal((await token({ ...form, client_id: client.client_id, client_secret: client.client_secret! })).status, 200);
  assert.equal((await token({ ...form, client_id: client.client_id, client_secret: "wrong" })).status, 401);
  const publicClient = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
  assert.equal((await token({ ...form, client_id: publicClient.client_id })).body.error, "unauthorized_client");
  as.tokenOverrides = { expiresIn: -600 };
  try {
    const spoiled = await token(form, { authorization: basicAuthorization(client.client_id, client.client_secret!) });
    await assert.rejects(defaultVerifier({ issuer: as.issuer })(spoiled.body.access_token!, RESOURCE), /expired/);
  } finally {
    as.tokenOverrides = undefined;
  }
});
