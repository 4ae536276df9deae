// The resource server's JWT checks, one rule per case: only RS256, ES256 and EdDSA, each with its
// own kind of key (no alg none, no HMAC, no ES256 in DER), a bounded size, no unknown critical
// header, an access token's type; then iss, aud (RFC 8707: a string or an array naming us),
// exp (required) and nbf within the clock skew, and the scopes granted. Tokens from the test
// authorization server's signing code; no token text ever appears in a reason.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { checkClaims, checkSignature, decodeJws, scopesOf, TokenRejectedError, type JwtAlgorithm } from "../../src/auth/jwt-verify.js";

const ISSUER = "https://as.example";
const RESOURCE = "https://mcp.example/mcp";
const NOW = 1_800_000_000;
const keys = {
  RS256: generateKeyPairSync("rsa", { modulusLength: 2048 }),
  ES256: generateKeyPairSync("ec", { namedCurve: "P-256" }),
  EdDSA: generateKeyPairSync("ed25519"),
};
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function jws(header: Record<string, unknown>, payload: Record<string, unknown> = {}, alg: JwtAlgorithm = "RS256", dsaEncoding: "ieee-p1363" | "der" = "ieee-p1363"): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const key = keys[alg].privateKey;
  const signature = alg === "EdDSA" ? sign(null, Buffer.from(input), key) : sign("sha256", Buffer.from(input), alg === "ES256" ? { key, dsaEncoding } : key);
  return `${input}.${signature.toString("base64url")}`;
}

/** decodeJws then checkSignature with `key`: the reason of the refusal, or "ok". */
function judge(token: string, key: KeyObject): string {
  try {
    checkSignature(decodeJws(token), key);
    return "ok";
  } catch (error) {
    assert.ok(error instanceof TokenRejectedError, String(error));
    const signature = token.split(".")[2] ?? "";
    assert.ok(signature === "" || !error.reason.includes(signature), "a reason never holds the token");
    return error.reason;
  }
}

for (const alg of ["RS256", "ES256", "EdDSA"] as const) {
  test(`jwt: ${alg} signed with the published key passes`, () => {
    assert.equal(judge(jws({ alg, kid: "k" }, { sub: "x" }, alg), keys[alg].publicKey), "ok");
  });
}

const refused: { name: string; token: () => string; key: KeyObject; reason: RegExp }[] = [
  { name: "alg none (unsigned)", token: () => `${b64({ alg: "none" })}.${b64({ sub: "x" })}.`, key: keys.RS256.publicKey, reason: /algorithm none is not accepted/ },
  { name: "HS256 with the public key as the secret", token: () => `${b64({ alg: "HS256" })}.${b64({})}.AAAA`, key: keys.RS256.publicKey, reason: /algorithm HS256 is not accepted/ },
  { name: "RS256 header, EC key", token: () => jws({ alg: "RS256" }), key: keys.ES256.publicKey, reason: /does not match the type of its key/ },
  { name: "ES256 header, RSA key", token: () => jws({ alg: "ES256" }, {}, "ES256"), key: keys.RS256.publicKey, reason: /does not match/ },
  { name: "EdDSA header, EC key", token: () => jws({ alg: "EdDSA" }, {}, "EdDSA"), key: keys.ES256.publicKey, reason: /does not match/ },
  { name: "ES256 signature in DER, not r||s", token: () => jws({ alg: "ES256" }, {}, "ES256", "der"), key: keys.ES256.publicKey, reason: /signature is not valid/ },
  { name: "signature of another payload", token: () => { const a = jws({ alg: "RS256" }, { sub: "a" }); const b = jws({ alg: "RS256" }, { sub: "b" }); return a.slice(0, a.lastIndexOf(".")) + b.slice(b.lastIndexOf(".")); }, key: keys.RS256.publicKey, reason: /signature is not valid/ },
  { name: "signed by another key", token: () => jws({ alg: "RS256" }), key: generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey, reason: /signature is not valid/ },
  { name: "two parts", token: () => `${b64({ alg: "RS256" })}.${b64({})}`, key: keys.RS256.publicKey, reason: /not a compact JWS/ },
  { name: "a part that is not base64url", token: () => `${b64({ alg: "RS256" })}.${b64({})}.a+b/c=`, key: keys.RS256.publicKey, reason: /not a compact JWS/ },
  { name: "a header that is not JSON", token: () => `${Buffer.from("{alg").toString("base64url")}.${b64({})}.AA`, key: keys.RS256.publicKey, reason: /header is not JSON/ },
  { name: "a payload that is an array", token: () => `${b64({ alg: "RS256" })}.${b64([1])}.AA`, key: keys.RS256.publicKey, reason: /payload is not a JSON object/ },
  { name: "a critical extension", token: () => jws({ alg: "RS256", crit: ["exp"] }), key: keys.RS256.publicKey, reason: /critical extensions/ },
  { name: "an ID token's type", token: () => jws({ alg: "RS256", typ: "id_token+jwt" }), key: keys.RS256.publicKey, reason: /type id_token\+jwt is not an access token/ },
  { name: "a typ that is an object", token: () => jws({ alg: "RS256", typ: { a: 1 } }), key: keys.RS256.publicKey, reason: /its type \(typ\) is not a string/ },
  { name: "a typ that is an object with no way to become a string", token: () => jws({ alg: "RS256", typ: { toString: 1, valueOf: 1 } }), key: keys.RS256.publicKey, reason: /its type \(typ\) is not a string/ },
  { name: "a typ that is a number", token: () => jws({ alg: "RS256", typ: 7 }), key: keys.RS256.publicKey, reason: /its type \(typ\) is not a string/ },
  { name: "a kid that is a number", token: () => jws({ alg: "RS256", kid: 7 }), key: keys.RS256.publicKey, reason: /kid is not a string/ },
  { name: "a token of absurd size", token: () => `${b64({ alg: "RS256" })}.${b64({ pad: "x".repeat(20_000) })}.AA`, key: keys.RS256.publicKey, reason: /longer than 8192 characters/ },
];
for (const c of refused) {
  test(`jwt: refused: ${c.name}`, () => {
    assert.match(judge(c.token(), c.key), c.reason);
  });
}

test("jwt: the size bound is an option, checked before anything is decoded", () => {
  assert.throws(() => decodeJws("a.b.c", 4), /longer than 4 characters/);
  assert.throws(() => decodeJws("a.b.c", 5), /header is not JSON/);
});

test("jwt: an attacker's alg value is rendered short and without quotes in the reason", () => {
  assert.throws(() => decodeJws(`${b64({ alg: 'x", error="evil' + "y".repeat(100) })}.${b64({})}.AA`), (error: TokenRejectedError) => {
    assert.ok(!error.reason.includes('"'));
    assert.ok(error.reason.length < 80);
    return true;
  });
});

const good = { iss: ISSUER, aud: RESOURCE, exp: NOW + 300, scope: "mcp:read mcp:write", sub: "alice", client_id: "c1" };
const claimCases: { name: string; claims: Record<string, unknown>; reason?: RegExp }[] = [
  { name: "all good", claims: good },
  { name: "aud an array naming us among others", claims: { ...good, aud: ["https://other.example", RESOURCE] } },
  { name: "aud with one trailing slash more (another path: sameResource drops a slash only on an empty path)", claims: { ...good, aud: RESOURCE + "/" }, reason: /audience is not this server/ },
  { name: "aud of another path on our origin", claims: { ...good, aud: "https://mcp.example/other" }, reason: /audience/ },
  { name: "aud of another server", claims: { ...good, aud: "https://other.example/mcp" }, reason: /audience is not this server/ },
  { name: "no aud", claims: { ...good, aud: undefined }, reason: /audience/ },
  { name: "aud an array without us", claims: { ...good, aud: ["https://other.example"] }, reason: /audience/ },
  { name: "another issuer", claims: { ...good, iss: "https://evil.example" }, reason: /not issued by this server's authorization server/ },
  { name: "no exp", claims: { ...good, exp: undefined }, reason: /no expiry/ },
  { name: "exp a string", claims: { ...good, exp: String(NOW + 300) }, reason: /no expiry/ },
  { name: "no sub (RFC 9068: even a client's own token names it)", claims: { ...good, sub: undefined }, reason: /no subject \(sub\)/ },
  { name: "sub a number", claims: { ...good, sub: 7 }, reason: /no subject/ },
  { name: "expired past the skew", claims: { ...good, exp: NOW - 61 }, reason: /has expired/ },
  { name: "expired within the skew", claims: { ...good, exp: NOW - 59 } },
  { name: "nbf in the future past the skew", claims: { ...good, nbf: NOW + 61 }, reason: /not valid yet/ },
  { name: "nbf in the future within the skew", claims: { ...good, nbf: NOW + 59 } },
];
for (const c of claimCases) {
  test(`jwt claims: ${c.name}`, () => {
    const check = () => checkClaims(c.claims, { issuer: ISSUER, audience: RESOURCE, now: () => NOW * 1000 });
    if (c.reason) assert.throws(check, (error: TokenRejectedError) => error instanceof TokenRejectedError && c.reason!.test(error.reason));
    else assert.equal(check().expiresAt, c.claims.exp);
  });
}

test("jwt claims: an introspection answer may leave out exp and sub (RFC 7662), but not give them the wrong type", () => {
  const introspected = (claims: Record<string, unknown>) => checkClaims(claims, { issuer: ISSUER, audience: RESOURCE, now: () => NOW * 1000, introspected: true });
  const verified = introspected({ ...good, exp: undefined, sub: undefined });
  assert.deepEqual([verified.subject, verified.expiresAt, verified.clientId], [undefined, undefined, "c1"]);
  assert.throws(() => introspected({ ...good, sub: ["alice"] }), /no subject/);
});

test("jwt claims: the clock skew is an option", () => {
  assert.throws(() => checkClaims({ ...good, exp: NOW - 10 }, { issuer: ISSUER, audience: RESOURCE, clockSkewSeconds: 5, now: () => NOW * 1000 }), /expired/);
});

test("jwt claims: what the server learns of a good token", () => {
  const verified = checkClaims(good, { issuer: ISSUER, audience: RESOURCE, now: () => NOW * 1000 });
  assert.deepEqual([verified.scopes, verified.subject, verified.clientId], [["mcp:read", "mcp:write"], "alice", "c1"]);
});

test("jwt: scopes from `scope` (space-separated) or an `scp` array, else none", () => {
  assert.deepEqual(scopesOf({ scope: " a  b " }), ["a", "b"]);
  assert.deepEqual(scopesOf({ scp: ["a", 3, "b"] }), ["a", "b"]);
  assert.deepEqual(scopesOf({ scope: 7 }), []);
});

test("jwt: an EC key on another curve is not an ES256 key", () => {
  const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" });
  assert.match(judge(jws({ alg: "ES256" }, {}, "ES256"), p384.publicKey), /does not match/);
});
