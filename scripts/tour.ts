// `npm run tour`: the stops of one tools/call as README's tour lists them, each with the lines of
// its function, and the total. The tests check that README's stated count matches this one.
import { readme, section, tourStops } from "../test/helpers/tour.js";

const stops = tourStops(section(readme(), "One tools/call, bytes to bytes"));
for (const [i, stop] of stops.entries()) console.log(`${String(i + 1).padStart(2)}. ${`${stop.file} ${stop.symbol}`.padEnd(60)} ${String(stop.lines).padStart(4)} lines`);
const files = new Set(stops.map((stop) => stop.file)).size;
console.log(`${stops.reduce((sum, stop) => sum + stop.lines, 0)} lines in ${files} files`);
