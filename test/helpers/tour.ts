// Reads the README's guides to src/ and checks them against the code: the reading order (every
// file, in one order, the same in README and src/index.ts) and the tour of one tools/call (each
// stop a function that exists, counted in lines). `npm run tour` prints the count; the tests keep
// the README's figures true.

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

export interface Stop {
  file: string;
  /** `name`, `Class.method` or `Class.#method`. */
  symbol: string;
  /** Lines of the function, from its signature to its closing brace. */
  lines: number;
}

/** The tour's stops: table rows whose first cell after the number is `` `file` `symbol` ``. */
export function tourStops(tour: string): Stop[] {
  const rows = [...tour.matchAll(/^\|\s*\d+\s*\|\s*`([^`]+\.ts)`\s+`([^`]+)`/gm)];
  return rows.map(([, file, symbol]) => ({ file: file!, symbol: symbol!, lines: functionLines(file!, symbol!) }));
}

/**
 * The lines of one function or method, signature to closing brace. The code is formatted, so a
 * body ends at the first later line that closes at the signature's own indentation. `symbol` is
 * `name`, `Owner.name` (Owner: a class, a function or a const holding methods, as in a handler
 * table: `toolHandlers."tools/call"`), or `tool "name"`: the handler a server registers for that tool.
 */
export function functionLines(file: string, symbol: string): number {
  const lines = readFileSync(join(SRC, file), "utf8").split("\n");
  const tool = symbol.match(/^tool "(.+)"$/);
  if (tool) {
    const named = lines.findIndex((line) => line.includes(`name: "${tool[1]}"`));
    const handler = lines.findIndex((line, i) => i > named && /^\s*(async )?\([\w, ]*\) => \{$/.test(line));
    if (named === -1 || handler === -1) throw new Error(`${file}: no handler for tool "${tool[1]}"`);
    return bodyLines(file, symbol, lines, handler);
  }
  const dot = symbol.indexOf(".");
  const [owner, name] = dot === -1 ? [undefined, symbol] : [symbol.slice(0, dot), symbol.slice(dot + 1)];
  let from = 0;
  if (owner) {
    from = lines.findIndex((line) => new RegExp(`^(export )?(abstract )?(class|function|const) ${owner}\\b`).test(line));
    if (from === -1) throw new Error(`${file}: no class, function or const ${owner}`);
  }
  const escaped = name.replace(/[#$/]/g, (c) => `\\${c}`);
  const signature = new RegExp(`^\\s*(export )?(async )?(function\\*? )?(static )?(get |set )?(async )?${escaped}\\s*[(<=]|^\\s*(export )?(const|let) ${escaped}\\b`);
  const start = lines.findIndex((line, i) => i >= from && signature.test(line));
  if (start === -1) throw new Error(`${file}: no function ${symbol}`);
  return bodyLines(file, symbol, lines, start);
}

function bodyLines(file: string, symbol: string, lines: string[], start: number): number {
  const indent = lines[start]!.match(/^\s*/)![0];
  if (!/[{(]\s*$/.test(lines[start]!) && /}\)?\s*[;,]?\s*$/.test(lines[start]!)) return 1;
  const end = lines.findIndex((line, i) => i > start && new RegExp(`^${indent}[})]`).test(line));
  if (end === -1) throw new Error(`${file}: cannot find the end of ${symbol}`);
  return end - start + 1;
}
