// `mcp-wire record` between two peers nobody here wrote: the official TypeScript SDK's Client over
// its StdioClientTransport, and `@modelcontextprotocol/server-everything`, both pinned. The client
// runs the same calls straight against the server and through the proxy, and must get the same
// results; the recording must hold every line that crossed, which a second, independent capture
// (a tiny relay between the client and the proxy, below) logs as well. The recording then passes
// `mcp-wire check` and `mcp-wire replay` against the same server; a replay against a changed one
// (server-everything with one tool more) or a different one (our demo) fails, naming the path that
// differs. Then the same over Streamable HTTP and the legacy HTTP+SSE transport
// (scripts/interop-record-http.ts; what both share is in scripts/interop-record-session.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// Run: `npm run interop:record` (exits 1 if any check fails). The peers are installed in the same
// cache as scripts/interop-client.ts's, outside this project.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseRecording, type Direction } from "../src/recordings/recording.js";
import { EVERYTHING_VERSION } from "./interop-client.js";
import { Checks, installPinned, SDK_VERSION } from "./interop.js";
import { httpChecks } from "./interop-record-http.js";
import { CHANGED_EVERYTHING_MODULE, changedEverything, CLI, DIFFERENT_SERVER_EXIT, EVERYTHING, expectChangedServerDiff, expectCli, PACKAGE, PEERS_DIR, REQUEST_TIMEOUT_MS, ROOT, SDK_CLIENT_MODULE, session, summary, TOOL_TIMEOUT_MS, type SdkModule, type Session } from "./interop-record-session.js";

/** The SDK gives a server 2 s after closing its stdin before it signals it: the proxy must be gone by then. */
const EXIT_LIMIT_MS = 2_000;

/**
 * The independent capture: a relay that passes its stdin to its command's stdin and the command's
 * stdout to its stdout, and logs each complete line of either direction as {"dir","text"}. It
 * shares no code with the proxy. Run as `node -e TAP LOG -- command args...`.
 */
const TAP = `
const { spawn } = require("node:child_process");
const { openSync, writeSync } = require("node:fs");
const [log, , command, ...args] = process.argv.slice(1);
const fd = openSync(log, "w");
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
function tap(dir, from, to) {
  let rest = Buffer.alloc(0);
  from.on("data", (chunk) => {
    to.write(chunk);
    rest = Buffer.concat([rest, chunk]);
    for (let end = rest.indexOf(10); end !== -1; end = rest.indexOf(10)) {
      writeSync(fd, JSON.stringify({ dir, text: rest.subarray(0, end).toString("utf8") }) + "\\n");
      rest = rest.subarray(end + 1);
    }
  });
}
tap("c2s", process.stdin, child.stdin);
tap("s2c", child.stdout, process.stdout);
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {});
child.on("exit", (code) => process.exit(code ?? 1));
`;

/** The recorded lines of one direction, as text, in the order they crossed. */
function linesOf(entries: { dir: Direction; text: string }[], dir: Direction): string[] {
  return entries.filter((entry) => entry.dir === dir).map((entry) => entry.text);
}

async function main(): Promise<void> {
  const checks = new Checks((check) => process.stdout.write(`${check.ok ? "PASS" : "FAIL"}  ${check.name}${check.detail ? `: ${check.detail.replace(/\n/g, "\n      ")}` : ""}\n`));
  const work = mkdtempSync(join(tmpdir(), "mcp-wire-interop-record-"));
  try {
    const installed = await checks.run(`install ${PACKAGE}@${EVERYTHING_VERSION} with @modelcontextprotocol/sdk@${SDK_VERSION}`, async () => {
      const fresh = await installPinned(PEERS_DIR, "mcp-wire-interop-everything", { [PACKAGE]: EVERYTHING_VERSION });
      // The SDK the server depends on (pinned by installPinned) is the client too, imported from there.
      writeFileSync(join(PEERS_DIR, "sdk-client-record.mjs"), SDK_CLIENT_MODULE);
      writeFileSync(join(PEERS_DIR, "changed-everything.mjs"), CHANGED_EVERYTHING_MODULE);
      return `${fresh ? "installed into" : "already in"} ${PEERS_DIR}`;
    });
    if (!installed) return;
    const sdk = (await import(pathToFileURL(join(PEERS_DIR, "sdk-client-record.mjs")).href)) as SdkModule;
    await stdioChecks(checks, sdk, work);
    await httpChecks(checks, sdk, work, "streamableHttp");
    await httpChecks(checks, sdk, work, "sse");
  } finally {
    const failed = checks.list.filter((check) => !check.ok).length;
    process.stdout.write(`interop:record: ${checks.list.length - failed} passed, ${failed} failed${failed ? `; files kept in ${work}` : ""}\n`);
    if (failed === 0) rmSync(work, { recursive: true, force: true });
    process.exitCode = failed === 0 ? 0 : 1;
  }
}

/** Over stdio: the client starts the proxy (behind the tap) as its server command. */
async function stdioChecks(checks: Checks, sdk: SdkModule, work: string): Promise<void> {
  const recording = join(work, "everything-stdio.recording");
  const tapLog = join(work, "tap-stdio.jsonl");
  const server = [EVERYTHING, "stdio"];
  const stdio = (args: string[]) => new sdk.StdioClientTransport({ command: process.execPath, args, cwd: PEERS_DIR, stderr: "pipe" });
  let direct: Session | undefined;
  let proxied: Session | undefined;
  await checks.run("stdio: sdk client -> server-everything, direct", async () => summary((direct = await session(sdk, stdio(server)))));
  await checks.run("stdio: sdk client -> tap -> mcp-wire record -> server-everything", async () =>
    summary((proxied = await session(sdk, stdio(["-e", TAP, tapLog, "--", CLI, "record", "--out", recording, "--", process.execPath, ...server])))));
  if (!direct || !proxied) return;
  await checks.run("stdio: the client sees no difference: every result equal to the direct session's", () => {
    assert.deepEqual(proxied!.results, direct!.results);
    return proxied!.results.map(([name]) => name).join(", ");
  });
  await checks.run(`stdio: the proxy and its server are gone within ${EXIT_LIMIT_MS} ms of the client closing stdin`, () => {
    assert.ok(proxied!.closedMs < EXIT_LIMIT_MS, `close() took ${Math.round(proxied!.closedMs)} ms: the SDK had to signal the proxy`);
    return `${Math.round(proxied!.closedMs)} ms (direct: ${Math.round(direct!.closedMs)} ms)`;
  });
  await checks.run("stdio: the recording holds every line the independent tap saw, in order, each direction", () => {
    const recorded = parseRecording(readFileSync(recording, "utf8"), recording).entries;
    const tapped = readFileSync(tapLog, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as { dir: Direction; text: string });
    for (const dir of ["c2s", "s2c"] as const) assert.deepEqual(linesOf(recorded, dir), linesOf(tapped, dir), `${dir}: the recording and the tap differ`);
    assert.ok(tapped.length >= 2 * proxied!.results.length, `only ${tapped.length} lines for ${proxied!.results.length} calls`);
    return `${linesOf(tapped, "c2s").length} client lines and ${linesOf(tapped, "s2c").length} server lines, byte for byte`;
  });
  await checks.run("stdio: mcp-wire check passes the recording", () => expectCli(["check", recording], 0, REQUEST_TIMEOUT_MS));
  await checks.run("stdio: mcp-wire replay of the recording against the same server matches", () =>
    expectCli(["replay", recording, "--", process.execPath, ...server], 0, TOOL_TIMEOUT_MS, PEERS_DIR));
  await checks.run("stdio: mcp-wire replay against a changed server-everything (one tool more) fails with exit 1, naming the path", () =>
    expectChangedServerDiff([recording, "--", process.execPath, ...changedEverything("stdio")], [1], "/result/tools/"));
  await checks.run(`stdio: mcp-wire replay against a different server (our demo) fails, naming the path (${DIFFERENT_SERVER_EXIT})`, () =>
    expectChangedServerDiff([recording, "--", process.execPath, join(ROOT, "dist", "server.js")], [1], "/result/serverInfo/name"));
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
