import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, verify, type KeyObject } from "node:crypto";
import { JwtSignError, signingKey, signJwt } from "../../src/auth/jwt-sign.js";
import { decodeJwt } from "../helpers/token-endpoint-stub.js";

/** Checks a compact JWS with node:crypto as a verifier would: the algorithm's own digest and signature encoding. */
function verifies(jwt: string, publicKey: KeyObject): boolean {
  const { header, input, signature } = decodeJwt(jwt);
  if (header.alg === "EdDSA") return verify(null, input, publicKey, signature);
  if (header.alg === "ES256") return signature.length === 64 && verify("sha256", input, { key: publicKey, dsaEncoding: "ieee-p1363" }, signature);
  return verify("sha256", input, publicKey, signature);
}

const keyTypes = [
  { alg: "RS256", pair: () => generateKeyPairSync("rsa", { modulusLength: 2048 }) },
  { alg: "ES256", pair: () => generateKeyPairSync("ec", { namedCurve: "P-256" }) },
  { alg: "EdDSA", pair: () => generateKeyPairSync("ed25519") },
];

for (const { alg, pair } of keyTypes) {
  test(`signJwt ${alg}: a PEM key and the same key as a JWK both sign what the public key verifies`, () => {
    const { privateKey, publicKey } = pair();
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const jwk = { ...privateKey.export({ format: "jwk" }), kid: "k1" };
    for (const signer of [signingKey(pem, { kid: "k1" }), signingKey(jwk)]) {
      assert.equal(signer.alg, alg);
      const jwt = signJwt({ iss: "me", n: 1 }, signer, { typ: "JWT" });
      assert.match(jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/, "base64url parts, no padding");
      const { header, claims } = decodeJwt(jwt);
      assert.deepEqual(header, { alg, typ: "JWT", kid: "k1" });
      assert.deepEqual(claims, { iss: "me", n: 1 });
      assert.ok(verifies(jwt, publicKey), `${alg} signature verifies`);
      const [h, , s] = jwt.split(".");
      assert.ok(!verifies(`${h}.${Buffer.from('{"iss":"other"}').toString("base64url")}.${s}`, publicKey), "a changed payload does not verify");
    }
  });
}

test("signingKey: a key that cannot sign, or does not fit the algorithm, is a JwtSignError that never shows the key", () => {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const secretPem = "-----BEGIN PRIVATE KEY-----\nTOP-SECRET-MATERIAL\n-----END PRIVATE KEY-----\n";
  const cases: { name: string; make: () => unknown; message: RegExp }[] = [
    { name: "garbage PEM", make: () => signingKey(secretPem), message: /not a private key in PEM or JWK form/ },
    { name: "a JWK whose private part is not a string (node's own message would quote it)", make: () => signingKey(JSON.parse('{ "kty": "EC", "crv": "P-256", "x": "AA", "y": "AA", "d": 7070707 }')), message: /^jwt signing key: not a private key in PEM or JWK form \(ERR_INVALID_ARG_TYPE\)$/ },
    { name: "a public JWK", make: () => signingKey(rsa.publicKey.export({ format: "jwk" })), message: /not a private key in PEM or JWK form/ },
    { name: "a public KeyObject", make: () => signingKey(rsa.publicKey), message: /a public key cannot sign/ },
    { name: "RSA asked to sign ES256", make: () => signingKey(rsa.privateKey, { alg: "ES256" }), message: /signs RS256, not "ES256"/ },
    { name: "a JWK whose alg does not fit", make: () => signingKey({ ...rsa.privateKey.export({ format: "jwk" }), alg: "EdDSA" }), message: /signs RS256, not "EdDSA"/ },
    { name: "EC P-384", make: () => signingKey(generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey), message: /secp384r1 is not supported/ },
    { name: "an X25519 key (key agreement, not signing)", make: () => signingKey(generateKeyPairSync("x25519").privateKey), message: /keys of type x25519 are not supported/ },
    { name: "RSA under 2048 bits", make: () => signingKey(generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey), message: /1024 bits is too short/ },
  ];
  for (const c of cases) {
    assert.throws(c.make, (error: unknown) => {
      assert.ok(error instanceof JwtSignError, c.name);
      assert.match(error.message, c.message, c.name);
      assert.doesNotMatch(error.message, /TOP-SECRET|7070707/, c.name);
      return true;
    });
  }
});
