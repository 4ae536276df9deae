// Soak cases for the 2026-07-28 generation on Streamable HTTP (issue 9): hostile envelopes beside a
// legacy session on the same endpoint, attacks on the header mirror (a thousand junk headers, a huge
// Mcp-Name, bad `=?base64?` sentinels), input rounds and requestState, and a flood of listens held
// open past maxListens, closed, and opened again. Each checks the status and the JSON-RPC error every
// POST must get, that the server stays up and that its retained heap stays flat.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http

import { judge, MIB, mib, retainedCheck, serverChecks, sleep, type SoakCase } from "./harness.js";
import { envelopeAttacks, greet, type Attack, MODERN, modernRequest, summarize, unclaimedAttacks } from "./modern-wire.js";
import { describe, exchange, openSession, pingWorks, post, request, within, type Message } from "./wire.js";

/** Retained heap (after a full GC) may grow by this much at most across a modern case. */
const RETAINED_BOUND = 16 * MIB;
/** The demo server's maxListens (DEFAULT_MAX_LISTENS in server/definition.ts). */
const MAX_LISTENS = 64;

/** The headers a conforming client mirrors for a modern request (streamable-http#standard-request-headers). */
function mirror(message: Message): Record<string, string> {
  const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": message.method! };
  const name = message.method === "resources/read" ? message.params?.uri : message.params?.name;
  if (typeof name === "string" && /^[\x21-\x7e]+$/.test(name)) headers["mcp-name"] = name;
  return headers;
}

/**
 * The status of an attack's answer (modern-post.ts; basic#meta, streamable-http#protocol-version-header):
 * a refusal before the handler
 * runs is 400 (-32602 of the envelope, -32022) or 404 (-32601); a handler's error is 200, like a result.
 */
function statusFor(attack: Attack): number {
  if (attack.expect === "error -32601") return 404;
  return attack.early ? 400 : 200;
}

/** `headers` without the one named. */
function without(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
}

/** Up to this much of a reply is read to judge it: a -32022 echoes a 1 MB version twice. */
const REPLY_KEPT = 4 * MIB;

/**
 * One modern POST: "HTTP <status> <summary>" of its answer. An HTTP-level refusal (a status before
 * the body is read as a request) may carry its JSON-RPC error without the request's id: that is its answer too.
 */
async function modernPost(url: string, message: Message, headers: Record<string, string>, signal: AbortSignal): Promise<string> {
  try {
    const reply = await exchange(url, message, headers, within(signal, 15_000), REPLY_KEPT);
    const answers = reply.messages.filter((m) => m.method === undefined && (m.id === message.id || m.id === null || m.id === undefined));
    return `HTTP ${reply.status} ${answers.length === 1 ? summarize(answers[0]!) : `${answers.length} answers: ${reply.text.slice(0, 80)}`}`;
  } catch (error) {
    return `failed: ${describe(error)}`;
  }
}

export const modernHttpEnvelopeCase: SoakCase = {
  name: "modern-http-envelope",
  title: "HTTP, 2026-07-28: every hostile envelope (wrong types, partial, unknown versions incl. 1 MB), interleaved with a legacy session's requests",
  bound: `each refused with its status and JSON-RPC error (400 -32602/-32022, 404 -32601), once; the legacy session keeps working; retained heap grows < ${mib(RETAINED_BOUND)}; server up`,
  limitMs: 120_000,
  async run(context) {
    const started = await context.httpServer();
    const session = await openSession(started.url, within(context.signal, 10_000)).catch(describe);
    if (typeof session === "string") return { held: false, detail: `legacy session: ${session}` };
    const attacks = [...envelopeAttacks(), ...unclaimedAttacks("error -32602")];
    const idle = await started.server.heapAfterGc();
    const wrong = new Map<string, string>();
    let legacyFailed = 0;
    const rounds = context.scaled(20, 3);
    for (let round = 0; round < rounds && started.server.alive; round++) {
      await Promise.all(attacks.map(async (attack) => {
        const want = `HTTP ${statusFor(attack)} ${attack.expect}`;
        const got = await modernPost(started.url, { ...attack.message, id: `${round}:${attack.name}` }, mirror(attack.message), context.signal);
        if (got !== want) wrong.set(attack.name, `${got} (expected ${want})`);
        // The legacy session's request between the modern ones: answered as ever.
        const legacy = await exchange(started.url, request(`legacy-${round}-${attack.name}`, "tools/list"), session, within(context.signal, 15_000)).catch(() => undefined);
        if (legacy?.status !== 200 || !legacy.messages.some((m) => m.result !== undefined)) legacyFailed++;
      }));
    }
    const valid = await modernPost(started.url, modernRequest("valid", "tools/list"), mirror(modernRequest("valid", "tools/list")), context.signal);
    // The -32022 names the version it refuses (data.requested, and its message): how much comes back for 1 MB.
    const big = attacks.find((attack) => attack.name === "a 1 MB version")!.message;
    const echoed = await exchange(started.url, big, mirror(big), within(context.signal, 15_000), 0).then((reply) => reply.bytes, () => Number.NaN);
    const ping = started.server.alive && (await pingWorks(started.url, session, within(context.signal, 10_000)));
    return judge([
      [wrong.size === 0, wrong.size ? [...wrong].slice(0, 4).map(([name, text]) => `${name}: ${text}`).join("; ") : `${attacks.length} hostile envelopes x ${rounds} rounds each got their status and error once`],
      [legacyFailed === 0 && ping, `legacy session: ${legacyFailed} of ${attacks.length * rounds} interleaved tools/list failed; ping ${ping ? "answered" : "not answered"}`],
      [valid === "HTTP 200 result complete", `a valid modern tools/list then: ${valid}`],
      [true, `the -32022 to a 1 MB version is ${mib(echoed)}`],
      await retainedCheck(started.server, idle, RETAINED_BOUND),
      ...serverChecks(started.server),
    ]);
  },
};

/** A modern tools/call of echo, and the headers that mirror it: the header-mirror attacks change these. */
const ECHO = modernRequest("echo", "tools/call", { name: "echo", arguments: { text: "x" } });

export const modernHttpHeadersCase: SoakCase = {
  name: "modern-http-headers",
  title: "HTTP, 2026-07-28: 1000 junk headers, a huge Mcp-Name, bad =?base64? sentinels, missing and disagreeing mirrors, each many times",
  bound: "each answered with a status and a JSON-RPC error body (400 -32020, or 431 past the 16 KiB head), or served when the mirror is right; server up",
  limitMs: 120_000,
  async run(context) {
    const started = await context.httpServer();
    const base = mirror(ECHO);
    const junk = (count: number, width: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`x-junk-${i}`, "j".repeat(width)]));
    const mismatch = "HTTP 400 error -32020";
    const attacks: [string, Record<string, string>, string][] = [
      ["1000 short junk headers (under the 16 KiB head)", { ...base, ...junk(1000, 1) }, "HTTP 200 result complete"],
      ["1000 junk headers of 20 bytes (past the head limit)", { ...base, ...junk(1000, 20) }, "HTTP 431 error -32000"],
      ["an 8 KB Mcp-Name", { ...base, "mcp-name": "n".repeat(8 * 1024) }, mismatch],
      ["a 64 KB Mcp-Name", { ...base, "mcp-name": "n".repeat(64 * 1024) }, "HTTP 431 error -32000"],
      ["Mcp-Name =?base64?!!!?=", { ...base, "mcp-name": "=?base64?!!!?=" }, mismatch],
      ["Mcp-Name =?base64? alone", { ...base, "mcp-name": "=?base64?" }, mismatch],
      ["Mcp-Name =?base64?=?= (empty payload)", { ...base, "mcp-name": "=?base64??=" }, mismatch],
      ["Mcp-Name of another name, encoded", { ...base, "mcp-name": `=?base64?${Buffer.from("add").toString("base64")}?=` }, mismatch],
      ["Mcp-Name encoded in upper-case markers (plain text)", { ...base, "mcp-name": `=?BASE64?${Buffer.from("echo").toString("base64")}?=` }, mismatch],
      ["Mcp-Name with a Latin-1 byte", { ...base, "mcp-name": "ech\u00e9" }, mismatch],
      ["Mcp-Name encoded, not UTF-8", { ...base, "mcp-name": `=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=` }, mismatch],
      ["Mcp-Name rightly encoded", { ...base, "mcp-name": `=?base64?${Buffer.from("echo").toString("base64")}?=` }, "HTTP 200 result complete"],
      // echo declares no x-mcp-header: a Mcp-Param-* header mirrors nothing the server checks.
      ["an undeclared Mcp-Param-Region", { ...base, "mcp-param-region": "=?base64?!!?=" }, "HTTP 200 result complete"],
      ["Mcp-Name missing", without(base, "mcp-name"), mismatch],
      ["Mcp-Method disagreeing", { ...base, "mcp-method": "tools/list" }, mismatch],
      ["MCP-Protocol-Version missing", without(base, "mcp-protocol-version"), mismatch],
    ];
    const rounds = context.scaled(50, 5);
    const wrong = new Map<string, string>();
    const idle = await started.server.heapAfterGc();
    for (let round = 0; round < rounds && started.server.alive; round++) {
      await Promise.all(attacks.map(async ([name, headers, want]) => {
        const got = await modernPost(started.url, { ...ECHO, id: `${round}:${name}` }, headers, context.signal);
        if (got !== want) wrong.set(name, `${got} (expected ${want})`);
      }));
    }
    return judge([
      [wrong.size === 0, wrong.size ? [...wrong].slice(0, 5).map(([name, text]) => `${name}: ${text}`).join("; ") : `${attacks.length} header attacks x ${rounds} rounds each got their answer`],
      await retainedCheck(started.server, idle, RETAINED_BOUND),
      ...serverChecks(started.server),
    ]);
  },
};

/** One listen POST, read until its acknowledgement or its answer; the stream is left open on acknowledgement. */
async function openListen(url: string, id: string, signal: AbortSignal): Promise<{ acknowledged: boolean; answer?: string; close: () => void }> {
  const controller = new AbortController();
  const close = () => controller.abort();
  signal.addEventListener("abort", close, { once: true });
  const message = modernRequest(id, "subscriptions/listen", { notifications: { toolsListChanged: true } });
  try {
    const response = await post(url, message, mirror(message), controller.signal);
    if (response.status !== 200 || !response.body) return { acknowledged: false, answer: `HTTP ${response.status} ${(await response.text()).slice(0, 100)}`, close };
    // A refused listen is answered as JSON: the answer came before any notification (the first
    // message decides JSON or SSE, http/modern-post.ts).
    if (response.headers.get("content-type")?.startsWith("application/json")) {
      return { acknowledged: false, answer: `HTTP 200 ${summarize((await response.json()) as Message)}`, close };
    }
    const reader = response.body.getReader();
    let text = "";
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString("utf8");
      if (text.includes("notifications/subscriptions/acknowledged")) return { acknowledged: true, close };
      const answer = /data: (\{.*"id":.*\})/.exec(text);
      if (answer) return { acknowledged: false, answer: `HTTP 200 ${summarize(JSON.parse(answer[1]!) as Message)}`, close };
    }
    close();
    return { acknowledged: false, answer: `no acknowledgement nor answer: ${text.slice(0, 100)}`, close };
  } catch (error) {
    return { acknowledged: false, answer: `failed: ${describe(error)}`, close };
  }
}

/** What a forged, a 3 MB and a 10 MB requestState get over HTTP, in that order. */
const STATE_ANSWERS = ["HTTP 200 error -32602/forged", "HTTP 200 error -32602/too-long", "HTTP 413 error -32000"];

export const modernHttpListensCase: SoakCase = {
  name: "modern-http-listens",
  title: `HTTP, 2026-07-28: ${MAX_LISTENS + 36} listen POSTs held open (past maxListens ${MAX_LISTENS}), all closed, over and over; then 2000 greet rounds never retried and hostile requestState`,
  bound: `past the bound each listen gets -32603 on its stream; closed listens free their slots (the next flood gets ${MAX_LISTENS} again); rounds answered input_required; retained heap grows < ${mib(RETAINED_BOUND)}; server up`,
  limitMs: 180_000,
  async run(context) {
    const started = await context.httpServer();
    const cycles = context.scaled(20, 4);
    const problems: string[] = [];
    let idle: NodeJS.MemoryUsage | undefined;
    for (let cycle = 0; cycle < cycles && started.server.alive; cycle++) {
      if (cycle === 1) idle = await started.server.heapAfterGc();
      const listens = await Promise.all(Array.from({ length: MAX_LISTENS + 36 }, (_, i) => openListen(started.url, `c${cycle}-l${i}`, context.signal)));
      const acknowledged = listens.filter((l) => l.acknowledged).length;
      const refused = listens.filter((l) => l.answer === "HTTP 200 error -32603").length;
      if (acknowledged !== MAX_LISTENS || refused !== 36) {
        problems.push(`cycle ${cycle}: ${acknowledged} acknowledged, ${refused} refused -32603, others: ${listens.find((l) => !l.acknowledged && l.answer !== "HTTP 200 error -32603")?.answer ?? "none"}`);
      }
      listens.forEach((l) => l.close());
      // Closing is the cancellation; the server frees each slot when it sees its socket close.
      await sleep(200, context.signal);
    }

    const greets = context.scaled(2000, 500);
    const outcomes = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < greets && started.server.alive && !context.signal.aborted) {
        const message = greet(`greet-${next++}`);
        const got = await modernPost(started.url, message, mirror(message), context.signal);
        outcomes.set(got, (outcomes.get(got) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const forged = greet("forged", { requestState: "AAAA.BBBB" });
    const huge = greet("huge", { requestState: "A".repeat(3 * 1024 * 1024) });
    const past = greet("past", { requestState: "A".repeat(10 * 1024 * 1024) });
    const stateAnswers = await Promise.all([forged, huge, past].map((message) => modernPost(started.url, message, mirror(message), context.signal)));
    const rounds = outcomes.get("HTTP 200 result input_required") ?? 0;
    return judge([
      [problems.length === 0, problems.length ? problems.slice(0, 3).join("; ") : `${cycles} floods of ${MAX_LISTENS + 36} listens: ${MAX_LISTENS} acknowledged and 36 refused -32603 each time, then closed`],
      [rounds === greets, `${greets} greet POSTs: ${[...outcomes].map(([text, n]) => `${n} x ${text}`).join(", ")}`],
      // 10 MB is past the 4 MiB body limit: refused (413) before it is parsed.
      [stateAnswers.every((got, i) => got === STATE_ANSWERS[i]), `requestState forged: ${stateAnswers[0]}; 3 MB: ${stateAnswers[1]}; 10 MB: ${stateAnswers[2]}`],
      await retainedCheck(started.server, idle, RETAINED_BOUND),
      ...serverChecks(started.server),
    ]);
  },
};
