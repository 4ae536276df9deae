// A recording's placeholders and editions (src/recordings/directives.ts), from the header lines.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DirectiveError, editions, MAX_PLACEHOLDER_FILE_BYTES, placeholders } from "../../src/recordings/directives.js";
import { parseRecording } from "../../src/recordings/recording.js";

const recording = (...header: string[]) => parseRecording([...header, "-- client --", "-- server --", ""].join("\n"));

test("placeholders: a timestamp, a file's text and one of its sections become their names; nothing else changes", () => {
  const dir = mkdtempSync(join(tmpdir(), "directives-"));
  writeFileSync(join(dir, "notes.md"), "# Notes\n\n## The stdio transport\nlines\n\n```\n## not a heading\n```\n## Next\nmore\n");
  const named = placeholders(recording("# placeholder: <time> iso-time", "# placeholder: <notes> file notes.md",
    "# placeholder: <stdio> section notes.md the-stdio-transport"), dir)!;
  const text = "# Notes\n\n## The stdio transport\nlines\n\n```\n## not a heading\n```\n## Next\nmore\n";
  assert.deepEqual(named({ a: ["2026-01-31T12:00:00.000Z", text, "## The stdio transport\nlines\n\n```\n## not a heading\n```\n", "x"], n: 1 }),
    { a: ["<time>", "<notes>", "<stdio>", "x"], n: 1 });
  assert.equal(placeholders(recording("# prose"), dir), undefined);
});

test("placeholders: a line that cannot be read, or a file or section that is not there, is a DirectiveError naming the line", () => {
  for (const line of ["# placeholder: time iso-time", "# placeholder: <x> sometimes", "# placeholder: <x> file /no/such/file",
    "# placeholder: <x> section /no/such/file slug", "# placeholder: <x> file /dev/zero", "# placeholder: <x> file /tmp"]) {
    assert.throws(() => placeholders(recording(line), tmpdir()), (error: Error) => error instanceof DirectiveError && error.message.includes(line), line);
  }
});

test("editions: the editions a recording holds for, and each one's pointers, the reason left out", () => {
  const found = editions(recording("# editions: textbook production", "# differs in textbook: /result/serverInfo /result/instructions (its own)",
    "# differs in textbook: /error/data/supported"));
  assert.deepEqual(found.holdsFor, ["textbook", "production"]);
  assert.deepEqual(found.differs.get("textbook"), ["/result/serverInfo", "/result/instructions", "/error/data/supported"]);
  assert.equal(editions(recording("# prose")).holdsFor, undefined);
  assert.throws(() => editions(recording("# differs in textbook: everything")), DirectiveError);
});

test("placeholders: a file over MAX_PLACEHOLDER_FILE_BYTES is refused before it is read", () => {
  const dir = mkdtempSync(join(tmpdir(), "directives-"));
  writeFileSync(join(dir, "big.md"), Buffer.alloc(MAX_PLACEHOLDER_FILE_BYTES + 1, 0x61));
  assert.throws(() => placeholders(recording("# placeholder: <big> file big.md"), dir), /over the limit of 16777216/);
});
