// PROTOCOL_NOTES.md as the demo server serves it: the whole file, and each `## ` section alone.
// Found relative to this module (the package root is two levels up from src/demo or dist/demo),
// never relative to the working directory, since hosts start servers from anywhere.

import { readFileSync, watch } from "node:fs";
import { fileURLToPath } from "node:url";

export const NOTES_PATH = fileURLToPath(new URL("../../PROTOCOL_NOTES.md", import.meta.url));

export interface NotesSection {
  /** The heading turned into a URI-safe name: "The stdio transport" -> "the-stdio-transport". */
  slug: string;
  title: string;
  text: string;
}

export function readNotes(path = NOTES_PATH): string {
  return readFileSync(path, "utf8");
}

/** Splits the notes at each `## ` heading that is not inside a fenced code block. */
export function sections(markdown: string): NotesSection[] {
  const found: NotesSection[] = [];
  let inFence = false;
  let current: { title: string; lines: string[] } | undefined;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    if (!inFence && line.startsWith("## ")) {
      if (current) found.push(finish(current));
      current = { title: line.slice(3).trim(), lines: [] };
    }
    current?.lines.push(line);
  }
  if (current) found.push(finish(current));
  return found;
}

export function slugify(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

function finish(section: { title: string; lines: string[] }): NotesSection {
  return { slug: slugify(section.title), title: section.title, text: section.lines.join("\n").trimEnd() + "\n" };
}

/** Calls `changed` when the notes file changes on disk. The watcher never keeps the process alive. */
export function watchNotes(changed: () => void, path = NOTES_PATH): () => void {
  try {
    const watcher = watch(path, { persistent: false }, () => changed());
    watcher.on("error", () => watcher.close());
    return () => watcher.close();
  } catch {
    return () => {};
  }
}
