// The token endpoint's answer as the client reads it (token-endpoint.ts readTokenAnswer): what a
// token may be made of, and when it was issued (the early-refresh margin is reckoned from it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { AuthFetchError } from "../../src/auth/fetch-json.js";
import { OAuthError, readTokenAnswer, refusal } from "../../src/auth/token-endpoint.js";

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

// Issue 19 item 3: 1e400 is valid JSON that parses as Infinity; stored, it would be written as null.
test("expires_in must be a finite number of seconds from 0 to 10^10; Infinity, a negative or a larger one is refused", () => {
  assert.equal(read({ access_token: "a", expires_in: 3600 }, 1000).expires_at, 1000 + 3_600_000);
  assert.equal(read({ access_token: "a", expires_in: 0 }, 1000).expires_at, 1000);
  assert.equal(read({ access_token: "a", expires_in: 1e10 }, 0).expires_at, 1e13);
  for (const text of ['{"access_token":"a","token_type":"Bearer","expires_in":1e400}', '{"access_token":"a","token_type":"Bearer","expires_in":-1e400}',
    '{"access_token":"a","token_type":"Bearer","expires_in":-1}', '{"access_token":"a","token_type":"Bearer","expires_in":1e308}', '{"access_token":"a","token_type":"Bearer","expires_in":"60"}']) {
    assert.throws(() => readTokenAnswer("token request (test)", JSON.parse(text), URL, undefined, 0), (error: unknown) =>
      error instanceof AuthFetchError && /"expires_in" must be a number of seconds from 0 to 10000000000/.test(error.message), text);
  }
});

// Issue 19's attack: an authorization server's error and error_description went whole into the
// message, so a 256 KiB description made a 256 KiB error line on the CLI's stderr.
test("an OAuth refusal shows a long error or error_description in part, with its length", () => {
  const description = "x".repeat(256 * 1024);
  const error = refusal("token request (test)", 400, { error: `invalid_grant${"y".repeat(1000)}`, error_description: description }, URL);
  assert.ok(error instanceof OAuthError);
  assert.equal(error.description, description, "the whole description stays on the error for a program to read");
  assert.ok(error.message.length < 600, `the message is ${error.message.length} characters`);
  assert.match(error.message, /\(262,144 characters\)$/);
  assert.match(error.message, /^token request \(test\): the authorization server answered 400 invalid_grant/);
  const short = refusal("token request (test)", 400, { error: "invalid_grant", error_description: "the code was used" }, URL);
  assert.equal(short.message, "token request (test): the authorization server answered 400 invalid_grant: the code was used");
});
