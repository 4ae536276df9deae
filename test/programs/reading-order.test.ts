// The README's reading order of src/ stays true: it names every file once, in the same order as
// src/index.ts. (The tour of one tools/call is checked against a trace: test/programs/tour.test.ts.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { indexReadingOrder, namedFiles, readme, section, sourceFiles } from "../helpers/tour.js";

const all = sourceFiles().filter((file) => file !== "index.ts").sort();

test("reading order: src/index.ts names every source file, and only files that exist", () => {
  const named = namedFiles(indexReadingOrder());
  assert.deepEqual([...named].sort(), all);
});

test("reading order: README lists the same files in the same order as src/index.ts", () => {
  assert.deepEqual(namedFiles(section(readme(), "Reading order of `src/`")), namedFiles(indexReadingOrder()));
});
