// Soak cases for memory on the HTTP server (issue 7, items 1, 2, 4 and 6): a batch that fans out,
// the SSE replay store, legacy HTTP+SSE without backpressure or a session cap, and subscriptions
// to long URIs. Each pushes well past its bound, even at a small scale, through the real server.

import { request as httpRequest, type IncomingMessage } from "node:http";
import { judge, MIB, mib, RSS_BOUND, serverChecks, sleep, type SoakCase } from "./harness.js";
import { BATCH_VERSION, describe, exchange, NOTES_URI, openSession, pingWorks, post, request, within, type Message } from "./wire.js";

/** Each id answered exactly once: the list of what is wrong, empty if nothing. */
function answeredOnce(ids: (string | number)[], messages: Message[]): string[] {
  const counts = new Map<string | number, number>();
  for (const message of messages) if (message.id !== undefined) counts.set(message.id, (counts.get(message.id) ?? 0) + 1);
  const lost = ids.filter((id) => !counts.has(id)).length;
  const doubled = ids.filter((id) => (counts.get(id) ?? 0) > 1).length;
  return [...(lost ? [`${lost} of ${ids.length} never answered`] : []), ...(doubled ? [`${doubled} answered more than once`] : [])];
}

/** Retained heap (after a full GC) may grow by this much at most in the cases that measure it. */
const RETAINED_BOUND = 64 * MIB;

/** Up to this much of a batch's reply is kept to check it item by item; past that it is only counted. */
const BATCH_REPLY_KEPT = 256 * MIB;

/** POSTs one batch; whether its reply is answers (each id once) or a JSON-RPC error, in words. */
async function postBatch(url: string, body: string, ids: number[], headers: Record<string, string>, signal: AbortSignal): Promise<[boolean, string]> {
  try {
    const reply = await exchange(url, body, headers, within(signal, 60_000), BATCH_REPLY_KEPT);
    if (reply.status === 200 && reply.bytes > BATCH_REPLY_KEPT) return [true, `HTTP 200, ${mib(reply.bytes)} streamed (too large to check item by item)`];
    if (reply.status === 200) {
      const wrong = answeredOnce(ids, reply.messages);
      return [wrong.length === 0, `HTTP 200, ${mib(reply.bytes)} of answers${wrong.length ? ": " + wrong.join(", ") : ", each id once"}`];
    }
    const error = reply.messages[0]?.error;
    return [error !== undefined, `HTTP ${reply.status}${error ? ` JSON-RPC ${error.code} ${String(error.message).slice(0, 100)}` : `, no JSON-RPC error body: ${reply.text.slice(0, 100)}`}`];
  } catch (error) {
    return [false, `the POST failed: ${describe(error)}`];
  }
}

export const batchCase: SoakCase = {
  name: "batch",
  title: "a 2025-03-26 batch of many resources/read under the 4 MiB body limit: one --session-per-post POST, then one in a session",
  bound: `server up, peak RSS < ${mib(RSS_BOUND)}; the POST gets answers (each id once) or a JSON-RPC error; then a ping is answered`,
  limitMs: 150_000,
  async run(context) {
    const count = context.scaled(30_000, 6_000);
    const ids = Array.from({ length: count }, (_, i) => i);
    const body = JSON.stringify(ids.map((id) => request(id, "resources/read", { uri: NOTES_URI })));
    const checks: [boolean, string][] = [[body.length < 4 * MIB, `${count} requests in ${mib(body.length)}`]];

    const perPost = await context.httpServer(["--session-per-post"]);
    const headers = { "mcp-protocol-version": BATCH_VERSION };
    checks.push(await postBatch(perPost.url, body, ids, headers, context.signal));
    context.sampleAll();
    const after = perPost.server.alive && (await pingWorks(perPost.url, headers, within(context.signal, 10_000)));
    checks.push(...serverChecks(perPost.server), [after, after ? "a ping after it answered" : "a ping after it got no answer"]);

    const stateful = await context.httpServer();
    const session = await openSession(stateful.url, within(context.signal, 10_000), BATCH_VERSION).catch(describe);
    if (typeof session === "string") return judge([...checks, [false, `session: ${session}`]]);
    const [ok, text] = await postBatch(stateful.url, body, ids, session, context.signal);
    context.sampleAll();
    const inSession = stateful.server.alive && (await pingWorks(stateful.url, session, within(context.signal, 10_000)));
    checks.push([ok, `in a session: ${text}`], ...serverChecks(stateful.server).map(([up, words]): [boolean, string] => [up, `in a session: ${words}`]));
    checks.push([inSession, inSession ? "in a session: a ping after it answered" : "in a session: a ping after it got no answer"]);
    return judge(checks);
  },
};

export const replayCase: SoakCase = {
  name: "sse-replay",
  title: "many sessions make many resources/read over SSE and never resume",
  bound: `server up, peak RSS < ${mib(RSS_BOUND)}, retained heap after GC grows < ${mib(RETAINED_BOUND)}; every read answered once`,
  limitMs: 90_000,
  async run(context) {
    const started = await context.httpServer();
    // The square root keeps a quick run past the bound (about 80 MiB of events at scale 0.1).
    const root = Math.sqrt(context.scale);
    const sessions = Math.max(2, Math.ceil(20 * root));
    const reads = Math.max(10, Math.ceil(320 * root));
    const idle = await started.server.heapAfterGc();
    const problems: string[] = [];
    await Promise.all(Array.from({ length: sessions }, async (_, s) => {
      const signal = within(context.signal, 60_000);
      try {
        const headers = await openSession(started.url, signal);
        if (typeof headers === "string") return void problems.push(`session ${s}: ${headers}`);
        const ids = Array.from({ length: reads }, (_, r) => `${s}-${r}`);
        const messages: Message[] = [];
        for (const id of ids) {
          const reply = await exchange(started.url, request(id, "resources/read", { uri: NOTES_URI }), headers, signal);
          messages.push(...reply.messages.filter((m) => m.method === undefined).map((m) => ({ jsonrpc: m.jsonrpc, id: m.id })));
        }
        problems.push(...answeredOnce(ids, messages).map((text) => `session ${s}: ${text}`));
      } catch (error) {
        problems.push(`session ${s}: ${describe(error)}`);
      }
    }));
    const after = await started.server.heapAfterGc();
    const growth = idle && after ? after.heapUsed - idle.heapUsed : Number.NaN;
    return judge([
      [problems.length === 0, problems.length ? problems.slice(0, 3).join(", ") : `${sessions} sessions x ${reads} reads answered once each`],
      ...serverChecks(started.server),
      [growth < RETAINED_BOUND, `retained heap after GC +${mib(growth)} (bound ${mib(RETAINED_BOUND)})`],
    ]);
  },
};

/** GET /sse with node:http, read up to the `endpoint` event; the response, left open and paused. */
function openLegacyStream(origin: string, signal: AbortSignal): Promise<{ response: IncomingMessage; text: string } | { status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/sse`, { headers: { accept: "text/event-stream" }, agent: false, signal }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      if (response.statusCode !== 200) {
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, text }));
        return;
      }
      const onData = (chunk: string) => {
        text += chunk;
        if (text.includes("event: endpoint")) {
          response.off("data", onData);
          response.pause();
          resolve({ response, text });
        }
      };
      response.on("data", onData);
      response.on("end", () => reject(new Error(`GET /sse: the stream ended after ${JSON.stringify(text.slice(0, 120))}`)));
    });
    req.on("error", reject);
    req.end();
  });
}

export const legacyUnreadCase: SoakCase = {
  name: "legacy-unread",
  title: "legacy HTTP+SSE: the /sse stream is never read while many POSTs ask for resources/read",
  bound: `server up, peak RSS < ${mib(RSS_BOUND)}; every POST gets an HTTP answer or is held back; a new client is then served`,
  limitMs: 90_000,
  async run(context) {
    const started = await context.httpServer();
    const signal = within(context.signal, 60_000);
    const opened = await openLegacyStream(started.origin, signal).catch((error: unknown) => ({ status: 0, text: describe(error) }));
    if (!("response" in opened)) return { held: false, detail: `GET /sse: HTTP ${opened.status} ${opened.text.slice(0, 120)}` };
    context.onEnd(() => void opened.response.destroy());
    const endpoint = new URL(/event: endpoint\r?\ndata: (.*)/.exec(opened.text)![1]!.trim(), started.origin).href;
    // The handshake's answers come on the stream: read just them, then stop reading for good.
    opened.response.resume();
    let handshake = "";
    opened.response.on("data", (chunk: string) => (handshake += chunk));
    await post(endpoint, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "soak", version: "1" } } }, {}, signal).then((r) => r.body?.cancel());
    for (let i = 0; i < 500 && !handshake.includes('"id":0'); i++) await sleep(10, signal);
    opened.response.pause();
    opened.response.removeAllListeners("data");
    await post(endpoint, { jsonrpc: "2.0", method: "notifications/initialized" }, {}, signal).then((r) => r.body?.cancel());

    const count = context.scaled(8_000, 6_000);
    const statuses = new Map<string, number>();
    let sent = 0;
    /** Why sending stopped before `count`, if it did. */
    let stopped: string | undefined;
    const worker = async () => {
      while (sent < count && !stopped && !signal.aborted && started.server.alive) {
        const id = sent++;
        try {
          const response = await post(endpoint, request(id, "resources/read", { uri: NOTES_URI }), {}, within(signal, 5_000));
          await response.body?.cancel();
          statuses.set(`HTTP ${response.status}`, (statuses.get(`HTTP ${response.status}`) ?? 0) + 1);
          // The server ended the session whose stream went unread: nothing more to send to it.
          if (response.status === 404) stopped ??= "the server ended the session";
        } catch (error) {
          // A POST held back while the stream is full is backpressure: stop sending.
          if (error instanceof Error && error.name === "TimeoutError") stopped ??= "POSTs were held back (backpressure)";
          else statuses.set("network error", (statuses.get("network error") ?? 0) + 1);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    context.sampleAll();
    const fresh = started.server.alive ? await openSession(started.url, within(context.signal, 10_000)).catch(describe) : "server down";
    const summary = [...statuses].map(([status, n]) => `${n} x ${status}`).join(", ");
    return judge([
      [!statuses.has("network error"), `${sent} POSTs: ${summary}${stopped ? `; then ${stopped}` : ""}`],
      ...serverChecks(started.server),
      [typeof fresh !== "string", typeof fresh === "string" ? `a new session failed: ${fresh}` : "a new session then opened"],
    ]);
  },
};

export const legacySessionsCase: SoakCase = {
  name: "legacy-sessions",
  title: "legacy HTTP+SSE: open more /sse sessions than the Streamable HTTP cap (1000) and keep them open",
  bound: "at most 1000 legacy sessions at once; the rest refused with an HTTP error and a JSON-RPC error body; server up",
  limitMs: 60_000,
  async run(context) {
    const started = await context.httpServer();
    const cap = 1000;
    const count = Math.max(cap + 100, context.scaled(1500));
    const signal = within(context.signal, 45_000);
    let accepted = 0;
    const refused = new Map<number, number>();
    let badRefusals = 0;
    let failures = 0;
    let next = 0;
    const worker = async () => {
      while (next < count && !signal.aborted) {
        next++;
        const opened = await openLegacyStream(started.origin, signal).catch(() => undefined);
        if (opened === undefined) failures++;
        else if ("response" in opened) {
          accepted++;
          context.onEnd(() => void opened.response.destroy());
        } else {
          refused.set(opened.status, (refused.get(opened.status) ?? 0) + 1);
          if (!/"error"\s*:/.test(opened.text)) badRefusals++;
        }
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const summary = [...refused].map(([status, n]) => `${n} x HTTP ${status}`).join(", ");
    return judge([
      [accepted <= cap, `${accepted} of ${count} accepted (bound: at most ${cap})`],
      [failures === 0, `${failures} connections failed without an HTTP answer`],
      [badRefusals === 0, `refused: ${summary || "none"}${badRefusals ? `, ${badRefusals} without a JSON-RPC error body` : ""}`],
      ...serverChecks(started.server),
    ]);
  },
};

export const subscribeCase: SoakCase = {
  name: "subscribe-long",
  title: "resources/subscribe to many 3.9 MB URIs that the section template matches",
  bound: `each subscribe answered once (refused or accepted); retained heap after GC grows < ${mib(RETAINED_BOUND / 2)}; server up`,
  limitMs: 90_000,
  async run(context) {
    const started = await context.httpServer();
    const signal = within(context.signal, 60_000);
    const headers = await openSession(started.url, signal).catch(describe);
    if (typeof headers === "string") return { held: false, detail: `session: ${headers}` };
    const idle = await started.server.heapAfterGc();
    const count = context.scaled(60, 40);
    const answers: number[] = [];
    const outcomes = new Map<string, number>();
    const tally = (kind: string) => outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
    for (let i = 0; i < count && started.server.alive && !signal.aborted; i++) {
      const id = `sub-${i}`;
      const uri = `${NOTES_URI}/${String(i).padStart(4, "0")}${"x".repeat(3_900_000)}`;
      try {
        const reply = await exchange(started.url, request(id, "resources/subscribe", { uri }), headers, signal);
        const own = reply.messages.filter((m) => m.id === id);
        // An HTTP-level refusal may carry its JSON-RPC error without the id: that is its answer.
        const refusal = reply.status !== 200 && own.length === 0 && reply.messages.some((m) => m.error) ? 1 : 0;
        answers.push(own.length + refusal);
        tally(reply.status !== 200 ? `HTTP ${reply.status}` : own[0]?.error ? `error ${own[0].error.code}` : own.length ? "accepted" : "no answer");
      } catch (error) {
        answers.push(0);
        tally(`failed: ${describe(error).slice(0, 60)}`);
      }
    }
    const after = await started.server.heapAfterGc();
    const growth = idle && after ? after.heapUsed - idle.heapUsed : Number.NaN;
    const notOnce = answers.filter((n) => n !== 1).length;
    return judge([
      [notOnce === 0, `${answers.length} subscribes: ${[...outcomes].map(([k, n]) => `${n} x ${k}`).join(", ")}${notOnce ? `; ${notOnce} not answered exactly once` : ""}`],
      [growth < RETAINED_BOUND / 2, `retained heap after GC +${mib(growth)} (bound ${mib(RETAINED_BOUND / 2)})`],
      ...serverChecks(started.server),
    ]);
  },
};
