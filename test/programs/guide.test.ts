// README's library guide ("Using mcp-wire in your own program") is run, so that it cannot rot: each
// ```ts block of that section is written to a directory of its own where "mcp-wire" is this package
// (node_modules/mcp-wire links to the repository, so its "exports" and dist/*.d.ts are what a user
// gets), type-checked together under strict, then run with the repository as its working directory
// (so `node dist/server.js` is the demo). What a block prints must be what its `// → ` comments say,
// line by line; a block that imports node:test must pass all its tests. A block tagged
// `<!-- guide: serves stdio; mcp-wire ARGS → TEXT -->` is a stdio server: the CLI runs ARGS against
// it and must print TEXT.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SECTION = "## Using mcp-wire in your own program";

interface Block {
  name: string;
  line: number;
  code: string;
  /** For a stdio server: the CLI's arguments and the text its output must hold. */
  serves?: { args: string[]; prints: string };
}

/** The ```ts blocks between SECTION and the next heading of its level. */
export function guideBlocks(readme: string): Block[] {
  const lines = readme.split("\n");
  const start = lines.indexOf(SECTION);
  assert.ok(start >= 0, `README.md has no "${SECTION}" section`);
  const blocks: Block[] = [];
  for (let i = start + 1; i < lines.length && !lines[i]!.startsWith("## "); i++) {
    if (lines[i] !== "```ts") continue;
    let before = i - 1;
    while (before > start && lines[before]!.trim() === "") before--;
    const tag = /^<!-- guide: serves stdio; mcp-wire (.*?) → (.*) -->$/.exec(lines[before]!);
    const body: string[] = [];
    const line = i + 1;
    for (i++; lines[i] !== "```"; i++) body.push(lines[i]!);
    const block: Block = { name: `block${blocks.length + 1}`, line, code: body.join("\n") + "\n" };
    if (tag) block.serves = { args: tag[1]!.split(" "), prints: tag[2]! };
    blocks.push(block);
  }
  return blocks;
}

/** What a block's `// → ` comments say it prints, in order. */
function expectedOutput(code: string): string[] {
  return [...code.matchAll(/\/\/ → (.*)$/gm)].map((match) => match[1]!);
}

const blocks = guideBlocks(readFileSync(join(ROOT, "README.md"), "utf8"));
const dir = mkdtempSync(join(tmpdir(), "mcp-wire-guide-"));
mkdirSync(join(dir, "node_modules/@types"), { recursive: true });
symlinkSync(ROOT, join(dir, "node_modules/mcp-wire"));
symlinkSync(join(ROOT, "node_modules/@types/node"), join(dir, "node_modules/@types/node"));
writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
  compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: ["node"], skipLibCheck: true, outDir: "out" },
  include: ["*.ts"],
}));
for (const block of blocks) writeFileSync(join(dir, `${block.name}.ts`), block.code);

test.after(() => rmSync(dir, { recursive: true, force: true }));

test("README's guide: it has a block for each part of the library it promises", () => {
  const all = blocks.map((block) => block.code).join("\n");
  for (const shown of [
    "serveStdio(", "server.resource(", "server.resourceTemplate(", "server.prompt(", "context.progress(", "context.signal",
    "context.elicit(", "StdioClientTransport", "isError", "RpcError", "timeouts", "ServerExitedError", "McpHttpServer",
    "sessionPerPost", "2026-07-28", "authorization", "createMemoryPair", "replay",
  ]) {
    assert.ok(all.includes(shown), `no block of the guide shows ${shown}`);
  }
  for (const block of blocks) {
    assert.ok(block.serves || expectedOutput(block.code).length > 0 || block.code.includes("node:test"), `README.md:${block.line}: a block that neither says what it prints nor tests anything`);
  }
});

test("README's guide: every block type-checks under strict against the package's own types", { timeout: 120_000 }, async () => {
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const compiled = await run(process.execPath, [tsc, "-p", dir], { cwd: dir }).catch((error: { stdout: string }) => error);
  // Name the README line of each error, not the temporary file's.
  const report = compiled.stdout.replace(/(block\d+)\.ts\((\d+),(\d+)\)/g, (_: string, name: string, row: string) => {
    const block = blocks.find((b) => b.name === name)!;
    return `README.md:${block.line + Number(row) - 1}`;
  });
  assert.equal(report, "");
});

for (const block of blocks) {
  // The limits only stop a block that hangs: under a loaded full run one `npx mcp-wire` can take
  // several seconds to start (20 at once took up to 22 s each here), and a block may run two.
  test(`README.md:${block.line}: the guide's block runs and prints what it says`, { timeout: 240_000 }, async () => {
    const program = join(dir, "out", `${block.name}.js`);
    if (block.serves) {
      const { stdout } = await run(process.execPath, [join(ROOT, "dist/cli.js"), ...block.serves.args, "--", process.execPath, program], { cwd: ROOT, timeout: 180_000 });
      assert.ok(stdout.includes(block.serves.prints), `mcp-wire ${block.serves.args.join(" ")} printed ${stdout}`);
      return;
    }
    // Not as a subtest of this run: a block's node:test reports in TAP, as when a user runs it.
    // npm offline and without its update check: a block's `npx mcp-wire` runs the project's own bin,
    // and must neither reach for the registry nor wait on it while other test files use npm.
    // And outside coverage (NODE_V8_COVERAGE, set by c8 in npm test): it would follow the block into
    // npx and npm, whose coverage at exit, hundreds of modules each, is most of a slow block's time.
    // And without lifecycle scripts: under `npm test`, npx in the project may install the project
    // itself, whose "prepare" rebuilt dist/ while other test files were running its programs.
    const env = { ...process.env, NODE_TEST_CONTEXT: undefined, NODE_V8_COVERAGE: undefined, npm_config_ignore_scripts: "true", npm_config_offline: "true", npm_config_update_notifier: "false", npm_config_audit: "false", npm_config_fund: "false" };
    const { stdout } = await run(process.execPath, ["--test-reporter=tap", program], { cwd: ROOT, env, timeout: 180_000 });
    const printed = stdout.split("\n").filter((line) => line !== "");
    if (block.code.includes("node:test")) {
      assert.match(stdout, /^# fail 0$/m);
      assert.doesNotMatch(stdout, /^# pass 0$/m);
    } else {
      assert.deepEqual(printed, expectedOutput(block.code));
    }
  });
}
