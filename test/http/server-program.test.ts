// The demo program's HTTP flags and environment, run as users run it: `node dist/server.js --http`.
// MCP_WIRE_TOKEN set but empty fails closed at start-up (exit 2), never "no auth"; --allowed-host
// adds Host values to the loopback names, --allowed-origin replaces the loopback origins; bad
// values are refused with the flag's name. Builds first: `npm test` does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ACCEPT_BOTH, initializeRequest, raw } from "../helpers/http-peer.js";
import { listening, SERVER, start } from "../helpers/server-program.js";

const TOKEN = "f3a9c27e5b8d41f09a6c3e7b2d5f8a1c";
const INIT = JSON.stringify(initializeRequest());
const POST_HEADERS = { accept: ACCEPT_BOTH, "content-type": "application/json" };

for (const value of ["", "   ", "\t"]) {
  test(`program: MCP_WIRE_TOKEN=${JSON.stringify(value)} refuses to start (exit 2) instead of serving without authentication`, async () => {
    const started = await start([], { MCP_WIRE_TOKEN: value });
    assert.ok("exitCode" in started, "the program must not listen");
    assert.equal(started.exitCode, 2);
    assert.match(started.stderr, /MCP_WIRE_TOKEN is set but empty/);
  });
}

test("program: a token with a space is refused at start-up; a good one is required on every request", async () => {
  const spaced = await start([], { MCP_WIRE_TOKEN: `${TOKEN} ${TOKEN}` });
  assert.ok("exitCode" in spaced && spaced.exitCode === 2, JSON.stringify(spaced));
  assert.match(spaced.stderr, /visible ASCII/);

  const server = await listening([], { MCP_WIRE_TOKEN: TOKEN });
  try {
    assert.equal((await raw(server.origin, { method: "POST", headers: POST_HEADERS, body: INIT })).status, 401);
    assert.equal((await raw(server.origin, { method: "POST", headers: { ...POST_HEADERS, authorization: `Bearer ${TOKEN}` }, body: INIT })).status, 200);
  } finally {
    await server.stop();
  }
});

test("program: --allowed-host adds Host values to the loopback names; --allowed-origin replaces the loopback origins", async () => {
  const server = await listening(["--allowed-host", "MCP.example.com", "--allowed-host", "10.0.0.5:8080", "--allowed-origin", "https://app.example"]);
  try {
    const port = new URL(server.origin).port;
    const cases: { headers: Record<string, string>; status: number }[] = [
      { headers: { host: "mcp.example.com" }, status: 200 },
      { headers: { host: "mcp.example.com:443" }, status: 200 },
      { headers: { host: "10.0.0.5:8080" }, status: 200 },
      { headers: { host: "10.0.0.5:9999" }, status: 403 },
      { headers: { host: `localhost:${port}` }, status: 200 },
      { headers: { host: "other.example" }, status: 403 },
      { headers: { host: "mcp.example.com", origin: "https://app.example" }, status: 200 },
      { headers: { host: "mcp.example.com", origin: "http://localhost:5173" }, status: 403 },
    ];
    for (const c of cases) {
      const reply = await raw(server.origin, { method: "POST", headers: { ...POST_HEADERS, ...c.headers }, body: INIT });
      assert.equal(reply.status, c.status, JSON.stringify(c.headers));
    }
    assert.match(server.stderr(), /Host values allowed besides the loopback names: mcp\.example\.com, 10\.0\.0\.5:8080/);
    assert.match(server.stderr(), /Origin values allowed: https:\/\/app\.example/);
  } finally {
    await server.stop();
  }
});

const badFlags: { args: string[]; why: RegExp }[] = [
  { args: ["--allowed-host", "http://mcp.example.com"], why: /--allowed-host needs a host name/ },
  { args: ["--allowed-host", "a b"], why: /--allowed-host needs a host name/ },
  { args: ["--allowed-host"], why: /--allowed-host needs a host name/ },
  { args: ["--allowed-origin", "https://app.example/"], why: /--allowed-origin needs an origin/ },
  { args: ["--allowed-origin", "app.example"], why: /--allowed-origin needs an origin/ },
  { args: ["--allowed-origin", "ftp://app.example"], why: /--allowed-origin needs an origin/ },
];
for (const c of badFlags) {
  test(`program: ${c.args.join(" ")} is refused with exit 2`, async () => {
    const started = await start(c.args);
    assert.ok("exitCode" in started && started.exitCode === 2, JSON.stringify(started));
    assert.match(started.stderr, c.why);
  });
}

test("program: --http-adapter without --http is refused with exit 2, as the other HTTP flags are", () => {
  const run = spawnSync(process.execPath, [SERVER, "--http-adapter", "web"], { input: "", encoding: "utf8", timeout: 10_000 });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /--http-adapter needs --http/);
});

for (const flag of ["--session-per-post", "--stateless"]) {
  test(`program: ${flag} serves each POST in a session of its own: no MCP-Session-Id, GET 405, no legacy /sse`, async () => {
    const server = await listening([flag]);
    try {
      const reply = await raw(server.origin, { method: "POST", headers: POST_HEADERS, body: INIT });
      assert.equal(reply.status, 200);
      assert.equal(reply.headers["mcp-session-id"], undefined);
      assert.equal((await raw(server.origin, { method: "GET", headers: { accept: "text/event-stream" } })).status, 405);
      assert.equal((await raw(server.origin, { method: "GET", path: "/sse", headers: { accept: "text/event-stream" } })).status, 404);
      assert.match(server.stderr(), /a session per POST/);
      assert.doesNotMatch(server.stderr(), /legacy HTTP\+SSE at/);
    } finally {
      await server.stop();
    }
  });
}
