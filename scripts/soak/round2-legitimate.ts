// The legitimate clients of the mixed-hostile-load case (round2-attack-load.ts), as a program of
// their own: `node --import tsx scripts/soak/round2-legitimate.ts URL MS CLIENTS` does rounds for MS
// ms with CLIENTS clients and prints one line of JSON on stdout: each call's latency, and what went
// wrong with any. A process apart from the attack's, so that the latency measured is the server's,
// not that of an event loop busy making hostile requests. They do what the spec asks of a client
// whose session the server ended (HTTP 404 to its session id): start a new one. A server flooded
// with sessions nobody finishes may end one in its handshake to make room (session-table.ts), and
// cannot tell the flood's from ours; how often that happened is counted, and bounded per round.

import { sleep } from "./harness.js";
import { MODERN, modernRequest } from "./modern-wire.js";
import { describe, exchange, openSession, request, within, type Message } from "./wire.js";

/** What the program prints: each good call's latency in ms, and each problem with how often it came. */
export interface LegitimateTally {
  ms: number[];
  wrong: [problem: string, count: number][];
  /** Sessions started again after the server ended one (HTTP 404), as the spec asks. */
  restarts: number;
}

/** Spec (basic/transports#session-management): a 404 to a session id ends it; start a new one. At most this often a round. */
export const MAX_RESTARTS_PER_ROUND = 3;

export function percentile(ms: number[], p: number): number {
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/** Why `reply` is not the one right answer to `id` (a result whose text is `want`), or undefined. */
function problemWith(reply: { status: number; messages: Message[] }, id: string, want: string): string | undefined {
  const answers = reply.messages.filter((message) => message.id === id);
  if (reply.status !== 200) return `HTTP ${reply.status}`;
  if (answers.length !== 1) return `${answers.length} answers`;
  return answers[0]!.result?.content?.[0]?.text === want ? undefined : `wrong answer ${JSON.stringify(answers[0]).slice(0, 80)}`;
}

/** One round: a handshake session with an echo call (then DELETE), and a 2026-07-28 echo call. */
async function legitimateRound(url: string, client: number, round: number, note: (problem: string | undefined, ms: number) => void, restarted: () => void, signal: AbortSignal): Promise<void> {
  const timed = async (call: () => Promise<string | undefined>) => {
    const started = performance.now();
    const problem = await call().catch((error: unknown) => `failed: ${describe(error).slice(0, 60)}`);
    note(problem, performance.now() - started);
  };
  const text = `legitimate ${client}.${round}`;
  const id = `echo-${client}-${round}`;
  let headers: Record<string, string> | undefined;
  await timed(async () => {
    for (let restarts = 0; ; restarts++) {
      const session = await openSession(url, within(signal, 30_000));
      const ended = typeof session === "string" && session.startsWith("notifications/initialized got HTTP 404");
      if (ended && restarts < MAX_RESTARTS_PER_ROUND) {
        restarted();
        continue;
      }
      if (typeof session === "string") return `session: ${session.slice(0, 60)}${ended ? ` (${restarts} restarts)` : ""}`;
      const reply = await exchange(url, request(id, "tools/call", { name: "echo", arguments: { text } }), session, within(signal, 30_000));
      if (reply.status === 404 && restarts < MAX_RESTARTS_PER_ROUND) {
        restarted();
        continue;
      }
      headers = session;
      return problemWith(reply, id, `echo: ${text}`);
    }
  });
  if (headers) await fetch(url, { method: "DELETE", headers, signal: within(signal, 30_000) }).then((r) => r.body?.cancel(), () => {});
  const modernId = `modern-${client}-${round}`;
  const message = modernRequest(modernId, "tools/call", { name: "echo", arguments: { text } });
  const modern = { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" };
  await timed(async () => problemWith(await exchange(url, message, modern, within(signal, 30_000)), modernId, `echo: ${text}`));
}

/** `clients` clients doing rounds for `ms`; their tally. */
async function legitimateClients(url: string, ms: number, clients: number): Promise<LegitimateTally> {
  const until = Date.now() + ms;
  const signal = new AbortController().signal;
  const tally: LegitimateTally = { ms: [], wrong: [], restarts: 0 };
  const wrong = new Map<string, number>();
  const note = (problem: string | undefined, took: number) => (problem === undefined ? tally.ms.push(took) : wrong.set(problem, (wrong.get(problem) ?? 0) + 1));
  await Promise.all(Array.from({ length: clients }, async (_, client) => {
    for (let round = 0; Date.now() < until; round++) {
      await legitimateRound(url, client, round, note, () => tally.restarts++, signal);
      await sleep(20);
    }
  }));
  tally.wrong = [...wrong];
  return tally;
}

if (process.argv[1]?.endsWith("round2-legitimate.ts")) {
  const [url, ms, clients] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(await legitimateClients(url!, Number(ms), Number(clients))) + "\n", () => process.exit(0));
}
