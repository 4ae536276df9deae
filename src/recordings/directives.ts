// What a recording's header says about how to judge it, beyond "# ignore:" (recording.ts): the
// values that change from run to run, named (placeholders), and the editions of the server it
// holds for, with what each may say differently. So a golden transcript stands alone under
// `mcp-wire replay`, with no test helper to know what it means.
//
//   # placeholder: <time> iso-time                  any ISO 8601 timestamp (get_time's text)
//   # placeholder: <NAME> file PATH                  the whole text of the file at PATH
//   # placeholder: <NAME> section PATH SLUG         one `## ` section of the Markdown file at PATH,
//                                                   the one whose heading slugs to SLUG
//   # editions: textbook production                 the servers it holds for (absent: any)
//   # differs in textbook: POINTER... (why)         what that edition may say otherwise: JSON
//                                                   pointers ignored when replaying it
//
// PATH is relative to the recording's own directory. Before comparing, a server's string equal to
// a placeholder's value becomes the placeholder (on both sides, so the recording keeps the name).

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { sections } from "../demo/notes.js";
import type { Recording } from "./recording.js";

/** A directive line that cannot be read, or names a file that cannot be read. */
export class DirectiveError extends Error {}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The recording's placeholders as a normalizer for replay (src/recordings/replay.ts), or undefined when
 * it has none. Files are read once, here: a file that changes during a replay is not followed.
 */
export function placeholders(recording: Recording, directory: string): ((value: unknown) => unknown) | undefined {
  const texts = new Map<string, string>();
  let time: string | undefined;
  for (const line of recording.header.lines) {
    const field = /^# placeholder: (<[^<>]+>) (.*)$/.exec(line);
    if (!field) {
      if (line.startsWith("# placeholder:")) throw new DirectiveError(`"${line}": expected "# placeholder: <NAME> iso-time|file PATH|section PATH SLUG"`);
      continue;
    }
    const name = field[1]!;
    const how = field[2]!; // both groups of the pattern always take part in a match
    const words = how.trim().split(/\s+/);
    if (words[0] === "iso-time" && words.length === 1) time = name;
    else if (words[0] === "file" && words.length === 2) texts.set(readText(directory, words[1]!, line), name);
    else if (words[0] === "section" && words.length === 3) {
      const found = sections(readText(directory, words[1]!, line)).find((section) => section.slug === words[2]);
      if (!found) throw new DirectiveError(`"${line}": ${words[1]} has no section ${JSON.stringify(words[2])}`);
      texts.set(found.text, name);
    } else throw new DirectiveError(`"${line}": expected iso-time, file PATH or section PATH SLUG after the name`);
  }
  if (time === undefined && texts.size === 0) return undefined;
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return time !== undefined && ISO_TIME.test(node) ? time : texts.get(node) ?? node;
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
    return node;
  };
  return walk;
}

/**
 * The largest file a placeholder may name. A recording is input: "file /dev/zero" or a file of many
 * gigabytes must be refused, not read into memory. PROTOCOL_NOTES.md, the largest file named today, is about 140 KB.
 */
export const MAX_PLACEHOLDER_FILE_BYTES = 16 * 1024 * 1024;

/** A regular file's text, read through one descriptor so that what was measured is what is read. */
function readText(directory: string, path: string, line: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(isAbsolute(path) ? path : resolve(directory, path), "r");
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error("not a regular file");
    if (stat.size > MAX_PLACEHOLDER_FILE_BYTES) throw new Error(`${stat.size} bytes, over the limit of ${MAX_PLACEHOLDER_FILE_BYTES}`);
    const buffer = Buffer.alloc(stat.size + 1);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    if (read > stat.size) throw new Error("it grew while it was read");
    return buffer.subarray(0, read).toString("utf8");
  } catch (error) {
    throw new DirectiveError(`"${line}": cannot read ${path}: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export interface Editions {
  /** The editions the recording holds for; undefined when it does not say (it holds for any). */
  holdsFor?: string[];
  /** Per edition, the JSON pointers where it may differ (each "# differs in" line's, in order). */
  differs: Map<string, string[]>;
}

export function editions(recording: Recording): Editions {
  const found: Editions = { differs: new Map() };
  for (const line of recording.header.lines) {
    const holds = /^# editions: (.+)$/.exec(line);
    if (holds) found.holdsFor = holds[1]!.trim().split(/\s+/);
    const differs = /^# differs in ([\w-]+): (.*)$/.exec(line);
    if (!differs) continue;
    const pointers = differs[2]!.split(/\s+/).filter((word, i, words) => words.slice(0, i + 1).every((w) => w.startsWith("/")));
    if (pointers.length === 0) throw new DirectiveError(`"${line}": expected JSON pointers (each starting with "/") after the edition`);
    found.differs.set(differs[1]!, [...(found.differs.get(differs[1]!) ?? []), ...pointers]);
  }
  return found;
}
