// The ResourceServer's own checks, without a network: its configuration is refused at construction
// when it could not be served safely (an issuer that is neither https nor on this machine; scopes
// that are not RFC 6749 scope-tokens, which would break the WWW-Authenticate header; a resource
// with a fragment, spaces or control characters), and the resource is kept as parsed. A token that
// trips up the check in any way is a 401, never a 503: only the issuer's side failing is a 503.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
import { test } from "node:test";
import assert from "node:assert/strict";
import { AuthFetchError } from "../../src/auth/fetch-json.js";
import { ResourceServer, type AuthorizationOptions, type TokenVerifier } from "../../src/auth/resource-server.js";
import { HttpAnswer, type HttpRequest } from "../../src/http/exchange.js";

const ISSUER = "https://as.example";
const RESOURCE = "https://mcp.example/mcp";
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

const requestWith = (token: string): HttpRequest => ({
  method: "POST", path: "/mcp", query: () => null, header: (name) => (name === "authorization" ? `Bearer ${token}` : null),
  body: async () => new Uint8Array(0), onClientGone: () => {},
});

const build = (options: Partial<AuthorizationOptions>) => () => new ResourceServer({ issuer: ISSUER, resource: RESOURCE, ...options });

test("resource server: an issuer that is neither https nor on this machine is refused at construction", () => {
  for (const issuer of ["http://as.example", "http://198.51.100.7/", "http://127.0.0.1.evil.example", "ftp://127.0.0.1/", "https://as.example\r\n", "https://as .example", "not a url"]) {
    assert.throws(build({ issuer }), /the issuer .* must be an https URL \(or http to this machine\)/, issuer);
  }
  for (const issuer of ["https://as.example", "https://as.example/tenant/1", "http://127.0.0.1:9000", "http://localhost:9000", "http://[::1]:9000"]) {
    assert.doesNotThrow(build({ issuer }), issuer);
  }
});

test("resource server: scopes must be RFC 6749 scope-tokens (no CR/LF, no spaces inside one, no quote, no backslash)", () => {
  for (const scope of ["a\r\nX-Injected: 1", "two words", 'a"b', "a\\b", "", "tab\there", "caf\u00e9"]) {
    assert.throws(build({ scopes: ["mcp:read", scope] }), /is not an RFC 6749 scope-token/, JSON.stringify(scope));
  }
  assert.doesNotThrow(build({ scopes: ["mcp:read", "mcp:write", "https://mcp.example/scope!#$%&'()*+,-./:;<=>?@[]^_`{|}~"] }));
});

test("resource server: a resource with a fragment, spaces or control characters is refused, at construction and as the default", () => {
  for (const resource of ["https://mcp.example/mcp#x", "https://mcp.example/mc\r\np", "https://mcp.example/mcp\nX-I: 1", "https://mcp.example/m\tcp", " https://mcp.example/mcp", "https://mcp.example/m cp", "ftp://mcp.example/mcp", "mcp"]) {
    assert.throws(build({ resource }), /must be an http\(s\) URL without a fragment, spaces or control characters/, JSON.stringify(resource));
  }
  const server = new ResourceServer({ issuer: ISSUER });
  assert.throws(() => server.useDefaultResource("http://127.0.0.1:3000/mcp\r\n"), /control characters/);
  assert.equal(server.resource, undefined);
});

test("resource server: the resource is kept as parsed, so what is published and challenged with is what was checked", () => {
  const server = build({ resource: "HTTPS://MCP.Example:443/mcp" })();
  assert.equal(server.resource, "https://mcp.example/mcp");
  assert.equal(server.document?.resource, "https://mcp.example/mcp");
  assert.equal(server.metadataUrl, "https://mcp.example/.well-known/oauth-protected-resource/mcp");
});

test("resource server: a JWT whose typ is an object is a 401 invalid_token, not a 503 (nothing of the issuer's is fetched)", async () => {
  const problems: string[] = [];
  const server = new ResourceServer({ issuer: ISSUER, resource: RESOURCE, jwks: { fetchOptions: { fetch: async () => assert.fail("no fetch for a token refused by its header") } } }, (p) => problems.push(p));
  for (const typ of [{ toString: 1, valueOf: 1 }, ["at+jwt"], 7]) {
    const refusal = await server.authorize(requestWith(`${b64({ alg: "RS256", typ })}.${b64({ sub: "x" })}.AAAA`));
    assert.ok(refusal instanceof HttpAnswer);
    assert.equal(refusal.status, 401, JSON.stringify(typ));
    assert.match(refusal.headers["www-authenticate"] ?? "", /error="invalid_token", error_description="the access token was refused: its type \(typ\) is not a string"/);
  }
  assert.deepEqual(problems, []);
});

test("resource server: any error from checking a token is a 401 (reported, the token not in it); only the issuer's side failing is a 503", async () => {
  const problems: string[] = [];
  let failure: unknown;
  const verifier: TokenVerifier = async () => {
    throw failure;
  };
  const server = new ResourceServer({ issuer: ISSUER, resource: RESOURCE, verifier }, (p) => problems.push(p));
  for (const thrown of [new TypeError("Cannot convert object to primitive value"), new RangeError("Maximum call stack size exceeded"), "a string"]) {
    failure = thrown;
    const refusal = (await server.authorize(requestWith("opaque-token-123"))) as HttpAnswer;
    assert.equal(refusal.status, 401);
    assert.match(refusal.headers["www-authenticate"] ?? "", /error="invalid_token", error_description="the access token was refused: it could not be read"/);
  }
  assert.equal(problems.length, 3);
  assert.match(problems[0]!, /could not check a token: Cannot convert object to primitive value/);
  assert.ok(problems.every((p) => !p.includes("opaque-token-123")));
  failure = new AuthFetchError("jwks", "https://as.example/keys", "no answer in time");
  const unavailable = (await server.authorize(requestWith("opaque-token-123"))) as HttpAnswer;
  assert.equal(unavailable.status, 503);
  assert.equal(unavailable.headers["retry-after"], "30");
});

test("resource server: a failure given again for every token (the issuer's keys, in their cooldown) is reported once, and in part", async () => {
  const problems: string[] = [];
  // Jwks gives the same error object again while its cooldown lasts: each request would report it anew.
  const failure = new AuthFetchError("jwks", `https://as.example/${"k".repeat(200_000)}`, "no answer in time");
  const verifier: TokenVerifier = async () => {
    throw failure;
  };
  const server = new ResourceServer({ issuer: ISSUER, resource: RESOURCE, verifier }, (p) => problems.push(p));
  for (let i = 0; i < 5; i++) assert.equal(((await server.authorize(requestWith(`opaque-token-${i}`))) as HttpAnswer).status, 503);
  assert.equal(problems.length, 1);
  assert.ok(problems[0]!.length < 2000, `${problems[0]!.length} characters`);
  assert.match(problems[0]!, /could not check a token: jwks: https:\/\/as\.example\/kkk.*no answer in time/);
});
