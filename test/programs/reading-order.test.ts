// The README's guides to src/ stay true: the reading order names every file once, in the same order
// as src/index.ts, and the tour of one tools/call names functions that exist, with the count it states.
import { test } from "node:test";
import assert from "node:assert/strict";
import { indexReadingOrder, namedFiles, readme, section, sourceFiles, tourStops } from "../helpers/tour.js";

const MAX_FILES = 15;
const MAX_LINES = 432;
const all = sourceFiles().filter((file) => file !== "index.ts").sort();

test("reading order: src/index.ts names every source file, and only files that exist", () => {
  const named = namedFiles(indexReadingOrder());
  assert.deepEqual([...named].sort(), all);
});

test("reading order: README lists the same files in the same order as src/index.ts", () => {
  assert.deepEqual(namedFiles(section(readme(), "Reading order of `src/`")), namedFiles(indexReadingOrder()));
});

test("tour: every stop of one tools/call is a function that exists, and README states the true count", () => {
  const tour = section(readme(), "One tools/call, bytes to bytes");
  const stops = tourStops(tour);
  assert.ok(stops.length >= 10, `the tour has only ${stops.length} stops`);
  const files = new Set(stops.map((stop) => stop.file));
  const lines = stops.reduce((sum, stop) => sum + stop.lines, 0);
  const claim = tour.match(/(\d+) lines in (\d+) files/);
  assert.ok(claim, 'the tour states its count as "N lines in M files"');
  assert.deepEqual({ lines: Number(claim[1]), files: Number(claim[2]) }, { lines, files: files.size });
  // What the path measured when the tour was written (issue 8 aimed at about 400 lines in at most
  // 10 files and stopped at 415 in 13; issue 9's dual-era serving added the era check and moved
  // the handler context to its own file: 435 in 15; README says why; issue 10 joins a short
  // answer to its line end in StreamTransport.send: 436; its stdio fast path then folds two
  // async layers into PeerRequests.handle and Dispatcher.run: 422; StreamTransport.send, no longer
  // async, turns its own failures into rejections: 428; it holds a tick's short answers for one
  // write of its own (#flush) rather than corking the stream: 434; a chunk's whole lines are
  // decoded together, so the tour reads #wholeLines and lineFrame, not #append and #finishLine:
  // 420; a review then found three holes in that path: a job that throws stops the inbox, a
  // request waiting when the connection closes still runs, a throwing error hook costs an answer:
  // 432): a change that lengthens it must say so here too.
  assert.ok(files.size <= MAX_FILES, `the tour crosses ${files.size} files, more than ${MAX_FILES}`);
  assert.ok(lines <= MAX_LINES, `the tour is ${lines} lines long, more than ${MAX_LINES}`);
});
