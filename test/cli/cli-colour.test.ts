// Colour only for a person: on a terminal, unless NO_COLOR is set to anything (https://no-color.org),
// or where FORCE_COLOR asks for it; piped, stdout and stderr are the bytes they always were.
// Run `npm run build` first: the program tests need dist/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { colourOn, Palette } from "../../src/cli/colour.js";
import { ExitCode } from "../../src/cli/output.js";
import { DEMO, nodeScript, runCli } from "./program.js";

test("colour: on a terminal only; NO_COLOR (any non-empty value) turns it off; FORCE_COLOR turns it on", () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  assert.equal(colourOn(tty, {}), true);
  assert.equal(colourOn(pipe, {}), false);
  assert.equal(colourOn({}, {}), false);
  assert.equal(colourOn(tty, { NO_COLOR: "1" }), false);
  assert.equal(colourOn(tty, { NO_COLOR: "0" }), false, "any non-empty value");
  assert.equal(colourOn(tty, { NO_COLOR: "" }), true, "empty is unset");
  assert.equal(colourOn(pipe, { FORCE_COLOR: "1" }), true);
  assert.equal(colourOn(tty, { FORCE_COLOR: "0" }), false);
  assert.equal(colourOn(pipe, { FORCE_COLOR: "1", NO_COLOR: "1" }), false, "NO_COLOR wins");
});

test("colour: a palette that is off changes nothing; one that is on marks errors, isError and headings", () => {
  const off = new Palette(false);
  const on = new Palette(true);
  const json = JSON.stringify({ content: [], isError: true }, null, 2);
  assert.equal(off.result(json), json);
  assert.equal(off.error("mcp-wire: x failed"), "mcp-wire: x failed");
  assert.equal(off.heading("h"), "h");
  assert.equal(on.error("mcp-wire: x failed"), "\u001b[31mmcp-wire: x failed\u001b[39m");
  assert.equal(on.heading("h"), "\u001b[1mh\u001b[22m");
  assert.ok(on.result(json).includes('"isError": \u001b[1;31mtrue\u001b[22;39m'));
  assert.equal(on.result(json).replace(/\u001b\[[0-9;]*m/g, ""), json, "the same text, colour aside");
  assert.equal(on.result('{\n  "text": "\\"isError\\": true"\n}'), '{\n  "text": "\\"isError\\": true"\n}', "a string's text is not the marker");
});

const ESC = /\u001b/;

test("cli program: piped, with colour asked for nowhere, stdout and stderr carry no escape and stdout is today's JSON", async () => {
  const env = { ...process.env, NO_COLOR: "", FORCE_COLOR: "" };
  for (const args of [["call", "echo", "text=hi", ...DEMO], ["call", "add", "a=x", "b=1", ...DEMO], ["ping", ...nodeScript("process.exit(3)")]]) {
    const result = await runCli(args, 30_000, env);
    assert.doesNotMatch(result.stdout + result.stderr, ESC, JSON.stringify(result));
    if (result.code !== ExitCode.failed) assert.equal(result.stdout, JSON.stringify(JSON.parse(result.stdout), null, 2) + "\n");
  }
});

test("cli program: FORCE_COLOR colours a failure on stderr and isError on stdout; NO_COLOR beats it", async () => {
  const forced = { ...process.env, FORCE_COLOR: "1", NO_COLOR: "" };
  const failed = await runCli(["ping", ...nodeScript("process.exit(3)")], 30_000, forced);
  assert.equal(failed.code, ExitCode.failed);
  assert.match(failed.stderr, /\u001b\[31mmcp-wire: .*failed/);
  const toolError = await runCli(["call", "add", "a=x", "b=1", ...DEMO], 30_000, forced);
  assert.equal(toolError.code, ExitCode.toolError, toolError.stderr);
  assert.match(toolError.stdout, /"isError": \u001b\[1;31mtrue/);
  const plain = await runCli(["call", "add", "a=x", "b=1", ...DEMO], 30_000, { ...forced, NO_COLOR: "1" });
  assert.doesNotMatch(plain.stdout + plain.stderr, ESC);
});
