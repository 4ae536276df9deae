// `mcp-wire check FILE [--json]` (src/recordings/check-cli.ts) as a program: its lines, its JSON, and its
// exit codes (0 clean, 1 violations, 2 usage or a file that is not a recording). Run `npm run build` first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../cli/program.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/recordings/check/", import.meta.url));

test("check cli: a clean recording exits 0 and prints nothing", async () => {
  const run = await runCli(["check", `${FIXTURES}valid.recording`]);
  assert.deepEqual([run.code, run.stdout, run.stderr], [0, "", ""]);
});

test("check cli: each violation is one line, FILE:#N dir rule: message (spec link); exit 1", async () => {
  const file = `${FIXTURES}progress.recording`;
  const run = await runCli(["check", file]);
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(run.stdout.trimEnd().split("\n"), [
    `${file}:#6 s2c progress: progress 1 does not increase on 2 (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress)`,
    `${file}:#8 s2c progress: progress for tools/call (#4) after its answer (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress)`,
    `${file}:#10 c2s progress: progress token "p2" is already used by tools/call (#9), still open (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress)`,
  ]);
});

test("check cli: --json prints an array of {index, dir, rule, message, spec}", async () => {
  const run = await runCli(["check", "--json", `${FIXTURES}id-reused.recording`]);
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), [
    { index: 6, dir: "c2s", rule: "id-reused", message: "id 1 was already used by ping (#4)", spec: "https://modelcontextprotocol.io/specification/2025-11-25/basic#requests" },
  ]);
  const clean = await runCli(["check", `${FIXTURES}valid.recording`, "--json"]);
  assert.deepEqual([clean.code, JSON.parse(clean.stdout)], [0, []]);
});

test("check cli: usage errors and unreadable files exit 2 with a message on stderr, nothing on stdout", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-check-"));
  writeFileSync(join(dir, "bad.recording"), "# a header\nnot a marker\n");
  writeFileSync(join(dir, "deep.jsonl"), `{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}\n{"dir":"c2s","msg":${"[".repeat(5000)}${"]".repeat(5000)}}\n`);
  const cases: [string[], RegExp][] = [
    [[], /expected one FILE/],
    [["a", "b"], /expected one FILE/],
    [["--verbose"], /unknown option --verbose/],
    [[join(dir, "missing.recording")], /cannot read .*missing\.recording/],
    [[join(dir, "bad.recording")], /bad\.recording:2: expected "-- session --" or "-- client --"/],
    // A hostile line is a recording the tools refuse (2), not a violation found (1), nor a crash.
    [[join(dir, "deep.jsonl")], /deep\.jsonl:2: a message nested deeper than 256 levels/],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(["check", ...args]);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, "");
  }
});

test("check cli: --help prints its usage on stdout, exit 0", async () => {
  const run = await runCli(["check", "--help"]);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^usage: mcp-wire check FILE \[--json\]/);
});
