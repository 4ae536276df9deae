// WWW-Authenticate parsing (RFC 9110 section 11.6.1): table-driven, from one Bearer challenge to
// headers with several challenges, escapes, token68, and headers that must be read as absent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readBearerChallenge } from "../../src/auth/challenge.js";

const cases: { name: string; header: string | null; expected: ReturnType<typeof readBearerChallenge>; maxLength?: number }[] = [
  {
    name: "the spec's example: resource_metadata and scope",
    header: 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read"',
    expected: { resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource", scope: "files:read" },
  },
  {
    name: "a 403 step-up: error, scope with a space, error_description",
    header: 'Bearer error="insufficient_scope", scope="files:read files:write", error_description="Additional file write permission required"',
    expected: { error: "insufficient_scope", scope: "files:read files:write", error_description: "Additional file write permission required" },
  },
  { name: "scheme and parameter names are case-insensitive; a token value needs no quotes", header: "bEaReR ERROR=invalid_token", expected: { error: "invalid_token" } },
  { name: "quoted-string escapes: \\\" and \\\\ are the characters themselves", header: 'Bearer error_description="say \\"hi\\" \\\\ bye"', expected: { error_description: 'say "hi" \\ bye' } },
  { name: "a comma inside quotes is not a separator", header: 'Bearer scope="a,b", error="x"', expected: { scope: "a,b", error: "x" } },
  { name: "Bearer after another challenge with parameters", header: 'Basic realm="x", charset="UTF-8", Bearer scope="s"', expected: { scope: "s" } },
  { name: "Bearer after a token68 challenge", header: "Negotiate dG9rZW4=, Bearer scope=s", expected: { scope: "s" } },
  { name: "Bearer before another challenge: its parameters stop at the next scheme", header: "Bearer scope=s, Basic realm=r", expected: { scope: "s" } },
  { name: "a bare Bearer", header: "Bearer", expected: {} },
  { name: "the first of a repeated parameter wins", header: 'Bearer scope="first", scope="second"', expected: { scope: "first" } },
  { name: "no Bearer challenge", header: 'Basic realm="x"', expected: undefined },
  { name: "no header", header: null, expected: undefined },
  { name: "an unterminated quoted string", header: 'Bearer scope="never ends', expected: undefined },
  { name: "garbage", header: '"', expected: undefined },
  { name: "longer than the bound", header: `Bearer scope="${"a".repeat(100)}"`, maxLength: 64, expected: undefined },
];

for (const c of cases) {
  test(`readBearerChallenge: ${c.name}`, () => {
    assert.deepEqual(readBearerChallenge(c.header, c.maxLength), c.expected);
  });
}
