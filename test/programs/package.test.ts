// The tarball holds what a user runs and imports, and that is all it holds: every file the
// package's `exports` and `bin` load is in it, no repository file (src/, test/, scripts/,
// fixtures/, the walkthrough, the unbundled programs) is, and each source map it ships resolves.
// Then the tarball installed into an empty project: both bins run, the library (and mcp-wire/testing) loads by
// `import` and by `require` (require of an ES module: Node ^20.19 || >=22.12, what `engines` says).
// Needs dist/: `npm test` builds.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import { entryPoints, install, loadedFiles, pack, type PackReport } from "../helpers/packed-package.js";

let dir = "";
let report: PackReport;
let shipped: Set<string>;
let installed = "";

before(() => {
  const packed = pack();
  dir = packed.dir;
  report = packed.report;
  shipped = new Set(report.files.map((file) => file.path));
  installed = install(dir, packed.tarball);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const KiB = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

test("package: every file that `exports` and the bins load is in the tarball", (t) => {
  const loaded = loadedFiles(entryPoints());
  const missing = [...loaded].filter((file) => !shipped.has(file));
  assert.deepEqual(missing, [], `loaded by an entry point, left out by package.json "files": ${missing.join(", ")}`);
  t.diagnostic(`tarball: ${report.entryCount} files, ${KiB(report.size)} packed, ${KiB(report.unpackedSize)} unpacked`);
});

// What npm always ships, and what the demo server serves from files (read at run time: the
// installed test below): the notes and its MCP Apps view.
const DOCUMENTS = new Set(["package.json", "README.md", "LICENSE", "PROTOCOL_NOTES.md", "dist/demo/apps/calculator.html"]);
/** The page `mcp-wire inspect` serves (src/inspect/, copied by the build): read at run time, not loaded. */
const INSPECT_PAGE = ["dist/inspect/index.html", "dist/inspect/inspect.css", "dist/inspect/inspect.js", "dist/inspect/apps-host.js", "dist/inspect/templates.js"];

test("package: the page of mcp-wire inspect ships", () => {
  assert.deepEqual(INSPECT_PAGE.filter((file) => !shipped.has(file)), []);
});

test("package: the tarball holds nothing an entry point does not load: no repository files, no unbundled programs", () => {
  const loaded = loadedFiles(entryPoints());
  // A library folder ships whole (its internal declarations, its type-only modules); a folder, or a
  // top-level file of dist/, that nothing loads is the repository's (a program's unbundled modules,
  // the walkthrough), not the user's.
  const loadedFolders = new Set([...loaded].map((file) => posix.dirname(file)).filter((folder) => folder !== "dist"));
  const unwanted = [...shipped].filter((file) =>
    !DOCUMENTS.has(file) && !INSPECT_PAGE.includes(file) && !loaded.has(file) && !loaded.has(file.replace(/\.map$/, "")) && !loadedFolders.has(posix.dirname(file)));
  assert.deepEqual(unwanted, []);
  const sources = [...shipped].filter((file) => /^(src|test|scripts|fixtures)\//.test(file) || (file.endsWith(".ts") && !file.endsWith(".d.ts")));
  assert.deepEqual(sources, []);
});

interface SourceMap { sources: string[]; sourcesContent?: (string | null)[] }

test("package: each source map it ships resolves: its sources are in the tarball or inside the map", () => {
  const unresolved: string[] = [];
  for (const map of [...shipped].filter((file) => file.endsWith(".map"))) {
    const { sources, sourcesContent } = JSON.parse(readFileSync(join(installed, map), "utf8")) as SourceMap;
    sources.forEach((source, i) => {
      if (typeof sourcesContent?.[i] !== "string" && !shipped.has(posix.join(posix.dirname(map), source))) unresolved.push(`${map}: ${source}`);
    });
  }
  assert.deepEqual(unresolved, []);
  // A file that names a map the tarball does not have makes bundlers and debuggers warn.
  const dangling = [...shipped].filter((file) => /\.c?js$/.test(file)).flatMap((file) => {
    const named = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(installed, file), "utf8"))?.[1];
    return named && !named.startsWith("data:") && !shipped.has(posix.join(posix.dirname(file), named)) ? [`${file} -> ${named}`] : [];
  });
  assert.deepEqual(dangling, []);
});

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

/** Runs an installed bin by the link npm made for it in node_modules/.bin. */
function runBin(name: string, args: string[], input = "") {
  const bin = realpathSync(join(dir, "node_modules", ".bin", name));
  return spawnSync(process.execPath, [bin, ...args], { cwd: dir, input, encoding: "utf8", timeout: 15_000 });
}

test("package: installed, mcp-wire-server answers a session over stdio and serves the protocol notes and its MCP Apps view from the package", () => {
  const view = { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "ui://mcp-wire-demo/calculator" } };
  const session = [INITIALIZE, { jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "docs://demo/protocol-notes" } }, view];
  const run = runBin("mcp-wire-server", [], session.map((message) => JSON.stringify(message) + "\n").join(""));
  assert.equal(run.status, 0, run.stderr);
  const [initialized, read, calculator] = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as { id: number; result: { serverInfo?: { name: string }; contents?: { text: string }[] } });
  assert.equal(initialized!.result.serverInfo!.name, "mcp-wire-demo");
  assert.equal(read!.id, 2);
  assert.equal(read!.result.contents![0]!.text, readFileSync(join(installed, "PROTOCOL_NOTES.md"), "utf8"));
  assert.equal(calculator!.result.contents![0]!.text, readFileSync(join(installed, "dist/demo/apps/calculator.html"), "utf8"));
});

test("package: installed, mcp-wire --help prints its usage, and a call through it reaches the installed server", () => {
  const help = runBin("mcp-wire", ["--help"]);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^usage: mcp-wire /);
  // A session reads the CLI's lazily loaded chunks, so this proves they were packed too.
  const server = realpathSync(join(dir, "node_modules", ".bin", "mcp-wire-server"));
  const call = runBin("mcp-wire", ["call", "add", "a=3", "b=4", "--", process.execPath, server]);
  assert.equal(call.status, 0, call.stderr);
  assert.match(call.stdout, /\b7\b/);
});

test("package: installed, the library loads by import and by require from a CommonJS file, with the same exports", () => {
  const names = (program: string, file: string) => {
    writeFileSync(join(dir, file), program);
    const run = spawnSync(process.execPath, [file], { cwd: dir, encoding: "utf8", timeout: 15_000 });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as string[];
  };
  const imported = names(`const api = await import("mcp-wire"); await import("mcp-wire/stdout-guard");
    process.stdout.write(JSON.stringify(Object.keys(api).sort()));`, "imports.mjs");
  const required = names(`const api = require("mcp-wire"); require("mcp-wire/stdout-guard");
    process.stdout.write(JSON.stringify(Object.keys(api).filter((name) => name !== "__esModule" && name !== "module.exports").sort()));`, "requires.cjs");
  assert.ok(imported.includes("McpServer") && imported.includes("McpClient"), imported.join(", "));
  assert.deepEqual(required, imported);
});

test("package: installed, mcp-wire/testing loads by import and by require, and checks a recording", () => {
  const recording = JSON.stringify(["-- session --", '> {"jsonrpc":"2.0","id":1,"method":"ping"}', '< {"jsonrpc":"1.0","id":1,"result":{}}', ""].join("\n"));
  const program = (load: string) => `const testing = ${load};
    const result = testing.checkRecording({ text: ${recording}, name: "r" });
    process.stdout.write(JSON.stringify({ names: Object.keys(testing).filter((name) => name !== "__esModule" && name !== "module.exports").sort(), rules: result.findings.map((f) => f.rule) }));`;
  const outputs = ([["await import(\"mcp-wire/testing\")", "testing.mjs"], ["require(\"mcp-wire/testing\")", "testing.cjs"]] as const).map(([load, file]) => {
    writeFileSync(join(dir, file), program(load));
    const run = spawnSync(process.execPath, [file], { cwd: dir, encoding: "utf8", timeout: 15_000 });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as { names: string[]; rules: string[] };
  });
  assert.deepEqual(outputs[1], outputs[0]);
  for (const name of ["replayTranscript", "assertReplays", "recordSession", "checkRecording", "assertChecks"]) assert.ok(outputs[0]!.names.includes(name), name);
  assert.ok(outputs[0]!.rules.length > 0, "the broken recording has findings");
});
