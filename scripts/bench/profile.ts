// Where our server or our client spends its time under one of the benchmark's loads: runs `node
// --cpu-prof dist/server.js` through it (or the client driver, for the client-* scenarios) and prints
// the top functions by self and by total time, with dist/ positions mapped back to src/ through the
// source maps. A client profile covers the driver's whole life, start-up and handshake included.
// Usage: node --import tsx scripts/bench/profile.ts [load|load-modern|cold|large] [ours|baseline|<server.js>] [top=25]
//        node --import tsx scripts/bench/profile.ts [client-load|client-large] [ours|raw] [top=25]
//        node --import tsx scripts/bench/profile.ts [http|http-sse|http-per-post|http-modern] [ours|baseline] [top=25]
// (http: JSON responses; http-per-post: handshake-era calls, each in a session of its own; http-modern:
// 2026-07-28 calls; an http profile covers the server's whole life, start-up and handshake included.)

import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { clientLarge, clientLoad, type ClientSide } from "./client-measure.js";
import { HTTP_SERVERS, httpLoad, SESSIONLESS_SERVERS, type HttpMode } from "./http-measure.js";
import { coldStart, largeEcho, largeRequest, load, loadRequests, MIB } from "./measure.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const root = fileURLToPath(new URL("../..", import.meta.url));
const scenario = process.argv[2] ?? "load";
const target = process.argv[3] ?? "ours";
const top = Number(process.argv[4] ?? 25);
const directory = mkdtempSync(join(tmpdir(), "mcp-wire-profile-"));
const scripts: Record<string, string> = { ours: `${root}dist/server.js`, baseline: `${root}scripts/bench/baseline-server.mjs` };
const profilerArgs = ["--cpu-prof", `--cpu-prof-dir=${directory}`, "--cpu-prof-interval=200"];
const server = {
  name: target,
  script: scripts[target] ?? target,
  args: [],
  nodeArgs: profilerArgs,
};

if (scenario === "load" || scenario === "load-modern") {
  const calls = 50_000;
  const result = await load(server, loadRequests(calls, scenario === "load-modern"), calls);
  console.log(`${scenario}: ${calls} calls, ${Math.round(result.callsPerSecond)} calls/s, ${result.cpuMicrosecondsPerCall.toFixed(1)} µs CPU per call (profiler on)`);
} else if (scenario === "cold") {
  for (let run = 0; run < 10; run++) await coldStart(server);
  console.log("cold: 10 starts, profiles summed");
} else if (scenario === "large") {
  const elapsed = await largeEcho(server, largeRequest(64 * MIB), 64 * MIB);
  console.log(`large: 64 MiB echo in ${elapsed.toFixed(0)} ms (profiler on)`);
} else if (scenario === "client-load") {
  const calls = 50_000;
  const result = await clientLoad(target as ClientSide, calls, 256, profilerArgs);
  console.log(`client-load: ${calls} calls, 256 outstanding, ${result.cpuMicrosecondsPerCall.toFixed(1)} µs client CPU per call (profiler on)`);
} else if (scenario === "client-large") {
  const elapsed = await clientLarge(target as ClientSide, 64 * MIB, profilerArgs);
  console.log(`client-large: 64 MiB result in ${elapsed.toFixed(0)} ms (profiler on)`);
} else if (scenario === "http" || scenario === "http-sse" || scenario === "http-per-post" || scenario === "http-modern") {
  const mode: HttpMode = scenario === "http-sse" ? "sse" : "json";
  const flavour = scenario === "http-per-post" ? "per-post" : scenario === "http-modern" ? "modern" : "session";
  const calls = 20_000;
  const ours = flavour === "session" ? HTTP_SERVERS[mode].ours : SESSIONLESS_SERVERS[flavour];
  const command = { ...(target === "baseline" ? HTTP_SERVERS[mode].baseline : ours), nodeArgs: profilerArgs };
  // The bundle has no source map of its own; the unbundled program runs the same code with maps
  // that point into src/.
  if (command.script.endsWith("/dist/server.js")) command.script = `${root}dist/demo/main.js`;
  const result = await httpLoad(command, mode, calls, 64, flavour);
  console.log(`${scenario}: ${calls} calls, 64 in flight, ${Math.round(result.callsPerSecond)} calls/s, ${result.cpuMicrosecondsPerCall.toFixed(1)} µs server CPU per call (profiler on)`);
} else {
  throw new Error(`profile: unknown scenario ${scenario}; use load, cold, large, client-load, client-large, http, http-sse, http-per-post or http-modern`);
}

const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
const maps = new Map<string, SourceMap | undefined>();
for (const file of readdirSync(directory)) {
  const profile = JSON.parse(readFileSync(join(directory, file), "utf8")) as Profile;
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keys = new Map(profile.nodes.map((node) => [node.id, describe(node)]));
  profile.samples.forEach((sample, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    all += micros;
    self.set(keys.get(sample)!, (self.get(keys.get(sample)!) ?? 0) + micros);
    // Each function counts once per sample however often it recurs on the stack.
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) seen.add(keys.get(id)!);
    for (const key of seen) total.set(key, (total.get(key) ?? 0) + micros);
  });
}

console.log(`profiles in ${directory}; ${(all / 1000).toFixed(0)} ms sampled`);
for (const [title, table] of [["self time", self], ["total time (self + callees)", total]] as const) {
  console.log(`\ntop ${top} by ${title}:`);
  const rows = [...table].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, micros] of rows) console.log(`  ${((100 * micros) / all).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}`);
}

/** `src/x.ts:12 name` for our code (through its source map), `node:internal/... name` for Node's. */
function describe(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const name = functionName || "(anonymous)";
  if (!url) return name;
  if (!url.startsWith("file://")) return `${url}:${lineNumber + 1} ${name}`;
  const path = fileURLToPath(url);
  if (!maps.has(path)) {
    try {
      maps.set(path, new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8"))));
    } catch {
      maps.set(path, undefined);
    }
  }
  const entry = maps.get(path)?.findEntry(lineNumber, columnNumber);
  if (entry && "originalSource" in entry && entry.originalSource) {
    const source = fileURLToPath(new URL(entry.originalSource, url));
    return `${relative(root, source)}:${entry.originalLine + 1} ${name}`;
  }
  return `${relative(root, path)}:${lineNumber + 1} ${name}`;
}
