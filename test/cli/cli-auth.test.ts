// The CLI's side of authorization (issue 12): the OAuth flags and `logout` on the command line, the
// options handed to the OAuth client, and the one rule over all of it: no token, secret or code is
// ever printed, by --trace, by an error, or by a usage error.
// Run `npm run build` first: the program tests need dist/.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuthorizationError } from "../../src/auth/authorization-code.js";
import { MemoryCredentialStore } from "../../src/auth/credentials.js";
import { AuthFetchError } from "../../src/auth/fetch-json.js";
import { AuthMetadataError } from "../../src/auth/metadata.js";
import { ClientRegistrationError } from "../../src/auth/registration.js";
import { defaultCredentialsPath, FileCredentialStore } from "../../src/auth/file-store.js";
import { LoopbackError, LoopbackUserAgent } from "../../src/auth/loopback.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpHttpServer } from "../../src/http/server.js";
import { parseCommandLine, UsageError } from "../../src/cli/arguments.js";
import { authorizationHint, cliAuthorization } from "../../src/cli/authorization.js";
import { StepFailure } from "../../src/cli/failures.js";
import { ExitCode } from "../../src/cli/output.js";
import { REDACTED, Redactor } from "../../src/cli/redact.js";
import { cliHttpTrace } from "../../src/cli/trace.js";
import { CLI, DEMO, runCli } from "./program.js";

// Every run of the CLI here keeps its credentials file in a scratch directory, never the user's.
const CONFIG = await mkdtemp(join(tmpdir(), "mcp-wire-cli-auth-"));
process.env.XDG_CONFIG_HOME = CONFIG;
process.on("exit", () => void rm(CONFIG, { recursive: true, force: true }));

const URL_FLAG = ["--url", "http://127.0.0.1:3000/mcp"];

// ---- the command line ----

test("cli arguments: the OAuth flags go with the URL; none given, none added", () => {
  const line = parseCommandLine([...URL_FLAG, "--client-id", "app", "--client-issuer", "https://as.example", "--client-secret", "s3cret-value", "--scope", "a b", "--no-browser", "--auth-timeout", "30", "--no-store", "tools"]);
  assert.ok(!line.help && "server" in line && "url" in line.server);
  // The issuer is kept as typed (no "/" added): the OAuth client compares it with the metadata's exactly.
  assert.deepEqual(line.server.authorization, { clientId: "app", clientIssuer: "https://as.example", clientSecret: "s3cret-value", scope: "a b", noBrowser: true, timeoutMs: 30_000, noStore: true });
  const plain = parseCommandLine([...URL_FLAG, "tools"]);
  assert.ok(!plain.help && "server" in plain);
  assert.deepEqual(plain.server, { url: "http://127.0.0.1:3000/mcp", headers: {} });
});

test("cli arguments: logout takes the server's URL, as an argument or as --url", () => {
  assert.deepEqual(parseCommandLine(["logout", "https://mcp.example/mcp"]), { help: false, logout: "https://mcp.example/mcp" });
  assert.deepEqual(parseCommandLine([...URL_FLAG, "logout"]), { help: false, logout: "http://127.0.0.1:3000/mcp" });
});

const refusals: { argv: string[]; message: RegExp }[] = [
  { argv: [...URL_FLAG, "--client-secret", "x", "tools"], message: /^--client-secret needs --client-id/ },
  // H1 of the security review: a client ID is one authorization server's, so it comes with that server's issuer.
  { argv: [...URL_FLAG, "--client-id", "app", "tools"], message: /^--client-id needs --client-issuer URL: a client ID \(and its secret\) belongs to one authorization server/ },
  { argv: [...URL_FLAG, "--client-issuer", "https://as.example", "tools"], message: /^--client-issuer needs --client-id/ },
  { argv: [...URL_FLAG, "--client-id", "app", "--client-issuer", "http://as.example", "tools"], message: /^--client-issuer: expected an https:\/\/ URL \(or http:\/\/ to this machine\), got "http:\/\/as\.example"$/ },
  { argv: [...URL_FLAG, "--client-id", "app", "--client-issuer", "as.example", "tools"], message: /^--client-issuer: expected an https:\/\/ URL/ },
  { argv: ["--client-id", "app", "--client-issuer", "https://as.example", "tools", "--", "node", "s.js"], message: /^the OAuth options \(--client-id, --scope, \.\.\.\) need --url/ },
  { argv: ["--no-store", "tools", "--", "node", "s.js"], message: /need --url/ },
  { argv: [...URL_FLAG, "--auth-timeout", "0", "tools"], message: /^--auth-timeout needs a whole number of seconds from 1 to 86400, got "0"$/ },
  { argv: [...URL_FLAG, "--auth-timeout", "1.5", "tools"], message: /^--auth-timeout needs a whole number of seconds/ },
  { argv: [...URL_FLAG, "--scope", " ", "tools"], message: /^--scope needs a value$/ },
  { argv: [...URL_FLAG, "--no-browser=yes", "tools"], message: /^--no-browser takes no value$/ },
  { argv: ["logout"], message: /^logout: expected the server's URL/ },
  { argv: ["logout", "ftp://x/y"], message: /^logout: expected an http:\/\/ or https:\/\/ URL/ },
  { argv: ["logout", "https://a/mcp", "--", "x"], message: /^logout takes the server's URL only$/ },
];
for (const c of refusals) {
  test(`cli arguments: refuses ${JSON.stringify(c.argv)}`, () => {
    assert.throws(() => parseCommandLine(c.argv), (e: unknown) => e instanceof UsageError && c.message.test(e.message));
  });
}

test("cli arguments: a malformed header is never repeated in the error (it may be a credential)", () => {
  for (const text of ["Authorization Bearer tok-9f8e7d6c5b4a", "Bad Name: Bearer tok-9f8e7d6c5b4a"]) {
    assert.throws(() => parseCommandLine([...URL_FLAG, "--header", text, "tools"]), (e: unknown) => e instanceof UsageError && /^--header: expected NAME:VALUE/.test(e.message) && !e.message.includes("tok-9f8e7d6c5b4a"));
  }
});

// ---- redaction ----

test("redactor: secrets it was told of, bearer tokens, OAuth token fields and codes in URLs are replaced; prose is kept", () => {
  const redactor = new Redactor();
  redactor.add("client-secret-42");
  redactor.add("abc");
  redactor.addHeader("X-Api-Key", "key-value-77");
  redactor.addHeader("X-Tag", "visible-tag");
  const cases: [string, string][] = [
    ["secret: client-secret-42!", `secret: ${REDACTED}!`],
    ["short abc stays (too short to replace everywhere)", "short abc stays (too short to replace everywhere)"],
    ["key key-value-77 tag visible-tag", `key ${REDACTED} tag visible-tag`],
    ['HTTP 401: bad token "Bearer eyJhbGciOi.eyJzdWIi.c2ln"', `HTTP 401: bad token "Bearer ${REDACTED}"`],
    ["authorization: Basic YXBwOnNlY3JldA==", `authorization: Basic ${REDACTED}`],
    ['{"access_token":"at-1","token_type":"Bearer","refresh_token":"rt\\"2"}', `{"access_token":"${REDACTED}","token_type":"Bearer","refresh_token":"${REDACTED}"}`],
    ["Basic arithmetic, Bearer tokens, Bearer authentication", "Basic arithmetic, Bearer tokens, Bearer authentication"],
    ['{"code":-32600,"message":"x"}', '{"code":-32600,"message":"x"}'],
    // A challenge's parameters and our own messages are not credentials.
    ['www-authenticate: Bearer resource_metadata="https://rs/.well-known/oauth-protected-resource", scope="a_b"', 'www-authenticate: Bearer resource_metadata="https://rs/.well-known/oauth-protected-resource", scope="a_b"'],
    ["Bearer error=invalid_token", "Bearer error=invalid_token"],
    ["authorization: no redirect reached http://127.0.0.1:5/callback", "authorization: no redirect reached http://127.0.0.1:5/callback"],
    ['"Bearer YWJjZGVmZ2hpams=" and Bearer YWJjZGVmZ2hpams=, again', `"Bearer ${REDACTED}" and Bearer ${REDACTED}, again`],
  ];
  for (const [text, expected] of cases) assert.equal(redactor.redact(text), expected, text);
  assert.equal(redactor.redactUrl("http://127.0.0.1:5/callback?code=c0de-1&state=st"), `http://127.0.0.1:5/callback?code=${REDACTED}&state=st`);
  assert.equal(redactor.header("Authorization", "Bearer at-123456"), `Authorization: Bearer ${REDACTED}`);
  assert.equal(redactor.header("cookie", "sid=1"), `cookie: ${REDACTED}`);
  assert.equal(redactor.header("accept", "application/json"), "accept: application/json");
});

test("redactor: a watched store teaches it every token and client secret that passes through", async () => {
  const redactor = new Redactor();
  const inner = new MemoryCredentialStore();
  await inner.save({ issuer: "https://as", resource: "https://rs", tokens: { access_token: "loaded-token-1", token_type: "Bearer" } });
  const store = redactor.watch(inner);
  await store.load({ issuer: "https://as", resource: "https://rs" });
  await store.save({ issuer: "https://as2", resource: "https://rs", client: { client_id: "c", client_secret: "dcr-secret-2" }, tokens: { access_token: "opaque", token_type: "Bearer", refresh_token: "refresh-3" } });
  assert.equal(redactor.redact("loaded-token-1 dcr-secret-2 opaque refresh-3"), `${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED}`);
  await store.remove({ issuer: "https://as2", resource: "https://rs" });
  assert.equal(await inner.load({ issuer: "https://as2", resource: "https://rs" }), undefined);
});

test("cli http trace: method, URL and status, the credential's scheme only, the challenge shown", async () => {
  const lines: string[] = [];
  const inner: typeof fetch = async () => new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer resource_metadata="https://rs/.well-known/oauth-protected-resource", scope="a"' } });
  const traced = cliHttpTrace(inner, (line) => lines.push(line), () => 1, new Redactor());
  const response = await traced("https://rs/mcp?code=sekrit-code", { method: "POST", headers: { authorization: "Bearer tok-1234567", accept: "application/json" }, body: "{}" });
  assert.equal(response.status, 401);
  assert.deepEqual(lines, [
    `[trace +1.0ms] http → POST https://rs/mcp?code=${REDACTED} (authorization: Bearer ${REDACTED})`,
    '[trace +1.0ms] http ← 401 www-authenticate: Bearer resource_metadata="https://rs/.well-known/oauth-protected-resource", scope="a"',
  ]);
  const failing = cliHttpTrace(async () => { throw new Error("refused"); }, (line) => lines.push(line), () => 2, new Redactor());
  await assert.rejects(failing(new Request("https://rs/mcp")), /refused/);
  assert.deepEqual(lines.slice(2), ["[trace +2.0ms] http → GET https://rs/mcp", "[trace +2.0ms] http × refused"]);
});

// ---- the options given to the OAuth client ----

test("cli authorization: a loopback user agent, the file store (memory with --no-store), the client and scope of the flags", async () => {
  const path = join(CONFIG, "unit", "credentials.json");
  const printed: string[] = [];
  const redactor = new Redactor();
  const { authorization, close } = cliAuthorization({ clientId: "app", clientIssuer: "https://as.example", scope: "files:read", timeoutMs: 1000, noBrowser: true }, { print: (line) => printed.push(line), redactor, env: { MCP_WIRE_CLIENT_SECRET: "env-secret-99" }, storePath: path });
  try {
    assert.ok(authorization.userAgent instanceof LoopbackUserAgent);
    assert.deepEqual(authorization.client, { issuer: "https://as.example", client_id: "app", client_secret: "env-secret-99" });
    assert.equal(authorization.scope, "files:read");
    assert.equal(redactor.redact("env-secret-99"), REDACTED, "the secret is known to the redactor");
    // --no-browser: the URL is printed, nothing is opened, and the wait is the one asked for.
    const uri = await authorization.userAgent.redirectUri();
    const waiting = authorization.userAgent.authorize(new URL("https://as.example/authorize?x=1"));
    await fetch(`${uri}?code=1`);
    await waiting;
    assert.match(printed.join("\n"), /open this URL in a browser \(waiting up to 1 s\):\n {2}https:\/\/as\.example\/authorize\?x=1/);
    await authorization.store.save({ issuer: "https://as", resource: "https://rs", tokens: { access_token: "file-token", token_type: "Bearer" } });
    assert.equal((await stat(path)).isFile(), true);
  } finally {
    await close();
  }
  const flagSecret = cliAuthorization({ clientId: "app", clientIssuer: "https://as.example", clientSecret: "flag-secret" }, { print: () => {}, redactor, env: { MCP_WIRE_CLIENT_SECRET: "env-secret-99" }, storePath: path });
  assert.equal(flagSecret.authorization.client?.client_secret, "flag-secret", "the flag wins over the environment");
  const memory = cliAuthorization({ noStore: true }, { print: () => {}, redactor, storePath: join(CONFIG, "none", "credentials.json") });
  await memory.authorization.store.save({ issuer: "https://as", resource: "https://rs" });
  await assert.rejects(stat(join(CONFIG, "none")), /ENOENT/, "--no-store writes no file");
  assert.equal(memory.authorization.client, undefined);
});

test("cli authorization: a failure is told of --auth-timeout after a wait that timed out, of --header after OAuth that could not start, else of nothing", () => {
  const timedOut = new LoopbackError("authorization: no redirect reached ...", true);
  assert.equal(authorizationHint(new StepFailure("initialize", new Error("authorization failed", { cause: timedOut }))), "\n(--auth-timeout SECONDS waits longer)");
  for (const noOAuth of [new AuthFetchError("dynamic client registration", "http://h/register", "answered HTTP 404 without an OAuth error"), new AuthMetadataError("http://h/.well-known/oauth-authorization-server", "not JSON"), new ClientRegistrationError("http://h", "no registration_endpoint")]) {
    assert.match(authorizationHint(new StepFailure("initialize", noOAuth)), /--header "Authorization: Bearer TOKEN"/, noOAuth.name);
  }
  assert.equal(authorizationHint(new StepFailure("initialize", new LoopbackError("authorization: abandoned before the redirect arrived"))), "");
  assert.equal(authorizationHint(new StepFailure("initialize", new AuthorizationError("authorization", "access_denied"))), "");
  assert.equal(authorizationHint(new Error("HTTP 500")), "");
});

// ---- the program ----

test("cli program: a run over stdio loads neither node:http nor node:crypto (the OAuth parts are for a URL only)", () => {
  const preload = join(CONFIG, "report-builtins.cjs");
  writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, '\\n' + JSON.stringify(process.moduleLoadList)));\n");
  const run = spawnSync(process.execPath, ["-r", preload, CLI, "ping", ...DEMO], { encoding: "utf8", timeout: 20_000 });
  assert.equal(run.status, 0, run.stderr);
  const loaded: string[] = JSON.parse(run.stderr.slice(run.stderr.lastIndexOf("\n") + 1));
  assert.deepEqual(loaded.filter((name) => name === "NativeModule http" || name === "NativeModule crypto"), []);
});

describe("cli program (auth)", () => {
  const token = "cli-auth-token-3c9d1e7f5a2b";

  test("--trace of a session with a bearer token: the token appears on neither stdout nor stderr", async () => {
    const http = new McpHttpServer(createDemoServer(), { bearerToken: token });
    const listening = await http.listen({ port: 0 });
    try {
      const result = await runCli(["--trace", "--url", `${listening.origin}/mcp`, "--header", `Authorization: Bearer ${token}`, "call", "echo", `text=${token.length}`]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, new RegExp(`^\\[trace \\+\\d+\\.\\dms\\] http → POST ${listening.origin}/mcp \\(authorization: Bearer \\[redacted\\]\\)$`, "m"));
      assert.match(result.stderr, /^\[trace \+\d+\.\dms\] http ← 200$/m);
      assert.ok(!result.stdout.includes(token) && !result.stderr.includes(token));
    } finally {
      await http.close();
      await listening.close();
    }
  });

  test("a server that quotes our credential back in its error: the CLI's message does not repeat it", async () => {
    // 403 without insufficient_scope: not a request for authorization, so its reason is shown as it came.
    const server = createServer((request, response) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: `token refused: ${request.headers.authorization}` } });
      response.writeHead(403, { "content-type": "application/json", "www-authenticate": `Bearer error="invalid_token", error_description="${request.headers.authorization}"` });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
    try {
      for (const trace of [[], ["--trace"]]) {
        const result = await runCli([...trace, "--url", url, "--header", `Authorization: Bearer ${token}`, "--protocol-version", "2025-11-25", "ping"]);
        assert.equal(result.code, ExitCode.failed);
        assert.match(result.stderr, /^mcp-wire: initialize failed: the server answered HTTP 403 Forbidden: token refused: Bearer \[redacted\]$/m);
        assert.ok(!result.stderr.includes(token) && !result.stdout.includes(token), result.stderr);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("logout URL forgets that server's credentials in the file under XDG_CONFIG_HOME, and says so", async () => {
    const store = new FileCredentialStore();
    assert.equal(store.path, defaultCredentialsPath());
    assert.ok(store.path.startsWith(CONFIG));
    const resource = "https://mcp.example/mcp";
    await store.save({ issuer: "https://as.example", resource, tokens: { access_token: "stored-token-77", token_type: "Bearer" } });
    await store.save({ issuer: "https://as.example", resource: "https://other.example/mcp" });
    const result = await runCli(["logout", resource]);
    assert.equal(result.code, ExitCode.ok, result.stderr);
    assert.equal(result.stderr, `mcp-wire: forgot the credentials for ${resource} from https://as.example (in ${store.path})\n`);
    assert.equal(await store.load({ issuer: "https://as.example", resource }), undefined);
    assert.ok(await store.load({ issuer: "https://as.example", resource: "https://other.example/mcp" }));
    const again = await runCli(["logout", resource]);
    assert.equal(again.stderr, `mcp-wire: no credentials stored for ${resource} (in ${store.path})\n`);
  });
});
