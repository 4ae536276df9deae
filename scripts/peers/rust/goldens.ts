// The Rust suite's goldens: fixtures/peers/rust/<name>.recording, written by our recorder and
// then labelled with the header test/golden/peers.test.ts reads (# peer, # direction, and how to
// replay it: # command/# args for their client, # drive/# exit for their server).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PEER_FIXTURES } from "../harness.js";

export function goldenPath(name: string): string {
  const dir = join(PEER_FIXTURES, "rust");
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.recording`);
}

/** Header fields in the order written; a list repeats its key (e.g. several # ignore: lines). */
export type Labels = Record<string, string | string[] | undefined>;

/** Replaces the recording's header fields named in `labels` (keeping the recorder's first line and the rest). */
export function labelGolden(path: string, labels: Labels): void {
  const lines = readFileSync(path, "utf8").split("\n");
  const end = lines.indexOf("-- session --");
  if (end < 0) throw new Error(`${path}: not a session recording (no "-- session --" line)`);
  const keys = Object.keys(labels);
  const kept = lines.slice(1, end).filter((line) => !keys.some((key) => line.startsWith(`# ${key}:`)));
  const written = Object.entries(labels).flatMap(([key, value]) => {
    if (value === undefined) return [];
    if (Array.isArray(value)) return key === "args" ? (value.length ? [`# args: ${value.join(" ")}`] : []) : value.map((item) => `# ${key}: ${item}`);
    return [`# ${key}: ${value}`];
  });
  writeFileSync(path, [lines[0], ...written, ...kept, ...lines.slice(end)].join("\n"));
}
