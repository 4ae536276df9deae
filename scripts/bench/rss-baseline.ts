// `npx tsx scripts/bench/rss-baseline.ts [json|sse]`: the share of load-http's post-load RSS that
// is Node's own. The same load shape as scripts/load-http.ts (rounds of 200 clients at once, 50
// echo calls each, 5 in flight, over fetch on loopback) against the bare node:http server of
// baseline-http.mjs, which keeps nothing between requests (no sessions, so no GET streams or
// DELETEs); then the same 30 s settle, full GC, RSS breakdown and glibc malloc report.
// Flags: --sessions N, --calls N, --window N, --rounds N, --settle-s N.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { askMalloc, MEMORY_PRELOAD, rssBreakdown, v8Committed, type GcReport, type RssBreakdown } from "./rss-breakdown.js";

const mode = process.argv[2] === "json" ? "json" : "sse";
const flags = new Map<string, number>();
for (let i = 3; i < process.argv.length; i += 2) flags.set(process.argv[i]!.replace(/^--/, ""), Number(process.argv[i + 1]));
const SESSIONS = flags.get("sessions") ?? 200;
const CALLS = flags.get("calls") ?? 50;
const WINDOW = flags.get("window") ?? 5;
const ROUNDS = flags.get("rounds") ?? 3;
const SETTLE_MS = (flags.get("settle-s") ?? 30) * 1000;
const MIB = 1024 * 1024;

const script = fileURLToPath(new URL("baseline-http.mjs", import.meta.url));
const nodeFlags = (process.env.LOAD_HTTP_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "");
const child = spawn(process.execPath, [...nodeFlags, "--expose-gc", "--import", MEMORY_PRELOAD, script, mode], { stdio: ["ignore", "ignore", "pipe"] });
let stderr = "";
child.stderr.setEncoding("utf8");
child.stderr.on("data", (chunk: string) => (stderr += chunk));
process.on("exit", () => child.kill("SIGTERM"));

async function stderrMatch(pattern: RegExp, from: number): Promise<RegExpMatchArray> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const match = stderr.slice(from).match(pattern);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`rss-baseline: no ${pattern} on the server's stderr`);
}

async function fullGc(): Promise<GcReport> {
  const from = stderr.length;
  child.kill("SIGUSR2");
  return JSON.parse((await stderrMatch(/load-http: gc done (\{.*\})\n/, from))[1]!) as GcReport;
}

async function post(url: string, body: object, attempt = 1): Promise<void> {
  // A request that meets a connection the server has just closed as idle is sent again (as in load-http.ts).
  const response = await fetch(url, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json" }, body: JSON.stringify(body) }).catch((error: unknown) => {
    if (attempt < 4 && error instanceof Error && /other side closed|ECONNRESET/.test(String(error.cause))) return undefined;
    throw error;
  });
  if (!response) return post(url, body, attempt + 1);
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"result"')) throw new Error(`rss-baseline: HTTP ${response.status} ${text.slice(0, 200)}`);
}

async function client(url: string, index: number): Promise<void> {
  await post(url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "rss-baseline", version: "1" } } });
  let next = 0;
  const worker = async () => {
    while (next < CALLS) {
      const call = next++;
      await post(url, { jsonrpc: "2.0", id: call, method: "tools/call", params: { name: "echo", arguments: { text: `s${index}-c${call}-${Math.random().toString(36).slice(2)}` } } });
    }
  };
  await Promise.all(Array.from({ length: Math.min(WINDOW, CALLS) }, worker));
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;
const parts = (p: RssBreakdown) => `RSS ${mib(p.total)}: main arena ${mib(p.mainArena)}, ${p.threadArenaCount} thread arenas ${mib(p.threadArenas)}, other anonymous ${mib(p.otherAnonymous)}, file-backed ${mib(p.file)}`;

const url = `${(await stderrMatch(/listening at (http:\/\/127\.0\.0\.1:\d+\/mcp)/, 0))[1]}`;
const idleHeap = await fullGc();
const idle = rssBreakdown(child.pid!);
let peak = idle.total;
for (let r = 0; r < ROUNDS; r++) {
  await Promise.all(Array.from({ length: SESSIONS }, (_, i) => client(url, r * SESSIONS + i)));
  peak = Math.max(peak, rssBreakdown(child.pid!).total);
}
await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const beforeGc = rssBreakdown(child.pid!);
const settledHeap = await fullGc();
const settled = rssBreakdown(child.pid!);
const malloc = await askMalloc(child.pid!, () => stderr);
child.kill("SIGTERM");
console.log(`rss-baseline (${mode}): ${ROUNDS} round(s) of ${SESSIONS} clients x ${CALLS} echo calls against baseline-http.mjs`);
console.log(`  idle:    ${parts(idle)}; V8 heap committed ${mib(v8Committed(idleHeap))}, heapUsed ${mib(idleHeap.heapUsed)}`);
console.log(`  peak RSS ${mib(peak)}`);
console.log(`  ${SETTLE_MS / 1000} s after, no GC: ${parts(beforeGc)}`);
console.log(`  settled (${SETTLE_MS / 1000} s + GC): ${parts(settled)}; V8 heap committed ${mib(v8Committed(settledHeap))}, heapUsed ${mib(settledHeap.heapUsed)}`);
if (malloc) console.log(`  glibc malloc: holds ${mib(malloc.system)} from the system, ${mib(malloc.inUse)} in use; malloc_trim(0) (via gdb): RSS ${mib(malloc.rssBefore)} -> ${mib(malloc.rssAfterTrim)}`);
console.log(`  RSS ${SETTLE_MS / 1000} s after the load / idle: ${(beforeGc.total / idle.total).toFixed(2)}x without a GC, ${(settled.total / idle.total).toFixed(2)}x after a full GC`);
