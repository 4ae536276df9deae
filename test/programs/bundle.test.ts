// dist/server.js, the path hosts are configured with, is the demo program (src/demo/main.ts), and
// dist/cli.cjs, the mcp-wire bin (dist/cli.js imports it), is the CLI (src/cli.ts), each in one
// file plus the chunks it reads when a path first needs them (scripts/bundle.ts says why): copied
// with their chunks alone into an empty directory, each still works on every path (stdio, --http,
// --help, a session over stdio and over HTTP), so it loads no other file of dist/; and a path
// loads no built-in it does not need. Needs dist/: `npm test` builds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startInspect } from "../helpers/inspect-program.js";

const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
const PACKAGE = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { bin: { [name: string]: string } };
const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

/** Copies `program` and its chunks (dist/<program's stem>.*.cjs) into dir/dist; returns their names. */
function copyProgram(dir: string, program: string): string[] {
  mkdirSync(join(dir, "dist"), { recursive: true });
  const stem = program.replace(/\.c?js$/, "");
  const files = [program, ...readdirSync(DIST).filter((file) => file.startsWith(`${stem}.`) && file.endsWith(".cjs") && file !== program)];
  for (const file of files) copyFileSync(join(DIST, file), join(dir, "dist", file));
  return files;
}

function inEmptyDirectory(run: (dir: string) => Promise<void> | void): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-wire-bundle-"));
    try {
      await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** Starts the copied server with --http on a free port; resolves to its /mcp URL and a stop function. */
async function serveHttp(server: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [server, "--http", "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const stop = () => void child.kill("SIGKILL");
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 10 s; stderr: ${stderr}`)), 10_000);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited with code ${code}; stderr: ${stderr}`)));
  }).catch((error: unknown) => {
    stop();
    throw error;
  });
  return { url, stop };
}

test("bundle: dist/server.js and its chunks alone, without the rest of dist/, are the whole demo program", inEmptyDirectory(async (dir) => {
  const files = copyProgram(dir, "server.js");
  // The HTTP modules are a chunk of their own: the stdio server does not parse them.
  assert.ok(files.length > 1, `no chunk next to dist/server.js: ${files.join(", ")}`);
  const alone = join(dir, "dist", "server.js");
  const run = (args: string[], input: string) => spawnSync(process.execPath, [alone, ...args], { cwd: dir, input, encoding: "utf8", timeout: 10_000 });
  const help = run(["--help"], "");
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stderr, /^usage: mcp-wire-server/);
  const served = run([], `${JSON.stringify(INITIALIZE)}\n`);
  assert.equal(served.status, 0, served.stderr);
  const answer = JSON.parse(served.stdout.trim()) as { id: number; result: { serverInfo: { name: string } } };
  assert.equal(answer.id, 1);
  assert.equal(answer.result.serverInfo.name, "mcp-wire-demo");

  const { url, stop } = await serveHttp(alone);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(INITIALIZE),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.match(text, /"serverInfo":\{"name":"mcp-wire-demo"/);
  } finally {
    stop();
  }
}));

test("bundle: the build leaves a V8 code cache that this Node accepts for dist/server.code.cjs, the server's code", () => {
  // Compiled in a plain child, as hosts run the server: V8 sets aside a cache made with other flags.
  const check = `const { readFileSync } = require("node:fs"); const { Script } = require("node:vm");
    const script = new Script(readFileSync(process.argv[1], "utf8"), { filename: process.argv[1], cachedData: readFileSync(process.argv[2]) });
    process.stdout.write(JSON.stringify({ rejected: script.cachedDataRejected }));`;
  const run = spawnSync(process.execPath, ["-e", check, join(DIST, "server.code.cjs"), join(DIST, "server.code.cache")], { encoding: "utf8", timeout: 10_000, env: { PATH: process.env.PATH } });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { rejected: false });
});

test("bundle: a code cache V8 cannot use (garbage, or from another build) leaves the server working: it compiles as usual", inEmptyDirectory((dir) => {
  copyProgram(dir, "server.js");
  writeFileSync(join(dir, "dist", "server.code.cache"), Buffer.from("not a V8 code cache, but the server must not care"));
  const served = spawnSync(process.execPath, [join(dir, "dist", "server.js")], { cwd: dir, input: `${JSON.stringify(INITIALIZE)}\n`, encoding: "utf8", timeout: 10_000 });
  assert.equal(served.status, 0, served.stderr);
  assert.match(served.stdout, /"serverInfo":\{"name":"mcp-wire-demo"/);
}));

/**
 * Runs `node ...args` and returns the built-in modules it loaded, as Node lists them at exit. The
 * list is written by a CommonJS preload with one write(2): an --import hook or process.stderr
 * would load the ES module loader or the stream modules themselves.
 */
function builtinsLoaded(dir: string, args: string[], input = ""): { stdout: string; loaded: Set<string> } {
  const preload = join(dir, "report-builtins.cjs");
  writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, '\\n' + JSON.stringify(process.moduleLoadList)));\n");
  const run = spawnSync(process.execPath, ["-r", preload, ...args], { input, encoding: "utf8", timeout: 10_000 });
  assert.equal(run.status, 0, run.stderr);
  const list = JSON.parse(run.stderr.slice(run.stderr.lastIndexOf("\n") + 1)) as string[];
  return { stdout: run.stdout, loaded: new Set(list.filter((name) => name.startsWith("NativeModule ")).map((name) => name.slice(13))) };
}

test("bundle: the stdio server answers initialize without loading node:crypto, node:http or node:module", inEmptyDirectory((dir) => {
  // What a path does not need, it does not load (scripts/bundle.ts): crypto is for 2026-07-28 input
  // rounds, http for --http, and node:module only to read a chunk where process.getBuiltinModule exists.
  const { stdout, loaded } = builtinsLoaded(dir, [join(DIST, "server.js")], `${JSON.stringify(INITIALIZE)}\n`);
  assert.match(stdout, /"serverInfo":\{"name":"mcp-wire-demo"/);
  const unwanted = ["crypto", "http", ...("getBuiltinModule" in process ? ["module"] : [])];
  assert.deepEqual(unwanted.filter((name) => loaded.has(name)), []);
}));

test("bundle: mcp-wire --help loads no stream, socket or child process module: it runs the command line's parser only", inEmptyDirectory((dir) => {
  const { stdout, loaded } = builtinsLoaded(dir, [join(DIST, PACKAGE.bin["mcp-wire"]!.replace(/^(\.\/)?dist\//, "")), "--help"]);
  assert.match(stdout, /^usage: mcp-wire /);
  assert.deepEqual(["stream", "net", "child_process", "crypto"].filter((name) => loaded.has(name)), []);
}));

test("bundle: the mcp-wire bin and its chunks alone answer --help, and with dist/server.js alone run a session over stdio and over HTTP", inEmptyDirectory(async (dir) => {
  const bin = PACKAGE.bin["mcp-wire"]!.replace(/^(\.\/)?dist\//, "");
  const files = copyProgram(dir, bin);
  copyProgram(dir, "server.js");
  assert.ok(files.length > 1, `no chunk next to dist/${bin}: ${files.join(", ")}`);
  const cli = join(dir, "dist", bin);
  const server = join(dir, "dist", "server.js");
  const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: "utf8", timeout: 10_000 });
  const help = run(["--help"]);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^usage: mcp-wire /);
  const wrong = run(["--no-such-option"]);
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /^mcp-wire: .*--no-such-option/);
  const called = run(["call", "add", "a=3", "b=4", "--", process.execPath, server]);
  assert.equal(called.status, 0, called.stderr);
  assert.deepEqual((JSON.parse(called.stdout) as { structuredContent: unknown }).structuredContent, { sum: 7 });
  // The server's error is thrown as an RpcError by the JSON-RPC modules and recognised with
  // `instanceof RpcError` by cli/failures.js (code first): one copy of each module in the bundle.
  const refused = run(["call", "no_such_tool", "--", process.execPath, server]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^mcp-wire: tools\/call failed: -32602 /m);

  const { url, stop } = await serveHttp(server);
  try {
    const overHttp = run(["--url", url, "call", "add", "a=1", "b=2"]);
    assert.equal(overHttp.status, 0, overHttp.stderr);
    assert.deepEqual((JSON.parse(overHttp.stdout) as { structuredContent: unknown }).structuredContent, { sum: 3 });
  } finally {
    stop();
  }
}));

test("bundle: the bin's chunk of mcp-wire inspect finds its page next to it (dist/inspect/), and runs a session from it", inEmptyDirectory(async (dir) => {
  // The chunk reads the page's files by its own import.meta.url (src/cli/inspect.ts), which the
  // bundle must keep meaning the chunk's file; the other inspect tests run the unbundled CLI.
  const bin = PACKAGE.bin["mcp-wire"]!.replace(/^(\.\/)?dist\//, "");
  copyProgram(dir, bin);
  copyProgram(dir, "server.js");
  mkdirSync(join(dir, "dist", "inspect"));
  for (const file of readdirSync(join(DIST, "inspect"))) copyFileSync(join(DIST, "inspect", file), join(dir, "dist", "inspect", file));
  const inspect = await startInspect([process.execPath, join(dir, "dist", "server.js")], [], join(dir, "dist", bin), dir);
  try {
    const page = await fetch(inspect.url);
    assert.equal(page.status, 200);
    assert.equal(await page.text(), readFileSync(join(DIST, "inspect", "index.html"), "utf8"));
    const answer = await inspect.act({ action: "call", name: "add", arguments: { a: 3, b: 4 }, callId: "c1" });
    assert.deepEqual(answer.result?.structuredContent, { sum: 7 }, inspect.stderr());
  } finally {
    assert.equal(await inspect.stop(), 0);
  }
}));

test("bundle: dist/cli.js, for those who run the CLI by that path, is the bin's bundle", inEmptyDirectory((dir) => {
  copyProgram(dir, "cli.cjs");
  copyFileSync(join(DIST, "cli.js"), join(dir, "dist", "cli.js"));
  const help = spawnSync(process.execPath, [join(dir, "dist", "cli.js"), "--help"], { cwd: dir, encoding: "utf8", timeout: 10_000 });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^usage: mcp-wire /);
}));
