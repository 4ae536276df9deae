import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { connect } from "node:net";
import { LoopbackError, LoopbackUserAgent } from "../../src/auth/loopback.js";
import { browserOpener, openBrowser, type Spawner } from "../../src/auth/open-browser.js";

const AUTHORIZE = new URL("https://as.example/authorize?client_id=c&state=s1");

/** A raw GET (fetch would follow nothing here, but node:http lets a test send any method and header size). */
function get(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: options.method ?? "GET", headers: options.headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body, type: response.headers["content-type"] ?? "" }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

function agent(options: ConstructorParameters<typeof LoopbackUserAgent>[0] = {}): { agent: LoopbackUserAgent; printed: string[]; opened: URL[] } {
  const printed: string[] = [];
  const opened: URL[] = [];
  return { agent: new LoopbackUserAgent({ timeoutMs: 10_000, print: (line) => printed.push(line), openBrowser: (url) => opened.push(url), ...options }), printed, opened };
}

test("loopback: the redirect URI is the 127.0.0.1 literal with a system-chosen port, stable across calls", async () => {
  const { agent: ua } = agent();
  try {
    const uri = await ua.redirectUri();
    assert.match(uri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.notEqual(new URL(uri).port, "0");
    assert.equal(await ua.redirectUri(), uri);
  } finally {
    await ua.close();
  }
});

test("loopback: prints the URL, opens the browser, and resolves with the first redirect to the path", async () => {
  const { agent: ua, printed, opened } = agent();
  try {
    const uri = await ua.redirectUri();
    const waiting = ua.authorize(AUTHORIZE);
    await new Promise(setImmediate);
    assert.equal(printed.length, 1);
    assert.equal(printed[0], `mcp-wire: opening a browser to authorize; if none opens, open this URL (waiting up to 10 s):\n  ${AUTHORIZE.href}`);
    assert.deepEqual(opened.map(String), [AUTHORIZE.href]);
    // Anything else is a 404 and leaves the wait alone (a browser asks for /favicon.ico).
    assert.equal((await get(new URL("/favicon.ico", uri).href)).status, 404);
    assert.equal((await get(`${uri}?code=abc`, { method: "POST" })).status, 405);
    const page = await get(`${uri}?code=abc&state=s1`);
    assert.equal(page.status, 200);
    assert.match(page.type, /^text\/html/);
    assert.match(page.body, /close this window/);
    assert.ok(!page.body.includes("abc"), "the page never repeats the code");
    const redirect = await waiting;
    assert.equal(redirect.href, `${uri}?code=abc&state=s1`);
    // One result: a second redirect finds nobody waiting.
    assert.equal((await get(`${uri}?code=again`)).status, 409);
  } finally {
    await ua.close();
  }
});

test("loopback: a second authorize() waits for the next redirect (a step-up)", async () => {
  const { agent: ua } = agent();
  try {
    const uri = await ua.redirectUri();
    const first = ua.authorize(AUTHORIZE);
    await get(`${uri}?code=one&state=s1`);
    assert.equal((await first).searchParams.get("code"), "one");
    const second = ua.authorize(AUTHORIZE);
    await assert.rejects(ua.authorize(AUTHORIZE), (e: unknown) => e instanceof LoopbackError && /already waiting/.test(e.message));
    await get(`${uri}?code=two&state=s1`);
    assert.equal((await second).searchParams.get("code"), "two");
  } finally {
    await ua.close();
  }
});

// Review L4: another local program (or a page that found the port) answering first used to end the
// wait with its own URL, and the person's real redirect then found nobody waiting (409).
test("loopback: a redirect with another state (or none) gets 400 and the wait goes on for the authorization's own", async () => {
  const { agent: ua } = agent();
  try {
    const uri = await ua.redirectUri();
    const waiting = ua.authorize(AUTHORIZE);
    for (const query of ["?code=attacker&state=guess", "?code=attacker", "?error=access_denied&state=s2"]) {
      const refused = await get(`${uri}${query}`);
      assert.equal(refused.status, 400, query);
      assert.match(refused.type, /^text\/html/);
      assert.match(refused.body, /its state differs\); it was not used\. mcp-wire is still waiting/);
      assert.ok(!refused.body.includes("attacker"), "the page never repeats the query");
    }
    assert.equal((await get(`${uri}?code=real&state=s1`)).status, 200);
    assert.equal((await waiting).searchParams.get("code"), "real");
  } finally {
    await ua.close();
  }
});

test("loopback: maxWrongRedirects redirects with another state end the wait with a clear error", async () => {
  const { agent: ua } = agent({ maxWrongRedirects: 3 });
  try {
    const uri = await ua.redirectUri();
    const waiting = ua.authorize(AUTHORIZE);
    const failed = assert.rejects(waiting, (e: unknown) => e instanceof LoopbackError && !e.timedOut &&
      e.message === "authorization: 3 redirects to /callback carried another state than the authorization's; giving up (is another program on this machine answering in the authorization server's place?)");
    for (let i = 0; i < 3; i++) assert.equal((await get(`${uri}?code=x&state=guess${i}`)).status, 400);
    await failed;
    assert.equal((await get(`${uri}?code=real&state=s1`)).status, 409, "nobody waits any more");
  } finally {
    await ua.close();
  }
});

test("loopback: no redirect in time is a clear error naming the redirect URI", async () => {
  const { agent: ua } = agent({ timeoutMs: 30 });
  try {
    const uri = await ua.redirectUri();
    await assert.rejects(ua.authorize(AUTHORIZE), (e: unknown) => e instanceof LoopbackError && e.message.includes(uri) && /not finished/.test(e.message));
  } finally {
    await ua.close();
  }
});

test("loopback: an oversized request is refused by the bound, and the wait goes on", async () => {
  const { agent: ua } = agent({ maxRequestBytes: 1024 });
  try {
    const uri = await ua.redirectUri();
    const waiting = ua.authorize(AUTHORIZE);
    const big = await get(`${uri}?code=${"x".repeat(4096)}`).catch(() => ({ status: 0 }));
    assert.equal(big.status, 431);
    await get(`${uri}?code=small&state=s1`);
    assert.equal((await waiting).searchParams.get("code"), "small");
  } finally {
    await ua.close();
  }
});

// The guard fails the test if the 408 waits for the default 10 s instead of the 50 ms asked for.
test("loopback: a request that never finishes arriving gets 408 (requestTimeoutMs), and the wait goes on", { timeout: 5_000 }, async () => {
  const { agent: ua } = agent({ requestTimeoutMs: 50 });
  try {
    const uri = new URL(await ua.redirectUri());
    const waiting = ua.authorize(AUTHORIZE);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(uri.port), "127.0.0.1", () => socket.write("GET /callback?code=slow HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
      let text = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("close", () => resolve(text)).on("error", reject);
    });
    assert.match(answer, /^HTTP\/1\.1 408 /);
    await get(`${uri.href}?code=fast&state=s1`);
    assert.equal((await waiting).searchParams.get("code"), "fast");
  } finally {
    await ua.close();
  }
});

test("loopback: close() frees the port and rejects a pending authorize()", async () => {
  const { agent: ua } = agent();
  const uri = await ua.redirectUri();
  const waiting = ua.authorize(AUTHORIZE);
  await ua.close();
  await assert.rejects(waiting, (e: unknown) => e instanceof LoopbackError && /abandoned/.test(e.message));
  await assert.rejects(get(uri), /ECONNREFUSED/);
});

test("loopback: openBrowser false only prints; a failing opener does not fail the flow", async () => {
  for (const openBrowserOption of [false as const, () => { throw new Error("no display"); }]) {
    const { agent: ua, printed } = agent({ openBrowser: openBrowserOption });
    try {
      const uri = await ua.redirectUri();
      const waiting = ua.authorize(AUTHORIZE);
      await get(`${uri}?error=access_denied&state=s1`);
      assert.equal((await waiting).searchParams.get("error"), "access_denied");
      assert.equal(printed.length, 1);
    } finally {
      await ua.close();
    }
  }
});

test("openBrowser: the platform's opener, no shell, detached; only http(s) URLs", () => {
  const runs: { command: string; args: string[]; shell: unknown; detached: unknown }[] = [];
  const spawner: Spawner = (command, args, options) => {
    runs.push({ command, args, shell: options.shell, detached: options.detached });
    return { on: () => undefined, unref: () => undefined };
  };
  const url = new URL("https://as.example/authorize?a=1&b=2");
  assert.equal(openBrowser(url, spawner, "linux"), true);
  assert.equal(openBrowser(url, spawner, "darwin"), true);
  assert.equal(openBrowser(url, spawner, "win32"), true);
  assert.deepEqual(runs, [
    { command: "xdg-open", args: [url.href], shell: false, detached: true },
    { command: "open", args: [url.href], shell: false, detached: true },
    { command: "rundll32", args: ["url.dll,FileProtocolHandler", url.href], shell: false, detached: true },
  ]);
  assert.equal(openBrowser(new URL("file:///etc/passwd"), spawner, "linux"), false);
  assert.equal(openBrowser(new URL("javascript:alert(1)"), spawner, "linux"), false);
  assert.equal(runs.length, 3);
  assert.deepEqual(browserOpener("freebsd"), { command: "xdg-open", args: [] });
  // A spawn that throws (no opener installed) is ignored.
  assert.equal(openBrowser(url, () => { throw new Error("ENOENT"); }, "linux"), false);
});
