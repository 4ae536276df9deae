// `npm run auth:flow`: one real authorization flow printed as numbered steps, the source of
// PROTOCOL_NOTES.md's "Authorization (HTTP only)". This runs it (it spawns the demo program, so
// it needs a build: `npm test` does) and checks that it succeeds, that the discovery chain's steps
// appear in the spec's order, and that no token or code is printed whole.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("../../scripts/auth-flow.ts", import.meta.url));
const run = spawnSync(process.execPath, ["--import", "tsx", SCRIPT], { encoding: "utf8", timeout: 30_000 });
const steps = [...run.stdout.matchAll(/^\d+\. (.+)$/gm)].map((match) => match[1]);

test("the flow succeeds", () => {
  assert.equal(run.status, 0, run.stderr);
});

test("the discovery chain, in order: 401, PRM, AS metadata, DCR, authorize, token, the retried request", () => {
  // Each step by what names it (the script's labels spelled out once, there).
  const chain = [/without a token/, /RFC 9728/, /RFC 8414/, /RFC 7591/, /^authorization request/, /\(authorization_code\)/, /with the access token/];
  assert.ok(steps.length > chain.length, steps.join(" | "));
  chain.forEach((label, index) => assert.match(steps[index], label, `step ${index + 1}`));
  assert.ok(steps.slice(chain.length).every((step) => /with the access token/.test(step)), steps.join(" | "));
});

test("what each step must show: the challenge, PKCE and resource, the redirect's iss, the Bearer token", () => {
  assert.match(run.stdout, /^401 Unauthorized\nwww-authenticate: Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="mcp:read mcp:write"$/m);
  for (const field of ["code_challenge_method=S256", "resource=http://127.0.0.1:", "code_verifier=", "grant_type=authorization_code"]) assert.match(run.stdout, new RegExp(`^  ${field}`, "m"));
  assert.match(run.stdout, /^location: http:\/\/127\.0\.0\.1:\d+\/callback\?iss=http:\/\/127\.0\.0\.1:\d+&state=.{8}…&code=.{8}…$/m);
  assert.match(run.stdout, /^authorization: Bearer eyJ.{5}…$/m);
  assert.match(run.stdout, /"structuredContent":\{"sum":42\}/);
  assert.match(run.stdout, /^- GET \/jwks$/m, "the resource server fetched the issuer's keys");
});

test("secrets are shortened: no token, code or verifier appears whole", () => {
  assert.doesNotMatch(run.stdout, /eyJ[\w-]{6,}\./, "a JWT");
  for (const name of ["access_token", "refresh_token", "code", "code_verifier", "state"]) {
    assert.doesNotMatch(run.stdout, new RegExp(`(^  ${name}=|"${name}": "|[?&]${name}=)[^…\\s"&]{9}`, "m"), name);
  }
});
