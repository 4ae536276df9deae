// PKCE S256 (RFC 7636): the verifier's form and the challenge derived from it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createPkce, randomToken } from "../../src/auth/pkce.js";

test("createPkce: a 43-character unreserved verifier, its S256 challenge, fresh each time", () => {
  const pkce = createPkce();
  assert.match(pkce.code_verifier, /^[A-Za-z0-9._~-]{43,128}$/);
  assert.equal(pkce.code_challenge, createHash("sha256").update(pkce.code_verifier).digest("base64url"));
  assert.equal(pkce.code_challenge_method, "S256");
  assert.notEqual(createPkce().code_verifier, pkce.code_verifier);
});

test("randomToken: base64url of the requested size, never the same twice", () => {
  assert.match(randomToken(16), /^[A-Za-z0-9_-]{22}$/);
  assert.notEqual(randomToken(), randomToken());
});
