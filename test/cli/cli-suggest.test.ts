// "did you mean": the bounded edit distance (cli/suggest.ts), and its three uses: a mistyped
// command and flag (usage errors, exit 2) and a mistyped tool name (the server's error, exit 1).
// Run `npm run build` first: the program tests need dist/.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseCommandLine, UsageError } from "../../src/cli/arguments.js";
import { closest, didYouMean, editDistance } from "../../src/cli/suggest.js";
import { ExitCode } from "../../src/cli/output.js";
import { DEMO, runCli } from "./program.js";

test("edit distance: insertions, deletions, substitutions and a swap of neighbours each cost 1", () => {
  assert.equal(editDistance("add", "add", 3), 0);
  assert.equal(editDistance("ad", "add", 3), 1);
  assert.equal(editDistance("tools", "tols", 3), 1);
  assert.equal(editDistance("tools", "toosl", 3), 1);
  assert.equal(editDistance("ping", "pong", 3), 1);
  assert.equal(editDistance("", "abc", 3), 3);
  assert.equal(editDistance("kitten", "sitting", 3), 3);
});

test("edit distance: bounded; past the bound it answers bound + 1, and long names are not compared letter by letter", () => {
  assert.equal(editDistance("a", "bcdefgh", 2), 3);
  assert.equal(editDistance("kitten", "sitting", 2), 3);
  const long = "x".repeat(10_000);
  assert.equal(editDistance(long, `${long}y`, 3), 4);
  assert.equal(editDistance(long, long, 3), 0);
});

test("closest: the nearest candidates first, none when nothing is near", () => {
  assert.deepEqual(closest("ad", ["echo", "add", "get_time", "countdown"]), ["add"]);
  assert.deepEqual(closest("tool", ["tools", "prompts", "templates"]), ["tools"]);
  assert.deepEqual(closest("fly", ["tools", "ping", "call"]), []);
  assert.deepEqual(closest("prompt", ["prompts", "prompt_x", "read"]), ["prompts", "prompt_x"]);
  assert.equal(didYouMean("fly", ["tools"]), "");
  assert.equal(didYouMean("tols", ["tools", "call"]), ' (did you mean "tools"?)');
  assert.equal(didYouMean("prompt", ["prompts", "prompt_x"]), ' (did you mean "prompts" or "prompt_x"?)');
});

const refused: { argv: string[]; message: RegExp }[] = [
  { argv: ["tols", "--", "x"], message: /^unknown command "tols" \(did you mean "tools"\?\)$/ },
  { argv: ["recrod", "--", "x"], message: /^unknown command "recrod" \(did you mean "record"\?\)$/ },
  { argv: ["--trcae", "tools", "--", "x"], message: /^unknown option --trcae \(did you mean --trace\?\)$/ },
  { argv: ["--time-out", "5", "tools", "--", "x"], message: /^unknown option --time-out \(did you mean --timeout\?\)$/ },
  { argv: ["--confg", "a.json", "tools"], message: /^unknown option --confg \(did you mean --config\?\)$/ },
];
for (const c of refused) {
  test(`cli arguments: refuses ${JSON.stringify(c.argv)}, with a suggestion`, () => {
    assert.throws(() => parseCommandLine(c.argv), (error: unknown) => error instanceof UsageError && c.message.test(error.message));
  });
}

describe("cli program: did you mean", { timeout: 60_000 }, () => {
  test("a mistyped command: exit 2, the suggestion on the usage error's line", async () => {
    const result = await runCli(["tolos", ...DEMO]);
    assert.equal(result.code, ExitCode.usage);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /^mcp-wire: unknown command "tolos" \(did you mean "tools"\?\)\n\(mcp-wire --help shows the usage\)\n$/);
  });

  for (const args of [["ad", "a=1", "b=2"], ["ad", '{"a":1,"b":2}'], ["ad"]]) {
    test(`call ${args.join(" ")}: the server's error, then the closest of its tool names`, async () => {
      const result = await runCli(["call", ...args, ...DEMO]);
      assert.equal(result.code, ExitCode.failed, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /^mcp-wire: tools\/call failed: -32602 .*\n\(the server has no tool "ad": did you mean "add"\?\)$/m);
    });
  }

  test("call of a tool that nothing resembles: the server's error alone", async () => {
    const result = await runCli(["call", "zzzzzz", ...DEMO]);
    assert.equal(result.code, ExitCode.failed);
    assert.match(result.stderr, /^mcp-wire: tools\/call failed: -32602 /m);
    assert.doesNotMatch(result.stderr, /did you mean/);
  });
});
