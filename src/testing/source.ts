// Where a recording comes from, for mcp-wire/testing: a file (a path, or a file: URL, as
// `new URL("x.transcript", import.meta.url)` gives) or text already in hand. Its name is what
// reports and errors call it; its directory is where its "# placeholder:" paths start.

import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** A recording file (path or file: URL), or its text with the name reports should give it. */
export type RecordingSource = string | URL | { text: string; name?: string; directory?: string };

export interface ReadSource {
  text: string;
  name: string;
  directory: string;
}

export function readSource(source: RecordingSource): ReadSource {
  if (typeof source === "object" && !(source instanceof URL)) {
    return { text: source.text, name: source.name ?? "recording", directory: source.directory ?? process.cwd() };
  }
  const file = source instanceof URL ? fileURLToPath(source) : source;
  return { text: readFileSync(file, "utf8"), name: file, directory: dirname(file) };
}
