// check's sessions (src/recordings/check-sessions.ts): a recording through `record --listen` that holds
// several sessions is checked one session at a time, told apart by its exchange notes
// (src/recordings/recording-exchange.ts); one session reusing an id is still reported; a request the
// HTTP layer refused is not checked; two 2026-07-28 listens with one id over HTTP are two; a
// recording without exchange notes (stdio) is one session as before. And the HTTP recordings of
// real hosts (fixtures/recordings/check/hosts/, made by the recorder before it wrote exchange notes)
// are read the way the recorder now writes: no finding. record --check's live checker
// (src/recordings/check-live.ts) tells the sessions apart as they pass, too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { checkRecording, formatFinding } from "../../src/recordings/check.js";
import { LiveSessions, MAX_LIVE_SESSIONS } from "../../src/recordings/check-live.js";
import { formatSession, parseRecording } from "../../src/recordings/recording.js";

const HOSTS = fileURLToPath(new URL("../../fixtures/recordings/check/hosts/", import.meta.url));
const V = "2025-11-25";
const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" } };

const line = (dir: ">" | "<", message: unknown) => `${dir} ${JSON.stringify(message)}`;
const note = (n: number, facts?: object) => (facts ? `# exchange ${n}: ${JSON.stringify(facts)}` : `# exchange ${n}`);

/** A handshake-era session over HTTP, in exchanges from `first`: initialize (its answer gives the id), initialized, tools/list with id 1. */
function handshake(first: number, connection: number, session: string, listId = 1): string[] {
  return [
    note(first, { connection, method: "POST" }),
    line(">", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "host", version: "1" } } }),
    note(first, { status: 200, session }),
    line("<", { jsonrpc: "2.0", id: 0, result: { protocolVersion: V, capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }),
    note(first + 1, { connection, method: "POST", session }),
    line(">", { jsonrpc: "2.0", method: "notifications/initialized" }),
    note(first + 1, { status: 202 }),
    note(first + 2, { connection, method: "POST", session }),
    line(">", { jsonrpc: "2.0", id: listId, method: "tools/list" }),
    note(first + 2, { status: 200 }),
    line("<", { jsonrpc: "2.0", id: listId, result: { tools: [] } }),
  ];
}

function recording(lines: string[], transport = "http") {
  return parseRecording(["# transport: " + transport, "-- session --", ...lines, ""].join("\n"), "test.recording");
}

const brief = (lines: string[], transport?: string) => checkRecording(recording(lines, transport)).map((f) => `#${f.index} ${f.dir} ${f.rule}${f.session ? ` [${f.session}]` : ""}`);

test("check: two HTTP sessions, each using ids 0 and 1 from the start, are checked apart: no id-reused, no lifecycle-order", () => {
  assert.deepEqual(brief([...handshake(1, 1, "A"), ...handshake(4, 2, "B")]), []);
});

test("check: interleaved sessions are still told apart by their exchanges", () => {
  const a = handshake(1, 1, "A");
  const b = handshake(4, 2, "B");
  // B's initialize goes out before A's tools/list.
  assert.deepEqual(brief([...a.slice(0, 7), ...b, ...a.slice(7)]), []);
});

test("check: one session that reuses an id is still reported, and the finding names its session", () => {
  const lines = [...handshake(1, 1, "A"), ...handshake(4, 2, "B"), note(7, { connection: 2, method: "POST", session: "B" }), line(">", { jsonrpc: "2.0", id: 1, method: "tools/list" })];
  const findings = checkRecording(recording(lines));
  assert.deepEqual(findings.map((f) => `#${f.index} ${f.dir} ${f.rule} [${f.session}]`), ["#11 c2s id-reused [session B]"]);
  assert.match(formatFinding("x.recording", findings[0]!), /^x\.recording:#11 c2s \[session B\] id-reused: id 1 was already used by tools\/list \(#9\)/);
});

test("check: a request the HTTP layer refused (401) is not checked, so its retry with the same id is no reuse", () => {
  const refused = [note(1, { connection: 1, method: "POST" }), line(">", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "h", version: "1" } } }), note(1, { status: 401 })];
  // A server without session ids: both tries are in the one session of messages without one.
  const retried = handshake(2, 1, "A").map((text) => text.replace(/,"session":"A"/, "").replace(/"session":"A"/, ""));
  assert.deepEqual(brief([...refused, ...retried]), []);
  // A refused line that is not a message is the client's still.
  assert.deepEqual(brief([note(1, { connection: 1, method: "POST" }), "> not json", note(1, { status: 400 })]), ["#1 c2s jsonrpc-shape"]);
});

test("check: over HTTP, two open 2026-07-28 listens with one id (two host processes) are two; each stream's notifications go to its own", () => {
  const listen = (n: number, connection: number, notifications: object) => [
    note(n, { connection, method: "POST" }),
    line(">", { jsonrpc: "2.0", id: "listen:0", method: "subscriptions/listen", params: { notifications, _meta: MODERN_META } }),
    note(n, { status: 200 }),
  ];
  const changed = (method: string) => line("<", { jsonrpc: "2.0", method, params: { _meta: { "io.modelcontextprotocol/subscriptionId": "listen:0" } } });
  const lines = [...listen(1, 1, { toolsListChanged: true }), ...listen(2, 2, { promptsListChanged: true }), note(1), changed("notifications/tools/list_changed"), note(2), changed("notifications/prompts/list_changed")];
  assert.deepEqual(brief(lines), []);
  // The same notification on the other stream is one its listen did not ask for.
  assert.deepEqual(brief([...lines, note(2), changed("notifications/tools/list_changed")]), ["#5 s2c listen-filter"]);
});

test("check: over stdio (no exchanges) an open 2026-07-28 id used again is still a reuse", () => {
  const listen = line(">", { jsonrpc: "2.0", id: "listen:0", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: MODERN_META } });
  assert.deepEqual(brief([listen, listen], "stdio"), ["#2 c2s id-reused"]);
});

test("check: a recording of one session names none in its findings", () => {
  const lines = [...handshake(1, 1, "A"), note(4, { connection: 1, method: "POST", session: "A" }), line(">", { jsonrpc: "2.0", id: 1, method: "tools/list" })];
  assert.deepEqual(brief(lines), ["#6 c2s id-reused"]);
});

test("recording: exchange notes give each entry its exchange, and formatSession writes them back", () => {
  const lines = [...handshake(1, 1, "A"), ...handshake(4, 2, "B")];
  const read = recording(lines);
  assert.deepEqual(read.entries.map((entry) => entry.exchange), [1, 1, 2, 3, 3, 4, 4, 5, 6, 6]);
  assert.deepEqual(read.exchanges.get(1), { connection: 1, method: "POST", status: 200, session: "A" });
  const again = parseRecording(formatSession(read));
  assert.deepEqual(again.exchanges, read.exchanges);
  assert.deepEqual(again.entries, read.entries);
  assert.throws(() => recording(["# exchange 1: {not json"]), /test\.recording:3: an exchange note whose facts are not JSON/);
  assert.throws(() => recording([`# exchange 1: {"session":${"[".repeat(100_000)}`]), /test\.recording:3: an exchange note whose facts are not a flat JSON object/);
});

for (const file of ["host-claude-http.recording", "mcp-remote-auto-http.recording"]) {
  test(`check: a real host's HTTP recording through record --listen has no finding (${file})`, () => {
    const read = parseRecording(readFileSync(HOSTS + file, "utf8"), file);
    assert.deepEqual(checkRecording(read).map((f) => formatFinding(file, f)), []);
    // The bodies of the HTTP errors and probes were recorded as messages: they are not read as such.
    assert.equal(read.entries.some((entry) => entry.dir === "s2c" && !JSON.stringify(entry.message).includes('"id"') && !JSON.stringify(entry.message).includes('"method"')), false);
  });
}

/** record --check's live checker over `lines`, each line told what its exchange said so far (as record-http.ts tells it). */
function live(lines: string[]): string[] {
  const sessions = new LiveSessions();
  const exchanges = new Map<number, { session?: string; status?: number }>();
  let current: { session?: string } | undefined;
  const found: string[] = [];
  for (const text of lines) {
    const facts = /^# exchange (\d+)(?:: (.*))?$/.exec(text);
    if (facts) {
      const known = exchanges.get(Number(facts[1])) ?? {};
      exchanges.set(Number(facts[1]), known);
      if (facts[2]) Object.assign(known, { ...JSON.parse(facts[2]), ...known });
      current = known;
      continue;
    }
    const entry = recording([text], "stdio").entries[0]!;
    for (const finding of sessions.check(entry, current)) found.push(`#${finding.index} ${finding.dir} ${finding.rule} [${finding.session}]`);
  }
  return found;
}

test("record --check: live, the sessions are told apart by what each line's exchange said so far; a server without session ids has one", () => {
  assert.deepEqual(live([...handshake(1, 1, "A"), ...handshake(4, 2, "B")]), []);
  const sessionless = (first: number) => handshake(first, 1, "A").map((text) => text.replace(/,"session":"A"/, "").replace(/"session":"A"/, ""));
  assert.deepEqual(live([...sessionless(1), ...sessionless(4)]), [], "a second initialize begins a second session");
  const reused = [...handshake(1, 1, "A"), note(4, { connection: 1, method: "POST", session: "A" }), line(">", { jsonrpc: "2.0", id: 1, method: "tools/list" })];
  assert.deepEqual(live(reused), ["#6 c2s id-reused [session A]"]);
});

test(`record --check: live, at most ${MAX_LIVE_SESSIONS} sessions are followed at once; the longest unused is forgotten`, () => {
  const lines: string[] = [];
  for (let i = 0; i <= MAX_LIVE_SESSIONS; i++) lines.push(...handshake(3 * i + 1, i, `S${i}`));
  const again = (n: number, session: string) => [note(n, { connection: 0, method: "POST", session }), line(">", { jsonrpc: "2.0", id: 2, method: "tools/list" })];
  const later = 3 * (MAX_LIVE_SESSIONS + 1) + 1;
  const found = live([...lines, ...again(later, "S1"), ...again(later + 1, "S0")]);
  assert.deepEqual(found.map((finding) => finding.replace(/^#\d+ /, "")), ["c2s lifecycle-order [session S0]"], "S1 is still followed; S0, the longest unused, was forgotten");
});
