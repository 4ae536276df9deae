// mcp-wire call shows the server's notifications/progress on stderr: a bar redrawn in place on a
// terminal, plain lines otherwise, never on stdout; redrawn at most every 100 ms (an injected clock),
// and a server's message cannot write control characters.
// Run `npm run build` first: the program test needs dist/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ProgressDisplay } from "../../src/cli/progress.js";
import { ExitCode } from "../../src/cli/output.js";
import { DEMO, parsedOutput, runCli } from "./program.js";

/** A stderr stand-in: what was written, whether it is a terminal, and its width. */
function fakeStderr(isTTY: boolean, columns = 80): { write(text: string): boolean; isTTY: boolean; columns: number; text: string } {
  return { isTTY, columns, text: "", write(text: string) { this.text += text; return true; } };
}

test("progress, not a terminal: one plain line per report drawn, the last one always", () => {
  let now = 0;
  const stderr = fakeStderr(false);
  const display = new ProgressDisplay(stderr, { terminal: false, now: () => now });
  display.report({ progress: 1, total: 10, message: "one" });
  now = 50;
  display.report({ progress: 2, total: 10, message: "two" }); // within 100 ms: held back
  now = 160;
  display.report({ progress: 3, total: 10, message: "three" });
  now = 170;
  display.report({ progress: 4 }); // held back, but finish draws it
  display.finish();
  assert.equal(stderr.text, "progress 1/10 one\nprogress 3/10 three\nprogress 4\n");
});

test("progress, a terminal: one line redrawn with \\r, ended by a newline at finish", () => {
  let now = 0;
  const stderr = fakeStderr(true, 60);
  const display = new ProgressDisplay(stderr, { terminal: true, now: () => now });
  display.report({ progress: 0, total: 4 });
  now = 200;
  display.report({ progress: 2, total: 4, message: "half" });
  display.finish();
  const draws = stderr.text.split("\r").filter((part) => part !== "");
  assert.equal(draws.length, 2, JSON.stringify(stderr.text));
  assert.match(draws[0]!, /^\[-+\]   0% 0\/4\u001b\[K$/);
  assert.match(draws[1]!, /^\[#+-+\]  50% 2\/4 half\u001b\[K\n$/);
  for (const draw of draws) assert.ok(draw.replace("\u001b[K", "").trimEnd().length <= 60, "fits the terminal's width");
  assert.equal(stderr.text.split("\n").length, 2, "one newline, at the end");
});

test("progress: a bar is cleared before another line is written, and nothing is drawn after finish", () => {
  const stderr = fakeStderr(true);
  const display = new ProgressDisplay(stderr, { terminal: true, now: () => 0 });
  display.clear(); // nothing drawn yet: nothing to clear
  assert.equal(stderr.text, "");
  display.report({ progress: 1, total: 2 });
  display.clear();
  assert.ok(stderr.text.endsWith("\r\u001b[K"));
  display.finish();
  const before = stderr.text;
  display.report({ progress: 2, total: 2 });
  assert.equal(stderr.text, before);
});

test("progress: a hostile message is escaped, kept to one line and cut short", () => {
  for (const terminal of [false, true]) {
    const stderr = fakeStderr(terminal, 80);
    const display = new ProgressDisplay(stderr, { terminal, now: () => 0 });
    display.report({ progress: 1, total: 2, message: `\u001b[2J\u009b31m\rgone\nnext line\t${"x".repeat(10_000)}` });
    display.finish();
    const shown = stderr.text.replaceAll("\r", "").replaceAll("\u001b[K", "");
    assert.doesNotMatch(shown.slice(0, -1), /[\u0000-\u001f\u007f-\u009f]/, JSON.stringify(shown));
    assert.ok(shown.includes("\\u001b[2J\\u009b31m\\u000dgone next line x"), JSON.stringify(shown.slice(0, 80)));
    assert.ok(shown.length <= (terminal ? 81 : 300), `bounded: ${shown.length}`);
  }
});

test("progress: the message passes the session's redactor before it is shown", () => {
  const stderr = fakeStderr(false);
  const display = new ProgressDisplay(stderr, { terminal: false, now: () => 0, redact: (text) => text.replaceAll("s3cret", "[redacted]") });
  display.report({ progress: 1, message: "token s3cret" });
  assert.equal(stderr.text, "progress 1 token [redacted]\n");
});

test("cli program: call sends a progressToken and shows progress on stderr, plain lines when piped; stdout is the result alone", async () => {
  const result = await runCli(["call", "countdown", "steps=3", "intervalMs=5", "--quiet", ...DEMO]);
  const output = parsedOutput(result, ExitCode.ok);
  assert.deepEqual(output.content, [{ type: "text", text: "countdown: done after 3 steps" }]);
  const lines = result.stderr.split("\n").filter((line) => line.startsWith("progress "));
  assert.ok(lines.length >= 1 && lines.length <= 3, result.stderr);
  assert.equal(lines.at(-1), "progress 3/3 0 to go");
  assert.doesNotMatch(result.stderr, /\r|\u001b/);
});

test("cli program: the progressToken goes on tools/call only", async () => {
  const call = await runCli(["--trace", "call", "countdown", "steps=1", "intervalMs=1", ...DEMO]);
  assert.equal(call.code, ExitCode.ok, call.stderr);
  assert.match(call.stderr, /"method":"tools\/call".*"progressToken"/);
  const tools = await runCli(["--trace", "tools", ...DEMO]);
  assert.equal(tools.code, ExitCode.ok, tools.stderr);
  // Our requests only: countdown's description, in the server's answer, speaks of a progressToken.
  const sent = tools.stderr.split("\n").filter((line) => line.includes(" → "));
  assert.ok(sent.some((line) => line.includes('"method":"tools/list"')), tools.stderr);
  assert.ok(sent.every((line) => !line.includes("progressToken")), tools.stderr);
});
