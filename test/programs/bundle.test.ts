// dist/server.js, the path hosts are configured with, is the demo program (src/demo/main.ts) in
// one file (scripts/bundle.ts says why): copied alone into an empty directory, it still answers
// --help and initialize, so it loads no other file of dist/. Needs dist/: `npm test` builds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
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
