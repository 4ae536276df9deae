// Reads the README's guides to src/: the reading order (every file, in one order, the same in README
// and src/index.ts) and the stops of the tour of one tools/call. The tour itself is written from a
// trace (scripts/tour/) and checked against it by test/programs/tour.test.ts.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export const ROOT = new URL("../../", import.meta.url).pathname;
const SRC = join(ROOT, "src");

/** Every .ts file under src/, as a path relative to src/ ("jsonrpc/messages.ts"). */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [relative(SRC, path).replaceAll("\\", "/")] : [];
  });
}

/**
 * The source files named in `text`, in order of first mention, as paths under src/ (`dir/name.ts`
 * or a top-level `name.ts`). A list names itself too (`src/index.ts`); that mention is not an entry.
 */
export function namedFiles(text: string): string[] {
  const named = [...text.matchAll(/(?<![\w/.-])((?:[a-z][\w-]*\/)*[a-z][\w-]*\.ts)\b/g)].map((match) => match[1]!);
  return [...new Set(named)].filter((file) => file !== "src/index.ts" && file !== "index.ts");
}

/** The lines of a markdown section: from its heading to the next heading of the same or a higher level. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, "") === heading);
  if (start === -1) throw new Error(`README has no section "${heading}"`);
  const level = lines[start]!.match(/^#+/)![0].length;
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.match(/^#+/)![0].length <= level);
  return lines.slice(start + 1, end === -1 ? undefined : end).join("\n");
}

/** The reading-order comment at the top of src/index.ts (every line before the first export). */
export function indexReadingOrder(): string {
  const text = readFileSync(join(SRC, "index.ts"), "utf8");
  return text.slice(0, text.indexOf("\nexport"));
}

export function readme(): string {
  return readFileSync(join(ROOT, "README.md"), "utf8");
}

/** A stop of README's tour, as its table row names it. */
export interface Stop {
  /** The file under src/, as `jsonrpc/framing.ts`. */
  file: string;
  /** `name`, `Class.method`, `Class.#method`, `table."tools/call"` or `tool "add"` (scripts/tour/stops.ts). */
  symbol: string;
}

/** A row of one of the tour's tables: its number and its stop (`` | 12 | `file` `symbol` | ... ``); undefined for any other line. */
export function tourRow(line: string): (Stop & { at: number }) | undefined {
  const row = /^\|\s*(\d+)\s*\|\s*`([^`]+\.ts)`\s+`([^`]+)`/.exec(line);
  return row ? { at: Number(row[1]), file: row[2]!, symbol: row[3]! } : undefined;
}

/** The tour's stops, from every table, in the order the rows are written. */
export function tourStops(tour: string): Stop[] {
  return tour.split("\n").flatMap((line) => {
    const row = tourRow(line);
    return row ? [{ file: row.file, symbol: row.symbol }] : [];
  });
}
