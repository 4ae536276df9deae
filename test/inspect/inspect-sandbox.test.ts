// The sandbox proxy's listener of `mcp-wire inspect` (cli/inspect-sandbox.ts), without a browser:
// each proxy document works once, expires, and only the latest few are kept; the listener answers
// to its own loopback names only, to GETs only, to a frame's request only, serves the document
// under the view's policy with frame-ancestors naming the page, and has nothing else (404).
// The proxy's script in a browser: test/inspect/apps-host.test.ts.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (Sandbox proxy)
import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { ProxyDocuments, proxyDocument, SANDBOX_LIMITS, startSandboxServer } from "../../src/cli/inspect-sandbox.js";

const PAGE = "http://127.0.0.1:4321";

/** A raw GET (fetch would not let a test set Host). */
function get(url: string, headers: { [name: string]: string } = {}, method = "GET"): Promise<{ status: number; headers: { [name: string]: unknown }; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => { body += chunk; });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

test("a proxy document works once, expires, and only the latest are kept", () => {
  let now = 1000;
  const documents = new ProxyDocuments(() => now);
  const path = documents.add("p", PAGE);
  assert.match(path, /^\/[A-Za-z0-9_-]{24}$/);
  assert.deepEqual(documents.take(path), { policy: "p", pageOrigin: PAGE, expires: 1000 + SANDBOX_LIMITS.lifetimeMs });
  assert.equal(documents.take(path), undefined, "used once");
  const late = documents.add("p", PAGE);
  now += SANDBOX_LIMITS.lifetimeMs;
  assert.equal(documents.take(late), undefined, "expired");
  const paths = Array.from({ length: SANDBOX_LIMITS.outstanding + 1 }, (_, i) => documents.add(String(i), PAGE));
  assert.equal(documents.take(paths[0]!), undefined, "the oldest went");
  assert.equal(documents.take(paths.at(-1)!)?.policy, String(SANDBOX_LIMITS.outstanding));
});

test("the proxy document names the page's exact origin and never '*' to it", () => {
  const html = proxyDocument(PAGE);
  assert.match(html, /const PAGE_ORIGIN = "http:\/\/127\.0\.0\.1:4321";/);
  assert.match(html, /sandbox-proxy-ready", params: \{\} \}, PAGE_ORIGIN\)/);
  assert.doesNotMatch(html, /window\.parent\.postMessage\([^)]*"\*"\)/);
  assert.match(html, /setAttribute\("sandbox", "allow-scripts allow-forms"\)/);
  // Written into a script, an origin could never close it.
  assert.doesNotMatch(proxyDocument("http://x</script><script>alert(1)//"), /<\/script><script>alert/);
});

test("the listener serves a document once, under the view's policy and the page's frame-ancestors, and nothing else", async () => {
  const sandbox = await startSandboxServer();
  try {
    assert.deepEqual(sandbox.origins, [`http://127.0.0.1:${sandbox.port}`, `http://localhost:${sandbox.port}`]);
    const url = sandbox.add("default-src 'none'; script-src 'unsafe-inline'", PAGE);
    assert.equal(new URL(url).origin, `http://127.0.0.1:${sandbox.port}`);
    assert.equal(new URL(sandbox.add("p", "http://localhost:4321")).hostname, "localhost", "the page's own name for loopback");
    const host = `127.0.0.1:${sandbox.port}`;
    // Refused before the document is looked for, so it is still there afterwards.
    assert.equal((await get(url, { host: `evil.example:${sandbox.port}` })).status, 403);
    assert.equal((await get(url, { "sec-fetch-dest": "empty" })).status, 403);
    assert.equal((await get(url, {}, "POST")).status, 405);
    const served = await get(url, { host, "sec-fetch-dest": "iframe" });
    assert.equal(served.status, 200);
    assert.equal(served.headers["content-security-policy"], `default-src 'none'; script-src 'unsafe-inline'; frame-ancestors ${PAGE}`);
    assert.equal(served.headers["x-content-type-options"], "nosniff");
    assert.equal(served.headers["cache-control"], "no-store");
    assert.equal(served.body, proxyDocument(PAGE));
    assert.equal((await get(url, { host })).status, 404, "used once");
    for (const other of ["/", "/favicon.ico", "/inspect.js"]) {
      const answer = await get(`http://${host}${other}`);
      assert.equal(answer.status, 404, other);
      assert.match(String(answer.headers["content-security-policy"]), /default-src 'none'; frame-ancestors 'none'/);
    }
  } finally {
    await sandbox.close();
  }
});
