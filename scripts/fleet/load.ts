// The load of `npm run fleet`: 2026-07-28 tools/call echo requests POSTed through nginx by
// `concurrency` workers over kept-alive connections, each with its own text, so that an answer
// that is not its request's own (or comes twice) is seen. Every request ends in exactly one
// outcome: its answer, an HTTP or network error, or `hung` past the deadline (a failure).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports

import { Agent, request } from "node:http";
import { mirroredHeaders } from "../../src/http/mcp-headers.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "fleet-load", version: "1.0.0" },
};
const HEADERS = {
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  ...mirroredHeaders({ method: "tools/call", params: { name: "echo", _meta: ENVELOPE } }),
};
/** Past this a request counts as hung: none may be. */
const HANG_MS = 15_000;

export type Outcome = { kind: "answer"; upstream: string } | { kind: "error"; why: string; upstream: string } | { kind: "hung" };

export interface LoadReport {
  sent: number;
  outcomes: Map<number, Outcome[]>;
  /** Answers whose text was not their request's. */
  wrong: number;
  seconds: number;
}

/** One echo call; resolves to its outcome (never rejects). */
function call(agent: Agent, url: URL, id: number): Promise<Outcome> {
  const text = `fleet-${id}`;
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text }, _meta: ENVELOPE } });
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => (settle({ kind: "hung" }), outgoing.destroy()), HANG_MS);
    const outgoing = request(url, { method: "POST", agent, headers: { ...HEADERS, "content-length": Buffer.byteLength(body) } }, (answer) => {
      const upstream = String(answer.headers["x-fleet-upstream"] ?? "?");
      let data = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => (data += chunk));
      answer.on("end", () => {
        if (answer.statusCode !== 200) return settle({ kind: "error", why: `HTTP ${answer.statusCode}`, upstream });
        try {
          const message = JSON.parse(data);
          const echoed = message.result?.content?.[0]?.text;
          settle(message.id === id && echoed === `echo: ${text}`
            ? { kind: "answer", upstream }
            : { kind: "error", why: `not its own answer: ${data.slice(0, 120)}`, upstream });
        } catch {
          settle({ kind: "error", why: `unreadable answer: ${data.slice(0, 120)}`, upstream });
        }
      });
      answer.on("error", (error) => settle({ kind: "error", why: error.message, upstream }));
    });
    outgoing.on("error", (error) => settle({ kind: "error", why: error.message, upstream: "?" }));
    outgoing.end(body);
  });
}

/** Runs the load for `seconds`, calling `during` once after `at` seconds (the SIGKILL). */
export async function runLoad(url: string, concurrency: number, seconds: number, during?: { at: number; run: () => void }): Promise<LoadReport> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const outcomes = new Map<number, Outcome[]>();
  let next = 1;
  const started = performance.now();
  const end = started + seconds * 1000;
  if (during) setTimeout(during.run, during.at * 1000);
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const id = next++;
      const outcome = await call(agent, target, id);
      outcomes.set(id, [...(outcomes.get(id) ?? []), outcome]);
    }
  }));
  agent.destroy();
  const wrong = [...outcomes.values()].filter((list) => list.some((o) => o.kind === "error" && o.why.startsWith("not its own"))).length;
  return { sent: next - 1, outcomes, wrong, seconds: (performance.now() - started) / 1000 };
}

export function tally(report: LoadReport): { answers: number; errors: Map<string, number>; hung: number; unsettled: number; twice: number } {
  let answers = 0, hung = 0, twice = 0;
  const errors = new Map<string, number>();
  for (let id = 1; id <= report.sent; id++) {
    const list = report.outcomes.get(id) ?? [];
    if (list.length > 1) twice++;
    for (const outcome of list) {
      if (outcome.kind === "answer") answers++;
      else if (outcome.kind === "hung") hung++;
      else errors.set(outcome.why, (errors.get(outcome.why) ?? 0) + 1);
    }
  }
  const unsettled = [...Array(report.sent).keys()].filter((i) => !report.outcomes.has(i + 1)).length;
  return { answers, errors, hung, unsettled, twice };
}
