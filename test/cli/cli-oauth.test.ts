// The CLI's OAuth flow end to end over loopback (issue 12), against the OAuth client's stub
// authorization server (test/helpers/oauth-stubs.ts): the person's part is played by the test,
// which reads the URL the CLI prints and follows it to the loopback redirect as a browser would.
// Run `npm run build` first: the program tests need dist/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stubAuthorization } from "../helpers/oauth-stubs.js";
import { ExitCode } from "../../src/cli/output.js";
import { runBrowsing as run } from "./program.js";

test("cli oauth: authorize once in the browser, the token kept in a 0600 file and reused, logout forgets it, nothing secret printed", async () => {
  const stub = await stubAuthorization();
  const config = await mkdtemp(join(tmpdir(), "mcp-wire-cli-oauth-"));
  try {
    const first = await run(["--trace", "--no-browser", "--url", stub.url, "call", "add", "a=1", "b=2"], config, true);
    assert.equal(first.code, ExitCode.ok, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout).structuredContent, { sum: 3 });
    assert.equal(first.browsed, 1);
    assert.match(first.stderr, /^\[trace \+\d+\.\dms\] http ← 401 www-authenticate: Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/m);
    assert.match(first.stderr, /http → POST http:\/\/127\.0\.0\.1:\d+\/mcp \(authorization: Bearer \[redacted\]\)$/m);
    for (const token of stub.tokens.keys()) assert.ok(!first.stderr.includes(`Bearer ${token}`), "no token on stderr");

    const file = join(config, "mcp-wire", "credentials.json");
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal(Object.keys(JSON.parse(await readFile(file, "utf8")).credentials).length, 1);

    const second = await run(["--url", stub.url, "tools"], config, false);
    assert.equal(second.code, ExitCode.ok, second.stderr);
    assert.equal(stub.authorizations.length, 1, "the stored token was reused: no second authorization");

    const forgot = await run(["logout", stub.url], config, false);
    assert.match(forgot.stderr, /^mcp-wire: forgot the credentials for http:\/\/127\.0\.0\.1:\d+\/mcp from http:\/\/127\.0\.0\.1:\d+ \(in .*credentials\.json\)$/m);
    const timedOut = await run(["--no-browser", "--auth-timeout", "1", "--url", stub.url, "tools"], config, false);
    assert.equal(timedOut.code, ExitCode.failed);
    assert.match(timedOut.stderr, /no redirect reached http:\/\/127\.0\.0\.1:\d+\/callback within 1 s.*\n\(--auth-timeout SECONDS waits longer\)$/m);
  } finally {
    await stub.close();
    await rm(config, { recursive: true, force: true });
  }
});

// Issue 19 item 13: the loopback listener takes a new port each run, and a kept registration was
// reused only for the exact redirect URI it was made with: each sign-in registered a new client.
test("cli oauth: three sign-ins (each on a new loopback port) make one registration", async () => {
  const stub = await stubAuthorization({ refresh: false });
  const config = await mkdtemp(join(tmpdir(), "mcp-wire-cli-oauth-"));
  try {
    for (let signIn = 1; signIn <= 3; signIn++) {
      const run1 = await run(["--no-browser", "--url", stub.url, "tools"], config, true);
      assert.equal(run1.code, ExitCode.ok, `sign-in ${signIn}: ${run1.stderr}`);
      assert.equal(stub.authorizations.length, signIn);
      // The server forgets the token: the next run must sign in again.
      stub.tokens.clear();
    }
    const ports = new Set(stub.authorizations.map((query) => new URL(query.get("redirect_uri")!).port));
    assert.equal(ports.size, 3, "each sign-in listened on its own port");
    assert.equal(stub.registrations.length, 1, "one registration, reused");
    assert.deepEqual(new Set(stub.authorizations.map((query) => query.get("client_id"))), new Set(["client-1"]));
  } finally {
    await stub.close();
    await rm(config, { recursive: true, force: true });
  }
});

/** Makes every access token in the credentials file one that expired long ago. */
async function expireTokens(config: string): Promise<void> {
  const file = join(config, "mcp-wire", "credentials.json");
  const json = JSON.parse(await readFile(file, "utf8"));
  for (const entry of Object.values(json.credentials) as { tokens?: { expires_at?: number } }[]) if (entry.tokens) entry.tokens.expires_at = 1000;
  await writeFile(file, JSON.stringify(json));
}

// Issue 19 item 5: runs refreshing at once each spent the same refresh token; at a server that
// rotates them the losers got invalid_grant and stored their old tokens, without a refresh token,
// over the winner's new ones: later runs sent the person back to the browser, and some exited 1.
test("cli oauth: ten runs at once with expired tokens, at a server that rotates refresh tokens: none signs in again, none fails", async () => {
  const stub = await stubAuthorization({ rotateRefresh: true });
  const config = await mkdtemp(join(tmpdir(), "mcp-wire-cli-oauth-"));
  try {
    const first = await run(["--no-browser", "--url", stub.url, "tools"], config, true);
    assert.equal(first.code, ExitCode.ok, first.stderr);
    for (let round = 0; round < 2; round++) {
      await expireTokens(config);
      const runs = await Promise.all(Array.from({ length: 10 }, () => run(["--no-browser", "--url", stub.url, "tools"], config, true)));
      assert.deepEqual(runs.map((result) => result.code), Array(10).fill(ExitCode.ok), runs.map((result) => result.stderr).join("\n"));
      assert.equal(runs.reduce((sum, result) => sum + result.browsed, 0), 0, `round ${round}: sign-ins`);
    }
    assert.equal(stub.authorizations.length, 1, "the one sign-in of the first run");
    const refreshes = stub.tokenRequests.filter((form) => form.get("grant_type") === "refresh_token");
    assert.equal(refreshes.length, 2, "one refresh per round: the other runs used its tokens");
  } finally {
    await stub.close();
    await rm(config, { recursive: true, force: true });
  }
});

// Issue 19 item 3: 1e400 parses as Infinity and was stored, written to the file as null; every later
// run, for every server, then failed: "is not an mcp-wire credentials file; delete it".
test("cli oauth: an authorization server answering expires_in or client_secret_expires_at 1e400 fails its own sign-in only; other servers' runs go on", async () => {
  const good = await stubAuthorization();
  const hostile = [
    await stubAuthorization({ rewrite: (path, text) => (path === "/token" ? text.replace(/"expires_in":\d+/, '"expires_in":1e400') : text) }),
    await stubAuthorization({ rewrite: (path, text) => (path === "/register" ? text.replace(/\}$/, ',"client_secret":"s","client_secret_expires_at":1e400}') : text) }),
  ];
  const config = await mkdtemp(join(tmpdir(), "mcp-wire-cli-oauth-"));
  try {
    const first = await run(["--no-browser", "--url", good.url, "tools"], config, true);
    assert.equal(first.code, ExitCode.ok, first.stderr);
    for (const [i, stub] of hostile.entries()) {
      const refused = await run(["--no-browser", "--url", stub.url, "tools"], config, true);
      assert.equal(refused.code, ExitCode.failed, refused.stderr);
      assert.match(refused.stderr, i === 0 ? /"expires_in" must be a number of seconds from 0 to 10000000000/ : /"client_secret_expires_at" must be seconds since the epoch/);
      const again = await run(["--url", good.url, "tools"], config, false);
      assert.equal(again.code, ExitCode.ok, again.stderr);
    }
    assert.equal(good.authorizations.length, 1, "the good server's token was reused each time");
  } finally {
    for (const stub of [good, ...hostile]) await stub.close();
    await rm(config, { recursive: true, force: true });
  }
});

// Issue 19's attack: when the sign-in's own requests (discovery, registration, the token request)
// used up the handshake timeout, the CLI said only that the server did not answer, which sent the
// person looking at the wrong program.
test("cli oauth: a handshake timeout spent signing in says so, and how to wait longer", async () => {
  const stub = await stubAuthorization({ delayMs: (path) => (path === "/.well-known/oauth-authorization-server" ? 3000 : 0) });
  const config = await mkdtemp(join(tmpdir(), "mcp-wire-cli-oauth-"));
  try {
    const slow = await run(["--no-browser", "--handshake-timeout", "800", "--url", stub.url, "tools"], config, false);
    assert.equal(slow.code, ExitCode.failed, slow.stderr);
    assert.match(slow.stderr, /\n\(the time ran out while signing in: the authorization server's requests count against --handshake-timeout; give it more, e\.g\. --handshake-timeout 30000\)$/m);
  } finally {
    await stub.close();
    await rm(config, { recursive: true, force: true });
  }
});
