// dist/server.js, the path hosts are configured with, is the demo program (src/demo/main.ts) in
// one file, and dist/cli.js, the mcp-wire bin, is the CLI (src/cli.ts) in one file
// (scripts/bundle.ts says why): copied alone into an empty directory, each still works, so it
// loads no other file of dist/. Needs dist/: `npm test` builds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

test("bundle: dist/server.js alone, without the rest of dist/, is the whole demo program", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-bundle-"));
  try {
    mkdirSync(join(dir, "dist"));
    const alone = join(dir, "dist", "server.js");
    copyFileSync(SERVER, alone);
    const run = (args: string[], input: string) => spawnSync(process.execPath, [alone, ...args], { cwd: dir, input, encoding: "utf8", timeout: 10_000 });
    const help = run(["--help"], "");
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stderr, /^usage: mcp-wire-server/);
    const served = run([], `${JSON.stringify(INITIALIZE)}\n`);
    assert.equal(served.status, 0, served.stderr);
    const answer = JSON.parse(served.stdout.trim()) as { id: number; result: { serverInfo: { name: string } } };
    assert.equal(answer.id, 1);
    assert.equal(answer.result.serverInfo.name, "mcp-wire-demo");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bundle: dist/cli.js alone answers --help, and with dist/server.js alone runs a whole session", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-bundle-"));
  try {
    mkdirSync(join(dir, "dist"));
    const cli = join(dir, "dist", "cli.js");
    const server = join(dir, "dist", "server.js");
    copyFileSync(CLI, cli);
    copyFileSync(SERVER, server);
    const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: "utf8", timeout: 10_000 });
    const help = run(["--help"]);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage: mcp-wire /);
    const called = run(["call", "add", "a=3", "b=4", "--", process.execPath, server]);
    assert.equal(called.status, 0, called.stderr);
    assert.deepEqual((JSON.parse(called.stdout) as { structuredContent: unknown }).structuredContent, { sum: 7 });
    // The server's error is thrown as an RpcError by the JSON-RPC modules and recognised with
    // `instanceof RpcError` by cli/failures.js (code first): one copy of each module in the bundle.
    const refused = run(["call", "no_such_tool", "--", process.execPath, server]);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^mcp-wire: tools\/call failed: -32602 /m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
