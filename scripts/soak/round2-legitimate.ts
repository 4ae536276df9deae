// The legitimate clients of the mixed-hostile-load case (round2-attack-load.ts), as a program of
// their own: `node --import tsx scripts/soak/round2-legitimate.ts URL MS CLIENTS` does rounds for MS
// ms with CLIENTS clients and prints one line of JSON on stdout: each call's latency, and what went
// wrong with any. A process apart from the attack's, so that the latency measured is the server's,
// not that of an event loop busy making hostile requests.

import { sleep } from "./harness.js";
import { MODERN, modernRequest } from "./modern-wire.js";
import { describe, exchange, openSession, request, within, type Message } from "./wire.js";

/** What the program prints: each good call's latency in ms, and each problem with how often it came. */
export interface LegitimateTally {
  ms: number[];
  wrong: [problem: string, count: number][];
}

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
async function legitimateRound(url: string, client: number, round: number, note: (problem: string | undefined, ms: number) => void, signal: AbortSignal): Promise<void> {
  const timed = async (call: () => Promise<string | undefined>) => {
    const started = performance.now();
    const problem = await call().catch((error: unknown) => `failed: ${describe(error).slice(0, 60)}`);
    note(problem, performance.now() - started);
  };
  const text = `legitimate ${client}.${round}`;
  let session: Record<string, string> | string = "";
  await timed(async () => {
    session = await openSession(url, within(signal, 30_000));
    return typeof session === "string" ? `session: ${session.slice(0, 60)}` : undefined;
  });
  if (typeof session !== "string") {
    const headers = session;
    const id = `echo-${client}-${round}`;
    await timed(async () => problemWith(await exchange(url, request(id, "tools/call", { name: "echo", arguments: { text } }), headers, within(signal, 30_000)), id, `echo: ${text}`));
    await fetch(url, { method: "DELETE", headers, signal: within(signal, 30_000) }).then((r) => r.body?.cancel(), () => {});
  }
  const id = `modern-${client}-${round}`;
  const message = modernRequest(id, "tools/call", { name: "echo", arguments: { text } });
  const headers = { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" };
  await timed(async () => problemWith(await exchange(url, message, headers, within(signal, 30_000)), id, `echo: ${text}`));
}

/** `clients` clients doing rounds for `ms`; their tally. */
async function legitimateClients(url: string, ms: number, clients: number): Promise<LegitimateTally> {
  const until = Date.now() + ms;
  const signal = new AbortController().signal;
  const tally: LegitimateTally = { ms: [], wrong: [] };
  const wrong = new Map<string, number>();
  const note = (problem: string | undefined, took: number) => (problem === undefined ? tally.ms.push(took) : wrong.set(problem, (wrong.get(problem) ?? 0) + 1));
  await Promise.all(Array.from({ length: clients }, async (_, client) => {
    for (let round = 0; Date.now() < until; round++) {
      await legitimateRound(url, client, round, note, signal);
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
