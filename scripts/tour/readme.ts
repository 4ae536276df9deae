// README's tour, written from the traces (scripts/tour/run.ts) and the glosses (glosses.ts), and
// read back by the tour test. Between the section's two markers: the 2025-11-25 path in full, then
// where the 2026-07-28 one differs (its own stops, numbered in its own order, and the 2025-11-25
// stops it does not reach; the others run in the same order), then the figures.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readme, ROOT, section, tourRow } from "../../test/helpers/tour.js";
import { GLOSSES, MODERN_GLOSSES } from "./glosses.js";
import type { Tour } from "./run.js";
import { stopKey, type Stop } from "./stops.js";

export const HEADING = "One tools/call, bytes to bytes";
export const BEGIN = "<!-- tour:begin: written by `npm run tour -- --write` from a trace; the glosses are in scripts/tour/glosses.ts -->";
export const END = "<!-- tour:end -->";
const README = join(ROOT, "README.md");

export interface Figures {
  version: string;
  functions: number;
  lines: number;
  files: number;
}

export function figures(tour: Tour): Figures {
  return {
    version: tour.version,
    functions: tour.stops.length,
    lines: tour.stops.reduce((sum, stop) => sum + stop.lines, 0),
    files: new Set(tour.stops.map((stop) => stop.file)).size,
  };
}

/** The stops that have no gloss, as `file symbol` keys. */
export function unglossed(tours: Tour[]): string[] {
  return [...new Set(tours.flatMap((tour) => tour.stops.map(stopKey)))].filter((key) => !GLOSSES[key]?.trim());
}

/** The glosses of stops no path reaches any more, and the 2026-07-28 ones of stops not on both paths. */
export function unusedGlosses(tours: Tour[]): string[] {
  const paths = tours.map((tour) => new Set(tour.stops.map(stopKey)));
  const unreached = Object.keys(GLOSSES).filter((key) => !paths.some((path) => path.has(key)));
  const unshared = Object.keys(MODERN_GLOSSES).filter((key) => !paths.every((path) => path.has(key)));
  return [...unreached, ...unshared];
}

/** A row of the 2026-07-28 table: the stop's place in that path (1-based), the stop, and what it says. */
interface ModernRow {
  at: number;
  key: string;
  gloss: string;
}

/**
 * Where the 2026-07-28 path differs from the 2025-11-25 one: its stops that are not on the other,
 * those that do something else there (MODERN_GLOSSES), and any the two take in another order; and
 * the 2025-11-25 stops it does not reach (their numbers there).
 */
function differences(handshake: string[], modern: string[]): { rows: ModernRow[]; dropped: number[] } {
  const inBoth = new Set(modern.filter((key) => handshake.includes(key)));
  const same = commonOrder(handshake.filter((key) => inBoth.has(key)), modern.filter((key) => inBoth.has(key)));
  const rows: ModernRow[] = [];
  modern.forEach((key, i) => {
    const there = handshake.indexOf(key) + 1;
    if (!inBoth.has(key)) rows.push({ at: i + 1, key, gloss: GLOSSES[key] ?? "" });
    else if (MODERN_GLOSSES[key]) rows.push({ at: i + 1, key, gloss: `(stop ${there} above) ${MODERN_GLOSSES[key]}` });
    else if (!same.has(key)) rows.push({ at: i + 1, key, gloss: `(stop ${there} above) as there, in another order` });
  });
  const dropped = handshake.flatMap((key, i) => (inBoth.has(key) ? [] : [i + 1]));
  return { rows, dropped };
}

/** The longest run of keys both sequences hold in the same order (a longest common subsequence). */
function commonOrder(a: string[], b: string[]): Set<string> {
  const length = a.map(() => b.map(() => 0));
  const at = (i: number, j: number) => (i < a.length && j < b.length ? length[i]![j]! : 0);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) length[i]![j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  }
  const kept = new Set<string>();
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) kept.add(a[i]!), i++, j++;
    else if (at(i + 1, j) >= at(i, j + 1)) i++;
    else j++;
  }
  return kept;
}

/**
 * The 2026-07-28 path as README tells it: its table's rows at their places, and every other place
 * taken, in order, by the 2025-11-25 stops that are neither dropped nor in that table.
 */
export function modernPath(handshake: string[], rows: { at: number; key: string }[], dropped: number[]): string[] {
  const listed = new Set(rows.map((row) => row.key));
  const rest = handshake.filter((key, i) => !dropped.includes(i + 1) && !listed.has(key));
  const path: string[] = [];
  const length = rows.length + rest.length;
  for (let at = 1; at <= length; at++) {
    const row = rows.find((r) => r.at === at);
    path.push(row ? row.key : rest.shift()!);
  }
  return path;
}

function stopCell(key: string, stops: Stop[]): string {
  const stop = stops.find((s) => stopKey(s) === key)!;
  return `\`${stop.file}\` \`${stop.symbol}\``;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

/** The lines between the markers. Throws if a stop has no gloss: a table row must say something. */
export function render(tours: Tour[]): string {
  const missing = unglossed(tours);
  if (missing.length > 0) throw new Error(`tour: no gloss for ${missing.join("; ")} (scripts/tour/glosses.ts)`);
  const [handshake, modern] = tours as [Tour, Tour];
  const handshakeKeys = handshake.stops.map(stopKey);
  const modernKeys = modern.stops.map(stopKey);
  const { rows, dropped } = differences(handshakeKeys, modernKeys);
  const told = modernPath(handshakeKeys, rows, dropped);
  if (told.join("\n") !== modernKeys.join("\n")) throw new Error("tour: the 2026-07-28 table would not tell its path (a bug in readme.ts)");
  const counts = tours.map(figures);
  return [
    `In a ${handshake.version} session (after \`initialize\` and \`notifications/initialized\`), the host writes the`,
    "first line below; the server answers with the second:",
    "",
    "```",
    JSON.stringify(handshake.call),
    handshake.answer,
    "```",
    "",
    "| # | stop | what happens there |",
    "|---|---|---|",
    ...handshake.stops.map((stop, i) => `| ${i + 1} | ${stopCell(stopKey(stop), handshake.stops)} | ${cell(GLOSSES[stopKey(stop)]!)} |`),
    "",
    `**The same call in ${modern.version}** (after a \`server/discover\`) carries its own envelope in \`_meta\`, and`,
    "so does its answer:",
    "",
    "```",
    JSON.stringify(modern.call),
    modern.answer,
    "```",
    "",
    `Its path is ${modern.stops.length} stops. These are where it differs, numbered in its own order; the others are the`,
    "stops above, in the same order:",
    "",
    "| # | stop | what happens there |",
    "|---|---|---|",
    ...rows.map((row) => `| ${row.at} | ${stopCell(row.key, modern.stops)} | ${cell(row.gloss)} |`),
    "",
    dropped.length === 0
      ? `Every stop of the ${handshake.version} path is on this one too.`
      : `Of the ${handshake.version} stops, ${list(dropped.map((n) => `${n} (${stopCell(handshakeKeys[n - 1]!, handshake.stops)})`))} ${dropped.length === 1 ? "does" : "do"} not run for it.`,
    "",
    "Counted by `npm run tour` (each function's lines, signature to closing brace, comments included; a",
    "nameless function, such as a callback, counted with the function it is written in; types, setup and",
    `the JSON Schema validator (\`schema/\`) aside):`,
    `${list(counts.map((c) => `${c.functions} functions, ${c.lines} lines in ${c.files} files for ${c.version}`))}.`,
  ].join("\n");
}

function list(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** README's generated lines, between the markers; undefined when the section has no markers. */
export function generated(readme: string): string | undefined {
  const text = section(readme, HEADING);
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin === -1 || end < begin) return undefined;
  return text.slice(begin + BEGIN.length, end).replace(/^\n/, "").replace(/\n$/, "");
}

/** Replaces README's generated lines with `lines`; the section's own prose around them stays. */
export function writeReadme(lines: string): void {
  const text = readme();
  if (generated(text) === undefined) throw new Error(`README.md: the section "${HEADING}" has no ${BEGIN} ... ${END} markers to write between`);
  const at = text.indexOf(BEGIN);
  const next = text.slice(0, at + BEGIN.length) + "\n" + lines + "\n" + text.slice(text.indexOf(END, at));
  writeFileSync(README, next);
}

export interface ReadmeTour {
  /** The stops of the section's first table, and of its second (with their numbers). */
  handshake: string[];
  modern: { at: number; key: string }[];
  /** The 2025-11-25 stops the section says the 2026-07-28 path does not reach. */
  dropped: number[];
  figures: Figures[];
}

/** What README's tour section says, read from its tables and sentences (markers or not). */
export function readTour(readme: string): ReadmeTour {
  const text = section(readme, HEADING);
  const tables: { at: number; key: string }[][] = [];
  let table: { at: number; key: string }[] | undefined;
  for (const line of text.split("\n")) {
    const row = tourRow(line);
    if (row) {
      if (!table) tables.push((table = []));
      table.push({ at: row.at, key: stopKey(row) });
    } else if (!line.startsWith("|")) table = undefined;
  }
  const droppedLine = text.split("\n").find((line) => /^Of the \S+ stops, /.test(line)) ?? "";
  return {
    handshake: (tables[0] ?? []).map((row) => row.key),
    modern: tables[1] ?? [],
    dropped: [...droppedLine.matchAll(/(\d+) \(`/g)].map((match) => Number(match[1])),
    figures: [...text.matchAll(/(\d+) functions, (\d+) lines in (\d+) files for (\S+?)[.,;\s]/g)].map((m) => ({
      version: m[4]!,
      functions: Number(m[1]),
      lines: Number(m[2]),
      files: Number(m[3]),
    })),
  };
}
