// The token endpoint's answer as the client reads it (token-endpoint.ts readTokenAnswer): what a
// token may be made of, and when it was issued (the early-refresh margin is reckoned from it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { AuthFetchError } from "../../src/auth/fetch-json.js";
import { readTokenAnswer } from "../../src/auth/token-endpoint.js";

const URL = "https://as.example/token";
const read = (json: Record<string, unknown>, now = 1_000_000) => readTokenAnswer("token request (test)", { token_type: "Bearer", ...json }, URL, undefined, now);

test("access and refresh tokens are RFC 6750 b64tokens; another character is refused without quoting the token", () => {
  assert.equal(read({ access_token: "aZ09-._~+/==", refresh_token: "r-1.x_y~z+/=" }).access_token, "aZ09-._~+/==");
  for (const bad of [{ access_token: "at\r\nX-Injected: 1" }, { access_token: "has space" }, { access_token: "a=b" }, { access_token: "ok", refresh_token: "rt\nsecret-part" }]) {
    assert.throws(() => read(bad), (error: unknown) => {
      assert.ok(error instanceof AuthFetchError);
      assert.match(error.message, /b64token/);
      assert.doesNotMatch(error.message, /Injected|space|secret-part|a=b/);
      return true;
    });
  }
});
