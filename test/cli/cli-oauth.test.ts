// The CLI's OAuth flow end to end over loopback (issue 12), against the OAuth client's stub
// authorization server (test/helpers/oauth-stubs.ts): the person's part is played by the test,
// which reads the URL the CLI prints and follows it to the loopback redirect as a browser would.
// Run `npm run build` first: the program tests need dist/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
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
