// Comparing a message with the recorded one (src/recordings/compare.ts): each difference by its JSON
// pointer, and the places that change from run to run skipped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareValues, DEFAULT_IGNORE, formatDifference, shorten, splitPointer } from "../../src/recordings/compare.js";

test("compare: each difference by its JSON pointer, absent values as undefined, keys in any order", () => {
  const expected = { id: 1, result: { content: [{ type: "text", text: "a" }], isError: false } };
  const actual = { result: { isError: false, content: [{ type: "text", text: "b" }, { type: "text", text: "c" }] }, id: 1 };
  assert.deepEqual(compareValues(expected, actual), [
    { path: "/result/content/0/text", expected: "a", actual: "b" },
    { path: "/result/content/1", expected: undefined, actual: { type: "text", text: "c" } },
  ]);
  assert.deepEqual(compareValues({ a: 1 }, { a: 1 }), []);
  assert.deepEqual(compareValues(1, [1]), [{ path: "", expected: 1, actual: [1] }]);
});

test("compare: ignored pointers cover all below them; * is any one step; ~1 and ~0 escape / and ~", () => {
  const expected = { result: { content: [{ text: "a" }, { text: "b" }], "a/b": 1, "m~n": 1 } };
  const actual = { result: { content: [{ text: "x" }, { text: "y" }], "a/b": 2, "m~n": 2 } };
  assert.equal(compareValues(expected, actual, ["/result/content/*/text", "/result/a~1b", "/result/m~0n"]).length, 0);
  assert.deepEqual(compareValues(expected, actual, ["/result/content/0"]).map((d) => d.path), ["/result/content/1/text", "/result/a~1b", "/result/m~0n"]);
  assert.equal(compareValues(expected, actual, [""]).length, 0, "the empty pointer is the whole message");
  assert.deepEqual(splitPointer("/a~1b/m~0n/*"), ["a/b", "m~n", "*"]);
});

test("compare: by default, two ISO 8601 timestamps are equal and /result/requestState is ignored", () => {
  assert.ok(DEFAULT_IGNORE.includes("/result/requestState"));
  assert.deepEqual(compareValues({ t: "2026-01-01T00:00:00.000Z" }, { t: "2026-11-30T22:51:28.611Z" }), []);
  assert.deepEqual(compareValues({ result: { requestState: "a" } }, { result: { requestState: "b" } }), []);
  assert.equal(compareValues({ t: "2026-01-01T00:00:00Z" }, { t: "yesterday" }).length, 1, "a timestamp is not any string");
  assert.equal(compareValues({ result: { requestState: "a" } }, { result: { requestState: "b" } }, []).length, 1, "defaults can be left out");
});

test("compare: a difference reads as its path, what was expected, what came (long values cut)", () => {
  assert.equal(formatDifference({ path: "/result/x", expected: "a", actual: undefined }), '  at /result/x\n    expected: "a"\n    actual:   (absent)');
  assert.match(formatDifference({ path: "", expected: "x".repeat(1000), actual: 1 }), /at \(the whole message\)\n {4}expected: "x{299}\.\.\. \(1002 characters\)/);
});

test("compare: what a report shows is printable: control characters and bidi overrides from a recording or a server are escaped", () => {
  assert.equal(shorten("a\u001b[2Jb\u202Ec"), "a\\u001b[2Jb\\u202ec");
  const shown = formatDifference({ path: "/result/\u202Ekey", expected: "\u009bx", actual: "y" });
  assert.match(shown, /at \/result\/\\u202ekey\n/);
  assert.match(shown, /expected: "\\u009bx"/);
  assert.equal(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/.test(shown), false);
});
