// A client under measurement, run in its own process so that its CPU time is its own: either our
// McpClient over StdioClientTransport (from dist/, so no TypeScript transform runs in here) or a raw
// JSON-line client made of Node built-ins only. Both drive the baseline echo server.
// Usage: node client-driver.mjs ours|raw load <calls> <window>  |  ours|raw large <text bytes>
// Prints one JSON line: the figures, or { "problem": "..." } for wrong answers; crashes exit 1.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const SERVER = new URL("./baseline-server.mjs", import.meta.url).pathname;
/** How long the load may go without an answer before the missing ones are reported. */
const STALL_MS = 10_000;

const [side, mode, first, second] = process.argv.slice(2);
/** Wrong answers, the first few of them: any at all fails the run. */
const problems = [];
const problem = (message) => void (problems.length < 5 && problems.push(message));
const client = side === "ours" ? await oursClient() : side === "raw" ? rawClient() : usage();
await client.connect();
const figures = mode === "load" ? await load(Number(first), Number(second)) : mode === "large" ? await large(Number(first)) : usage();
await client.close();
process.stdout.write(JSON.stringify(problems.length > 0 ? { problem: problems.join("; ") } : figures) + "\n");

function usage() {
  throw new Error("usage: client-driver.mjs ours|raw load <calls> <window> | ours|raw large <text bytes>");
}

/** Our client. Responses it drops (repeated or unknown ids) reach onProblem, and count as wrong answers. */
async function oursClient() {
  const { McpClient, StdioClientTransport } = await import("../../dist/index.js");
  const mcp = new McpClient({ name: "bench", version: "1" }, { onProblem: (message) => problem(`ours: ${message}`) });
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER] });
  return {
    connect: () => mcp.connect(transport),
    callEcho: async (text) => (await mcp.callTool("echo", { text })).content[0].text,
    close: () => mcp.close(),
  };
}

/**
 * The least an honest client does: one write per request, lines split by hand, one JSON.parse per
 * line, a Map from id to the waiting call. No timeouts, no validation, no backpressure handling.
 */
function rawClient() {
  const child = spawn(process.execPath, [SERVER], { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map();
  let nextId = 0;
  let parts = [];
  let length = 0;
  child.stdout.on("data", (chunk) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, newline));
      const line = parts.length === 1 ? parts[0] : Buffer.concat(parts, length + newline - start);
      parts = [];
      length = 0;
      start = newline + 1;
      const message = JSON.parse(line.toString("utf8"));
      const waiting = pending.get(message.id);
      if (!waiting) {
        problem(`raw: a response for id ${JSON.stringify(message.id)} that no call waits for`);
        continue;
      }
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`raw: ${message.error.message}`));
      else waiting.resolve(message.result);
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      length += chunk.length - start;
    }
  });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  return {
    connect: async () => {
      const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } };
      const result = await request("initialize", params);
      if (typeof result.protocolVersion !== "string") throw new Error("raw: initialize: no protocolVersion");
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    },
    callEcho: async (text) => (await request("tools/call", { name: "echo", arguments: { text } })).content[0].text,
    close: async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

/**
 * `calls` echo calls, `window` of them outstanding at any time: each answer starts the next call.
 * CPU is this process's user+sys time (all threads, not the server's) from the first call to the last answer.
 */
async function load(calls, window) {
  const answered = new Uint8Array(calls + 1);
  let answers = 0;
  let next = 1;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve, reject) => {
    let progressed = true;
    const watchdog = setInterval(() => {
      if (!progressed) finish(`load of ${calls} calls stalled for ${STALL_MS} ms with ${answers} answered`);
      progressed = false;
    }, STALL_MS);
    const finish = (failure) => {
      clearInterval(watchdog);
      if (failure) problem(`${side}: ${failure}`);
      resolve();
    };
    const launch = () => {
      const id = next++;
      client.callEcho(`call ${id}`).then((text) => {
        progressed = true;
        if (answered[id]++ !== 0) problem(`${side}: id ${id} answered more than once`);
        if (text !== `echo: call ${id}`) problem(`${side}: id ${id}: wrong answer ${JSON.stringify(text).slice(0, 200)}`);
        if (next <= calls) launch();
        if (++answers === calls) finish();
      }, (error) => (clearInterval(watchdog), reject(error)));
    };
    while (next <= Math.min(window, calls)) launch();
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { calls, seconds, cpuMicroseconds: cpu.user + cpu.system, peakRssBytes: peakRssBytes() };
}

/** One echo of a `bytes`-byte ASCII text: milliseconds from the call made to its result in hand. */
async function large(bytes) {
  const text = Buffer.alloc(bytes, "The quick brown fox jumps over the lazy dog. ").toString("latin1");
  const started = performance.now();
  const echoed = await client.callEcho(text);
  const elapsed = performance.now() - started;
  const expected = "echo: ".length + bytes;
  if (typeof echoed !== "string" || echoed.length !== expected || !echoed.endsWith(text.slice(-100))) {
    problem(`${side}: echo of ${bytes} bytes: expected text of ${expected} characters, got ${typeof echoed === "string" ? `${echoed.length}` : typeof echoed}`);
  }
  return { elapsedMs: elapsed, peakRssBytes: peakRssBytes() };
}

/**
 * This process's largest resident set size (VmHWM). Not getrusage's maxRSS: Linux carries that
 * across execve, so it would report the bench parent's peak whenever that was higher.
 */
function peakRssBytes() {
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"))[1]) * 1024;
}
