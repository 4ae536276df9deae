// The demo's MCP Apps view as the official MCP Inspector sees it: its CLI (@modelcontextprotocol/
// inspector, pinned below, installed into a cache under the OS temp dir, never into the project)
// runs `node dist/server.js` over stdio in both protocol eras and
// - with --advertise-apps (the extension io.modelcontextprotocol/ui declared with the view MIME
//   type, as its web client does by default), probes each tool's app (--app-info: it reads the view
//   the tool names) and must find add's ui://mcp-wire-demo/calculator, served as
//   text/html;profile=mcp-app with prefersBorder, and no app on any other tool;
// - reads the view and must get the HTML file the build ships, with its _meta.ui;
// - without the extension, must find no app at all (the server shows apps only to clients that
//   declared them: PROTOCOL_NOTES.md "MCP Apps"), and add still answers with its sum.
// scripts/apps-inspector-web.ts renders the view in the Inspector's web page, in headless Chromium.
// Run: `npm run build && npx tsx scripts/apps-inspector.ts`. Exit 0 when every check passes.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** The Inspector release these checks were written against. */
export const INSPECTOR_VERSION = "2.12.0";
const PACKAGE = "@modelcontextprotocol/inspector";
/** Its web client needs Node >= 22.19: a pinned Node 22 (npm package node-<platform>-<arch>), as scripts/conformance.ts runs its suite. */
export const NODE_VERSION = "22.23.5";
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;
export const CACHE = join(tmpdir(), "mcp-wire-peers", `apps-inspector-${INSPECTOR_VERSION}_node-${NODE_VERSION}`);
const CLI = join(CACHE, "node_modules", PACKAGE, "clients", "cli", "build", "index.js");
export const WEB = join(CACHE, "node_modules", PACKAGE, "clients", "web", "build", "index.js");
export const NODE_22 = join(CACHE, "node_modules", NODE_PACKAGE, "bin", "node");
export const SERVER = join(ROOT, "dist", "server.js");
export const VIEW_FILE = join(ROOT, "dist", "demo", "apps", "calculator.html");
const VIEW_URI = "ui://mcp-wire-demo/calculator";
const MIME = "text/html;profile=mcp-app";

type Json = { [key: string]: any };

/** Installs the pinned Inspector and Node 22 into the cache, unless they are there. */
export function install(): void {
  const pinned = { [PACKAGE]: INSPECTOR_VERSION, [NODE_PACKAGE]: NODE_VERSION };
  const version = (name: string) => {
    const manifest = join(CACHE, "node_modules", name, "package.json");
    return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as Json).version : undefined;
  };
  if (Object.entries(pinned).every(([name, wanted]) => version(name) === wanted)) return;
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(join(CACHE, "package.json"), JSON.stringify({ name: "mcp-wire-apps-inspector", private: true, dependencies: pinned }, null, 2) + "\n");
  // Its postinstall only installs a source checkout's clients; the published builds need none.
  const npm = spawnSync("npm", ["install", "--prefix", CACHE, "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: CACHE, encoding: "utf8", timeout: 600_000 });
  if (npm.status !== 0) throw new Error(`apps-inspector: npm install ${PACKAGE}@${INSPECTOR_VERSION} in ${CACHE} failed: ${npm.stderr.trim().split("\n").slice(-5).join("\n")}`);
  for (const [name, wanted] of Object.entries(pinned)) if (version(name) !== wanted) throw new Error(`apps-inspector: npm install did not install ${name}@${wanted}`);
}

/** One Inspector CLI run against the demo over stdio: its stdout. */
function inspector(args: string[]): string {
  const run = spawnSync(process.execPath, [CLI, ...args, "--", process.execPath, SERVER], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0 && !args.includes("--app-info")) throw new Error(`inspector ${args.join(" ")}: exit ${run.status}: ${run.stderr.trim() || run.stdout.trim()}`);
  return run.stdout;
}

const checks: { name: string; ok: boolean; detail: string }[] = [];
function check(name: string, ok: boolean, detail: unknown): void {
  checks.push({ name, ok, detail: typeof detail === "string" ? detail : JSON.stringify(detail) });
}

function appInfo(era: string, advertise: boolean): Json[] {
  const out = inspector(["--protocol-era", era, ...(advertise ? ["--advertise-apps"] : []), "--app-info", "--method", "tools/list"]);
  return out.trim().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Json);
}

export function main(): number {
  if (!existsSync(SERVER) || !existsSync(VIEW_FILE)) throw new Error("apps-inspector: run `npm run build` first (dist/server.js and dist/demo/apps/ are missing)");
  install();
  const html = readFileSync(VIEW_FILE, "utf8");
  for (const era of ["legacy", "modern"]) {
    const tools = appInfo(era, true);
    const add = tools.find((tool) => tool.toolName === "add");
    check(`${era}: with the extension, add has the calculator app`, add?.hasApp === true && add.resourceUri === VIEW_URI && add.resourceMimeType === MIME && add.prefersBorder === true, add ?? "no add");
    const others = tools.filter((tool) => tool.toolName !== "add" && tool.hasApp !== false);
    check(`${era}: with the extension, no other tool has an app`, tools.length > 1 && others.length === 0, others.length ? others : `${tools.length} tools`);
    const read = JSON.parse(inspector(["--protocol-era", era, "--advertise-apps", "--method", "resources/read", "--uri", VIEW_URI])) as Json;
    const [content] = read.contents as Json[];
    check(`${era}: resources/read of the view gives the shipped HTML as ${MIME} with _meta.ui`, content?.mimeType === MIME && content.text === html && content._meta?.ui?.prefersBorder === true, { mimeType: content?.mimeType, _meta: content?._meta, sameHtml: content?.text === html });
    const plain = appInfo(era, false);
    check(`${era}: without the extension, no tool has an app`, plain.length > 1 && plain.every((tool) => tool.hasApp === false), plain.filter((tool) => tool.hasApp !== false));
    const called = JSON.parse(inspector(["--protocol-era", era, "--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=3"])) as Json;
    check(`${era}: without the extension, add answers with text`, called.content?.[0]?.type === "text" && JSON.parse(called.content[0].text).sum === 5, called.content);
  }
  for (const { name, ok, detail } of checks) console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : `: ${detail}`}`);
  console.log(`apps-inspector: ${PACKAGE}@${INSPECTOR_VERSION} CLI under Node ${process.version}: ${checks.filter((c) => c.ok).length}/${checks.length} checks passed`);
  return checks.every((c) => c.ok) ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
