// One run of the walkthrough (`npm start -- --record DIR`) for its tests: what it printed, and
// every connection's recording (walkthrough-wire.ts), each line filed under the step it crossed in.
// Run `npm run build` first: the walkthrough and the servers it starts are dist/ programs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const WALKTHROUGH = fileURLToPath(new URL("../../dist/walkthrough.js", import.meta.url));
/** The walkthrough's own bound on a line shown (walkthrough-wire.ts SHOWN_CHARS): this is what the screen promises. */
export const SHOWN_CHARS = 400;

export type Era = "2025-11-25" | "2026-07-28";

/** One line of a recording, with the step and connection it belongs to. */
export interface Recorded { step: string; era: Era; connection: string; dir: "c2s" | "s2c"; text: string; message: any }

export interface Run { status: number | null; stdout: string; stderr: string; recordings: Map<string, string>; recorded: Recorded[] }

/** Runs the walkthrough once, recording into a directory of its own (removed before returning). */
export function runWalkthrough(): Run {
  const directory = mkdtempSync(join(tmpdir(), "walkthrough-test-"));
  try {
    const run = spawnSync(process.execPath, [WALKTHROUGH, "--record", directory], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 60_000 });
    const recordings = new Map(readdirSync(directory).map((file) => [file.replace(/\.recording$/, ""), readFileSync(join(directory, file), "utf8")]));
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, recordings, recorded: [...recordings].flatMap(([name, text]) => linesOf(name, text)) };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A recording's wire lines, each under the "# step N. Title" note before it (the title without its number). */
function linesOf(name: string, text: string): Recorded[] {
  const [era, connection] = [name.slice(0, 10) as Era, name.slice(11)];
  let step = "";
  return text.split("\n").flatMap((line) => {
    step = /^# step \d+\. (.+)$/.exec(line)?.[1] ?? step;
    const wire = /^([<>]) (.*)$/.exec(line);
    if (!wire) return [];
    let message: unknown;
    try {
      message = JSON.parse(wire[2]!);
    } catch {
      message = undefined;
    }
    return [{ step, era, connection, dir: wire[1] === ">" ? "c2s" as const : "s2c" as const, text: wire[2]!, message }];
  });
}

/** A wire line as the walkthrough shows it: whole, or cut with its full length said. */
export function asShown(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} bytes in all)` : text;
}

/** One wire line on screen: its step, era, direction, the text after the arrow, and the note under it. */
export interface Printed { step: string; era: Era; dir: "c2s" | "s2c"; arrow: string; shown: string; note: string }

export function printedOf(stdout: string): Printed[] {
  const lines = stdout.split("\n");
  let step = "";
  let era: Era = "2025-11-25";
  return lines.flatMap((line, i) => {
    step = /^\d+\. (.+)$/.exec(line)?.[1] ?? step;
    era = (/^ {2}▸ (\d{4}-\d\d-\d\d)/.exec(line)?.[1] as Era | undefined) ?? era;
    const wire = /^(([→←]) [^{]*?) {2}(.*)$/.exec(line);
    if (!wire) return [];
    return [{ step, era, dir: wire[2] === "→" ? "c2s" as const : "s2c" as const, arrow: wire[1]!, shown: wire[3]!, note: lines[i + 1]! }];
  });
}
