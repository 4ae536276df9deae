// Soak cases for the 2026-07-28 generation on stdio (issue 9): hostile envelopes, forged and
// replayed requestState, input rounds that are never retried, listens past the server's bound and
// listens opened and cancelled by the thousand, and modern requests interleaved with a legacy
// session. Each checks the answer every request must get, that it gets exactly one, and that the
// server stays up with its retained heap flat. The demo server takes no flag for requestState's
// ttl (10 min), so an expired state is not soaked here (test/server/request-state.test.ts has it).

import { judge, MIB, mib, NotHeld, retainedCheck, serverChecks, sleep, type CaseContext, type SoakCase, type Tracked } from "./harness.js";
import { envelopeAttacks, greet, modernRequest, summarize, unclaimedAttacks } from "./modern-wire.js";
import { awaitAll, INITIALIZED, initialize, LineReader, notOnce, request, writeLine, type Message } from "./wire.js";

/** Retained heap (after a full GC) may grow by this much at most across a modern case. */
const RETAINED_BOUND = 16 * MIB;
/** The demo server's maxListens (DEFAULT_MAX_LISTENS in server/definition.ts). */
const MAX_LISTENS = 64;

/** A stdio server spoken to the 2026-07-28 way (no handshake), with a reader that keeps each answer's summary. */
class ModernStdio {
  readonly server: Tracked;
  readonly reader: LineReader;
  readonly #context: CaseContext;

  constructor(context: CaseContext) {
    this.#context = context;
    this.server = context.stdioServer();
    this.reader = new LineReader(this.server.child.stdout!, summarize);
    this.server.child.stdin!.on("error", () => {});
  }

  /** Sends a message, waiting while the server does not read (false if it stops reading for 5 s). */
  send(message: object): Promise<boolean> {
    return writeLine(this.server.child.stdin!, message, 5000);
  }

  /** Sends a request and waits for its answer's summary ("no answer" after `ms`). */
  async call(message: Message, ms = 10_000): Promise<string> {
    await this.send(message);
    const answered = await this.reader.answered(message.id!, ms, this.#context.signal);
    return answered ? this.reader.summaries.get(message.id!)! : "no answer";
  }

  /** The ids among `ids` not answered exactly once, in words ("" when all were). */
  notOnce(ids: (string | number)[]): string {
    return notOnce(this.reader, ids);
  }

  /** Waits until every id is answered (or `ms` pass in all). */
  awaitAll(ids: (string | number)[], ms: number): Promise<void> {
    return awaitAll(this.reader, ids, ms, this.#context.signal);
  }

  /** Retained heap growth since `idle` (after a full GC), as a check. */
  heapCheck(idle: NodeJS.MemoryUsage | undefined): Promise<[boolean, string]> {
    return retainedCheck(this.server, idle, RETAINED_BOUND);
  }
}

/** Counts of the summaries of `ids`, as "n x summary" words. */
function tally(reader: LineReader, ids: (string | number)[]): string {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const summary = reader.summaries.get(id) ?? "no answer";
    counts.set(summary, (counts.get(summary) ?? 0) + 1);
  }
  return [...counts].map(([summary, n]) => `${n} x ${summary}`).join(", ");
}

export const modernEnvelopeCase: SoakCase = {
  name: "modern-envelope",
  title: "stdio, 2026-07-28: every envelope key with every wrong type, partial envelopes, unknown versions (empty, a handshake one, 1 MB), sent over and over",
  bound: `each gets its error (-32602, -32022 or -32601) exactly once; server up, retained heap grows < ${mib(RETAINED_BOUND)}; a valid request is then served`,
  limitMs: 120_000,
  async run(context) {
    const peer = new ModernStdio(context);
    const attacks = [...envelopeAttacks(), ...unclaimedAttacks("error -32600")];
    const wrong: string[] = [];
    for (const attack of attacks) {
      const got = await peer.call(attack.message);
      if (got !== attack.expect) wrong.push(`${attack.name}: ${got} (expected ${attack.expect})`);
    }
    const idle = await peer.server.heapAfterGc();
    const rounds = context.scaled(200, 20);
    const ids: string[] = [];
    for (let round = 0; round < rounds && peer.server.alive; round++) {
      for (const attack of attacks) {
        const id = `${round}:${attack.name}`;
        ids.push(id);
        if (!(await peer.send({ ...attack.message, id }))) throw new NotHeld(`the server stopped reading stdin: ${peer.server.describeEnd()}`);
      }
    }
    await peer.awaitAll(ids, 60_000);
    const mismatched = ids.filter((id) => peer.reader.summaries.get(id) !== attacks.find((a) => id.endsWith(`:${a.name}`))!.expect).length;
    const valid = await peer.call(modernRequest("after", "tools/list"));
    const notOnce = peer.notOnce(ids);
    return judge([
      [wrong.length === 0, wrong.length ? wrong.slice(0, 4).join("; ") : `${attacks.length} hostile envelopes each got the error they must`],
      [notOnce === "" && mismatched === 0, `${ids.length} more (${rounds} rounds): ${notOnce || "each answered once"}${mismatched ? `, ${mismatched} with another answer` : ""}`],
      [valid === "result complete", `a valid tools/list then: ${valid}`],
      await peer.heapCheck(idle),
      ...serverChecks(peer.server),
    ]);
  },
};

export const modernStateCase: SoakCase = {
  name: "modern-state",
  title: "stdio, 2026-07-28: requestState forged, truncated, replayed, for another request, 10 MB, not a string; inputResponses with 10k unknown keys and wrong shapes",
  bound: "each refused with -32602 (data.reason where requestState is at fault) or answered with a new round; an honest retry is served; server up",
  limitMs: 120_000,
  async run(context) {
    const peer = new ModernStdio(context);
    // The round's state is read off the wire: the summary keeps too little, so one answer is read whole.
    const first = await roundOf(peer, "first");
    const [body, mac] = first.state.split(".") as [string, string];
    const flipped = `${body}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`;
    const accept = { [first.key]: { action: "accept", content: { name: "soak" } } };
    const checks: [string, Message, string][] = [
      ["forged (MAC altered)", greet("forged", { requestState: flipped, inputResponses: accept }), "error -32602/forged"],
      ["its MAC cut short", greet("cut-mac", { requestState: first.state.slice(0, -4), inputResponses: accept }), "error -32602/forged"],
      ["cut in half", greet("cut-half", { requestState: first.state.slice(0, first.state.length >> 1), inputResponses: accept }), "error -32602/malformed"],
      ["no MAC at all", greet("bare", { requestState: body, inputResponses: accept }), "error -32602/malformed"],
      ["10 MB", greet("huge", { requestState: "A".repeat(10 * 1024 * 1024) }), "error -32602/too-long"],
      ["a number", greet("number", { requestState: 5 }), "error -32602/malformed"],
      ["null", greet("null", { requestState: null }), "error -32602/malformed"],
      ["an object", greet("object", { requestState: { a: 1 } }), "error -32602/malformed"],
      ["for another request", modernRequest("other", "tools/call", { name: "echo", arguments: { text: "x" }, requestState: first.state }), "error -32602/other-request"],
      ["honest retry", greet("honest", { requestState: first.state, inputResponses: accept }), "result complete"],
      ["replayed", greet("replayed", { requestState: first.state, inputResponses: accept }), "error -32602/replayed"],
      ["inputResponses with 10k unknown keys", greet("unknown-keys", { inputResponses: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, { action: "accept" }])) }), "result input_required"],
      ["inputResponses a string", greet("responses-string", { inputResponses: "x" }), "error -32602"],
      ["inputResponses an array", greet("responses-array", { inputResponses: [accept] }), "error -32602"],
    ];
    const second = await roundOf(peer, "second");
    checks.push(["the answer of the wrong shape", greet("bad-shape", { requestState: second.state, inputResponses: { [second.key]: { action: 5 } } }), "error -32602"]);
    const idle = await peer.server.heapAfterGc();
    const wrong: string[] = [];
    for (const [name, message, expect] of checks) {
      const got = await peer.call(message);
      if (got !== expect) wrong.push(`${name}: ${got} (expected ${expect})`);
    }
    return judge([
      [wrong.length === 0, wrong.length ? wrong.join("; ") : `${checks.length} retries each got the answer they must`],
      await peer.heapCheck(idle),
      ...serverChecks(peer.server),
    ]);
  },
};

/** One input_required round of greet, read whole from the wire: its requestState and the key of its ask. */
async function roundOf(peer: ModernStdio, id: string): Promise<{ state: string; key: string }> {
  const whole = new Promise<Message>((resolve) => {
    let text = "";
    const onData = (chunk: string) => {
      text += chunk;
      const lines = text.split("\n");
      text = lines.pop()!;
      const line = lines.find((candidate) => candidate.includes(`"id":"${id}"`));
      if (line === undefined) return;
      peer.server.child.stdout!.off("data", onData);
      resolve(JSON.parse(line) as Message);
    };
    peer.server.child.stdout!.on("data", onData);
  });
  await peer.send(greet(id));
  const answer = await Promise.race([whole, sleep(10_000).then(() => undefined)]);
  const key = answer?.result?.inputRequests && Object.keys(answer.result.inputRequests)[0];
  if (!answer || typeof answer.result?.requestState !== "string" || !key) throw new NotHeld(`greet ${id}: no input_required round: ${JSON.stringify(answer)?.slice(0, 200)}`);
  return { state: answer.result.requestState, key };
}

export const modernRoundsCase: SoakCase = {
  name: "modern-rounds",
  title: "stdio, 2026-07-28: 10k calls of greet, each answered input_required and never retried",
  bound: `each answered once with input_required; retained heap grows < ${mib(RETAINED_BOUND)} (nothing is kept between rounds); server up`,
  limitMs: 120_000,
  async run(context) {
    const peer = new ModernStdio(context);
    await roundOf(peer, "warm-up");
    const idle = await peer.server.heapAfterGc();
    const ids = Array.from({ length: context.scaled(10_000, 10_000) }, (_, i) => `g${i}`);
    for (const id of ids) if (!(await peer.send(greet(id)))) throw new NotHeld(`the server stopped reading stdin: ${peer.server.describeEnd()}`);
    await peer.awaitAll(ids, 60_000);
    const notOnce = peer.notOnce(ids);
    const rounds = ids.filter((id) => peer.reader.summaries.get(id) === "result input_required").length;
    return judge([
      [notOnce === "" && rounds === ids.length, `${ids.length} calls: ${notOnce || tally(peer.reader, ids)}`],
      await peer.heapCheck(idle),
      ...serverChecks(peer.server),
    ]);
  },
};

const listen = (id: string): Message => modernRequest(id, "subscriptions/listen", { notifications: { toolsListChanged: true } });
const cancel = (id: string) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });

export const modernListensCase: SoakCase = {
  name: "modern-listens",
  title: `stdio, 2026-07-28: ${MAX_LISTENS + 36} listens held open (past maxListens ${MAX_LISTENS}), all cancelled, then ${MAX_LISTENS} again; then 10k listens opened and cancelled`,
  bound: `past the bound -32603 with data.limit, each once; cancelled listens free their slots and get no answer; retained heap grows < ${mib(RETAINED_BOUND)}; server up`,
  limitMs: 120_000,
  async run(context) {
    const peer = new ModernStdio(context);
    const acknowledged = () => peer.reader.otherCount;
    const flood = Array.from({ length: MAX_LISTENS + 36 }, (_, i) => `flood-${i}`);
    for (const id of flood) await peer.send(listen(id));
    await peer.awaitAll(flood.slice(MAX_LISTENS), 10_000);
    const refused = flood.filter((id) => peer.reader.summaries.get(id) === "error -32603").length;
    const acksAfterFlood = acknowledged();
    for (const id of flood) await peer.send(cancel(id));
    // A slot comes back once its listen has ended, not the instant the cancellation is read.
    await peer.call(modernRequest("settle", "tools/list"));
    await sleep(200, context.signal);
    const again = Array.from({ length: MAX_LISTENS }, (_, i) => `again-${i}`);
    for (const id of again) await peer.send(listen(id));
    const probe = await peer.call(modernRequest("probe", "tools/list"));
    const acksAgain = acknowledged() - acksAfterFlood;
    for (const id of again) await peer.send(cancel(id));

    const idle = await peer.server.heapAfterGc();
    const cycles = Array.from({ length: context.scaled(10_000, 10_000) }, (_, i) => `cycle-${i}`);
    for (const id of cycles) {
      if (!(await peer.send(listen(id))) || !(await peer.send(cancel(id)))) throw new NotHeld(`the server stopped reading stdin: ${peer.server.describeEnd()}`);
    }
    await peer.call(modernRequest("last", "tools/list"), 60_000);
    await sleep(200, context.signal);
    // No slot leaked: a full set of listens is acknowledged after the 10k.
    const before = acknowledged();
    const final = Array.from({ length: MAX_LISTENS }, (_, i) => `final-${i}`);
    for (const id of final) await peer.send(listen(id));
    const finalProbe = await peer.call(modernRequest("final-probe", "tools/list"));
    const acksFinal = acknowledged() - before;
    const answered = cycles.filter((id) => peer.reader.answers.has(id));
    const refusedOnce = answered.filter((id) => peer.reader.answers.get(id) === 1 && peer.reader.summaries.get(id) === "error -32603").length;
    const flooded = flood.filter((id) => (peer.reader.answers.get(id) ?? 0) > (flood.indexOf(id) < MAX_LISTENS ? 0 : 1)).length;
    return judge([
      [refused === flood.length - MAX_LISTENS && acksAfterFlood === MAX_LISTENS, `flood: ${acksAfterFlood} acknowledged, ${refused} refused -32603 (${tally(peer.reader, flood.slice(MAX_LISTENS, MAX_LISTENS + 1))} first)`],
      [flooded === 0, flooded ? `${flooded} flood listens answered more than they should` : "no cancelled listen answered"],
      [acksAgain === MAX_LISTENS && probe === "result complete", `after cancelling: ${acksAgain} of ${MAX_LISTENS} new listens acknowledged; tools/list ${probe}`],
      // A cancelled listen gets no answer (dispatch.ts). One may be refused first: a cancelled listen
      // holds its slot until it has ended, and thousands in flight can briefly fill all of them.
      [refusedOnce === answered.length, `${cycles.length} listens opened and cancelled: ${answered.length ? tally(peer.reader, answered) : "none answered"}`],
      [acksFinal === MAX_LISTENS && finalProbe === "result complete", `then ${acksFinal} of ${MAX_LISTENS} new listens acknowledged (no slot leaked); tools/list ${finalProbe}`],
      await peer.heapCheck(idle),
      ...serverChecks(peer.server),
    ]);
  },
};

export const modernDualCase: SoakCase = {
  name: "modern-dual",
  title: "stdio: a legacy session (initialize) with 2026-07-28 requests interleaved, thousands of each",
  bound: "each request gets its era's answer exactly once: legacy tools/list and ping served, modern tools/list served, modern ping -32601, server/discover without the envelope -32601; server up",
  limitMs: 120_000,
  async run(context) {
    const peer = new ModernStdio(context);
    const init = await peer.call(initialize("init") as Message);
    await peer.send(INITIALIZED);
    const kinds: [string, (id: string) => object, string][] = [
      ["legacy tools/list", (id) => request(id, "tools/list"), "result complete"],
      ["modern tools/list", (id) => modernRequest(id, "tools/list"), "result complete"],
      ["legacy ping", (id) => request(id, "ping"), "result complete"],
      ["modern ping", (id) => modernRequest(id, "ping"), "error -32601"],
      ["discover without envelope", (id) => request(id, "server/discover"), "error -32601"],
      ["modern greet", (id) => greet(id), "result input_required"],
      ["legacy tools/call of echo", (id) => request(id, "tools/call", { name: "echo", arguments: { text: "x" } }), "result complete"],
    ];
    const ids: string[] = [];
    const rounds = context.scaled(1000, 200);
    for (let round = 0; round < rounds; round++) {
      for (const [, make] of kinds) {
        const id = `${round}/${ids.length % kinds.length}`;
        ids.push(id);
        if (!(await peer.send(make(id)))) throw new NotHeld(`the server stopped reading stdin: ${peer.server.describeEnd()}`);
      }
    }
    await peer.awaitAll(ids, 60_000);
    const wrong = kinds.map(([name, , expect], k) => {
      const off = ids.filter((id, i) => i % kinds.length === k && peer.reader.summaries.get(id) !== expect).length;
      return off ? `${name}: ${off} not ${expect} (e.g. ${peer.reader.summaries.get(ids.find((id, i) => i % kinds.length === k && peer.reader.summaries.get(id) !== expect)!) ?? "no answer"})` : "";
    }).filter(Boolean);
    const notOnce = peer.notOnce(ids);
    return judge([
      [init === "result complete", `initialize: ${init}`],
      [wrong.length === 0 && notOnce === "", `${ids.length} requests of ${kinds.length} kinds: ${[notOnce, ...wrong].filter(Boolean).join("; ") || "each got its era's answer once"}`],
      ...serverChecks(peer.server),
    ]);
  },
};
