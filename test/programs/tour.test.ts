// README's tour of one tools/call is the path the call takes: a trace of the call in each generation
// through the real demo server (scripts/tour/) must find in README's tables every function of src/
// that ran for it, in order of first call, and nothing else, with the figures README states.
// After a change to the path: `npm run tour -- --write`, which says which stops need a gloss.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GLOSSES } from "../../scripts/tour/glosses.js";
import { BEGIN, END, figures, generated, HEADING, modernPath, readTour, render, unglossed, unusedGlosses } from "../../scripts/tour/readme.js";
import { traceTours, type Tour } from "../../scripts/tour/run.js";
import { stopAt, stopKey } from "../../scripts/tour/stops.js";
import { indexReadingOrder, readme } from "../helpers/tour.js";

let tours: Tour[];
before(async () => {
  tours = await traceTours();
});

const tourOf = (version: string) => tours.find((tour) => tour.version === version)!;

/** Fails on a function that runs but is not told, on a stop told that does not run, and on another order. */
function assertTold(told: string[], ran: string[], version: string): void {
  const missing = ran.filter((key) => !told.includes(key));
  const invented = told.filter((key) => !ran.includes(key));
  assert.deepEqual(missing, [], `${version}: ${missing.length} of the ${ran.length} functions the call runs are not in README's tour`);
  assert.deepEqual(invented, [], `${version}: README's tour lists ${invented.length} stops the call does not reach`);
  assert.deepEqual(told, ran, `${version}: README's tour has the stops in another order than the call reaches them`);
}

test("tour: each generation's call is answered: the trace followed a tools/call that worked", () => {
  for (const tour of tours) {
    const answer = JSON.parse(tour.answer) as { id: number; result: { structuredContent: { sum: number }; resultType?: string } };
    assert.equal(answer.id, tour.call.id, tour.version);
    assert.equal(answer.result.structuredContent.sum, 42, tour.version);
    assert.equal(answer.result.resultType, tour.version === "2026-07-28" ? "complete" : undefined, tour.version);
  }
});

test("tour: README's 2025-11-25 table lists every function the call runs, in order of first call, and no other", () => {
  assertTold(readTour(readme()).handshake, tourOf("2025-11-25").stops.map(stopKey), "2025-11-25");
});

test("tour: README's 2026-07-28 table, with the 2025-11-25 one, tells that path in full and in order", () => {
  const told = readTour(readme());
  assert.ok(told.modern.length > 0, "README's tour has no 2026-07-28 table");
  assertTold(modernPath(told.handshake, told.modern, told.dropped), tourOf("2026-07-28").stops.map(stopKey), "2026-07-28");
});

test("tour: README states each path's functions, lines and files as the trace counts them", () => {
  assert.deepEqual(readTour(readme()).figures, tours.map(figures));
});

test("tour: every stop has a gloss, and every gloss a stop", () => {
  assert.deepEqual(unglossed(tours), [], "stops without a line in scripts/tour/glosses.ts");
  assert.deepEqual(unusedGlosses(tours), [], "glosses in scripts/tour/glosses.ts of stops no path reaches");
});

test("tour: README's section is what `npm run tour -- --write` writes", () => {
  assert.equal(generated(readme()), render(tours));
});

test("tour: src/index.ts marks with * the files the 2025-11-25 tour crosses, and no others", () => {
  const order = indexReadingOrder();
  const marked = [...order.matchAll(/^\/\/\s+\* ([\w/-]+\.ts)|([\w/-]+\.ts) \(\*\)/gm)].map((match) => match[1] ?? match[2]!);
  const crossed = [...new Set(tourOf("2025-11-25").stops.map((stop) => stop.file))];
  assert.deepEqual([...marked].sort(), [...crossed].sort());
});

// What the path measured when the tour was written (issue 8 aimed at about 400 lines in at most
// 10 files and stopped at 415 in 13; issue 9's dual-era serving added the era check and moved the
// handler context to its own file: 435 in 15; issue 10's stdio fast path and a review of it: 432
// in 15. Those were counts of a table typed by hand. Issue 21 traced the call instead, and found
// what the table had missed: 511 lines in 16 files for 2025-11-25; 653 in 19 for 2026-07-28. Then
// its layering judged the era once (no wrapper row, no retry fields read in the handshake era) and
// split the server and the readers along their seams (era-dispatcher.ts, catalog.ts, read-fields.ts,
// read-client-requests.ts, read-modern.ts): fewer lines, more files, 492 in 18 and 604 in 23). A
// change that lengthens the path must say so here too.
const MAX = { "2025-11-25": { lines: 492, files: 18 }, "2026-07-28": { lines: 604, files: 23 } };

test("tour: the path of each generation stays within the lines and files it measured", () => {
  for (const tour of tours) {
    const { lines, files } = figures(tour);
    const max = MAX[tour.version];
    assert.ok(files <= max.files, `${tour.version}: the tour crosses ${files} files, more than ${max.files}`);
    assert.ok(lines <= max.lines, `${tour.version}: the tour is ${lines} lines long, more than ${max.lines}`);
  }
});

test("tour: the 2026-07-28 table tells its path whatever the two paths share, in whatever order", () => {
  const keys = Object.keys(GLOSSES).slice(0, 6);
  const stops = (picked: string[]) => picked.map((key) => {
    const [file, ...symbol] = key.split(" ");
    return { file: file!, symbol: symbol.join(" "), from: 1, to: 1, lines: 1, functions: [] };
  });
  const [a, b, c, d, e, f] = keys as [string, string, string, string, string, string];
  const cases = [[a, b, c, d], [a, c, b, e], [e, f], [d, c, b, a], [a, b, c, d, e, f], []];
  for (const modern of cases) {
    const tours: Tour[] = [
      { version: "2025-11-25", call: { jsonrpc: "2.0", method: "tools/call" }, answer: "{}", stops: stops([a, b, c, d]) },
      { version: "2026-07-28", call: { jsonrpc: "2.0", method: "tools/call" }, answer: "{}", stops: stops(modern) },
    ];
    const told = readTour(`## ${HEADING}\n\n${BEGIN}\n${render(tours)}\n${END}\n`);
    assert.deepEqual(told.handshake, [a, b, c, d]);
    assert.deepEqual(modernPath(told.handshake, told.modern, told.dropped), modern, JSON.stringify(modern));
  }
});

test("tour: a stop is named as README names it, and a nameless function is part of the one it is written in", () => {
  const dir = mkdtempSync(join(tmpdir(), "tour-"));
  try {
    const path = join(dir, "sample.ts");
    const text = [
      "export class Box {",
      "  #n = 0;",
      "  constructor() {",
      "    this.#n = 1;",
      "  }",
      "  get n() { return this.#n; }",
      "  #bump() {",
      "    return [1].map((x) => x + this.#n);",
      "  }",
      "}",
      'export const table = { "a/b"(p: unknown) { return p; }, nested: { c: () => 1 } };',
      "export function rows() {",
      "  return { handle: (x: unknown) => x };",
      "}",
      "export function maker() {",
      "  const inner = () => 2;",
      "  return inner;",
      "}",
      'server.tool({ name: "add" }, (args: unknown) => {',
      "  return args;",
      "});",
      "class Bare {",
      "  static shared = 1;",
      "  readonly list: number[] = [];",
      "  seen = new Set<number>();",
      "}",
      "export const Kept = class {",
      "  keep() { return 1; }",
      "};",
      "export const memo = once(() => 3);",
    ].join("\n");
    writeFileSync(path, text);
    const at = (snippet: string, v8Name: string) => {
      const offset = text.indexOf(snippet);
      const before = text.slice(0, offset).split("\n");
      const stop = stopAt(path, "sample.ts", before.length - 1, before.at(-1)!.length, v8Name);
      return `${stop.symbol} ${stop.from}-${stop.to}`;
    };
    assert.equal(at("constructor()", "Box"), "Box.constructor 3-5");
    assert.equal(at("#n = 0", "<instance_members_initializer>"), "Box.constructor 3-5");
    assert.equal(at("get n()", "get n"), "Box.n 6-6");
    assert.equal(at("(x) =>", ""), "Box.#bump 7-9");
    assert.equal(at('"a/b"(p', "a/b"), 'table."a/b" 11-11');
    assert.equal(at("() => 1", "c"), "table.nested.c 11-11");
    assert.equal(at("(x: unknown) => x", "handle"), "rows.handle 13-13");
    assert.equal(at("() => 2", "inner"), "maker 15-18");
    assert.equal(at("(args: unknown)", ""), 'tool "add" 19-21');
    assert.equal(at("readonly list", "<instance_members_initializer>"), "Bare.constructor 24-25");
    assert.equal(at("keep()", "keep"), "Kept.keep 28-28");
    assert.equal(at("() => 3", ""), "memo 30-30");
    assert.throws(() => at("get n()", "rows"), /V8 says "rows" begins here/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
