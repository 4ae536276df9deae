// MCP Apps views served by our library, as the official MCP Inspector's CLI sees them
// (@modelcontextprotocol/inspector, pinned below, installed into a cache under the OS temp dir,
// never into the project). For each server, over stdio in both protocol eras:
// - with --advertise-apps (the extension io.modelcontextprotocol/ui declared with the view MIME
//   type, as its web client does by default), it probes each tool's app (--app-info: it reads the
//   view the tool names) and must find the app on the one tool that has it, served as
//   text/html;profile=mcp-app with prefersBorder, and no app on any other tool;
// - it reads the view and must get the very HTML file the server serves, with its _meta.ui;
// - without the extension, it must find no app at all (the server shows apps only to clients that
//   declared them: PROTOCOL_NOTES.md "MCP Apps"), and the tool still answers with its text.
// The servers: the demo (`node dist/server.js`, add's hand-written calculator) and the peer whose
// view is built with the official MCP Apps SDK (scripts/peers/ext-apps/).
// scripts/apps-inspector-web.ts renders both views in the Inspector's web page, in headless Chromium.
// Run: `npm run build && npx tsx scripts/apps-inspector.ts`. Exit 0 when every check passes.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareExtAppsPeer } from "./peers/ext-apps/prepare.js";

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

/** A server with one app: how to start it, its tool with the view, what the view is, and a call of the tool. */
interface AppServer {
  name: string;
  command: string[];
  tool: string;
  viewUri: string;
  viewFile: string;
  /** True when the server has tools besides `tool` (which must then have no app); false: `tool` is its only one. */
  others: boolean;
  /** --tool-arg values, and a check of the text the tool answers with. */
  call: { args: string[]; answers: (text: string) => boolean };
}

/** One Inspector CLI run against `server` over stdio: its stdout. */
function inspector(server: AppServer, args: string[]): string {
  const run = spawnSync(process.execPath, [CLI, ...args, "--", ...server.command], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0 && !args.includes("--app-info")) throw new Error(`inspector ${args.join(" ")}: exit ${run.status}: ${run.stderr.trim() || run.stdout.trim()}`);
  return run.stdout;
}

const checks: { name: string; ok: boolean; detail: string }[] = [];
function check(name: string, ok: boolean, detail: unknown): void {
  checks.push({ name, ok, detail: typeof detail === "string" ? detail : JSON.stringify(detail) });
}

function appInfo(server: AppServer, era: string, advertise: boolean): Json[] {
  const out = inspector(server, ["--protocol-era", era, ...(advertise ? ["--advertise-apps"] : []), "--app-info", "--method", "tools/list"]);
  return out.trim().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Json);
}

function checkServer(server: AppServer): void {
  const html = readFileSync(server.viewFile, "utf8");
  for (const era of ["legacy", "modern"]) {
    const at = `${server.name}, ${era}`;
    const tools = appInfo(server, era, true);
    const tool = tools.find((t) => t.toolName === server.tool);
    check(`${at}: with the extension, ${server.tool} has the app ${server.viewUri}`, tool?.hasApp === true && tool.resourceUri === server.viewUri && tool.resourceMimeType === MIME && tool.prefersBorder === true, tool ?? `no ${server.tool}`);
    const others = tools.filter((t) => t.toolName !== server.tool && t.hasApp !== false);
    check(`${at}: with the extension, no other tool has an app`, (server.others ? tools.length > 1 : tools.length === 1) && others.length === 0, others.length ? others : `${tools.length} tools`);
    const read = JSON.parse(inspector(server, ["--protocol-era", era, "--advertise-apps", "--method", "resources/read", "--uri", server.viewUri])) as Json;
    const [content] = read.contents as Json[];
    check(`${at}: resources/read of the view gives the served HTML as ${MIME} with _meta.ui`, content?.mimeType === MIME && content.text === html && content._meta?.ui?.prefersBorder === true, { mimeType: content?.mimeType, _meta: content?._meta, sameHtml: content?.text === html });
    const plain = appInfo(server, era, false);
    check(`${at}: without the extension, no tool has an app`, plain.length === tools.length && plain.every((t) => t.hasApp === false), plain.filter((t) => t.hasApp !== false));
    const called = JSON.parse(inspector(server, ["--protocol-era", era, "--method", "tools/call", "--tool-name", server.tool, "--tool-arg", ...server.call.args])) as Json;
    check(`${at}: without the extension, ${server.tool} answers with text`, called.content?.[0]?.type === "text" && server.call.answers(called.content[0].text), called.content);
  }
}

export async function main(): Promise<number> {
  if (!existsSync(SERVER) || !existsSync(VIEW_FILE)) throw new Error("apps-inspector: run `npm run build` first (dist/server.js and dist/demo/apps/ are missing)");
  install();
  const peer = await prepareExtAppsPeer();
  const servers: AppServer[] = [
    { name: "demo", command: [process.execPath, SERVER], tool: "add", viewUri: "ui://mcp-wire-demo/calculator", viewFile: VIEW_FILE, others: true, call: { args: ["a=2", "b=3"], answers: (text) => JSON.parse(text).sum === 5 } },
    {
      name: "ext-apps peer", command: [peer.server.command, ...peer.server.args], tool: peer.tool, viewUri: peer.viewUri, viewFile: peer.html, others: false,
      call: { args: ["text=Hello world"], answers: (text) => JSON.stringify(JSON.parse(text)) === JSON.stringify({ text: "Hello world", letters: 10, vowels: 3 }) },
    },
  ];
  for (const server of servers) checkServer(server);
  for (const { name, ok, detail } of checks) console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : `: ${detail}`}`);
  console.log(`apps-inspector: ${PACKAGE}@${INSPECTOR_VERSION} CLI under Node ${process.version}: ${checks.filter((c) => c.ok).length}/${checks.length} checks passed`);
  return checks.every((c) => c.ok) ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then((code) => { process.exitCode = code; }, (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
