// The spec linter (src/recordings/check.ts and its rules): each rule fires on its own fixture
// (fixtures/recordings/check/<rule>.recording, one planted violation each) and only there; a clean
// session passes; our goldens give exactly the findings their planted bad client input makes;
// the recordings of other peers (fixtures/recorded/) give only the findings about that peer listed here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { checkRecording, formatFinding, RULES, SessionChecker } from "../../src/recordings/check.js";
import { parseRecording } from "../../src/recordings/recording.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/recordings/check/", import.meta.url));
const GOLDENS = fileURLToPath(new URL("../../fixtures/transcripts/", import.meta.url));
const RECORDED = fileURLToPath(new URL("../../fixtures/recorded/", import.meta.url));

function check(dir: string, file: string) {
  return checkRecording(parseRecording(readFileSync(dir + file, "utf8"), file));
}

/** Findings as "#N dir rule", to compare whole lists. */
function brief(dir: string, file: string): string[] {
  return check(dir, file).map((f) => `#${f.index} ${f.dir} ${f.rule}`);
}

test("check: every rule has its fixture, and every fixture names a rule", () => {
  const names = readdirSync(FIXTURES).filter((f) => f.endsWith(".recording")).map((f) => f.replace(/\.recording$/, ""));
  assert.deepEqual(names.filter((n) => !n.startsWith("valid")).sort(), RULES.map((r) => r.name).sort());
});

/** What each rule's fixture plants, where: the rule fires there and nothing else fires. */
const PLANTED: { [rule: string]: string[] } = {
  "jsonrpc-shape": ["#5 s2c jsonrpc-shape"],
  "id-null": ["#4 c2s id-null"],
  "id-reused": ["#6 c2s id-reused"],
  "answered-twice": ["#6 s2c answered-twice"],
  "answer-to-unknown-id": ["#6 s2c answer-to-unknown-id"],
  "answer-to-notification": ["#5 s2c answer-to-notification"],
  "batch-outside-2025-03-26": ["#4 c2s batch-outside-2025-03-26"],
  "lifecycle-order": ["#3 s2c lifecycle-order"],
  "capability-undeclared": ["#4 c2s capability-undeclared", "#6 s2c capability-undeclared"],
  "result-fields": ["#5 s2c result-fields"],
  "version-fields": ["#5 s2c version-fields", "#5 s2c version-fields", "#7 s2c version-fields"],
  "output-schema": ["#7 s2c output-schema"],
  "is-error": ["#7 s2c is-error", "#9 s2c is-error"],
  progress: ["#6 s2c progress", "#8 s2c progress", "#10 c2s progress"],
  cancellation: ["#4 c2s cancellation"],
  "request-capabilities": ["#6 s2c request-capabilities", "#7 s2c request-capabilities", "#10 s2c request-capabilities", "#12 s2c request-capabilities"],
  "input-rounds": ["#3 c2s input-rounds", "#3 c2s input-rounds", "#6 s2c input-rounds", "#7 c2s input-rounds"],
  "listen-filter": ["#2 s2c listen-filter", "#4 s2c listen-filter", "#6 s2c listen-filter", "#8 s2c listen-filter"],
};

for (const rule of RULES) {
  test(`check: ${rule.name} fires on its fixture, and only it`, () => {
    assert.deepEqual(brief(FIXTURES, `${rule.name}.recording`), PLANTED[rule.name]);
    for (const finding of check(FIXTURES, `${rule.name}.recording`)) {
      assert.match(finding.spec, /^https:\/\/modelcontextprotocol\.io\/specification\/\d{4}-\d\d-\d\d\//);
      assert.ok(finding.message.length > 0);
    }
  });
}

test("check: a clean session (progress, an honoured cancel left unanswered, a declared server request, logging) passes", () => {
  assert.deepEqual(brief(FIXTURES, "valid.recording"), []);
});

test("check: a clean 2026-07-28 session, recorded from the demo (discover, a listen, a call with logLevel and its log messages) passes", () => {
  assert.deepEqual(brief(FIXTURES, "valid-2026.recording"), []);
});

test("check: checked live, a message at a time with no look ahead (record --check), each fixture gives the same findings", () => {
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith(".recording"))) {
    const recording = parseRecording(readFileSync(FIXTURES + file, "utf8"), file);
    const live = new SessionChecker();
    assert.deepEqual(recording.entries.flatMap((entry) => live.check(entry)), checkRecording(recording), file);
  }
});

test("check: findings name what is wrong", () => {
  const messages = (file: string) => check(FIXTURES, file).map((f) => f.message);
  assert.deepEqual(messages("progress.recording"), [
    "progress 1 does not increase on 2", "progress for tools/call (#4) after its answer", 'progress token "p2" is already used by tools/call (#9), still open',
  ]);
  assert.deepEqual(messages("version-fields.recording"), [
    "tools[0].title does not exist in 2025-03-26", "tools[0].outputSchema does not exist in 2025-03-26", "structuredContent does not exist in 2025-03-26",
  ]);
  assert.deepEqual(messages("result-fields.recording"), ['result: "tools" is required']);
  assert.deepEqual(messages("output-schema.recording"), ["structuredContent/sum: must be number, got string"]);
  assert.deepEqual(messages("request-capabilities.recording"), [
    'inputRequests "summary" asks sampling/createMessage, but tools/call (#5) declared no {"sampling":{}}',
    "roots/list sent as a request of the server's: in 2026-07-28 it asks only inside inputRequests",
    "notifications/message at info, below the level every open request asked for",
    "notifications/message, but no open request asked for log messages (logLevel)",
  ]);
  assert.deepEqual(messages("input-rounds.recording"), [
    "requestState is not the one the input_required answer to #1 gave, byte for byte", 'inputResponses lacks "confirm", asked in the input_required answer to #1',
    "input_required is not allowed for tools/list", "tools/call carries requestState, but answers no input_required round",
  ]);
  assert.deepEqual(messages("listen-filter.recording"), [
    "the acknowledgement grants promptsListChanged, which the listen #1 did not ask for",
    "notifications/prompts/list_changed on the listen #1, which did not ask for promptsListChanged",
    "notifications/resources/list_changed outside any subscriptions/listen",
    "notifications/tools/list_changed on the listen #1 after it ended",
  ]);
});

/**
 * The goldens' findings: each is bad input the golden plants on the client's side, to show how
 * the server answers it (the file's header says which). The server's side of every golden passes.
 */
const GOLDEN_FINDINGS: { [file: string]: string[] } = {
  "batch-2025-03-26.transcript": ["#4 c2s lifecycle-order", "#5 c2s jsonrpc-shape", "#7 c2s jsonrpc-shape"],
  "batch-before-initialize.transcript": ["#1 c2s lifecycle-order"],
  "batch-rejected.transcript": ["#3 c2s batch-outside-2025-03-26"],
  "cancellation.transcript": ["#7 c2s cancellation", "#8 c2s cancellation"],
  "garbage-2024-11-05.transcript": ["#3 c2s jsonrpc-shape", "#4 c2s batch-outside-2025-03-26", "#5 c2s id-null"],
  "garbage.transcript": [
    "#3 c2s jsonrpc-shape", "#4 c2s jsonrpc-shape", "#5 c2s batch-outside-2025-03-26", "#6 c2s jsonrpc-shape", "#7 c2s jsonrpc-shape",
    "#8 c2s id-null", "#9 c2s jsonrpc-shape", "#10 c2s jsonrpc-shape", "#11 c2s jsonrpc-shape", "#12 c2s jsonrpc-shape",
    "#13 c2s jsonrpc-shape", "#14 c2s jsonrpc-shape", "#19 c2s answer-to-unknown-id",
  ],
  "lifecycle-before-initialize.transcript": [
    "#2 c2s lifecycle-order", "#3 c2s lifecycle-order", "#5 c2s lifecycle-order", "#6 c2s lifecycle-order", "#9 c2s lifecycle-order",
  ],
  "modern-dual-era.transcript": ["#11 c2s lifecycle-order"],
  "modern-errors.transcript": ["#7 c2s lifecycle-order"],
  "notifications-unanswered.transcript": ["#5 c2s capability-undeclared", "#7 c2s progress"],
  "responses-never-answered.transcript": ["#3 c2s jsonrpc-shape", "#4 c2s jsonrpc-shape", "#5 c2s jsonrpc-shape", "#6 c2s jsonrpc-shape"],
};

for (const file of readdirSync(GOLDENS).filter((f) => f.endsWith(".transcript"))) {
  test(`check: golden ${file} gives only the findings it plants`, () => {
    assert.deepEqual(brief(GOLDENS, file), GOLDEN_FINDINGS[file] ?? []);
  });
}

/**
 * The recordings of other peers: the clients' side passes. Real findings about the reference
 * server (server-everything 2026.8.31): it answers a tool it did not list with an isError result
 * where the spec wants a -32602 error (README, "Recording tools"). stdio-interop calls our demo
 * server's tools (add, get_time) by name, which server-everything does not have.
 */
const RECORDED_FINDINGS: { [file: string]: string[] } = {
  "sdk-client-vs-server-everything.jsonl": ["#15 s2c is-error"],
  "stdio-interop-vs-server-everything.jsonl": ["#8 s2c is-error", "#12 s2c is-error", "#14 s2c is-error"],
};

const recorded = readdirSync(RECORDED).filter((f) => f.endsWith(".jsonl"));
test("check: the recorded sessions are there", () => {
  assert.ok(recorded.length >= 5, `${recorded.length} recordings at ${RECORDED}`);
});
for (const file of recorded) {
  test(`check: the recorded session ${file} gives only its real findings`, () => {
    assert.deepEqual(brief(RECORDED, file), RECORDED_FINDINGS[file] ?? []);
  });
}

test("check: an empty batch is an Invalid Request in a 2025-03-26 session (and before any version is known); elsewhere the batch itself is the finding", () => {
  const session = (version: string) => [
    "-- session --",
    `> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"${version}","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
    `< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"${version}","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`,
    '> {"jsonrpc":"2.0","method":"notifications/initialized"}',
    "> []",
    '< {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: empty batch"}}',
  ].join("\n");
  const found = (text: string) => checkRecording(parseRecording(text)).map((f) => `#${f.index} ${f.rule}: ${f.message}`);
  assert.deepEqual(found(session("2025-03-26")), ["#4 jsonrpc-shape: an empty batch: a batch holds at least one message"]);
  assert.deepEqual(found(session("2025-06-18")), ["#4 batch-outside-2025-03-26: a batch of 0 in a 2025-06-18 session"]);
});

test("check: a golden keeps no order between its sides, so the rules that need it stay quiet", () => {
  // As a golden, the server's roots/list cannot be placed before or after notifications/initialized.
  const session = readFileSync(`${FIXTURES}lifecycle-order.recording`, "utf8");
  const lines = session.split("\n").filter((line) => line.startsWith("> ") || line.startsWith("< "));
  const golden = ["-- client --", ...lines.filter((l) => l.startsWith("> ")).map((l) => l.slice(2)), "-- server --", ...lines.filter((l) => l.startsWith("< ")).map((l) => l.slice(2)), ""].join("\n");
  assert.deepEqual(checkRecording(parseRecording(golden, "golden")), []);
});

test("check: a reused id is reported once, at the reuse; each of its requests may have its answer, in a golden too", () => {
  const init = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
  const answer = '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}';
  const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  const pong = '{"jsonrpc":"2.0","id":1,"result":{}}';
  const initialized = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
  const golden = ["-- client --", init, initialized, ping, ping, "-- server --", answer, pong, pong, pong].join("\n");
  assert.deepEqual(checkRecording(parseRecording(golden)).map((f) => `#${f.index} ${f.rule}`), ["#4 id-reused", "#8 answered-twice"]);
  const session = ["-- session --", `> ${init}`, `< ${answer}`, `> ${initialized}`, `> ${ping}`, `> ${ping}`, `< ${pong}`, `< ${pong}`].join("\n");
  assert.deepEqual(checkRecording(parseRecording(session)).map((f) => `#${f.index} ${f.rule}`), ["#5 id-reused"]);
});

test("check: a 2026-07-28 request may reuse the id of an answered one (no session), a handshake one may not", () => {
  const envelope = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}';
  const text = [
    "-- session --",
    `> {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${envelope}}}`,
    `< {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[]}}`,
    `> {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${envelope}}}`,
    `> {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${envelope}}}`,
  ].join("\n");
  assert.deepEqual(checkRecording(parseRecording(text)).map((f) => `#${f.index} ${f.rule}`), ["#4 id-reused"]);
});

test("check: checked live (no reader refused it first), a message nested too deep is said and left out, not walked into a crash", () => {
  const live = new SessionChecker(undefined, { maxNesting: 64 });
  const deep = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${"[".repeat(5000)}${"]".repeat(5000)}}}`;
  assert.deepEqual(live.check({ dir: "s2c", text: deep, message: JSON.parse(deep) }).map((f) => `#${f.index} ${f.rule}: ${f.message}`), ["#1 not-checked: a message nested deeper than 64 levels"]);
  const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  assert.deepEqual(live.check({ dir: "c2s", text: ping, message: JSON.parse(ping) }), []);
});

test("check: a finding's line shows the recording's control characters as \\u escapes, not to the terminal", () => {
  const text = ["-- session --", '> {"jsonrpc":"2.0","id":1,"method":"tools/list\\u001b[2J\\r"}'].join("\n");
  const [finding] = checkRecording(parseRecording(text));
  assert.ok(finding?.message.includes("\u001b"), "the finding itself keeps the text (--json escapes it)");
  const line = formatFinding("r", finding);
  assert.doesNotMatch(line, /[\u0000-\u001f]/);
  assert.ok(line.includes("tools/list\\u001b[2J\\u000d before initialize"), line);
});

test("check: a message line that ends in \\r (a CRLF peer) breaks no rule: the \\r is JSON whitespace after the message, not a newline inside it", () => {
  const init = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
  const answer = '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}';
  const recording = parseRecording(["-- session --", `> ${init}\r`, `< ${answer}\r`, '> {"jsonrpc":"2.0","method":"notifications/initialized"}\r', ""].join("\n"));
  assert.ok(recording.entries.every((entry) => entry.text.endsWith("\r")));
  assert.deepEqual(checkRecording(recording), []);
});

test("check: a message nested just within the bound is walked by every rule (readers, structuredClone, the schema validator) without running out of stack", () => {
  const schema = (levels: number): unknown => (levels === 0 ? { type: "number" } : { type: "object", properties: { a: schema(levels - 1) }, required: ["a"] });
  const value = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { a: value(levels - 1, leaf) });
  const init = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
  const answer = '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}';
  const text = [
    "-- session --", `> ${init}`, `< ${answer}`, '> {"jsonrpc":"2.0","method":"notifications/initialized"}',
    '> {"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    `< ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "deep", inputSchema: { type: "object" }, outputSchema: schema(120) }] } })}`,
    '> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deep"}}',
    `< ${JSON.stringify({ jsonrpc: "2.0", id: 2, result: { content: [], structuredContent: value(120, "not a number") } })}`,
  ].join("\n");
  const findings = checkRecording(parseRecording(text));
  assert.deepEqual(findings.map((f) => `#${f.index} ${f.rule}`), ["#7 output-schema"]);
  assert.match(findings[0]!.message, /must be number, got string/);
});
