// The issuer's keys, as the resource server gets them from the test authorization server over
// loopback: found through its RFC 8414 metadata (path insertion for an issuer with a path), kept
// between tokens, fetched again for a rotated key but at most once per cooldown (made-up kids
// cannot make us fetch per request), refused whole when too big, too many or not JSON, with a
// failure remembered for the cooldown (but never spoiling keys already had); keys not for signing
// are skipped; a jwks_uri over plain http to another machine is never fetched. A fake clock, no sleeps.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
import { test } from "node:test";
import { generateKeyPairSync } from "node:crypto";
import assert from "node:assert/strict";
import { Jwks, JwksError } from "../../src/auth/jwks.js";
import { AuthFetchError } from "../../src/auth/fetch-json.js";
import { AuthMetadataError } from "../../src/auth/metadata.js";
import { TokenRejectedError } from "../../src/auth/jwt-verify.js";
import { startAuthServer } from "../helpers/auth-server.js";

/** A clock the test moves. */
function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

test("jwks: found through the issuer's metadata (with a path), then kept: one fetch for many tokens", async () => {
  const as = await startAuthServer({ issuerPath: "/tenant1" });
  try {
    const jwks = new Jwks({ issuer: as.issuer });
    const kid = as.rotate("ES256");
    for (let i = 0; i < 5; i++) assert.equal((await jwks.key({ alg: "ES256", kid })).asymmetricKeyType, "ec");
    assert.deepEqual(as.requests.map((r) => r.path), ["/.well-known/oauth-authorization-server/tenant1", "/tenant1/jwks"]);
  } finally {
    await as.close();
  }
});

test("jwks: many tokens at once before the keys are known share one fetch", async () => {
  const as = await startAuthServer();
  try {
    const jwks = new Jwks({ issuer: as.issuer });
    const kid = as.rotate("EdDSA");
    const keys = await Promise.all(Array.from({ length: 50 }, () => jwks.key({ alg: "EdDSA", kid })));
    assert.equal(new Set(keys).size, 1);
    assert.equal(as.jwksFetches(), 1);
  } finally {
    await as.close();
  }
});

test("jwks: an unknown kid fetches again once per cooldown; a rotated key is found after it", async () => {
  const as = await startAuthServer();
  const time = clock();
  try {
    const jwks = new Jwks({ issuer: as.issuer, cooldownMs: 30_000, now: time.now });
    await jwks.key({ alg: "RS256", kid: as.rotate("RS256") });
    assert.equal(as.jwksFetches(), 1);
    // An attacker's made-up kids: refused without a fetch each.
    for (let i = 0; i < 20; i++) await assert.rejects(jwks.key({ alg: "RS256", kid: `made-up-${i}` }), TokenRejectedError);
    assert.equal(as.jwksFetches(), 1, "within the cooldown, no kid makes us fetch");
    const rotated = as.rotate("RS256");
    await assert.rejects(jwks.key({ alg: "RS256", kid: rotated }), /not one the issuer publishes/);
    time.advance(30_000);
    assert.equal((await jwks.key({ alg: "RS256", kid: rotated })).asymmetricKeyType, "rsa");
    assert.equal(as.jwksFetches(), 2);
  } finally {
    await as.close();
  }
});

test("jwks: a refetch for an unknown kid that fails costs only that token: the keys already had stay good", async () => {
  const as = await startAuthServer();
  const time = clock();
  try {
    const jwks = new Jwks({ issuer: as.issuer, now: time.now });
    const kid = as.rotate("ES256");
    await jwks.key({ alg: "ES256", kid });
    as.jwksMode = "error";
    time.advance(30_000);
    await assert.rejects(jwks.key({ alg: "ES256", kid: "rotated-in-maybe" }), JwksError);
    assert.equal((await jwks.key({ alg: "ES256", kid })).asymmetricKeyType, "ec");
    assert.equal(as.jwksFetches(), 2);
  } finally {
    await as.close();
  }
});

test("jwks: keys are fetched again once older than maxAgeMs, so a withdrawn key stops working", async () => {
  const as = await startAuthServer();
  const time = clock();
  try {
    const jwks = new Jwks({ issuer: as.issuer, jwksUri: `${as.issuer}/jwks`, maxAgeMs: 60_000, now: time.now });
    const kid = as.rotate("EdDSA");
    await jwks.key({ alg: "EdDSA", kid });
    time.advance(60_001);
    await jwks.key({ alg: "EdDSA", kid });
    assert.equal(as.jwksFetches(), 2);
    assert.equal(as.requests.filter((r) => r.path.startsWith("/.well-known")).length, 0, "a given jwksUri skips the metadata");
  } finally {
    await as.close();
  }
});

test("jwks: a token without kid uses the issuer's only key of its kind, and is refused when there are several", async () => {
  const as = await startAuthServer();
  try {
    const jwks = new Jwks({ issuer: as.issuer });
    assert.equal((await jwks.key({ alg: "RS256" })).asymmetricKeyType, "rsa");
    await assert.rejects(jwks.key({ alg: "ES256" }), /names no key/);
    as.rotate("RS256");
    const fresh = new Jwks({ issuer: as.issuer });
    await assert.rejects(fresh.key({ alg: "RS256" }), /names no key/);
  } finally {
    await as.close();
  }
});

const broken: { mode: "huge" | "not-json" | "many-keys" | "error" | "slow"; error: RegExp; type: Function }[] = [
  { mode: "huge", error: /jwks: .*\/jwks: the answer (is \d+ bytes, more than|passed) the limit/, type: AuthFetchError },
  { mode: "not-json", error: /is not a JWK Set/, type: JwksError },
  { mode: "many-keys", error: /has 40 keys, more than the limit of 32/, type: JwksError },
  { mode: "error", error: /answered 500/, type: JwksError },
  { mode: "slow", error: /did not finish in time|no answer in time/, type: AuthFetchError },
];
for (const c of broken) {
  test(`jwks: a JWK Set that is ${c.mode} is a failure on our side, remembered for the cooldown`, async () => {
    const as = await startAuthServer();
    const time = clock();
    try {
      as.jwksMode = c.mode;
      const jwks = new Jwks({ issuer: as.issuer, fetchOptions: { timeoutMs: 300 }, now: time.now });
      await assert.rejects(jwks.key({ alg: "RS256", kid: "k" }), (error: Error) => error instanceof c.type && c.error.test(error.message));
      await assert.rejects(jwks.key({ alg: "RS256", kid: "k" }), c.type);
      assert.equal(as.jwksFetches(), 1, "not fetched again within the cooldown");
      as.jwksMode = "normal";
      time.advance(30_000);
      const kid = as.rotate("RS256");
      assert.equal((await jwks.key({ alg: "RS256", kid })).asymmetricKeyType, "rsa");
    } finally {
      await as.close();
    }
  });
}

test("jwks: metadata naming another issuer, or no jwks_uri, is an AuthMetadataError", async () => {
  const as = await startAuthServer();
  try {
    await assert.rejects(new Jwks({ issuer: as.issuer + "/other" }).key({ alg: "RS256", kid: "k" }), (error: Error) => error instanceof AuthMetadataError && /publishes no authorization server metadata \(at .*\/\.well-known\/oauth-authorization-server\/other/.test(error.message));
    as.metadata.issuer = "https://evil.example";
    await assert.rejects(new Jwks({ issuer: as.issuer }).key({ alg: "RS256", kid: "k" }), /names the issuer "https:\/\/evil.example"/);
    as.metadata.issuer = as.issuer;
    delete as.metadata.jwks_uri;
    await assert.rejects(new Jwks({ issuer: as.issuer }).key({ alg: "RS256", kid: "k" }), /names no jwks_uri/);
  } finally {
    await as.close();
  }
});

test("jwks: a jwks_uri that is neither https nor on this machine is refused, configured or discovered, and never fetched", async () => {
  for (const jwksUri of ["http://198.51.100.7/keys", "http://as.example/jwks", "file:///etc/keys.json"]) {
    assert.throws(() => new Jwks({ issuer: "https://as.example", jwksUri }), /the jwks_uri .* must be https \(or http to this machine\)/);
  }
  assert.doesNotThrow(() => new Jwks({ issuer: "https://as.example", jwksUri: "http://127.0.0.1:9/jwks" }));
  const as = await startAuthServer();
  try {
    as.metadata.jwks_uri = "http://198.51.100.7/keys";
    const fetched: string[] = [];
    const jwks = new Jwks({ issuer: as.issuer, fetchOptions: { fetch: async (url, init) => (fetched.push(String(url)), fetch(url, init)) } });
    await assert.rejects(jwks.key({ alg: "RS256", kid: "k" }), (error: Error) => error instanceof AuthMetadataError && /"jwks_uri" must be an http\(s\) URL, and https unless it is on this machine/.test(error.message));
    assert.deepEqual(fetched, [`${as.issuer}/.well-known/oauth-authorization-server`]);
  } finally {
    await as.close();
  }
});

test("jwks: keys for encryption, without verify, weak RSA, or of unknown types are skipped; a JWK's alg binds it", async () => {
  const jwk = (await startAuthServer().then(async (as) => {
    const kid = as.rotate("ES256");
    const answer = (await (await fetch(`${as.issuer}/jwks`)).json()) as { keys: Record<string, unknown>[] };
    await as.close();
    return answer.keys.find((key) => key.kid === kid)!;
  }));
  const served = (keys: unknown[]) => new Jwks({ issuer: "https://as.example", jwksUri: "https://as.example/jwks", fetchOptions: { fetch: async () => Response.json({ keys }) } });
  for (const skipped of [{ ...jwk, use: "enc" }, { ...jwk, key_ops: ["sign"] }, { ...jwk, kty: "oct", k: "c2VjcmV0" }, { ...jwk, x: "AAAA" }, "not an object"]) {
    await assert.rejects(served([skipped]).key({ alg: "ES256", kid: jwk.kid as string }), TokenRejectedError, JSON.stringify(skipped));
  }
  await assert.rejects(served([{ ...jwk, alg: "RS256" }]).key({ alg: "ES256", kid: jwk.kid as string }), TokenRejectedError);
  const weak = { ...generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "jwk" }), kid: "weak" };
  await assert.rejects(served([weak]).key({ alg: "RS256", kid: "weak" }), TokenRejectedError, "an RSA key under 2048 bits");
  const strong = { ...generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "jwk" }), kid: "strong" };
  assert.equal((await served([strong]).key({ alg: "RS256", kid: "strong" })).asymmetricKeyType, "rsa");
  assert.equal((await served([jwk]).key({ alg: "ES256", kid: jwk.kid as string })).asymmetricKeyType, "ec");
});
