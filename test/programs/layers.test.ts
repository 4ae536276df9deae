// The layers read from the wire up: jsonrpc/ imports nothing of MCP (no file outside jsonrpc/), and
// inside each folder below the imports run one way: no circle, type-only imports included, and
// at least one file that imports nothing of its own folder to start reading from.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT, sourceFiles } from "../helpers/tour.js";

const SRC = join(ROOT, "src");
// Every folder of src/, so that none grows a circle back.
const FOLDERS = ["jsonrpc", "protocol", "mcp", "server", "schema", "transports", "http", "auth", "client", "cli", "recordings", "testing", "demo", "textbook"];

/** The files of src/ that `file` imports (or re-exports from), as paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), "utf8");
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm), ...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((match) => match[1]!);
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => relative(SRC, join(SRC, dirname(file), specifier)).replaceAll("\\", "/").replace(/\.js$/, ".ts"));
}

function filesOf(folder: string): string[] {
  return sourceFiles().filter((file) => file.startsWith(`${folder}/`));
}

/** One circle among `files` through their imports of each other, as the files in order, or undefined. */
function circle(files: string[]): string[] | undefined {
  const inside = new Set(files);
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === "done") return undefined;
    if (state.get(file) === "open") return [...path.slice(path.indexOf(file)), file];
    state.set(file, "open");
    path.push(file);
    for (const next of importsOf(file).filter((imported) => inside.has(imported))) {
      const found = visit(next);
      if (found) return found;
    }
    path.pop();
    state.set(file, "done");
    return undefined;
  };
  for (const file of files) {
    const found = visit(file);
    if (found) return found;
  }
  return undefined;
}

test("layers: jsonrpc/ imports no file outside jsonrpc/ (it knows nothing of MCP)", () => {
  const outside = filesOf("jsonrpc").flatMap((file) => importsOf(file).filter((imported) => !imported.startsWith("jsonrpc/")).map((imported) => `${file} -> ${imported}`));
  assert.deepEqual(outside, []);
});

test("layers: jsonrpc/'s code names no MCP method and defines no MCP error code (comments aside)", () => {
  const mcp = /(?<![\w.])(?:notifications|tools|resources|prompts|subscriptions|sampling|elicitation|roots|completion|logging|server)\/[a-z]|-320[0-9]{2}\b/;
  const found = filesOf("jsonrpc").flatMap((file) =>
    readFileSync(join(SRC, file), "utf8").split("\n").map((line, i) => ({ line: line.replace(/\/\/.*$/, ""), where: `${file}:${i + 1}` }))
      .filter(({ line }) => !/^\s*(\/\*|\*)/.test(line) && mcp.test(line)).map(({ where }) => where));
  assert.deepEqual(found, []);
});

for (const folder of FOLDERS) {
  test(`layers: the imports inside ${folder}/ make no circle, and some file imports nothing of ${folder}/`, () => {
    const files = filesOf(folder);
    assert.equal(circle(files)?.join(" -> "), undefined);
    const bottom = files.filter((file) => importsOf(file).every((imported) => !imported.startsWith(`${folder}/`)));
    assert.ok(bottom.length > 0, `every file of ${folder}/ imports another of it`);
  });
}
