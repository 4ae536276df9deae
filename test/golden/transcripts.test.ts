// Replays every golden transcript in fixtures/transcripts against the demo server, in process
// and as a real `node dist/server.js` child, through the product's replay (src/recordings/replay.ts, what
// `mcp-wire replay` runs), which compares the server's messages as parsed JSON.
// MCP_WIRE_UPDATE_GOLDEN=1 rewrites the expected sections from the in-process run, for review.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { describeReport } from "../../src/recordings/replay-cli.js";
import { formatTranscript, goldenChild, goldenInMemory, placeholdersOf, readTranscript, serverLines } from "../helpers/transcript.js";

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
    const report = await goldenInMemory(transcript);
    if (update) {
      const named = placeholdersOf(transcript);
      const lines = serverLines(report).map((line) => { try { return JSON.stringify(named(JSON.parse(line))); } catch { return line; } });
      writeFileSync(path, formatTranscript(transcript, lines));
      return;
    }
    assert.equal(report.failure, undefined);
    assert.deepEqual(report.differences, [], describeReport(report, file));
  });

  test(`golden (node dist/server.js): ${file}`, async () => {
    // The server must exit by itself, cleanly, within 2 s of its input ending (else it is stopped).
    const report = await goldenChild(readTranscript(path.pathname), 2000);
    assert.equal(report.failure, undefined);
    assert.deepEqual(report.differences, [], describeReport(report, file));
    assert.equal(report.stopped, undefined, "the server exits within 2 s of its stdin ending");
    assert.equal(report.exit?.code, 0, "the server exits cleanly when its stdin ends");
  });
}
