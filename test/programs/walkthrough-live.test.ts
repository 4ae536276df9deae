// The walkthrough against live servers: what each step prints is what crossed its connections
// (the recordings `--record` writes), and what crossed is what a fresh server sends again when its
// client's lines are replayed (src/recordings/replay.ts, the engine of `mcp-wire replay`). So a step cannot
// show a message the server would not send. Then the steps issue 21 added, read from the recordings:
// pagination, the unknown tool and the parse error, roots, resources and their template, the
// subscription, the 2026-07-28 refusals and the probe's fallback to initialize.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NOTES_PATH, sections } from "../../src/demo/notes.js";
import { NOTES_URI, SECTION_TEMPLATE } from "../../src/demo/server-definition.js";
import { parseRecording, splitArguments } from "../../src/recordings/recording.js";
import { replay, type ReplayReport } from "../../src/recordings/replay.js";
import { spawnPeer, type ReplayPeer } from "../../src/recordings/replay-peer.js";
import { asShown, printedOf, runWalkthrough, type Era, type Recorded } from "../helpers/walkthrough-run.js";

const run = runWalkthrough();
const META = "io.modelcontextprotocol/";
const NOTES = readFileSync(NOTES_PATH, "utf8");

/**
 * Replays one recording against a fresh server of its command, with a fresh copy of the notes (the
 * walkthrough's was removed). The walkthrough edits its copy once the server has taken the
 * subscription (resources/subscribe answered; in 2026-07-28 a listen naming the URI acknowledged):
 * so does this, for the notifications/resources/updated the recording expects.
 */
async function replayed(text: string): Promise<ReplayReport> {
  const recording = parseRecording(text);
  const directory = mkdtempSync(join(tmpdir(), "walkthrough-replay-"));
  const notes = join(directory, "notes.md");
  copyFileSync(NOTES_PATH, notes);
  const [command, ...args] = splitArguments(recording.header.command!);
  const at = args.indexOf("--notes");
  if (at >= 0) args[at + 1] = notes;
  const peer = spawnPeer(command!, args);
  const subscribeIds = new Set<string>();
  const edit = () => appendFileSync(notes, "\n<!-- edited by the replay -->\n");
  const watched: ReplayPeer = {
    ...peer,
    write: (line) => {
      const message = parsed(line);
      if (message.method === "resources/subscribe") subscribeIds.add(JSON.stringify(message.id));
      peer.write(line);
    },
    onLine: (listener) => peer.onLine((line) => {
      listener(line);
      const message = parsed(line);
      if (!("method" in message) && subscribeIds.has(JSON.stringify(message.id))) edit();
      if (message.method === "notifications/subscriptions/acknowledged" && message.params.notifications.resourceSubscriptions?.length) edit();
    }),
  };
  try {
    return await replay(recording, watched, { timeoutMs: 10_000 });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A line's message; a line that is not JSON (the walkthrough writes one) as an empty one. */
function parsed(line: string): { id?: unknown; method?: string; params?: any } {
  try {
    return JSON.parse(line);
  } catch {
    return {};
  }
}

/**
 * The progress tokens of the calls the recording cancels. Spec (basic/utilities/cancellation): a
 * notification may still be on its way when the cancel goes out, so a replay slower than the
 * walkthrough may hear one more progress report of a cancelled call: that one is no difference.
 */
function cancelledTokens(text: string): Set<string> {
  const messages = parseRecording(text).entries.map((entry) => entry.message as any);
  const cancelled = new Set(messages.filter((m) => m?.method === "notifications/cancelled").map((m) => JSON.stringify(m.params.requestId)));
  return new Set(messages.filter((m) => m?.method === "tools/call" && cancelled.has(JSON.stringify(m.id))).map((m) => JSON.stringify(m.params._meta.progressToken)));
}

/** A replay's report in a line per difference, for assertion messages (a late progress report of a cancelled call aside). */
function problems(report: ReplayReport, late = new Set<string>()): string[] {
  const differences = report.differences.filter((d) => {
    const message = d.expectedAt === undefined && d.actual !== undefined ? parsed(d.actual) : undefined;
    return !(message?.method === "notifications/progress" && late.has(JSON.stringify(message.params.progressToken)));
  });
  return [...(report.failure ? [report.failure] : []), ...differences.map((d) => `expected ${d.expected?.slice(0, 120)} got ${d.actual?.slice(0, 120)}: ${JSON.stringify(d.differences).slice(0, 200)}`)];
}

const of = (era: Era, step: string, connection = "client") => run.recorded.filter((r) => r.era === era && r.step.startsWith(step) && r.connection === connection);
const sent = (lines: Recorded[]) => lines.filter((r) => r.dir === "c2s");
const received = (lines: Recorded[]) => lines.filter((r) => r.dir === "s2c");

test("walkthrough live: every step prints exactly the lines its connections carried, no more, no fewer", () => {
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual([...run.recordings.keys()].sort(), ["client", "handshake-era", "raw"].flatMap((c) => ["2025-11-25", "2026-07-28"].map((e) => `${e}-${c}`)).sort());
  const printed = printedOf(run.stdout);
  const steps = [...new Set(printed.map((p) => p.step))];
  assert.ok(steps.length >= 20, `only ${steps.length} steps print wire lines`);
  for (const step of steps) {
    for (const era of ["2025-11-25", "2026-07-28"] as const) {
      const onScreen = printed.filter((p) => p.step === step && p.era === era).map((p) => `${p.dir} ${p.shown}`).sort();
      const carried = run.recorded.filter((r) => r.step === step && r.era === era).map((r) => `${r.dir} ${asShown(r.text)}`).sort();
      assert.deepEqual(onScreen, carried, `${step}, ${era}`);
    }
  }
  assert.equal(printed.length, run.recorded.length);
});

test("walkthrough live: each connection's recording, replayed against a fresh server, gets the very answers shown", async () => {
  const reports = await Promise.all([...run.recordings].map(async ([name, text]) => [name, await replayed(text)] as const));
  for (const [name, report] of reports) assert.deepEqual(problems(report, cancelledTokens(run.recordings.get(name)!)), [], name);
});

test("walkthrough live: the replay check sees a wrong line (a -32602 said where the server answers -32002)", async () => {
  const text = run.recordings.get("2025-11-25-client")!;
  assert.match(text, /"code":-32002/);
  const report = await replayed(text.replace('"code":-32002', '"code":-32602'));
  assert.ok(report.differences.some((d) => d.differences.some((f) => f.path === "/error/code")), problems(report).join("\n"));
});

test("walkthrough live: pagination follows nextCursor; an unknown tool is -32602; bytes that are not JSON get -32700 and no id", () => {
  for (const era of ["2025-11-25", "2026-07-28"] as const) {
    const [first, second] = received(of(era, "Listing tools")).map((r) => r.message.result);
    assert.equal(first.tools.length, 5);
    assert.equal(sent(of(era, "Listing tools"))[1]!.message.params.cursor, first.nextCursor);
    assert.equal(second.nextCursor, undefined);
    const unknown = received(of(era, "Errors"))[0]!.message;
    assert.equal(unknown.error.code, -32602);
    const [garbage] = sent(of(era, "Errors", "raw"));
    assert.equal(garbage!.message, undefined, "the raw line is not JSON");
    const [parseError] = received(of(era, "Errors", "raw"));
    assert.equal(parseError!.message.error.code, -32700);
    assert.equal("id" in parseError!.message, false);
  }
});

test("walkthrough live: roots/list, a server request in the handshake era, an input round in 2026-07-28", () => {
  const legacy = of("2025-11-25", "Roots");
  const ask = received(legacy).find((r) => r.message.method === "roots/list")!;
  const answer = sent(legacy).find((r) => r.message.id === ask.message.id && "result" in r.message)!;
  assert.match(answer.message.result.roots[0].uri, /^file:\/\//);
  const modern = of("2026-07-28", "Roots");
  assert.equal(received(modern).filter((r) => r.message.method === "roots/list").length, 0, "no server request in 2026-07-28");
  const round = received(modern)[0]!.message.result;
  assert.equal(round.resultType, "input_required");
  assert.deepEqual(Object.values(round.inputRequests), [{ method: "roots/list" }]);
  const retry = sent(modern)[1]!.message.params;
  assert.deepEqual(Object.keys(retry.inputResponses), Object.keys(round.inputRequests));
  for (const era of ["2025-11-25", "2026-07-28"] as const) {
    assert.equal(received(of(era, "Roots")).at(-1)!.message.result.content[0].text, `${answer.message.result.roots[0].name}: ${answer.message.result.roots[0].uri}`);
  }
});

test("walkthrough live: the protocol notes are read whole and by their template, as the file says", () => {
  const lifecycle = sections(NOTES).find((section) => section.slug === "lifecycle")!;
  for (const era of ["2025-11-25", "2026-07-28"] as const) {
    const read = received(of(era, "Resources")).find((r) => r.message.result?.contents)!.message.result;
    assert.deepEqual(read.contents.map((c: any) => [c.uri, c.text]), [[NOTES_URI, NOTES]]);
    const [templates, section] = received(of(era, "Resource templates")).map((r) => r.message.result);
    assert.equal(templates.resourceTemplates[0].uriTemplate, SECTION_TEMPLATE);
    assert.deepEqual(section.contents.map((c: any) => c.text), [lifecycle.text]);
  }
});

test("walkthrough live: a subscription hears the edit: resources/subscribe in the handshake era, a re-opened listen in 2026-07-28", () => {
  const legacy = of("2025-11-25", "Subscribing");
  assert.deepEqual(sent(legacy).map((r) => [r.message.method, r.message.params]), [["resources/subscribe", { uri: NOTES_URI }]]);
  assert.deepEqual(received(legacy).map((r) => r.message.result ?? r.message.params), [{}, { uri: NOTES_URI }]);

  const modern = of("2026-07-28", "Subscribing");
  const opening = sent(of("2026-07-28", "Opening")).find((r) => r.message.method === "subscriptions/listen")!.message.id;
  const [cancel, listen] = sent(modern).map((r) => r.message);
  assert.deepEqual([cancel.method, cancel.params.requestId], ["notifications/cancelled", opening]);
  assert.equal(listen.method, "subscriptions/listen");
  assert.deepEqual(listen.params.notifications.resourceSubscriptions, [NOTES_URI]);
  const [ack, updated] = received(modern).map((r) => r.message);
  assert.equal(ack.method, "notifications/subscriptions/acknowledged");
  assert.deepEqual([updated.method, updated.params.uri, updated.params._meta[`${META}subscriptionId`]], ["notifications/resources/updated", NOTES_URI, listen.id]);
});

test("walkthrough live: the 2026-07-28 refusals (-32602, -32022, -32021) beside the handshake era's answers", () => {
  const answers = (era: Era) => received(run.recorded.filter((r) => r.era === era && r.connection === "raw" && r.step.startsWith("Refused"))).map((r) => r.message);
  const [malformed, future, capability] = answers("2026-07-28");
  assert.equal(malformed.error.code, -32602);
  assert.match(malformed.error.message, /clientInfo/);
  assert.equal(future.error.code, -32022);
  assert.equal(future.error.data.requested, "2099-01-01");
  assert.ok(future.error.data.supported.includes("2026-07-28"));
  assert.equal(capability.error.code, -32021);
  assert.deepEqual(capability.error.data.requiredCapabilities, { elicitation: { form: {} } });
  const [badInitialize, counterOffer, toolFailed] = answers("2025-11-25");
  assert.equal(badInitialize.error.code, -32602);
  assert.equal(counterOffer.result.protocolVersion, "2025-11-25");
  assert.equal(toolFailed.result.isError, true);
});

test("walkthrough live: against a server of the handshake era, the probe falls back to initialize; a handshake client never probes", () => {
  const legacy = sent(of("2025-11-25", "A server of the handshake era", "handshake-era")).map((r) => r.message.method);
  assert.deepEqual(legacy, ["initialize", "notifications/initialized"]);
  const modern = of("2026-07-28", "A server of the handshake era", "handshake-era");
  assert.deepEqual(sent(modern).map((r) => r.message.method), ["server/discover", "initialize", "notifications/initialized"]);
  assert.equal(received(modern)[0]!.message.error.code, -32601);
  assert.equal(received(modern)[1]!.message.result.protocolVersion, "2025-11-25");
  assert.match(run.stdout, /\[client\] era: handshake \(server\/discover answered -32601 .*fell back to initialize\)/);
});
