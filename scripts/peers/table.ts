// README's interop table, drawn from fixtures/peers/results.json (the rows the last
// `npm run interop:peers -- --write` stored) between two markers in README.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PEER_FIXTURES, ROOT, type PeerRow } from "./harness.js";

export const RESULTS = join(PEER_FIXTURES, "results.json");
export const README = join(ROOT, "README.md");
export const TABLE_START = "<!-- peers-table: written by npm run interop:peers -- --write -->";
export const TABLE_END = "<!-- peers-table end -->";

export function readResults(): PeerRow[] {
  return existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as PeerRow[]) : [];
}

export function writeResults(rows: PeerRow[]): void {
  const sorted = [...rows].sort((a, b) => a.language.localeCompare(b.language) || a.peer.localeCompare(b.peer) || a.direction.localeCompare(b.direction));
  writeFileSync(RESULTS, `${JSON.stringify(sorted, null, 2)}\n`);
}

export function renderTable(rows: PeerRow[]): string {
  const lines = ["| peer | version | language | direction | transports | eras | result |", "|---|---|---|---|---|---|---|"];
  for (const row of rows) {
    const result = row.failed === 0 ? `${row.passed} passed` : `${row.passed} passed, ${row.failed} failed`;
    lines.push(`| ${row.peer} | ${row.version} | ${row.language} | ${row.direction} | ${row.transports.join(", ")} | ${row.eras.join(", ")} | ${result} |`);
  }
  return lines.join("\n");
}

/** The table as README holds it now, or undefined without the markers. */
export function readmeTable(text = readFileSync(README, "utf8")): string | undefined {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  return start < 0 || end < start ? undefined : text.slice(start + TABLE_START.length, end).trim();
}

export function writeReadmeTable(): void {
  const text = readFileSync(README, "utf8");
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README has no ${TABLE_START} ... ${TABLE_END}`);
  const table = renderTable(readResults());
  writeFileSync(README, `${text.slice(0, start + TABLE_START.length)}\n${table}\n${text.slice(end)}`);
}
