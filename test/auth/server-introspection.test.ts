// Opaque access tokens checked by asking the issuer (RFC 7662), against the test authorization
// server over loopback: an active token for us passes with its scopes; inactive (revoked,
// expired, unknown), for another audience, without an audience, or from another issuer is refused
// (TokenRejectedError: a 401); our own credentials refused, or no introspection endpoint, is our
// failure (a 503), and discovery is tried again; an absurd token is never sent on; the endpoint
// must be https or on this machine. Made-up tokens do not become a flood of POSTs: the POSTs under
// way are bounded (IntrospectionBusyError, a 503 with Retry-After) and an inactive token is refused
// unasked for a while (a bounded cache). Through the resource server: opaque tokens go to
// introspection, JWTs to their signature; a token naming neither sub nor client_id owns its session alone.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { IntrospectionBusyError, introspectionVerifier, type IntrospectionOptions } from "../../src/auth/introspection.js";
import { TokenRejectedError, type VerifiedToken } from "../../src/auth/jwt-verify.js";
import { AuthMetadataError } from "../../src/auth/metadata.js";
import { OAuthError } from "../../src/auth/token-endpoint.js";
import { ResourceServer, type Granted } from "../../src/auth/resource-server.js";
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

const requestWith = (token: string): HttpRequest => ({
  method: "POST", path: "/mcp", query: () => null, header: (name) => (name === "authorization" ? `Bearer ${token}` : null),
  body: async () => new Uint8Array(0), onClientGone: () => {},
});
const introspections = () => as.requests.filter((r) => r.path === "/introspect").length;

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


test("introspection: a token naming neither sub nor client_id owns its session alone (the owner is the token's hash)", async () => {
  const server = new ResourceServer({ issuer: as.issuer, resource: RESOURCE, introspection: CLIENT });
  const ownerOf = async (token: string) => ((await server.authorize(requestWith(token))) as Granted).owner;
  const nobody = () => as.opaque({ audience: RESOURCE, claims: { sub: undefined, client_id: undefined } });
  const [first, second] = [nobody(), nobody()];
  assert.notEqual(await ownerOf(first), await ownerOf(second));
  assert.equal(await ownerOf(first), await ownerOf(first), "the same token, the same owner");
  assert.ok(!(await ownerOf(first)).includes(first), "the owner does not hold the token");
  // A client's token without a person: the client, whichever of its tokens; a person: the person.
  const machine = (clientId: string) => as.opaque({ audience: RESOURCE, claims: { sub: undefined, client_id: clientId } });
  assert.equal(await ownerOf(machine("robot-1")), await ownerOf(machine("robot-1")));
  assert.notEqual(await ownerOf(machine("robot-1")), await ownerOf(machine("robot-2")));
  assert.equal(await ownerOf(as.opaque({ audience: RESOURCE, claims: { sub: "alice", client_id: "a" } })), await ownerOf(as.opaque({ audience: RESOURCE, claims: { sub: "alice", client_id: "b" } })));
});

test("introspection: an endpoint that is neither https nor on this machine is refused, configured or discovered", async () => {
  for (const endpoint of ["http://as.example/introspect", "http://198.51.100.7/introspect", "javascript:alert(1)"]) {
    assert.throws(() => introspectionVerifier({ ...CLIENT, endpoint }, { issuer: as.issuer }), /introspection endpoint .* must be https \(or http to this machine\)/);
  }
  const endpoint = as.metadata.introspection_endpoint;
  as.metadata.introspection_endpoint = "http://198.51.100.7/introspect";
  const asked: string[] = [];
  const check = introspectionVerifier({ ...CLIENT, fetchOptions: { fetch: async (url, init) => (asked.push(String(url)), fetch(url, init)) } }, { issuer: as.issuer });
  try {
    await assert.rejects(check(as.opaque({ audience: RESOURCE }), RESOURCE), (error: Error) => error instanceof AuthMetadataError && /"introspection_endpoint" must be an http\(s\) URL, and https unless it is on this machine/.test(error.message));
  } finally {
    as.metadata.introspection_endpoint = endpoint;
  }
  assert.ok(asked.every((url) => !url.includes("198.51.100.7")), "the secret is never sent there");
});

/** A verifier whose introspection POSTs wait until `release` is called; those after it go at once. */
function heldVerifier(options: Partial<IntrospectionOptions>) {
  const held: (() => void)[] = [];
  let holding = true;
  const fetchHeld: typeof fetch = async (url, init) => {
    if (holding && String(url).endsWith("/introspect")) await new Promise<void>((resolve) => held.push(resolve));
    return fetch(url, init);
  };
  const check = introspectionVerifier({ ...CLIENT, endpoint: String(as.metadata.introspection_endpoint), fetchOptions: { fetch: fetchHeld }, ...options }, { issuer: as.issuer });
  const release = () => {
    holding = false;
    held.splice(0).forEach((resolve) => resolve());
  };
  return { check, release, held: () => held.length };
}

test("introspection: past maxConcurrent requests under way, a token is not sent on: IntrospectionBusyError, until one finishes", async () => {
  const { check, release, held } = heldVerifier({ maxConcurrent: 2 });
  const waiting = [check(as.opaque({ audience: RESOURCE, scope: "a" }), RESOURCE), check(as.opaque({ audience: RESOURCE, scope: "b" }), RESOURCE)];
  while (held() < 2) await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(check(as.opaque({ audience: RESOURCE }), RESOURCE), (error: Error) => error instanceof IntrospectionBusyError && /2 requests are already under way/.test(error.message));
  assert.equal(held(), 2, "the third was not sent");
  release();
  assert.deepEqual((await Promise.all(waiting)).map((v) => v.scopes), [["a"], ["b"]]);
  assert.deepEqual((await check(as.opaque({ audience: RESOURCE, scope: "c" }), RESOURCE)).scopes, ["c"]);
});

test("introspection: busy, through the resource server, is a 503 with Retry-After (our side, not the token)", async () => {
  const verifier = heldVerifier({ maxConcurrent: 1 });
  const server = new ResourceServer({ issuer: as.issuer, resource: RESOURCE, verifier: verifier.check });
  const first = server.authorize(requestWith(as.opaque({ audience: RESOURCE })));
  while (verifier.held() < 1) await new Promise((resolve) => setImmediate(resolve));
  const busy = (await server.authorize(requestWith(as.opaque({ audience: RESOURCE })))) as HttpAnswer;
  assert.equal(busy.status, 503);
  assert.equal(busy.headers["retry-after"], "1");
  assert.match(busy.body ?? "", /too many tokens are being checked at once/);
  verifier.release();
  assert.ok(!((await first) instanceof HttpAnswer));
});

test("introspection: a token the issuer called inactive is refused unasked until negativeCacheMs passes; active answers are never kept", async () => {
  let now = 1_000_000;
  const check = introspectionVerifier({ ...CLIENT, negativeCacheMs: 5000 }, { issuer: as.issuer, now: () => now });
  await assert.rejects(check("made-up-token-1", RESOURCE), /not active/);
  const asked = introspections();
  for (let i = 0; i < 5; i++) await assert.rejects(check("made-up-token-1", RESOURCE), (error: Error) => error instanceof TokenRejectedError && /not active/.test(error.reason));
  assert.equal(introspections(), asked, "asked once, not six times");
  now += 5000;
  await assert.rejects(check("made-up-token-1", RESOURCE), /not active/);
  assert.equal(introspections(), asked + 1, "asked again once the entry is old");
  // An active token is asked about every time: revoked, it is refused at once.
  const live = as.opaque({ audience: RESOURCE, expiresIn: 3600 });
  const claimsNow = () => check(live, RESOURCE);
  now = Date.now();
  await claimsNow();
  as.revoke(live);
  await assert.rejects(claimsNow(), /not active/);
});

test("introspection: the cache of inactive tokens holds at most negativeCacheEntries, the oldest forgotten first", async () => {
  const check = introspectionVerifier({ ...CLIENT, negativeCacheEntries: 2 }, { issuer: as.issuer });
  for (const token of ["gone-1", "gone-2", "gone-3"]) await assert.rejects(check(token, RESOURCE), /not active/);
  const asked = introspections();
  await assert.rejects(check("gone-3", RESOURCE), /not active/);
  await assert.rejects(check("gone-2", RESOURCE), /not active/);
  assert.equal(introspections(), asked, "the two newest are remembered");
  await assert.rejects(check("gone-1", RESOURCE), /not active/);
  assert.equal(introspections(), asked + 1, "the oldest was forgotten");
  const never = introspectionVerifier({ ...CLIENT, negativeCacheMs: 0 }, { issuer: as.issuer });
  await assert.rejects(never("gone-4", RESOURCE), /not active/);
  await assert.rejects(never("gone-4", RESOURCE), /not active/);
  assert.equal(introspections(), asked + 3, "negativeCacheMs 0: never kept");
});
