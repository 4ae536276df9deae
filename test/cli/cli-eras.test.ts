// The CLI in both protocol generations: --protocol-version picks the era (auto by default), the
// discover command prints what a server offers, and --trace says which era was chosen and why.
// Against our demo server (dual-era) over stdio and HTTP, and against scripted servers that speak
// only the handshake. Run `npm run build` first: these tests spawn the built CLI.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ExitCode } from "../../src/cli/output.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpHttpServer } from "../../src/http/server.js";
import { initializeResult, json, routine, scriptedServer } from "../helpers/scripted-http.js";
import { DEMO, nodeScript, parsedOutput, runCli } from "./program.js";

const run = (args: string[]) => runCli(["--handshake-timeout", "30000", ...args]);

/**
 * A stdio server of the handshake era only, strict about order: any request before initialize
 * gets -32601, as a server that has no server/discover would answer. It says on stderr which
 * methods it saw, so a test can tell whether initialize was sent.
 */
const LEGACY_ONLY = nodeScript(`
  const rl = require("node:readline").createInterface({ input: process.stdin });
  let initialized = false;
  const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
  rl.on("line", (line) => {
    const { id, method } = JSON.parse(line);
    console.error("saw " + method);
    if (id === undefined) return;
    if (method === "initialize") {
      initialized = true;
      return send({ id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "legacy-only", version: "1" } } });
    }
    if (initialized && method === "ping") return send({ id, result: {} });
    send({ id, error: { code: -32601, message: "Method not found" } });
  });
  rl.on("close", () => process.exit(0));
`);

/** The DiscoverResult of the demo server, as the CLI printed it. */
function assertDemoDiscover(result: { [key: string]: any }): void {
  assert.deepEqual(result.supportedVersions, ["2026-07-28"]);
  assert.equal(result.resultType, "complete");
  assert.equal(result._meta["io.modelcontextprotocol/serverInfo"].name, "mcp-wire-demo");
  assert.ok(result.capabilities.tools, "capabilities are the server's");
  assert.equal(result.protocolVersion, undefined, "a DiscoverResult, not an InitializeResult");
}

const traceLine = (stderr: string, pattern: RegExp): number => stderr.split("\n").findIndex((line) => pattern.test(line));

describe("cli program, eras", { concurrency: 2 }, () => {
  test("discover against our server on stdio prints its DiscoverResult, with auto and pinned 2026-07-28", async () => {
    for (const version of ["auto", "2026-07-28"]) {
      const result = await run(["--quiet", "--protocol-version", version, "discover", ...DEMO]);
      assertDemoDiscover(parsedOutput(result));
      assert.equal(result.stderr, "", version);
    }
  });

  test("discover with no flag is auto: the same DiscoverResult", async () => {
    assertDemoDiscover(parsedOutput(await run(["--quiet", "discover", ...DEMO])));
  });

  test("discover against our server over Streamable HTTP; a pinned handshake version prints what initialize told", async () => {
    const http = new McpHttpServer(createDemoServer());
    const listening = await http.listen({ port: 0 });
    try {
      const url = `${listening.origin}/mcp`;
      const [modern, legacy] = await Promise.all([run(["--url", url, "discover"]), run(["--url", url, "--protocol-version", "2025-06-18", "discover"])]);
      assertDemoDiscover(parsedOutput(modern));
      const told = parsedOutput(legacy);
      assert.equal(told.protocolVersion, "2025-06-18");
      assert.equal(told.serverInfo.name, "mcp-wire-demo");
      assert.match(legacy.stderr, /^mcp-wire: discover: not a 2026-07-28 session \(protocolVersion pinned to 2025-06-18: initialize, no probe\); printed is what initialize told instead$/m);
    } finally {
      await http.close();
      await listening.close();
    }
  });

  test("discover against a stdio server of the handshake era: auto prints what initialize told and says why on stderr, exit 0", async () => {
    const result = await run(["--trace", "discover", ...LEGACY_ONLY]);
    assert.deepEqual(parsedOutput(result), { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "legacy-only", version: "1" } });
    const fellBack = "server/discover answered -32601 (Method not found): fell back to initialize";
    assert.match(result.stderr, new RegExp(`^mcp-wire: discover: not a 2026-07-28 session \\(${fellBack.replace(/[()/]/g, "\\$&")}\\); printed is what initialize told instead$`, "m"));
    assert.match(result.stderr, new RegExp(`^\\[trace \\+\\d+\\.\\dms\\] era: handshake 2025-11-25: ${fellBack.replace(/[()/]/g, "\\$&")}$`, "m"));
    assert.match(result.stderr, /^\[server\] saw initialize$/m);
  });

  test("discover pinned to 2026-07-28 against a server of the handshake era fails with exit 1 and sends no initialize", async () => {
    const result = await run(["--protocol-version", "2026-07-28", "discover", ...LEGACY_ONLY]);
    assert.equal(result.code, ExitCode.failed, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /^mcp-wire: server\/discover failed: no 2026-07-28 session with this server \(asked for 2026-07-28; server\/discover answered -32601 \(Method not found\)\)$/m);
    assert.match(result.stderr, /^\[server\] saw server\/discover$/m);
    assert.doesNotMatch(result.stderr, /saw initialize/);
  });

  test("discover against an HTTP server of the handshake era: its 400 to the probe means initialize, and what it told is printed", async () => {
    const server = await scriptedServer((seen, response) => {
      if (routine(seen, response)) return;
      // A legacy Streamable HTTP server refuses a request without a session that is not initialize.
      if (seen.rpc !== "initialize") return void response.writeHead(400).end("no session");
      json(response, initializeResult(seen.body!.id));
    });
    try {
      const result = await run(["--url", server.url, "--trace", "discover"]);
      assert.equal(parsedOutput(result).serverInfo.name, "scripted");
      assert.match(result.stderr, /^\[trace \+\d+\.\dms\] era: handshake 2025-11-25: server\/discover was refused with HTTP 400 and no JSON-RPC answer: fell back to initialize$/m);
      assert.match(result.stderr, /^mcp-wire: discover: not a 2026-07-28 session \(server\/discover was refused with HTTP 400/m);
      assert.deepEqual(server.seen.filter((s) => s.method === "POST").map((s) => s.rpc).slice(0, 2), ["server/discover", "initialize"]);
    } finally {
      await server.close();
    }
  });

  test("--trace says the era and why, after the probe and before the command's own request", async () => {
    const result = await run(["--trace", "ping", ...DEMO]);
    assert.deepEqual(parsedOutput(result), {});
    const era = traceLine(result.stderr, /^\[trace \+\d+\.\dms\] era: modern 2026-07-28: server\/discover answered 2026-07-28$/);
    const probe = traceLine(result.stderr, /→ \{"jsonrpc":"2\.0","id":0,"method":"server\/discover"/);
    // 2026-07-28 has no ping: the CLI's ping is one more server/discover (id 2, after the listen's 1).
    const command = traceLine(result.stderr, /→ \{"jsonrpc":"2\.0","id":2,"method":"server\/discover"/);
    assert.ok(probe >= 0 && era > probe && command > era, `probe ${probe}, era ${era}, command ${command}:\n${result.stderr}`);
  });

  // Each value reaches the client: the first message says which.
  const cases = [
    { version: "auto", first: /"method":"server\/discover".*"io\.modelcontextprotocol\/protocolVersion":"2026-07-28"/, era: /era: modern 2026-07-28: server\/discover answered 2026-07-28$/ },
    { version: "2026-07-28", first: /"method":"server\/discover".*"io\.modelcontextprotocol\/protocolVersion":"2026-07-28"/, era: /era: modern 2026-07-28: server\/discover answered 2026-07-28$/ },
    ...["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"].map((version) => ({
      version, first: new RegExp(`"method":"initialize","params":\\{"protocolVersion":"${version}"`), era: new RegExp(`era: handshake ${version}: protocolVersion pinned to ${version}: initialize, no probe$`),
    })),
  ];
  for (const c of cases) {
    test(`--protocol-version ${c.version}: the first message and the era it leads to`, async () => {
      const result = await run(["--trace", "--quiet", "--protocol-version", c.version, "call", "add", "a=1", "b=2", ...DEMO]);
      // Not structuredContent: the two oldest versions have none.
      assert.deepEqual(parsedOutput(result).content, [{ type: "text", text: '{"sum":3}' }]);
      const lines = result.stderr.split("\n");
      assert.match(lines.find((line) => line.includes("→")) ?? "", c.first);
      assert.ok(lines.some((line) => c.era.test(line)), result.stderr);
    });
  }

  test("a bad --protocol-version is a usage error, exit 2, before anything starts", async () => {
    const result = await run(["--protocol-version", "2025-01-01", "discover", ...LEGACY_ONLY]);
    assert.equal(result.code, ExitCode.usage);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, 'mcp-wire: --protocol-version: "2025-01-01" is not one of auto, 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05\n(mcp-wire --help shows the usage)\n');
  });
});
