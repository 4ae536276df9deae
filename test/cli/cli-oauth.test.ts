// The CLI's OAuth flow end to end over loopback (issue 12), against the OAuth client's stub
// authorization server (test/auth/client-stubs.ts): the person's part is played by the test,
// which reads the URL the CLI prints and follows it to the loopback redirect as a browser would.
// Run `npm run build` first: the program tests need dist/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stubAuthorization } from "../auth/client-stubs.js";
import { ExitCode } from "../../src/cli/output.js";
import { CLI } from "./program.js";

interface Run { code: number | null; stdout: string; stderr: string; browsed: number }

/** Runs the CLI; with `browse`, opens the authorization URL it prints, as a person's browser would. */
function run(args: string[], config: string, browse: boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, XDG_CONFIG_HOME: config }, stdio: ["ignore", "pipe", "pipe"] });
    const result: Run = { code: null, stdout: "", stderr: "", browsed: 0 };
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the CLI was still running after 20 s; stderr:\n${result.stderr}`));
    }, 20_000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (result.stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      result.stderr += chunk;
      const url = /\n {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)\n/.exec(result.stderr)?.[1];
      if (!browse || url === undefined || result.browsed > 0) return;
      result.browsed++;
      void (async () => {
        const approved = await fetch(url, { redirect: "manual" });
        const page = await fetch(approved.headers.get("location")!);
        assert.match(await page.text(), /close this window/);
      })();
    });
    child.once("close", (code) => {
      clearTimeout(guard);
      resolve({ ...result, code });
    });
  });
}

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
