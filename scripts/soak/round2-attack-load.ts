// A soak case for issue 19's attack on what round 2 did not reach: a minute (at --scale 1) of mixed
// hostile HTTP load against `node dist/server.js --http` while a few legitimate clients keep doing
// real sessions (initialize, tools/call, DELETE, and a 2026-07-28 tools/call). Their latency under
// the load is compared with the same clients on the same server idle, measured first in the same
// run; every legitimate call must be answered exactly once and correctly.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http

import { connect, type Socket } from "node:net";
import { judge, MIB, mib, retainedCheck, RSS_BOUND, serverChecks, sleep, type CaseContext, type SoakCase } from "./harness.js";
import { envelopeAttacks, MODERN, modernRequest } from "./modern-wire.js";
import { BATCH_VERSION, describe, initialize, openSession, post, request, within } from "./wire.js";
import { MAX_RESTARTS_PER_ROUND, percentile, type LegitimateTally } from "./round2-legitimate.js";

/** A raw socket that writes `head` and then whatever `drip` says, a piece a second; never reads. */
function slowSocket(port: number, head: string, drip: string, sockets: Set<Socket>): void {
  const socket = connect(port, "127.0.0.1");
  sockets.add(socket);
  socket.on("error", () => {});
  socket.write(head);
  const timer = setInterval(() => socket.writable && socket.write(drip), 1000);
  socket.once("close", () => (clearInterval(timer), sockets.delete(socket)));
}

/**
 * The hostile kinds, each a loop the attack runs with its own workers until the deadline. Each
 * returns what it got in a word (a status), counted for the verdict's details.
 */
function attacks(url: string, port: number, sockets: Set<Socket>, signal: AbortSignal): Record<string, () => Promise<string>> {
  const { host } = new URL(url);
  const status = (response: Response) => (void response.body?.cancel().catch(() => {}), `HTTP ${response.status}`);
  const junk = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-junk-${i}`, "j".repeat(20)]));
  const envelopes = envelopeAttacks();
  let envelope = 0;
  // Made once: the soak shares the machine's cores with the server, and its own work is not the load.
  const hugeBody = Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${"x".repeat(5 * MIB)}"}}`);
  const hugeBatch = JSON.stringify(Array.from({ length: 5000 }, (_, i) => request(i, "ping")));
  return {
    // Half a request head, then a header byte a second; the bodies: a declared megabyte, a byte a second.
    "slowloris headers": async () => (sockets.size < 600 && slowSocket(port, `POST /mcp HTTP/1.1\r\nHost: ${host}\r\n`, "x", sockets), sleep(20, signal).then(() => "opened")),
    "slowloris bodies": async () => (sockets.size < 600 && slowSocket(port, `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"jsonrpc":"2.0",`, " ", sockets), sleep(20, signal).then(() => "opened")),
    "huge bodies": async () => status(await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: hugeBody, signal: within(signal, 30_000) })),
    "malformed JSON": async () => status(await post(url, '{"jsonrpc":"2.0","id":1,"method":"ping",', {}, within(signal, 30_000))),
    "huge batches": async () => status(await post(url, hugeBatch, { "mcp-protocol-version": BATCH_VERSION }, within(signal, 30_000))),
    "session floods": async () => status(await post(url, initialize(), {}, within(signal, 30_000))),
    // A session's GET stream, read to its head and then never again.
    "unread SSE streams": async () => {
      const session = await openSession(url, within(signal, 30_000));
      if (typeof session === "string" || sockets.size >= 600) return typeof session === "string" ? "refused" : "enough";
      slowSocket(port, `GET /mcp HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\nmcp-session-id: ${session["mcp-session-id"]}\r\nmcp-protocol-version: ${session["mcp-protocol-version"]}\r\n\r\n`, "", sockets);
      return "opened";
    },
    "2026-07-28 envelope garbage": async () => {
      const attack = envelopes[envelope++ % envelopes.length]!;
      return status(await post(url, attack.message, { "mcp-protocol-version": MODERN, "mcp-method": attack.message.method! }, within(signal, 30_000)));
    },
    "bad headers": async () => {
      const kinds: Record<string, string>[] = [junk, { "content-type": "text/plain" }, { "mcp-name": "n".repeat(64 * 1024) }, { "mcp-session-id": "\u00ff".repeat(100) }];
      return status(await post(url, request(1, "ping"), kinds[Math.floor(Math.random() * kinds.length)]!, within(signal, 30_000)));
    },
    // Connect, send part of a request, and reset: the server's per-connection work for nothing.
    "connection churn": async () => {
      const socket = connect(port, "127.0.0.1");
      socket.on("error", () => {});
      await new Promise((resolve) => socket.once("connect", resolve).once("error", resolve));
      socket.write("POST /mcp HTTP/1.1\r\nHost: ");
      socket.resetAndDestroy();
      return "reset";
    },
  };
}

/** Runs the legitimate clients (round2-legitimate.ts) in a process of their own for `ms`; their tally. */
async function legitimateClients(context: CaseContext, url: string, ms: number): Promise<LegitimateTally> {
  const clients = context.spawnNode("legitimate", ["--import", "tsx", "scripts/soak/round2-legitimate.ts", url, String(ms), "3"], { stdio: true });
  let out = "";
  clients.child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  await Promise.race([clients.exited, sleep(ms + 60_000, context.signal)]);
  try {
    return JSON.parse(out) as LegitimateTally;
  } catch {
    return { ms: [], wrong: [[`the legitimate clients printed no tally: ${clients.describeEnd()}`, 1]], restarts: 0 };
  }
}

/** How much slower the legitimate calls may be under the load than idle, at the 95th percentile. */
const P95_RATIO_BOUND = 10;
/** Retained heap (after a full GC) may grow by this much at most once the hostile sockets are gone. */
const RETAINED_BOUND = 32 * MIB;

export const mixedLoadCase: SoakCase = {
  name: "mixed-hostile-load",
  title: "HTTP: 60 s (x scale) of slowloris heads and bodies, huge bodies, malformed JSON, huge batches, session floods, unread SSE streams, 2026-07-28 envelope garbage, bad headers and connection churn, while 3 legitimate clients do real sessions",
  bound: `every legitimate call answered exactly once and correctly (a session the server ended, HTTP 404, started again as the spec asks, at most ${MAX_RESTARTS_PER_ROUND} times a round); their p95 latency under load < ${P95_RATIO_BOUND}x idle; server up, peak RSS < ${mib(RSS_BOUND)}, retained heap after GC < +${mib(RETAINED_BOUND)} once the attack ends`,
  limitMs: 240_000,
  async run(context) {
    const started = await context.httpServer();
    const port = Number(new URL(started.origin).port);
    const idleMs = Math.max(5000, 15_000 * context.scale);
    const loadMs = Math.max(15_000, 60_000 * context.scale);
    const idleHeap = await started.server.heapAfterGc();
    const idle = await legitimateClients(context, started.url, idleMs);

    const sockets = new Set<Socket>();
    context.onEnd(() => sockets.forEach((socket) => socket.destroy()));
    const until = Date.now() + loadMs;
    const counts = new Map<string, Map<string, number>>();
    const kinds = attacks(started.url, port, sockets, context.signal);
    const hostile = Object.entries(kinds).flatMap(([kind, attack]) => Array.from({ length: 2 }, async () => {
      const tally = counts.get(kind) ?? counts.set(kind, new Map()).get(kind)!;
      while (Date.now() < until && !context.signal.aborted && started.server.alive) {
        const got = await attack().catch((error: unknown) => `failed: ${describe(error).slice(0, 40)}`);
        tally.set(got, (tally.get(got) ?? 0) + 1);
      }
    }));
    const [loaded] = await Promise.all([legitimateClients(context, started.url, loadMs), ...hostile]);
    context.sampleAll();
    const afterLoad = started.server.memory();
    sockets.forEach((socket) => socket.destroy());
    await sleep(2000, context.signal);

    const p = (tally: LegitimateTally, at: number) => percentile(tally.ms, at);
    const ratio = p(loaded, 95) / p(idle, 95);
    const wrong = [...idle.wrong, ...loaded.wrong];
    const summary = [...counts].map(([kind, got]) => `${kind}: ${[...got].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([what, n]) => `${n} x ${what}`).join(", ")}`).join("; ");
    return judge([
      [wrong.length === 0, wrong.length ? `legitimate calls went wrong: ${wrong.slice(0, 4).map(([what, n]) => `${n} x ${what}`).join(", ")}` : `${idle.ms.length} idle and ${loaded.ms.length} loaded legitimate calls, each answered once and correctly`],
      [true, `sessions started again after a 404 (the server ended them in their handshake to make room for the flood's): ${idle.restarts} idle, ${loaded.restarts} under load`],
      [ratio < P95_RATIO_BOUND, `latency idle median ${p(idle, 50).toFixed(1)} ms, p95 ${p(idle, 95).toFixed(1)} ms; under load median ${p(loaded, 50).toFixed(1)} ms, p95 ${p(loaded, 95).toFixed(1)} ms: p95 ratio ${ratio.toFixed(2)} (bound ${P95_RATIO_BOUND}), median ratio ${(p(loaded, 50) / p(idle, 50)).toFixed(2)}`],
      [true, `RSS right after the load ${afterLoad ? mib(afterLoad.rss) : "?"}; attack: ${summary}`],
      await retainedCheck(started.server, idleHeap, RETAINED_BOUND),
      [true, `RSS after the GC ${mib(started.server.memory()?.rss ?? Number.NaN)}`],
      ...serverChecks(started.server),
    ]);
  },
};
