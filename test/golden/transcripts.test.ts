// Replays every golden transcript in fixtures/transcripts against the demo server, in process
// and as a real `node dist/server.js` child, and compares the server's messages as parsed JSON.
// MCP_WIRE_UPDATE_GOLDEN=1 rewrites the expected sections from the in-process run, for review.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { formatTranscript, normalizeLines, readTranscript, replayChild, replayInMemory } from "../helpers/transcript.js";

const dir = new URL("../../fixtures/transcripts/", import.meta.url);
const update = process.env.MCP_WIRE_UPDATE_GOLDEN === "1";
const files = readdirSync(dir).filter((f) => f.endsWith(".transcript")).sort();

test("golden: there are transcripts to replay", () => {
  assert.ok(files.length >= 20, `found only ${files.length}`);
});

for (const file of files) {
  const path = new URL(file, dir);
  const transcript = readTranscript(path.pathname);

  test(`golden (in process): ${file}`, async () => {
    const actual = normalizeLines(await replayInMemory(transcript));
    if (update) {
      writeFileSync(path, formatTranscript(transcript, actual.map((m) => JSON.stringify(m))));
      return;
    }
    assert.deepEqual(actual, normalizeLines(transcript.server));
  });

  test(`golden (node dist/server.js): ${file}`, async () => {
    const { lines, code, exitMs } = await replayChild(transcript);
    assert.deepEqual(normalizeLines(lines), normalizeLines(readTranscript(path.pathname).server));
    assert.equal(code, 0, "the server exits cleanly when its stdin ends");
    assert.ok(exitMs < 2000, `the server took ${exitMs} ms to exit after stdin closed`);
  });
}
