import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, verify } from "node:crypto";
import { enterpriseGrant, type EnterpriseGrantOptions } from "../../src/auth/grant-enterprise.js";
import type { GrantContext } from "../../src/auth/grant.js";
import { AuthFetchError } from "../../src/auth/fetch-json.js";
import { JwtSignError } from "../../src/auth/jwt-sign.js";
import { GrantError } from "../../src/auth/grant-client-credentials.js";
import { OAuthError } from "../../src/auth/token-endpoint.js";
import { basicCredentials, decodeJwt, tokenEndpointStub, type RecordedRequest, type StubAnswer, type TokenEndpointStub } from "../helpers/token-endpoint-stub.js";

const RESOURCE = "https://mcp.example/mcp";
const ID_TOKEN = "eyJ.id-token-of-the-person.sig";
const ID_JAG = "eyJ.the-id-jag.sig";
const EXCHANGED: StubAnswer = { json: { access_token: ID_JAG, issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A", expires_in: 300 } };
const ISSUED: StubAnswer = { json: { access_token: "mcp-at", token_type: "Bearer", scope: "mcp:read" } };

/** One loopback server playing both the IdP (/idp/token) and the MCP server's authorization server (/as/token). */
async function servers(t: { after(fn: () => unknown): void }, answers: { idp?: (r: RecordedRequest) => StubAnswer; as?: (r: RecordedRequest) => StubAnswer } = {}): Promise<TokenEndpointStub> {
  const stub = await tokenEndpointStub((request) => request.path === "/idp/token" ? (answers.idp ?? (() => EXCHANGED))(request) : (answers.as ?? (() => ISSUED))(request));
  t.after(() => stub.close());
  return stub;
}

function context(stub: TokenEndpointStub): GrantContext {
  const issuer = `${stub.url}/as`;
  return { resource: RESOURCE, issuer, metadata: { issuer, token_endpoint: `${stub.url}/as/token` }, scope: "mcp:read", fetchOptions: {} };
}

function options(stub: TokenEndpointStub, more: Partial<EnterpriseGrantOptions> = {}): EnterpriseGrantOptions {
  return {
    idpTokenEndpoint: `${stub.url}/idp/token`,
    subjectToken: ID_TOKEN,
    idpClient: { client_id: "app-at-idp" },
    client: { issuer: `${stub.url}/as`, client_id: "app-at-as", client_secret: "as-secret" },
    ...more,
  };
}

test("the ID token becomes an ID-JAG at the IdP (RFC 8693), the ID-JAG an access token at the authorization server (RFC 7523)", async (t) => {
  const stub = await servers(t);
  const tokens = await enterpriseGrant(options(stub))(context(stub));
  assert.deepEqual(tokens, { access_token: "mcp-at", token_type: "Bearer", scope: "mcp:read" });
  const [exchange, bearer] = stub.requests;
  assert.equal(exchange?.path, "/idp/token");
  assert.deepEqual(Object.fromEntries(exchange!.form), {
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: `${stub.url}/as`,
    resource: RESOURCE,
    scope: "mcp:read",
    subject_token: ID_TOKEN,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    client_id: "app-at-idp",
  });
  assert.equal(exchange!.headers.authorization, undefined, "no secret at the IdP: the client only names itself");
  assert.equal(bearer?.path, "/as/token");
  assert.deepEqual(Object.fromEntries(bearer!.form), { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: ID_JAG, resource: RESOURCE, scope: "mcp:read" });
  assert.deepEqual(basicCredentials(bearer!), { id: "app-at-as", secret: "as-secret" }, "the client authenticates as registered at the authorization server");
});

test("the subject token may be a function, asked at each grant; a secret at the IdP is sent as configured", async (t) => {
  const stub = await servers(t);
  let asked = 0;
  const grant = enterpriseGrant(options(stub, { subjectToken: async () => `id-token-${++asked}`, idpClient: { client_id: "app-at-idp", client_secret: "idp-secret", method: "client_secret_post" } }));
  await grant(context(stub));
  await grant(context(stub));
  const exchanges = stub.requests.filter((request) => request.path === "/idp/token");
  assert.deepEqual(exchanges.map((request) => request.form.get("subject_token")), ["id-token-1", "id-token-2"]);
  assert.equal(exchanges[0]?.form.get("client_secret"), "idp-secret");
  assert.equal(exchanges[0]?.headers.authorization, undefined);
  const basic = await servers(t);
  await enterpriseGrant(options(basic, { idpClient: { client_id: "app-at-idp", client_secret: "idp-secret" } }))(context(basic));
  assert.deepEqual(basicCredentials(basic.requests[0]!), { id: "app-at-idp", secret: "idp-secret" }, "client_secret_basic by default");
});

test("private_key_jwt at the authorization server: the assertion is signed, for the issuer, beside the ID-JAG", async (t) => {
  const stub = await servers(t);
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  await enterpriseGrant(options(stub, { client: { issuer: `${stub.url}/as`, client_id: "app-at-as", private_key: privateKey.export({ format: "jwk" }) } }))(context(stub));
  const bearer = stub.requests[1]!;
  assert.equal(bearer.form.get("assertion"), ID_JAG);
  const { claims, input, signature } = decodeJwt(bearer.form.get("client_assertion") ?? "");
  assert.ok(verify("sha256", input, { key: publicKey, dsaEncoding: "ieee-p1363" }, signature));
  assert.equal(claims.aud, `${stub.url}/as`);
  assert.equal(claims.sub, "app-at-as");
});

test("the IdP's refusal stops the grant before the authorization server, with no token in the message", async (t) => {
  const stub = await servers(t, { idp: () => ({ status: 400, json: { error: "invalid_grant", error_description: "Audience validation failed" } }) });
  await assert.rejects(enterpriseGrant(options(stub))(context(stub)), (error: unknown) => {
    assert.ok(error instanceof OAuthError);
    assert.equal(error.error, "invalid_grant");
    assert.match(error.message, /^token exchange at the identity provider: the authorization server answered 400 invalid_grant: Audience validation failed$/);
    assert.doesNotMatch(error.message, /id-token-of-the-person/);
    return true;
  });
  assert.deepEqual(stub.requests.map((request) => request.path), ["/idp/token"]);
});

test("an exchange answer that is not an ID-JAG is refused", async (t) => {
  const cases: { name: string; json: unknown; message: RegExp }[] = [
    { name: "another token type", json: { access_token: "x", issued_token_type: "urn:ietf:params:oauth:token-type:access_token", token_type: "Bearer" }, message: /the issued token type is "urn:ietf:params:oauth:token-type:access_token", not urn:ietf:params:oauth:token-type:id-jag/ },
    { name: "no access_token", json: { issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A" }, message: /has no "access_token"/ },
    { name: "not an object", json: ["id-jag"], message: /not a JSON object/ },
  ];
  for (const c of cases) {
    const stub = await servers(t, { idp: () => ({ json: c.json }) });
    await assert.rejects(enterpriseGrant(options(stub))(context(stub)), (error: unknown) => {
      assert.ok(error instanceof AuthFetchError, c.name);
      assert.match(error.message, /^token exchange at the identity provider: /, c.name);
      assert.match(error.message, c.message, c.name);
      return true;
    });
    assert.equal(stub.requests.length, 1, c.name);
  }
});

test("the authorization server's refusal of the ID-JAG names the jwt bearer step", async (t) => {
  const stub = await servers(t, { as: () => ({ status: 400, json: { error: "invalid_grant", error_description: "ID-JAG client_id does not match" } }) });
  await assert.rejects(enterpriseGrant(options(stub))(context(stub)), (error: unknown) => error instanceof OAuthError && /^jwt bearer grant: the authorization server answered 400 invalid_grant/.test(error.message) && !/as-secret|the-id-jag/.test(error.message));
});

test("a bad private key or IdP endpoint is refused when the grant is configured", () => {
  assert.throws(() => enterpriseGrant({ idpTokenEndpoint: "file:///etc/passwd", subjectToken: ID_TOKEN, idpClient: { client_id: "a" }, client: { issuer: "https://as.example", client_id: "b", client_secret: "c" } }),
    (error: unknown) => error instanceof GrantError && /^token exchange at the identity provider: the IdP token endpoint "file:\/\/\/etc\/passwd" is not https \(or http to this machine\)$/.test(error.message));
  // The ID token would travel over plain http to another machine.
  assert.throws(() => enterpriseGrant({ idpTokenEndpoint: "http://idp.example/token", subjectToken: ID_TOKEN, idpClient: { client_id: "a" }, client: { issuer: "https://as.example", client_id: "b", client_secret: "c" } }),
    (error: unknown) => error instanceof GrantError && /is not https \(or http to this machine\)$/.test(error.message));
  assert.throws(() => enterpriseGrant({ idpTokenEndpoint: "https://idp.example/token", subjectToken: ID_TOKEN, idpClient: { client_id: "a" }, client: { issuer: "https://as.example", client_id: "b", private_key: "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----" } }), JwtSignError);
});

test("the client at the authorization server is presented only to the issuer it is registered at: the IdP is not even asked", async (t) => {
  const stub = await servers(t);
  const grant = enterpriseGrant(options(stub, { client: { issuer: "https://trusted.example", client_id: "app-at-as", client_secret: "as-secret" } }));
  await assert.rejects(grant(context(stub)), (error: unknown) =>
    error instanceof GrantError && /registered at https:\/\/trusted\.example, not at http:\/\/127\.0\.0\.1:\d+\/as/.test(error.message) && !error.message.includes("as-secret"));
  assert.equal(stub.requests.length, 0);
});
