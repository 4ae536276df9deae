// mcp-wire/testing as a user's own suite would use it: only the public entry point is imported (as
// the package's "mcp-wire/testing"), a golden of fixtures/transcripts/ replayed against
// `node dist/server.js` and against the demo server in process, a wrong golden failing with the
// CLI's own report, and a session recorded, checked and replayed. Needs dist/: `npm test` builds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assertChecks, assertReplays, checkRecording, recordSession, ReplaySetupError, replayTranscript } from "../../src/testing.js";
import { McpHttpServer } from "../../src/index.js";
import { createDemoServer } from "../../src/demo/server-definition.js";

const GOLDEN = new URL("../../fixtures/transcripts/tools-call.transcript", import.meta.url);
const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const CLI = fileURLToPath(new URL("../../dist/cli.cjs", import.meta.url));
const demoCommand = { command: process.execPath, args: [SERVER], onStderr: () => {} };

/** What `mcp-wire ARGS` prints on stdout, and its exit code. */
function cli(args: string[]): { stdout: string; status: number | null } {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 30_000 });
  return { stdout: run.stdout, status: run.status };
}

/** A temporary directory holding `text` as NAME, for the CLI to read as the library does. */
function fileOf(name: string, text: string, t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-testing-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

test("testing: a golden replays against a command, as `mcp-wire replay` runs it", async () => {
  const result = await assertReplays(GOLDEN, demoCommand);
  assert.equal(result.exitCode, 0);
  assert.deepEqual(result.differences, []);
  // Every client line went, and every server line came back.
  const golden = readFileSync(GOLDEN, "utf8");
  const serverLines = golden.slice(golden.indexOf("-- server --")).trim().split("\n").length - 1;
  assert.equal(result.transcript.filter((entry) => entry.dir === "s2c").length, serverLines);
});

test("testing: the same golden replays against an McpServer in this process, with no child", async () => {
  const result = await assertReplays(GOLDEN, { server: createDemoServer() });
  assert.equal(result.text, `${fileURLToPath(GOLDEN)}: replay matches\n`);
  assert.equal(result.exit?.code, null);
});

test("testing: a session recording replays against a server already listening over HTTP", async (t) => {
  const http = new McpHttpServer(createDemoServer());
  const listening = await http.listen({ port: 0 });
  t.after(async () => {
    await http.close();
    await listening.close();
  });
  const recording = new URL("../../fixtures/recordings/replay/demo-echo-time.recording", import.meta.url);
  const result = await assertReplays(recording, { url: `${listening.origin}/mcp` });
  assert.ok(result.transcript.some((entry) => entry.dir === "s2c"), result.text);
  // The same recording, one answer changed, fails with the pointer at fault.
  const changed = readFileSync(recording, "utf8").replace('"text":"echo: ', '"text":"ECHO: ');
  assert.notEqual(changed, readFileSync(recording, "utf8"));
  await assert.rejects(assertReplays({ text: changed, name: "changed" }, { url: `${listening.origin}/mcp` }), /at \/result\/content\/0\/text\n/);
});

test("testing: a wrong golden fails with the CLI's report, the same differences by JSON pointer", async (t) => {
  const wrong = readFileSync(GOLDEN, "utf8").replace('{"sum":42}}}', '{"sum":43}}}');
  assert.notEqual(wrong, readFileSync(GOLDEN, "utf8"));
  const file = fileOf("wrong.transcript", wrong, t);
  const printed = cli(["replay", file, "--", process.execPath, SERVER]);
  assert.equal(printed.status, 1);
  assert.match(printed.stdout, /at \/result\/structuredContent\/sum\n {4}expected: 43\n {4}actual: {3}42/);
  for (const target of [demoCommand, { server: createDemoServer() }]) {
    await assert.rejects(assertReplays(file, target), (error: Error) => {
      assert.ok(error instanceof assert.AssertionError);
      assert.equal(error.message, printed.stdout.trimEnd());
      return true;
    });
  }
  // From text, the report names it as told; the result is there to read without an assertion.
  const result = await replayTranscript({ text: wrong, name: "wrong golden" }, { server: createDemoServer() });
  assert.equal(result.exitCode, 1);
  assert.deepEqual(result.differences.map((difference) => difference.differences.map((one) => one.path)), [["/result/structuredContent/sum"]]);
  assert.ok(result.text.endsWith("wrong golden: 1 problem\n"), result.text);
});

test("testing: a recording that cannot be replayed as asked throws the CLI's usage error, not a failed assertion", async () => {
  const printed = spawnSync(process.execPath, [CLI, "replay", fileURLToPath(GOLDEN), "--edition", "other", "--", process.execPath, SERVER], { encoding: "utf8", timeout: 30_000 });
  assert.equal(printed.status, 2);
  await assert.rejects(replayTranscript(GOLDEN, demoCommand, { edition: "other" }), (error: Error) => {
    assert.ok(error instanceof ReplaySetupError);
    assert.equal(`mcp-wire replay: ${error.message}\n(mcp-wire replay --help shows the usage)\n`, printed.stderr);
    return true;
  });
});

test("testing: a server that exits mid-session fails the replay as the CLI's exit 3 does", async (t) => {
  const text = await recordSession({ server: createDemoServer() }, async (client) => void await client.callTool("echo", { text: "hi" }));
  const file = fileOf("session.recording", text, t);
  const exits = ["-e", "process.exit(4)"];
  const printed = cli(["replay", file, "--", process.execPath, ...exits]);
  assert.equal(printed.status, 3);
  const result = await replayTranscript(file, { command: process.execPath, args: exits });
  assert.equal(result.exitCode, 3);
  assert.equal(result.ok, false);
  assert.equal(result.text, printed.stdout);
  assert.match(result.failure ?? "", /exited with code 4/);
});

test("testing: a session recorded in process checks clean and replays against the command", async () => {
  const text = await recordSession({ server: createDemoServer() }, async (client) => {
    await client.listTools();
    const sum = await client.callTool("add", { a: 2, b: 40 });
    assert.deepEqual(sum.structuredContent, { sum: 42 });
  }, { prose: ["the demo's add, called once"] });
  assert.match(text, /^# the demo's add, called once\n-- session --\n> /);
  assert.ok(text.includes('"name":"add"'), text);
  assertChecks({ text, name: "recorded" });
  await assertReplays({ text, name: "recorded" }, demoCommand);
});

test("testing: a session recorded against a command names it, and replays by the recorded command alone", async () => {
  const text = await recordSession(demoCommand, async (client) => {
    await client.callTool("echo", { text: "hi" });
  });
  const command = /^# command: (.*)$/m.exec(text)?.[1];
  assert.ok(command?.endsWith("server.js"), text);
  assert.match(text, /^# transport: stdio$/m);
  const result = await assertReplays({ text, name: "recorded" }, undefined);
  assert.equal(result.exitCode, 0);
});

test("testing: a recording that breaks the spec fails assertChecks with the CLI's lines", (t) => {
  const text = [
    "-- session --",
    '> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
    '< {"jsonrpc":"1.0","id":1,"result":{}}',
    "",
  ].join("\n");
  const file = fileOf("bad.recording", text, t);
  const printed = cli(["check", file]);
  assert.equal(printed.status, 1);
  const result = checkRecording(file);
  assert.equal(result.ok, false);
  assert.equal(result.text, printed.stdout);
  const count = printed.stdout.trim().split("\n").length;
  assert.throws(() => assertChecks(file), (error: Error) => {
    assert.ok(error instanceof assert.AssertionError);
    assert.equal(error.message, `${printed.stdout}${file}: ${count} violation${count === 1 ? "" : "s"} of the spec`);
    return true;
  });
});
