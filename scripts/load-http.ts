// `npx tsx scripts/load-http.ts`: load on the Streamable HTTP server, over loopback only. Starts
// the built demo server (`node dist/server.js --http --port 0`, so run `npm run build` first) and,
// in each of a few rounds, opens 200 sessions at once, each with a GET stream, and makes 50 echo
// calls in each: every call must be answered exactly once, on its own SSE stream, with its own
// text. Then every session is DELETEd (its GET stream must end, its id must then get 404). The
// server's memory (RSS from /proc/<pid>/status, Linux only, and its JS heap after a full GC) is
// reported idle, at its peak, after each round and after settling. Exits 1 on any wrong, lost or
// doubled answer, an HTTP error, a time-out, a server crash, memory that grows round over round,
// or sockets left open.
// The settled RSS is only reported, as issue 10's row "RSS 30 s after 200 sessions x 50 calls end
// vs idle", with where it is: RSS by mapping (bench/rss-breakdown.ts) as left 30 s after the load
// and after a full GC, V8's heap spaces, and glibc malloc's own account (through gdb, if on PATH).
// bench/rss-baseline.ts measures a bare node:http server under the same load, for comparison.
// Flags: --sessions N, --calls N, --window N (calls in flight per session), --rounds N,
// --settle-s N, --deadline-s N.

import { spawn } from "node:child_process";
import { setMaxListeners } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { askMalloc, MEMORY_PRELOAD, rssBreakdown, v8Committed, type GcReport, type RssBreakdown } from "./bench/rss-breakdown.js";

const flags = new Map<string, number>();
for (let i = 2; i < process.argv.length; i += 2) flags.set(process.argv[i]!.replace(/^--/, ""), Number(process.argv[i + 1]));
const SESSIONS = flags.get("sessions") ?? 200;
const CALLS = flags.get("calls") ?? 50;
const WINDOW = flags.get("window") ?? 5;
const ROUNDS = flags.get("rounds") ?? 3;
const SETTLE_MS = (flags.get("settle-s") ?? 30) * 1000;
/** How often the RSS breakdown is sampled while the server settles. */
const SAMPLE_MS = 5000;
const DEADLINE_MS = (flags.get("deadline-s") ?? 180) * 1000;
const VERSION = "2025-11-25";
const ACCEPT = "application/json, text/event-stream";
const MIB = 1024 * 1024;
/** A leak: after the last round, more than this above the first round's level (after a full GC each time). */
const HEAP_ROUND_SLACK_BYTES = 4 * MIB;
const RSS_ROUND_SLACK_BYTES = 32 * MIB;

const root = fileURLToPath(new URL("..", import.meta.url));
const deadline = new AbortController();
// Every fetch listens on this one signal; undici lets go of its listeners lazily.
setMaxListeners(0, deadline.signal);
const failures: string[] = [];
const fail = (message: string) => {
  if (failures.length < 20) failures.push(message);
  else if (failures.length === 20) failures.push("(more failures left out)");
};

// ---- The server: the real dist/server.js, with MEMORY_PRELOAD (a full GC and a report on SIGUSR2).
// LOAD_HTTP_NODE_FLAGS adds node flags to the server (e.g. --max-semi-space-size=1), to measure
// what they change; the MALLOC_* variables of glibc reach it through the environment.
const nodeFlags = (process.env.LOAD_HTTP_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "");
const child = spawn(process.execPath, [...nodeFlags, "--expose-gc", "--import", MEMORY_PRELOAD, `${root}dist/server.js`, "--http", "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
let stderr = "";
/** Waiters for text on the server's stderr, each with its own check. */
const stderrWaiters = new Set<() => boolean>();
child.stderr.setEncoding("utf8");
child.stderr.on("data", (chunk: string) => {
  stderr += chunk;
  for (const check of [...stderrWaiters]) if (check()) stderrWaiters.delete(check);
});
let finished = false;
let exited = false;
child.on("exit", (code, signal) => {
  exited = true;
  if (!finished) fail(`server exited during the run (code ${code}, signal ${signal}); stderr: ${stderr.slice(-2000)}`);
  deadline.abort();
});

/** Resolves with the first match of `pattern` in what the server writes to stderr from offset `from` on. */
function awaitStderr(pattern: RegExp, from = 0): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = stderr.slice(from).match(pattern);
      if (match) resolve(match);
      return match !== null;
    };
    if (check()) return;
    stderrWaiters.add(check);
    deadline.signal.addEventListener("abort", () => reject(new Error(`gave up waiting for ${pattern} on the server's stderr`)), { once: true });
  });
}

/** The server's open file descriptors (its sockets among them). */
function openFds(): number {
  return readdirSync(`/proc/${child.pid}/fd`).length;
}

/** The server's CPU time so far (user and system), in seconds; /proc counts it in clock ticks of 10 ms. */
function cpuSeconds(): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function memory(): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib("VmRSS"), hwm: kib("VmHWM") };
}

// ---- The client side: fetch, and a small SSE reader.
interface Message { jsonrpc: string; id?: string | number; method?: string; result?: any; error?: any }

async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: { id?: string; data: string }) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data: string[] = [];
      let id: string | undefined;
      for (const line of block.split("\n")) {
        if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        else if (line.startsWith("id:")) id = line.slice(3).trim();
      }
      if (data.length > 0 || id !== undefined) onEvent({ id, data: data.join("\n") });
    }
  }
}

const runStarted = performance.now();

const SEND_ATTEMPTS = 4;
/** Requests sent again after the connection was closed under them before any answer (see send). */
let transportRetries = 0;

/**
 * fetch, with the request named in its error. A request that meets a connection the server has
 * just closed for being idle (the HTTP/1.1 keep-alive race, likelier while this busy client's
 * timers run late) is sent again, up to SEND_ATTEMPTS in all, and counted; anything else fails the run.
 */
async function send(url: string, init: RequestInit, what: string): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      const cause = error instanceof Error && error.cause ? String(error.cause) : "";
      if (attempt < SEND_ATTEMPTS && !deadline.signal.aborted && /other side closed|ECONNRESET/.test(cause)) {
        transportRetries++;
        continue;
      }
      throw new Error(`${what} at ${((performance.now() - runStarted) / 1000).toFixed(1)} s failed: ${String(error)}${cause ? `: ${cause}` : ""}`);
    }
  }
}

function post(url: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return send(url, { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json", ...headers }, body: JSON.stringify(body), signal: deadline.signal }, (body as { method?: string }).method ?? "response");
}

/** The messages of one POST's reply, whichever form it took. */
async function messagesOf(response: Response): Promise<Message[]> {
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) return [(await response.json()) as Message];
  const messages: Message[] = [];
  await readEvents(response.body!, (event) => {
    if (event.data !== "") messages.push(JSON.parse(event.data) as Message);
  });
  return messages;
}

interface Session {
  index: number;
  headers: Record<string, string>;
  getMessages: Message[];
  getEnded: Promise<void>;
}

async function openSession(url: string, index: number): Promise<Session | undefined> {
  const init = await post(url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "load-http", version: "1" } } });
  const id = init.headers.get("mcp-session-id");
  const answer = (await messagesOf(init)).find((m) => m.id === 0);
  if (init.status !== 200 || !id || answer?.result?.protocolVersion !== VERSION) {
    fail(`session ${index}: initialize failed: HTTP ${init.status} ${JSON.stringify(answer)}`);
    return undefined;
  }
  const headers = { "mcp-session-id": id, "mcp-protocol-version": VERSION };
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  if (initialized.status !== 202) fail(`session ${index}: notifications/initialized got HTTP ${initialized.status}`);
  await initialized.body?.cancel();
  const get = await send(url, { headers: { ...headers, accept: "text/event-stream" }, signal: deadline.signal }, "GET stream");
  if (get.status !== 200) fail(`session ${index}: GET stream got HTTP ${get.status}`);
  const getMessages: Message[] = [];
  const getEnded = readEvents(get.body!, (event) => {
    if (event.data !== "") getMessages.push(JSON.parse(event.data) as Message);
  }).catch((error: unknown) => {
    if (!deadline.signal.aborted) fail(`session ${index}: GET stream failed: ${String(error)}`);
  });
  return { index, headers, getMessages, getEnded };
}

const latencies: number[] = [];
/** How many times each call was answered, by "session/call". */
const answered = new Map<string, number>();

async function runCalls(url: string, session: Session): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < CALLS && !deadline.signal.aborted) {
      const call = next++;
      const key = `${session.index}/${call}`;
      const text = `s${session.index}-c${call}-${Math.random().toString(36).slice(2)}`;
      const id = `${session.index}:${call}`;
      const started = performance.now();
      const response = await post(url, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text } } }, session.headers);
      if (response.status !== 200) {
        fail(`call ${key}: HTTP ${response.status} ${await response.text()}`);
        continue;
      }
      const messages = await messagesOf(response);
      latencies.push(performance.now() - started);
      for (const message of messages) {
        if (message.method !== undefined) {
          fail(`call ${key}: unexpected ${message.method} on its stream`);
          continue;
        }
        if (message.id !== id) {
          fail(`call ${key}: a response for ${JSON.stringify(message.id)} on its stream`);
          continue;
        }
        answered.set(key, (answered.get(key) ?? 0) + 1);
        const got = message.result?.content?.[0]?.text;
        if (got !== `echo: ${text}`) fail(`call ${key}: wrong answer ${JSON.stringify(message)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(WINDOW, CALLS) }, worker));
}

async function endSession(url: string, session: Session): Promise<void> {
  const deleted = await send(url, { method: "DELETE", headers: session.headers, signal: deadline.signal }, "DELETE");
  if (deleted.status !== 200) fail(`session ${session.index}: DELETE got HTTP ${deleted.status}`);
  await deleted.body?.cancel();
  await session.getEnded;
  const responses = session.getMessages.filter((m) => m.method === undefined);
  if (responses.length > 0) fail(`session ${session.index}: the GET stream carried responses: ${JSON.stringify(responses[0])}`);
  const again = await post(url, { jsonrpc: "2.0", id: "after", method: "ping" }, session.headers);
  if (again.status !== 404) fail(`session ${session.index}: after DELETE a POST got HTTP ${again.status}, not 404`);
  await again.body?.cancel();
}

/** Runs a full GC in the server; returns its process.memoryUsage() and V8 heap spaces, GC_SETTLE_MS after. */
async function fullGc(): Promise<GcReport> {
  const from = stderr.length;
  child.kill("SIGUSR2");
  const [, usage] = await awaitStderr(/load-http: gc done (\{.*\})\n/, from);
  return JSON.parse(usage!) as GcReport;
}

function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Round {
  sessions: number;
  openMs: number;
  callMs: number;
  endMs: number;
  loaded: { rss: number; hwm: number };
  afterEnd: { rss: number; hwm: number };
  afterGc: { rss: number; hwm: number };
  heap: GcReport;
}

/** One round: open every session at once, make every call, end every session; memory before and after a GC. */
async function round(url: string, number: number): Promise<Round> {
  const started = performance.now();
  const opened = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => openSession(url, number * SESSIONS + i)));
  const sessions = opened.filter((s): s is Session => s !== undefined);
  const openedAt = performance.now();
  await Promise.all(sessions.map((s) => runCalls(url, s)));
  const calledAt = performance.now();
  const loaded = memory();
  await Promise.all(sessions.map((s) => endSession(url, s)));
  const endedAt = performance.now();
  const afterEnd = memory();
  const heap = await fullGc();
  return { sessions: sessions.length, openMs: openedAt - started, callMs: calledAt - openedAt, endMs: endedAt - calledAt, loaded, afterEnd, afterGc: memory(), heap };
}

async function main(): Promise<number> {
  const timer = setTimeout(() => {
    fail(`the run passed its ${DEADLINE_MS / 1000} s deadline`);
    deadline.abort();
  }, DEADLINE_MS);
  try {
    const [, origin] = await awaitStderr(/Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+)\/mcp/);
    const url = `${origin}/mcp`;
    const idleHeap = await fullGc();
    const idle = memory();
    const idleParts = rssBreakdown(child.pid!);
    const idleFds = openFds();
    const rounds: Round[] = [];
    const cpuBefore = cpuSeconds();
    for (let r = 0; r < ROUNDS && !deadline.signal.aborted; r++) rounds.push(await round(url, r));
    const serverCpu = cpuSeconds() - cpuBefore;

    let lost = 0;
    let doubled = 0;
    for (let s = 0; s < SESSIONS * ROUNDS; s++) {
      for (let c = 0; c < CALLS; c++) {
        const count = answered.get(`${s}/${c}`) ?? 0;
        if (count === 0) lost++;
        if (count > 1) doubled++;
      }
    }
    if (lost > 0) fail(`${lost} calls were never answered`);
    if (doubled > 0) fail(`${doubled} calls were answered more than once`);

    // No GC is forced here: what RSS does on its own while the server idles is half of the answer.
    const timeline: { at: number; parts: RssBreakdown }[] = [];
    for (let at = 0; ; ) {
      timeline.push({ at, parts: rssBreakdown(child.pid!) });
      if (at >= SETTLE_MS) break;
      const step = Math.min(SAMPLE_MS, SETTLE_MS - at);
      await new Promise((resolve) => setTimeout(resolve, step));
      at += step;
    }
    const left = timeline.at(-1)!.parts;
    const settledHeap = await fullGc();
    const settled = memory();
    const settledParts = rssBreakdown(child.pid!);
    const malloc = await askMalloc(child.pid!, () => stderr);
    const settledFds = openFds();
    // Idle keep-alive connections are closed by then (the server's keep-alive timeout is 5 s).
    if (settledFds > idleFds + 2) fail(`the server holds ${settledFds} file descriptors after the run, ${idleFds} when idle: sockets left open`);

    const first = rounds[0]!;
    const last = rounds.at(-1)!;
    const peak = last.afterGc.hwm;
    // A leak grows with every round of sessions; memory the allocator merely keeps for reuse does not.
    const heapGrowth = last.heap.heapUsed - first.heap.heapUsed;
    const rssGrowth = last.afterGc.rss - first.afterGc.rss;
    const leaking = rounds.length > 1 && (heapGrowth > HEAP_ROUND_SLACK_BYTES || rssGrowth > RSS_ROUND_SLACK_BYTES);
    if (leaking) fail(`memory grows round over round: after ${rounds.length} rounds heapUsed +${mib(heapGrowth)}, RSS +${mib(rssGrowth)} compared with round 1`);

    const sorted = [...latencies].sort((a, b) => a - b);
    const total = SESSIONS * CALLS * rounds.length;
    const answeredOnce = [...answered.values()].filter((n) => n === 1).length;
    const callMs = rounds.reduce((sum, r) => sum + r.callMs, 0);
    console.log(`load-http: ${rounds.length} round(s) of ${SESSIONS} concurrent sessions x ${CALLS} echo calls (${WINDOW} in flight per session, each session with a GET stream), loopback ${url}`);
    console.log(`  sessions opened:   ${rounds.map((r) => `${r.sessions}/${SESSIONS} in ${r.openMs.toFixed(0)} ms`).join("; ")}`);
    console.log(`  calls:             ${answeredOnce}/${total} answered exactly once with the right text; lost ${lost}, doubled ${doubled}`);
    console.log(`  call phase:        ${(total / (callMs / 1000)).toFixed(0)} calls/s; latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${percentile(sorted, 100).toFixed(1)} ms; server CPU ${((serverCpu / total) * 1e6).toFixed(0)} µs per call (sessions opened and ended included)`);
    console.log(`  transport retries: ${transportRetries} (requests sent again after meeting a connection closed as idle, before any answer)`);
    console.log(`  sessions ended:    ${rounds.map((r) => `DELETE x ${r.sessions} in ${r.endMs.toFixed(0)} ms`).join("; ")}; GET streams ended; every id then 404`);
    console.log(`  server RSS:        idle ${mib(idle.rss)}; peak ${mib(peak)}; ${rounds.map((r, i) => `round ${i + 1}: live ${mib(r.loaded.rss)}, after DELETE ${mib(r.afterEnd.rss)}, after GC ${mib(r.afterGc.rss)}`).join("; ")}`);
    console.log(`  server JS heap:    heapUsed after GC: idle ${mib(idleHeap.heapUsed)}, ${rounds.map((r, i) => `round ${i + 1} ${mib(r.heap.heapUsed)} (heapTotal ${mib(r.heap.heapTotal)}, external ${mib(r.heap.external)})`).join(", ")}`);
    console.log(`  settled (${SETTLE_MS / 1000} s idle + GC): open fds ${settledFds} (idle ${idleFds}), RSS ${mib(settled.rss)}, heapUsed ${mib(settledHeap.heapUsed)}, heapTotal ${mib(settledHeap.heapTotal)}, external ${mib(settledHeap.external)}`);
    console.log(`  memory verdict:    ${leaking ? "LEAK: grows round over round" : rounds.length > 1 ? "no growth from round to round" : "one round only, no round-over-round check"}; sockets ${settledFds > idleFds + 2 ? "LEFT OPEN" : "all closed"}`);
    const ratio = (bytes: number) => `${(bytes / idle.rss).toFixed(2)}x`;
    const v8Growth = v8Committed(settledHeap) - v8Committed(idleHeap);
    const arenas = (p: RssBreakdown) => p.mainArena + p.threadArenas;
    const plus = (bytes: number) => `${bytes < 0 ? "-" : "+"}${mib(Math.abs(bytes))}`;
    console.log(`  RSS ${SETTLE_MS / 1000} s after ${SESSIONS} sessions x ${CALLS} calls end vs idle: ${ratio(left.total)} as left (${mib(left.total)}, idle ${mib(idle.rss)}), ${ratio(settled.rss)} after a full GC (${mib(settled.rss)})`);
    console.log(`    as left, vs idle: ${plus(left.otherAnonymous - idleParts.otherAnonymous)} anonymous memory outside malloc's arenas (V8's heap, mostly), ${plus(arenas(left) - arenas(idleParts))} malloc arenas, ${plus(left.file - idleParts.file)} file-backed (code pages first run under load)`);
    console.log(`      RSS while idling, no GC: ${timeline.map((t) => `${t.at / 1000} s ${mib(t.parts.total)}`).join(", ")}`);
    console.log(
      `    after the GC, vs idle: V8 heap ${plus(v8Growth)} (${mib(v8Committed(settledHeap))} committed for ${mib(settledHeap.heapUsed)} used: ` +
        `${Object.entries(settledHeap.spaces).filter(([, bytes]) => bytes >= MIB / 10).map(([name, bytes]) => `${name} ${mib(bytes)}`).join(", ")}), ` +
        `malloc arenas ${plus(arenas(settledParts) - arenas(idleParts))} (${settledParts.threadArenaCount} thread arenas), file-backed ${plus(settledParts.file - idleParts.file)}, ` +
        `other anonymous ${plus(settledParts.otherAnonymous - v8Committed(settledHeap) - (idleParts.otherAnonymous - v8Committed(idleHeap)))}`,
    );
    if (malloc) console.log(`      glibc malloc holds ${mib(malloc.system)}, ${mib(malloc.inUse)} of it in use; malloc_trim(0) through gdb, which returns every free page, takes RSS ${mib(malloc.rssBefore)} -> ${mib(malloc.rssAfterTrim)}`);
    console.log(
      "    why: an idle server allocates nothing, so V8 starts no GC and keeps the old space it grew under load until its memory reducer's " +
        "watchdog runs one (kWatchdogDelayMs, 100 s after the last GC) or a GC is forced; malloc keeps little (above). " +
        "A bare node:http server under the same load does the same: scripts/bench/rss-baseline.ts",
    );
  } catch (error) {
    const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : "";
    fail(`run aborted: ${error instanceof Error ? error.message : String(error)}${cause}`);
  } finally {
    clearTimeout(timer);
  }
  finished = true;
  if (!exited) child.kill("SIGTERM");
  if (failures.length > 0) {
    console.log(`load-http: FAILED\n  - ${failures.join("\n  - ")}`);
    return 1;
  }
  console.log("load-http: OK");
  return 0;
}

process.exitCode = await main();
