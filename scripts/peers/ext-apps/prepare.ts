// Makes the MCP Apps peer ready to run: the official SDK (@modelcontextprotocol/ext-apps) and
// esbuild, pinned by package.json and package-lock.json here, installed with `npm ci` into a cache
// under the OS temp dir (never into the project; reused while the lockfile is unchanged); the view
// app/mcp-app.ts type-checked against the SDK's own declarations, bundled into app/mcp-app.html as
// ONE self-contained file; server.ts (our library) bundled into one program beside it.
// prepareExtAppsPeer() returns the paths and the command a host runs; the Inspector checks
// (scripts/apps-inspector*.ts) and a browser test of `mcp-wire inspect` call it.
// Run: `npx tsx scripts/peers/ext-apps/prepare.ts` prints them.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { cacheDirFor } from "../harness.js";
import { withoutNpmConfig } from "../../interop.js";
import { TOOL, VIEW_URI } from "./server.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(HERE, "package.json"), "utf8")) as { dependencies: Record<string, string> };
/** The SDK release the view is built with (package.json pins it, and everything else, exactly). */
export const EXT_APPS_VERSION = PACKAGE.dependencies["@modelcontextprotocol/ext-apps"]!;
export const CACHE = cacheDirFor("ext-apps", EXT_APPS_VERSION);
/** Where the bundles go: the view (one HTML file) and the server program. */
export const VIEW_FILE = join(CACHE, "letters.html");
export const SERVER_FILE = join(CACHE, "server.mjs");

export interface PreparedPeer {
  /** The view's one HTML file, as the server serves it. */
  html: string;
  /** How a host starts the server over stdio. */
  server: { command: string; args: string[] };
  viewUri: string;
  tool: string;
}

/** The part of esbuild's API used here (the package is the cache's, not the project's, so are its types). */
interface Esbuild {
  build(options: { entryPoints: string[]; bundle: true; format: "esm"; platform: "browser" | "node"; target: string; minify?: boolean; write: false; logLevel: "silent" }): Promise<{ outputFiles: { text: string }[] }>;
}

/** `npm ci` of the pinned lockfile into the cache, unless the cache already holds that lockfile's install. */
function install(): void {
  const lock = readFileSync(join(HERE, "package-lock.json"), "utf8");
  const installed = join(CACHE, "node_modules", ".package-lock.json");
  const sdk = join(CACHE, "node_modules", "@modelcontextprotocol", "ext-apps", "package.json");
  const same = existsSync(join(CACHE, "package-lock.json")) && readFileSync(join(CACHE, "package-lock.json"), "utf8") === lock;
  if (same && existsSync(installed) && existsSync(sdk) && JSON.parse(readFileSync(sdk, "utf8")).version === EXT_APPS_VERSION) return;
  for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(HERE, file), join(CACHE, file));
  // No lifecycle scripts: esbuild's JavaScript API finds its binary in its @esbuild/<platform> package.
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: CACHE, env: withoutNpmConfig(), encoding: "utf8", timeout: 300_000 });
  if (npm.status !== 0) throw new Error(`ext-apps peer: npm ci in ${CACHE} failed: ${(npm.stderr || npm.stdout).trim().split("\n").slice(-5).join("\n")}`);
}

/** The view's TypeScript checked against the SDK's declarations as installed, in a browser's lib. */
function typecheck(entry: string): void {
  const program = ts.createProgram([entry], {
    strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"], types: [],
  });
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length > 0) {
    const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => CACHE, getNewLine: () => "\n" };
    throw new Error(`ext-apps peer: app/mcp-app.ts does not type-check against the SDK ${EXT_APPS_VERSION}:\n${ts.formatDiagnostics(problems, host)}`);
  }
}

/** Writes `text` to `file` by renaming a finished copy into place, so a reader never sees half of it. */
function writeWhole(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** Installs (when needed), checks and bundles; returns where the view and the server are. */
export async function prepareExtAppsPeer(): Promise<PreparedPeer> {
  install();
  // The view's source goes into the cache, where its imports resolve to the installed SDK.
  mkdirSync(join(CACHE, "app"), { recursive: true });
  const entry = join(CACHE, "app", "mcp-app.ts");
  copyFileSync(join(HERE, "app", "mcp-app.ts"), entry);
  typecheck(entry);
  const esbuild = createRequire(join(CACHE, "package.json"))("esbuild") as Esbuild;
  const view = await esbuild.build({ entryPoints: [entry], bundle: true, format: "esm", platform: "browser", target: "es2022", minify: true, write: false, logLevel: "silent" });
  // Inline in a <script>: no "</script" may appear in it (JavaScript reads "<\/" as "</").
  const script = view.outputFiles[0]!.text.replaceAll("</script", "<\\/script");
  const page = readFileSync(join(HERE, "app", "mcp-app.html"), "utf8");
  const placeholder = "/* the bundle of mcp-app.ts */";
  if (!page.includes(placeholder)) throw new Error("ext-apps peer: app/mcp-app.html has no script placeholder");
  writeWhole(VIEW_FILE, page.replace(placeholder, () => script));
  // The server: our library from src/, bundled with it into one program that needs nothing installed.
  const server = await esbuild.build({ entryPoints: [join(HERE, "server.ts")], bundle: true, format: "esm", platform: "node", target: "node20", write: false, logLevel: "silent" });
  writeWhole(SERVER_FILE, server.outputFiles[0]!.text);
  return { html: VIEW_FILE, server: { command: process.execPath, args: [SERVER_FILE, VIEW_FILE] }, viewUri: VIEW_URI, tool: TOOL };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const peer = await prepareExtAppsPeer();
  console.log(`ext-apps peer (@modelcontextprotocol/ext-apps@${EXT_APPS_VERSION}) ready in ${Date.now() - started} ms`);
  console.log(`view   ${peer.html} (${readFileSync(peer.html).length} bytes)`);
  console.log(`server ${[peer.server.command, ...peer.server.args].join(" ")}`);
}
