// Soak cases for our client against servers that misbehave over time (issue 19, items 6, 8 and 11):
// pages that never end (`mcp-wire tools`), a server that crashes just after every handshake (the
// built library's restart helper), and a server that answers server/discover only after 4 s, as a
// server behind mcp-remote does (`mcp-wire` with a longer, then a shorter --handshake-timeout).

import { judge, mib, RSS_BOUND, type SoakCase, type Tracked } from "./harness.js";

const MINIMAL = "fixtures/servers/minimal.mjs";

/** The CLI ended by itself within the limit, with `code` (any non-zero when undefined), and why. */
function ended(run: { cli: Tracked; ms: number; timedOut: boolean }, label: string, code?: number): [boolean, string] {
  if (run.timedOut) return [false, `${label}: still running after ${(run.ms / 1000).toFixed(1)} s (killed)`];
  const exit = run.cli.exit;
  const ok = !run.cli.killedForMemory && exit?.signal === null && (code === undefined ? exit.code !== 0 && exit.code !== 134 : exit.code === code);
  return [ok, `${label}: ${ok ? `exit ${exit?.code} in ${(run.ms / 1000).toFixed(1)} s` : run.cli.describeEnd()}`];
}

const PAGES_LIMIT_MS = 30_000;

export const endlessPagesCase: SoakCase = {
  name: "client-endless-pages",
  title: "`mcp-wire tools` against a stdio server whose tools/list pages never end (100 tools of 1 KiB a page, a fresh cursor each time)",
  bound: `the CLI exits 1 naming tools/list and the 10000-item bound, peak RSS < ${mib(RSS_BOUND)}, within ${PAGES_LIMIT_MS / 1000} s`,
  limitMs: 60_000,
  async run(context) {
    // The fixture stops after this many pages: far past the bound, so only the bound ends the run.
    const pages = context.scaled(100_000, 1_000);
    const run = await context.cli(["tools", "--", process.execPath, MINIMAL, "endless-pages", String(pages)], PAGES_LIMIT_MS);
    const error = run.cli.stderrText.trim().split("\n").filter((line) => line.startsWith("mcp-wire:")).at(-1)?.slice(0, 200);
    return judge([
      ended(run, "CLI", 1),
      [error !== undefined && /tools\/list.*10000 items/.test(error), `CLI: ${error ?? "no mcp-wire: error line on stderr"}`],
      [run.cli.peakRss < RSS_BOUND && !run.cli.killedForMemory, `CLI peak RSS ${mib(run.cli.peakRss)} (bound ${mib(RSS_BOUND)})`],
    ]);
  },
};

/**
 * The restart helper of the built library (dist/index.js) with its default policy, around a server
 * that exits 50 ms after each handshake; one JSON line on stderr per event, and "done" at the end.
 */
const RESTART_HOST = `
const { McpClient, StdioServerConnection } = await import(process.cwd() + "/dist/index.js");
const say = (event, detail) => process.stderr.write("soak-restart " + JSON.stringify({ event, attempt: detail.attempt ?? detail.attempts }) + "\\n");
const client = new McpClient({ name: "soak", version: "1" }, { protocolVersion: "2025-11-25" });
for (const event of ["restarting", "restarted", "restartFailed"]) client.on(event, (detail) => say(event, detail));
client.on("restartFailed", () => process.exit(0));
const connection = new StdioServerConnection(client, { command: process.execPath, args: [${JSON.stringify(MINIMAL)}, "crash-after-handshake", "50"], graceMs: 200 }, {});
await connection.start();
`;

const RESTART_LIMIT_MS = 20_000;

export const crashLoopCase: SoakCase = {
  name: "client-crash-loop",
  title: "StdioServerConnection (default restart policy) around a server that completes each handshake and exits 50 ms later",
  bound: `3 restarts, 250/500/1000 ms apart, then restartFailed, within ${RESTART_LIMIT_MS / 1000} s`,
  limitMs: 40_000,
  async run(context) {
    const host = context.spawnNode("host", ["--input-type=module", "-e", RESTART_HOST]);
    const finished = await Promise.race([host.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), RESTART_LIMIT_MS))]);
    const events = [...host.stderrText.matchAll(/^soak-restart (\{.*\})$/gm)].map((m) => JSON.parse(m[1]!) as { event: string; attempt: number });
    const restarted = events.filter((e) => e.event === "restarted").length;
    const failed = events.find((e) => e.event === "restartFailed");
    return judge([
      [finished, finished ? "host ended" : `host still restarting after ${RESTART_LIMIT_MS / 1000} s (${restarted} restarts)`],
      [restarted === 3, `${restarted} restarts`],
      [failed?.attempt === 3, failed ? `restartFailed after ${failed.attempt} attempts` : "restartFailed never fired"],
    ]);
  },
};

/**
 * A dual-era stdio server that answers in order, as a proxy does, and holds its first answer (the
 * probe's) for `delayMs`: server/discover gets a DiscoverResult, initialize an initialize result,
 * anything else an empty result. It exits when its input ends, or by itself after 30 s, so that
 * nothing outlives the soak.
 */
function slowFirstAnswer(delayMs: number): string {
  return `
setTimeout(() => process.exit(0), 30000);
process.stdin.on("end", () => process.exit(0));
const discover = { supportedVersions: ["2026-07-28"], capabilities: {}, resultType: "complete", ttlMs: 0, cacheScope: "private" };
let ready = new Promise((resolve) => setTimeout(resolve, ${delayMs}));
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === undefined) return;
  const result = message.method === "server/discover" ? discover
    : message.method === "initialize" ? { protocolVersion: message.params.protocolVersion, capabilities: {}, serverInfo: { name: "slow", version: "1" } }
    : message.method === "ping" ? {} : { resultType: "complete" };
  ready = ready.then(() => void process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\\n"));
});`;
}

const DISCOVER_DELAY_MS = 4000;

export const slowDiscoverCase: SoakCase = {
  name: "client-slow-discover",
  title: `\`mcp-wire --trace ping\` against a stdio server whose first answer (server/discover) comes after ${DISCOVER_DELAY_MS / 1000} s, as behind mcp-remote`,
  bound: "with --handshake-timeout 10000 it talks 2026-07-28; with 3000 it falls back to initialize and takes the late answer quietly; never \"dropped a response\"",
  limitMs: 60_000,
  async run(context) {
    const variants = [
      { timeout: 10_000, era: /era: modern 2026-07-28/ },
      { timeout: 3000, era: /era: handshake 2025-11-25/ },
    ];
    const results = await Promise.all(variants.map(async ({ timeout, era }): Promise<[boolean, string][]> => {
      const label = `--handshake-timeout ${timeout}`;
      const run = await context.cli(["--trace", "--handshake-timeout", String(timeout), "ping", "--", process.execPath, "-e", slowFirstAnswer(DISCOVER_DELAY_MS)], 20_000);
      const dropped = run.cli.stderrText.includes("dropped a response");
      const chosen = era.exec(run.cli.stderrText)?.[0];
      return [
        ended(run, label, 0),
        [chosen !== undefined, `${label}: ${chosen ?? `not ${era.source}`}`],
        [!dropped, dropped ? `${label}: "dropped a response" on stderr` : `${label}: no dropped response`],
      ];
    }));
    return judge(results.flat());
  },
};
