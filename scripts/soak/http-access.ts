// Soak cases for access to the HTTP server (issue 7, items 7, 9 and 10): an empty token must not
// open the server to everyone, and neither a flood of half-open sessions nor a crowd of slow
// connections may lock out a legitimate client.

import { connect, type Socket } from "node:net";
import { judge, mib, RSS_BOUND, serverChecks, sleep, type SoakCase } from "./harness.js";
import { describe, exchange, initialize, pingWorks, within } from "./wire.js";

export const emptyTokenCase: SoakCase = {
  name: "empty-token",
  title: 'MCP_WIRE_TOKEN="" with --http',
  bound: "fail closed: the server refuses to start, or answers a POST without Authorization with 401",
  limitMs: 20_000,
  async run(context) {
    const started = await context.tryHttpServer([], { env: { ...process.env, MCP_WIRE_TOKEN: "" } });
    if ("failed" in started) {
      const refused = !started.server.alive && started.server.exit?.code !== 0;
      return { held: refused, detail: refused ? `refused to start: ${started.server.describeEnd()}` : started.failed };
    }
    const reply = await exchange(started.url, initialize(), {}, within(context.signal, 10_000)).catch((error: unknown) => describe(error));
    if (typeof reply === "string") return { held: false, detail: `the POST failed: ${reply}` };
    return { held: reply.status === 401, detail: `it started, and a POST without Authorization got HTTP ${reply.status}` };
  },
};

/** How long a legitimate client waits for one attempt before it tries again. */
const ATTEMPT_MS = 5000;

/** Opens a session, retrying while the server says it is full (as long as Retry-After asks, within `budgetMs`). */
async function legitimateSession(url: string, signal: AbortSignal, budgetMs: number): Promise<{ ok: boolean; detail: string; ms: number }> {
  const started = Date.now();
  const deadline = started + budgetMs;
  const attempts: string[] = [];
  // An attempt with next to no time left would only add a refusal of our own making.
  while (deadline - Date.now() > 250 && !signal.aborted) {
    const left = deadline - Date.now();
    // A client gives up on one attempt after a while and tries again.
    const reply = await exchange(url, initialize(), {}, within(signal, Math.min(left, ATTEMPT_MS))).catch((error: unknown) => describe(error));
    if (typeof reply !== "string" && reply.status === 200) {
      const id = reply.headers.get("mcp-session-id")!;
      const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
      const initialized = await exchange(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers, within(signal, left)).catch(() => undefined);
      const ok = initialized?.status === 202 && (await pingWorks(url, headers, within(signal, Math.max(1, deadline - Date.now()))));
      return { ok, detail: `${attempts.length} refusal(s) (${attempts.slice(-2).join(", ")}), then ${ok ? "a session and a ping" : "a session that did not answer a ping"}`, ms: Date.now() - started };
    }
    const retryAfter = typeof reply === "string" ? NaN : Number(reply.headers.get("retry-after"));
    attempts.push(typeof reply === "string" ? reply.slice(0, 60) : `HTTP ${reply.status} Retry-After ${reply.headers.get("retry-after")}`);
    await sleep(Number.isFinite(retryAfter) ? Math.min(retryAfter * 1000, Math.max(0, deadline - Date.now())) : 500, signal);
  }
  return { ok: false, detail: `no session within ${budgetMs / 1000} s: ${attempts.length} refusal(s), the last ${attempts.at(-1)}`, ms: Date.now() - started };
}

/** How long a legitimate client may take to get in while the server is under the flood. */
const LEGITIMATE_BUDGET_MS = 15_000;

export const sessionSlotsCase: SoakCase = {
  name: "session-slots",
  title: "a flood of initialize POSTs (more than the 1000-session cap) that never send notifications/initialized",
  bound: `a legitimate client starts a session (honouring Retry-After) within ${LEGITIMATE_BUDGET_MS / 1000} s; server up, peak RSS < ${mib(RSS_BOUND)}`,
  limitMs: 60_000,
  async run(context) {
    const started = await context.httpServer();
    const count = Math.max(1100, context.scaled(1200));
    const signal = within(context.signal, 30_000);
    const statuses = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < count && !signal.aborted) {
        next++;
        const reply = await exchange(started.url, initialize(), {}, signal).catch(() => undefined);
        const status = reply ? `HTTP ${reply.status}` : "network error";
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const legitimate = await legitimateSession(started.url, context.signal, LEGITIMATE_BUDGET_MS);
    return judge([
      [true, `flood: ${[...statuses].map(([status, n]) => `${n} x ${status}`).join(", ")}`],
      [legitimate.ok, `legitimate client after ${(legitimate.ms / 1000).toFixed(1)} s: ${legitimate.detail}`],
      ...serverChecks(started.server),
    ]);
  },
};

/** The usual default soft limit on open files: the slow connections are meant to be able to exhaust it. */
const FD_LIMIT = 1024;

export const slowlorisCase: SoakCase = {
  name: "slowloris",
  title: `many connections that send half a request header, a byte now and then, and never finish (server under ulimit -n ${FD_LIMIT})`,
  bound: `while they keep coming, a legitimate client gets a session within ${LEGITIMATE_BUDGET_MS / 1000} s; server up, peak RSS < ${mib(RSS_BOUND)}`,
  limitMs: 60_000,
  async run(context) {
    const started = await context.httpServer([], { fdLimit: FD_LIMIT });
    const { port } = new URL(started.origin);
    const count = context.scaled(1200, 1200);
    const sockets: Socket[] = [];
    context.onEnd(() => sockets.forEach((socket) => socket.destroy()));
    let closedByServer = 0;
    for (let i = 0; i < count && !context.signal.aborted; i++) {
      const socket = connect(Number(port), "127.0.0.1");
      socket.on("error", () => {});
      socket.on("close", () => closedByServer++);
      socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      sockets.push(socket);
      if (i % 100 === 99) await sleep(10);
    }
    // One more header byte on each, every second: enough to defeat a plain idle timeout.
    const drip = setInterval(() => sockets.forEach((socket, i) => socket.writable && socket.write(`x-${i % 10}: `)), 1000);
    context.onEnd(() => clearInterval(drip));
    await sleep(2000, context.signal);
    const legitimate = await legitimateSession(started.url, context.signal, LEGITIMATE_BUDGET_MS);
    const stillOpen = sockets.length - closedByServer;
    return judge([
      [legitimate.ok, `legitimate client after ${(legitimate.ms / 1000).toFixed(1)} s: ${legitimate.detail}`],
      [true, `${count} slow connections, ${stillOpen} still open at the end`],
      ...serverChecks(started.server),
    ]);
  },
};

