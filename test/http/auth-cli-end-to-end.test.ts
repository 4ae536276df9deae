// The whole chain over loopback, each part a real program or server: the `mcp-wire` CLI
// -> the demo program with --auth-issuer -> the test authorization server. The CLI meets the
// 401, discovers, registers, and prints the authorization URL; the test plays the browser; the
// tool call then succeeds with a token the demo server checked. Builds first: `npm test` does.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExitCode } from "../../src/cli/output.js";
import { startAuthServer } from "../helpers/auth-server.js";
import { listening } from "../helpers/server-program.js";
import { runBrowsing } from "../cli/program.js";

test("CLI -> demo server with --auth-issuer -> test authorization server: the flow, then a tool call", async () => {
  const as = await startAuthServer({ scopes: ["mcp:tools"] });
  const server = await listening(["--auth-issuer", as.issuer, "--auth-scopes", "mcp:tools"]);
  const config = await mkdtemp(join(tmpdir(), "mcp-wire-auth-e2e-"));
  try {
    const run = await runBrowsing(["--no-browser", "--url", `${server.origin}/mcp`, "call", "add", "a=40", "b=2"], config, true);
    assert.equal(run.code, ExitCode.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout).structuredContent, { sum: 42 });
    assert.equal(run.browsed, 1);
    const paths = as.requests.map((r) => r.path.split("?")[0]);
    for (const path of ["/.well-known/oauth-authorization-server", "/register", "/authorize", "/token", "/jwks"]) assert.ok(paths.includes(path), `${path} in ${paths.join(" ")}`);
    assert.doesNotMatch(server.stderr(), /could not check/);
  } finally {
    await server.stop();
    await as.close();
    await rm(config, { recursive: true, force: true });
  }
});
