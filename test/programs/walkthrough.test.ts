// `npm start`: the walkthrough plays the same session in both generations against the real demo
// server, step by step, and explains every message. This checks the steps, that each era's part
// shows what that era puts on the wire, that each step ends with its difference line, and that
// every wire message gets its own note. walkthrough-live.test.ts checks each step's messages
// against live servers, and the steps issue 21 added.
import { test } from "node:test";
import assert from "node:assert/strict";
import { asShown, printedOf, runWalkthrough, type Era } from "../helpers/walkthrough-run.js";

interface Shown { step: string; era: Era; direction: "sent" | "received"; message: Record<string, any>; note: string }

/** One run, shared by the tests below (it spawns the servers and takes a few seconds). */
const run = runWalkthrough();
const out = run.stdout;
/** The step where the 2026-07-28 client meets a server of the handshake era, and so speaks the handshake. */
const OTHER_ERA = "A server of the handshake era";

/**
 * The client's wire messages shown, in order, each with its step, its era and the note printed
 * under it (raw lines, shown with their own arrow, are not the client's). Long lines are cut on
 * screen, so those are read from their start: id and method come first in every message we print.
 */
function wireOf(text: string): Shown[] {
  return printedOf(text).flatMap(({ step, era, dir, arrow, shown, note }) => {
    if (!/^[→←] (?:client → server|server → client)$/.test(arrow) || !shown.startsWith("{")) return [];
    const direction = dir === "c2s" ? "sent" as const : "received" as const;
    let message: Record<string, any>;
    try {
      message = JSON.parse(shown);
    } catch {
      // A line cut on screen: the whole message is in the recording (walkthrough-live.test.ts checks that the two agree).
      const whole = run.recorded.find((r) => r.step === step && r.era === era && r.connection !== "raw" && asShown(r.text) === shown);
      if (whole) return [{ step, era, direction, message: whole.message, note }];
      const id = /^\{"jsonrpc":"2\.0","id":(\d+)/.exec(shown)?.[1];
      const method = /^\{"jsonrpc":"2\.0",(?:"id":\d+,)?"method":"([^"]+)"/.exec(shown)?.[1];
      const resultType = /"resultType":"([a-z_]+)"/.exec(shown)?.[1];
      message = { ...(id === undefined ? {} : { id: Number(id) }), ...(method === undefined ? { result: { resultType } } : { method }), cut: true };
    }
    return [{ step, era, direction, message, note }];
  });
}

const STEPS = [
  "Opening", "Listing tools, a page at a time", "Calling a tool", "Errors: an unknown tool, and bytes that are not JSON", "Progress", "Cancellation",
  "Log level", "Prompts and completion", "Elicitation: the server asks the user", "Sampling: the server asks the client's model",
  "Roots: the server asks where it may work", "A list change", "Resources", "Resource templates", "Subscribing to a resource", "Is it alive?",
  "Refused: a malformed claim", "Refused: an unsupported version", "Refused: a capability the client did not declare", OTHER_ERA, "Shutdown",
];

test("walkthrough: every step plays in both eras, handshake first, and ends with one difference line citing the 2026-07-28 spec", () => {
  assert.equal(run.status, 0, run.stderr);
  const lines = out.split("\n");
  const steps = [...out.matchAll(/^(\d+)\. (.+)$/gm)].map((m) => m[2]);
  assert.deepEqual(steps, STEPS);
  const starts = lines.flatMap((line, i) => (/^\d+\. /.test(line) ? [i] : []));
  for (const [n, start] of starts.entries()) {
    const body = lines.slice(start, starts[n + 1] ?? lines.length);
    const eras = body.flatMap((line) => /^ {2}▸ (\S+),/.exec(line)?.[1] ?? []);
    assert.deepEqual(eras, ["2025-11-25", "2026-07-28"], `step ${steps[n]}: both eras, in order`);
    const changed = body.filter((line) => line.startsWith("  What changed: "));
    assert.equal(changed.length, 1, `step ${steps[n]}: one difference line`);
    assert.match(changed[0]!, /\(spec: https:\/\/modelcontextprotocol\.io\/specification\/2026-07-28\/\S+\)$/);
    assert.ok(body.indexOf(changed[0]!) > body.findIndex((line) => line.startsWith("  ▸ 2026-07-28")), "the difference comes after both eras");
  }
  const wire = lines.flatMap((line, i) => (/^[→←] /.test(line) ? [i] : []));
  assert.ok(wire.length >= 60, `only ${wire.length} wire messages shown`);
  for (const i of wire) assert.match(lines[i + 1]!, /^ {3}\S/, `no note after: ${lines[i]!.slice(0, 80)}`);
  assert.equal(out.match(/The server \(pid \d+\) has exited|the server \(pid \d+\) has exited/g)?.length, 2, "both servers exited");
});

test("walkthrough: each era shows its own wire: handshake vs discover, envelope and resultType, -32002 vs -32602, ping vs discover", () => {
  const wire = wireOf(out).filter((e) => e.step !== OTHER_ERA);
  const of = (era: Era, step: string) => wire.filter((e) => e.era === era && e.step === step);
  const methods = (entries: Shown[]) => entries.filter((e) => e.direction === "sent" && "method" in e.message).map((e) => e.message.method);

  assert.deepEqual(methods(of("2025-11-25", "Opening")), ["initialize", "notifications/initialized"]);
  assert.deepEqual(methods(of("2026-07-28", "Opening")), ["server/discover", "subscriptions/listen"]);
  assert.ok(of("2026-07-28", "Opening").some((e) => e.message.method === "notifications/subscriptions/acknowledged"), "the listen's acknowledgement is shown at the opening");
  assert.equal(wire.filter((e) => e.era === "2026-07-28" && ["initialize", "ping", "logging/setLevel"].includes(e.message.method)).length, 0, "no legacy method in 2026-07-28");
  assert.equal(wire.filter((e) => e.era === "2025-11-25" && ["server/discover", "subscriptions/listen"].includes(e.message.method)).length, 0, "no 2026-07-28 method in the handshake era");

  // The envelope on every modern request, never on a legacy one; resultType on every modern result.
  for (const entry of wire.filter((e) => e.direction === "sent" && "id" in e.message && "method" in e.message && !e.message.cut)) {
    const version = entry.message.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
    assert.equal(version, entry.era === "2026-07-28" ? "2026-07-28" : undefined, `${entry.era} ${entry.message.method}`);
  }
  for (const entry of wire.filter((e) => e.direction === "received" && "result" in e.message)) {
    // A long result is cut on screen, its resultType with it; its note still says it.
    const resultType = entry.message.result.resultType ?? /resultType (complete|input_required)/.exec(entry.note)?.[1];
    if (entry.era === "2026-07-28") assert.ok(resultType, `no resultType: ${JSON.stringify(entry.message).slice(0, 80)}`);
    else assert.equal(resultType, undefined);
  }
  assert.match(of("2026-07-28", "Listing tools, a page at a time").find((e) => "result" in e.message)!.note, /resultType complete; reusable for \d+ ms \(cacheScope \w+\)/);

  // Logging: setLevel in the handshake era; in 2026-07-28 the level rides on the request and the debug log still comes.
  assert.ok(methods(of("2025-11-25", "Log level")).includes("logging/setLevel"));
  const modernLog = of("2026-07-28", "Log level");
  assert.equal(modernLog.find((e) => e.message.method === "tools/call")!.message.params._meta["io.modelcontextprotocol/logLevel"], "debug");
  assert.ok(modernLog.some((e) => e.message.method === "notifications/message" && e.message.params.level === "debug"));

  // A missing resource: -32002 then -32602.
  const missing = (era: Era) => of(era, "Resources").find((e) => "error" in e.message)!.message.error.code;
  assert.equal(missing("2025-11-25"), -32002);
  assert.equal(missing("2026-07-28"), -32602);
  assert.match(out, /code -32002 is Resource not found/);
  assert.match(out, /code -32601 is Method not found/);

  // Liveness: ping, then server/discover.
  assert.equal(methods(of("2025-11-25", "Is it alive?"))[0], "ping");
  assert.equal(methods(of("2026-07-28", "Is it alive?"))[0], "server/discover");

  // A list change: unsolicited in the handshake era, tagged with the listen's id in 2026-07-28.
  const listenId = of("2026-07-28", "Opening").find((e) => e.message.method === "subscriptions/listen")!.message.id;
  const change = (era: Era) => of(era, "A list change").find((e) => e.message.method === "notifications/tools/list_changed")!.message;
  assert.equal(change("2025-11-25").params, undefined);
  assert.equal(change("2026-07-28").params._meta["io.modelcontextprotocol/subscriptionId"], listenId);
  assert.match(out, /^ {3}\[client\] the server now offers: .*\breverse\b/m);

  // Shutdown: the modern client ends its listen first (the one it opened last: the subscription re-opened it).
  const lastListen = wire.filter((e) => e.era === "2026-07-28" && e.message.method === "subscriptions/listen").at(-1)!.message.id;
  const end = of("2026-07-28", "Shutdown").find((e) => e.message.method === "notifications/cancelled");
  assert.equal(end?.message.params.requestId, lastListen);
});

test("walkthrough: greet and summarize, a server request in the handshake era, input_required and a retry under a new id in 2026-07-28", () => {
  const wire = wireOf(out);
  for (const [step, method, tool] of [["Elicitation: the server asks the user", "elicitation/create", "greet"], ["Sampling: the server asks the client's model", "sampling/createMessage", "summarize"]] as const) {
    const legacy = wire.filter((e) => e.era === "2025-11-25" && e.step === step);
    const call = legacy.find((e) => e.message.method === "tools/call")!;
    assert.equal(call.message.params.name, tool);
    const asked = legacy.find((e) => e.direction === "received" && e.message.method === method);
    assert.ok(asked, `${tool}: the server sends ${method}`);
    assert.ok(legacy.some((e) => e.direction === "sent" && !("method" in e.message) && e.message.id === asked.message.id && "result" in e.message), `${tool}: the client answers it`);

    const modern = wire.filter((e) => e.era === "2026-07-28" && e.step === step);
    assert.equal(modern.filter((e) => e.direction === "received" && "method" in e.message && "id" in e.message).length, 0, `${tool}: no server request in 2026-07-28`);
    const calls = modern.filter((e) => e.message.method === "tools/call");
    assert.equal(calls.length, 2, `${tool}: a call and its retry`);
    const [first, retry] = calls as [Shown, Shown];
    assert.notEqual(retry.message.id, first.message.id, "the retry has a new id");
    const answers = modern.filter((e) => e.direction === "received" && "result" in e.message);
    assert.deepEqual(answers.map((e) => [e.message.id, e.message.result.resultType]), [[first.message.id, "input_required"], [retry.message.id, "complete"]]);
    assert.match(answers[0]!.note, /resultType input_required/);
    assert.match(retry.note, /again, under a new id/);
    if (!retry.message.cut) {
      const state = answers[0]!.message.cut ? undefined : answers[0]!.message.result.requestState;
      assert.ok(retry.message.params.inputResponses, "the retry carries inputResponses");
      if (state !== undefined) assert.equal(retry.message.params.requestState, state, "requestState echoed");
    }
  }
  assert.match(out, /^ {3}\[client\] .*answers name "Ada"/m, "the canned elicitation handler says what it answers");
  assert.match(out, /^ {3}\[client\] the model is asked/m, "the canned sampling handler says what it was asked");
  assert.ok((out.match(/"text":"Hello, Ada!"/g) ?? []).length >= 2, "both eras greet Ada");
});

test("walkthrough: the handshake era's two-way protocol and cancellation, each message with its own note", () => {
  const wire = wireOf(out).filter((e) => e.era === "2025-11-25");
  const at = (predicate: (m: Record<string, any>) => boolean, from = 0) => {
    const found = wire.findIndex((entry, i) => i >= from && predicate(entry.message));
    assert.ok(found >= 0, "an expected message was not shown");
    return found;
  };
  const initialize = wire[at((m) => m.method === "initialize")]!.message;
  assert.ok(initialize.params.capabilities.elicitation && initialize.params.capabilities.sampling, JSON.stringify(initialize.params.capabilities));

  // Cancellation: after the first progress report, notifications/cancelled for that id, and never an answer to it.
  const cancelled = at((m) => m.method === "notifications/cancelled");
  const requestId = wire[cancelled]!.message.params.requestId;
  const call = at((m) => m.method === "tools/call" && m.id === requestId);
  assert.equal(wire[call]!.message.params.name, "countdown");
  assert.ok(at((m) => m.method === "notifications/progress", call) < cancelled, "cancelled after a progress report");
  assert.equal(wire.filter((e) => e.direction === "received" && !("method" in e.message) && e.message.id === requestId).length, 0, "the cancelled call got an answer");

  const setLevel = at((m) => m.method === "logging/setLevel");
  const elicit = at((m) => m.method === "elicitation/create");
  const accepted = at((m) => !("method" in m) && m.id === wire[elicit]!.message.id && m.result?.action === "accept", elicit);
  const sample = at((m) => m.method === "sampling/createMessage");
  const sampled = at((m) => !("method" in m) && m.id === wire[sample]!.message.id && "result" in m, sample);
  assert.equal(wire[sampled]!.message.result.model, "walkthrough-canned-model");
  const changed = at((m) => m.method === "notifications/tools/list_changed");
  const generic = /^ {3}(request|notification) `[^`]+` \((client|server)→|^ {3}result for /;
  for (const i of [cancelled, setLevel, setLevel + 1, elicit, accepted, sample, sampled, changed]) {
    assert.doesNotMatch(wire[i]!.note, generic, `generic note for ${JSON.stringify(wire[i]!.message).slice(0, 80)}`);
  }
  // The 2026-07-28 methods have their own notes too.
  const modernOnly = wireOf(out).filter((e) => e.era === "2026-07-28" && /^(server\/discover|subscriptions\/listen|notifications\/subscriptions\/acknowledged)$/.test(e.message.method ?? ""));
  assert.deepEqual(new Set(modernOnly.map((e) => e.message.method)).size, 3, "discover, listen and its acknowledgement are all shown");
  for (const entry of modernOnly) assert.doesNotMatch(entry.note, generic, `generic note for ${entry.message.method}`);
});

test("walkthrough: it ends by pointing to the textbook edition, then the production edition", () => {
  const end = out.trimEnd().split("\n").slice(-3).join(" ");
  assert.match(end, /Next: read src\/textbook\/.*node dist\/textbook\/demo\.js.*then the production edition: src\/index\.ts/);
});
