// `npm run interop:peers [-- --only NAME[,NAME]] [--record] [--write]`: the peers in other languages
// (scripts/peers/<name>/suite.ts) against our servers and our client against theirs. One line per
// check, then README's interop table and `N passed, M failed`; exit 1 on a failure.
// --only keeps the suites whose folder name or language is given. --record rewrites their goldens in
// fixtures/peers/. --write stores this run's rows in fixtures/peers/results.json (the other suites'
// rows kept) and README's table from it; test/programs/peers-table.test.ts keeps the two equal.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cacheDirFor, DEMO_SERVER, ROOT, type PeerContext, type PeerRow, type PeerSuite } from "./harness.js";
import { readResults, renderTable, writeReadmeTable, writeResults } from "./table.js";

const args = process.argv.slice(2);
const only = valueOf("--only")?.split(",");
const record = args.includes("--record");
const write = args.includes("--write");

function valueOf(flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
}

async function suites(): Promise<PeerSuite[]> {
  const here = join(ROOT, "scripts", "peers");
  const found: PeerSuite[] = [];
  for (const entry of readdirSync(here, { withFileTypes: true })) {
    const file = join(here, entry.name, "suite.ts");
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const { suite } = (await import(pathToFileURL(file).href)) as { suite: PeerSuite };
    if (!only || only.includes(suite.name) || only.includes(suite.language)) found.push(suite);
  }
  return found;
}

const rows = new Map<string, PeerRow>();
let passed = 0;
let failed = 0;

function contextFor(suite: PeerSuite): PeerContext {
  return {
    cacheDir: cacheDirFor(suite.name, "cache"),
    record,
    async check(row, name, body) {
      const key = `${row.peer}|${row.version}|${row.direction}`;
      const line = rows.get(key) ?? { peer: row.peer, version: row.version, language: row.language, direction: row.direction, transports: [], eras: [], passed: 0, failed: 0 };
      rows.set(key, line);
      if (!line.transports.includes(row.transport)) line.transports.push(row.transport);
      if (!line.eras.includes(row.era)) line.eras.push(row.era);
      const label = `${row.peer} ${row.version} (${row.direction}, ${row.transport}, ${row.era}): ${name}`;
      try {
        const said = await body();
        line.passed++; passed++;
        console.log(`ok    ${label}${said ? `: ${said}` : ""}`);
        return true;
      } catch (error) {
        line.failed++; failed++;
        const detail = error instanceof Error ? error.message : String(error);
        console.log(`FAIL  ${label}\n      ${detail.split("\n").join("\n      ")}`);
        return false;
      }
    },
  };
}

if (!existsSync(DEMO_SERVER)) {
  console.error(`${DEMO_SERVER} is missing: run \`npm run build\` first (npm run interop:peers does)`);
  process.exit(2);
}
const started = Date.now();
const chosen = await suites();
if (chosen.length === 0) {
  console.error(only ? `no peer suite matches --only ${only.join(",")}` : "no peer suite under scripts/peers/");
  process.exit(2);
}
for (const suite of chosen) {
  const ctx = contextFor(suite);
  const at = Date.now();
  const installed = await ctx.check({ peer: suite.name, version: "install", language: suite.language, direction: "their client", transport: "-", era: "-" },
    `install into ${ctx.cacheDir}`, async () => { await suite.install(ctx); });
  if (installed) await suite.run(ctx);
  console.log(`--    ${suite.name}: ${((Date.now() - at) / 1000).toFixed(0)} s`);
}
const table = [...rows.values()].filter((row) => row.version !== "install");
console.log(`\n${renderTable(table)}`);
if (write) {
  const kept = readResults().filter((row) => !chosen.some((suite) => suite.language === row.language && table.some((mine) => mine.peer === row.peer)));
  writeResults([...kept, ...table]);
  writeReadmeTable();
}
console.log(`${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
process.exit(failed === 0 ? 0 : 1);
