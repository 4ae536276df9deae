// `npm run tour`: follows one tools/call of each generation through the real demo server (a trace,
// scripts/tour/trace.ts) and prints its stops: every function of src/ that ran for it, in order of
// first call, with its lines, and the figures. `npm run tour -- --write` writes them into README's
// section "One tools/call, bytes to bytes"; test/programs/tour.test.ts fails when that section and
// the trace disagree.
// After a change to the path (functions moved, renamed, added): `npm run tour -- --write`; it lists
// each stop without a gloss and writes nothing until scripts/tour/glosses.ts has a line for it (read
// the function, then say in one line what happens there) and no longer lists unused glosses; then
// run it again, and `node --import tsx --test test/programs/tour.test.ts`.

import { readme } from "../test/helpers/tour.js";
import { figures, generated, render, unglossed, unusedGlosses, writeReadme } from "./tour/readme.js";
import { traceTours } from "./tour/run.js";
import { stopKey } from "./tour/stops.js";
import { GLOSSES } from "./tour/glosses.js";

const write = process.argv.includes("--write");
const tours = await traceTours();
for (const tour of tours) {
  console.log(`${tour.version}: ${JSON.stringify(tour.call)}`);
  for (const [i, stop] of tour.stops.entries()) {
    const mark = GLOSSES[stopKey(stop)] ? " " : "?";
    console.log(`${mark}${String(i + 1).padStart(3)}. ${`${stop.file} ${stop.symbol}`.padEnd(66)} ${String(stop.lines).padStart(4)} lines`);
  }
  const { functions, lines, files } = figures(tour);
  console.log(`${functions} functions, ${lines} lines in ${files} files\n`);
}
const missing = unglossed(tours);
const unused = unusedGlosses(tours);
for (const key of missing) console.log(`no gloss (marked ?): "${key}"`);
for (const key of unused) console.log(`gloss of a stop no path reaches (delete it): "${key}"`);
if (write) {
  if (missing.length > 0 || unused.length > 0) {
    console.log("README.md not written: scripts/tour/glosses.ts needs a line for each stop, and none for others");
    process.exit(1);
  }
  const lines = render(tours);
  if (generated(readme()) === lines) console.log("README.md: the tour is up to date");
  else {
    writeReadme(lines);
    console.log("README.md: the tour written");
  }
}
