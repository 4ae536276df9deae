// `mcp-wire explain` (src/recordings/explain.ts, explain-messages.ts): one line per recorded message with
// its direction, time and the walkthrough's own note; lines that are not JSON-RPC are told as
// such; the command line's exit codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI } from "../cli/program.js";
import { classify } from "../../src/jsonrpc/messages.js";
import { noteTracker } from "../../src/walkthrough-notes.js";
import { explainRecording } from "../../src/recordings/explain.js";
import { describeRecording } from "../../src/recordings/explain-messages.js";
import { parseRecording } from "../../src/recordings/recording.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const SESSION = [
  "# A short session, by hand.",
  "# protocol: 2025-11-25",
  "-- session --",
  '> +0 {"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  '< +4 {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}',
  '< +5 {"jsonrpc":"2.0","id":"s1","method":"roots/list"}',
  '> +9 {"jsonrpc":"2.0","id":"s1","result":{"roots":[]}}',
  '> +10 {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope"}}',
  '< +12 {"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"unknown tool"}}',
  '> +13 {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}',
  "> +14 not json",
  '< +15 {"id":3}',
  "",
].join("\n");

test("explain: one line per message, after the header, with number, direction, time, label and the walkthrough's note", () => {
  const recording = parseRecording(SESSION);
  const lines = explainRecording(recording);
  assert.deepEqual(lines.slice(0, 2), ["# A short session, by hand.", "# protocol: 2025-11-25"]);
  const messages = lines.slice(2);
  assert.equal(messages.length, recording.entries.length);
  assert.match(messages[0]!, /^1 {2}→ client → server {2}\s*\+0 ms {2}1: tools\/list {2}request `tools\/list`: which tools does the server offer\?/);
  assert.match(messages[1]!, /^2 {2}← server → client {2}\s*\+4 ms {2}1: result \(tools\/list\) {2}result: each tool's name, description and inputSchema/);
  // The server's own request and the client's answer: the answer's note knows what it answers.
  assert.match(messages[2]!, /← server → client .* s1: roots\/list {2}request `roots\/list` \(server to client\): which filesystem roots/);
  assert.match(messages[3]!, /→ client → server .* s1: result \(roots\/list\) {2}result: `roots`, each a file:\/\/ `uri`/);
  assert.match(messages[5]!, /2: error -32602 \(tools\/call\) {2}error response to tools\/call: code -32602 is Invalid params/);
  assert.match(messages[6]!, /notifications\/cancelled {2}notification `notifications\/cancelled`: the sender gave up/);
  assert.match(messages[7]!, /not JSON {2}not JSON: a line that no JSON-RPC peer can read/);
  assert.match(messages[8]!, /not JSON-RPC {2}not a valid JSON-RPC message \(invalid request: "jsonrpc" must be exactly "2.0"\)/);
});

test("explain: the notes are the walkthrough's own, for every message of a real session", () => {
  const file = join(ROOT, "fixtures/client-transcripts/everything-sdk-session.transcript");
  const recording = parseRecording(readFileSync(file, "utf8"), file);
  const note = noteTracker();
  const described = describeRecording(recording);
  assert.equal(described.length, recording.entries.length);
  described.forEach((message, i) => {
    const entry = recording.entries[i]!;
    const incoming = classify(entry.message);
    assert.ok("message" in incoming, `message ${i + 1} is one JSON-RPC message`);
    assert.equal(message.note, note(entry.dir === "c2s" ? "client→server" : "server→client", incoming.message).note, `message ${i + 1}`);
  });
  const lines = explainRecording(recording);
  assert.ok(lines.includes("(a golden transcript keeps each side's order only: the client's lines, then the server's)"));
  assert.equal(lines.filter((line) => /^ *\d+ {2}[→←] /.test(line)).length, recording.entries.length);
});

test("explain: no times when the recording kept none; --wire adds each line as it was; color only when asked", () => {
  const recording = parseRecording('-- session --\n> {"jsonrpc":"2.0","id":1,"method":"ping"}\n< {"jsonrpc":"2.0","id":1,"result":{}}\n');
  const plain = explainRecording(recording);
  assert.equal(plain.length, 2);
  assert.match(plain[0]!, /^1 {2}→ client → server {2}1: ping {2}request `ping`/);
  assert.match(plain[1]!, /^2 {2}← server → client {2}1: result \(ping\) {2}result: `\{\}`/);
  const wire = explainRecording(recording, { wire: true });
  assert.equal(wire.length, 4);
  assert.equal(wire[1]!.trim(), '{"jsonrpc":"2.0","id":1,"method":"ping"}');
  assert.doesNotMatch(plain.join(""), /\x1b\[/);
  assert.match(explainRecording(recording, { color: true }).join(""), /\x1b\[36m→ client → server\x1b\[0m/);
});

test("explain: a batch line is one recorded line, noted as a batch, then each of its messages with its place in it", () => {
  const recording = parseRecording('-- session --\n> [{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]\n< [{"jsonrpc":"2.0","id":1,"result":{}}]\n');
  const [line, first, second, answer, answered, ...rest] = explainRecording(recording);
  assert.deepEqual(rest, []);
  assert.match(line!, /^1 .*batch of 2 {2}a JSON-RPC batch: several messages in one array/);
  assert.match(first!, /^ {5}1\.1 {2}1: ping {2}\S/);
  assert.match(second!, /^ {5}1\.2 {2}notifications\/initialized {2}\S/);
  assert.match(answer!, /^2 .*batch of 1/);
  assert.match(answered!, /^ {5}2\.1 {2}1: result \(ping\) {2}/, "the answer in a batch is matched to the request in a batch");
});

const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, "explain", ...args], { encoding: "utf8", timeout: 20_000 });

test("explain: the command line: prints on stdout, exit 0; bad input 1 and usage 2, said on stderr", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-explain-"));
  const file = join(dir, "short.recording");
  writeFileSync(file, SESSION);
  const ok = cli(file);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stdout.trimEnd().split("\n").length, 2 + parseRecording(SESSION).entries.length);
  const unknown = join(dir, "unknown.txt");
  writeFileSync(unknown, "hello\n");
  const deep = join(dir, "deep.recording");
  writeFileSync(deep, `-- session --\n> {"jsonrpc":"2.0","id":1,"method":"ping"}\n< {"jsonrpc":"2.0","id":1,"result":${"{\"a\":".repeat(5000)}1${"}".repeat(5000)}}\n`);
  const cases: { args: string[]; status: number; stderr: RegExp }[] = [
    { args: [unknown], status: 1, stderr: /unknown\.txt:1: expected "-- session --" or "-- client --"/ },
    { args: [join(dir, "missing")], status: 1, stderr: /cannot read the file \(ENOENT\)/ },
    { args: [deep], status: 1, stderr: /^mcp-wire explain: .*deep\.recording:3: a message nested deeper than 256 levels/ },
    { args: [], status: 2, stderr: /explain needs a recording FILE/ },
    { args: [file, file], status: 2, stderr: /explain takes one FILE, got 2/ },
  ];
  for (const c of cases) {
    const result = cli(...c.args);
    assert.equal(result.status, c.status, `${c.args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, c.stderr);
    assert.equal(result.stdout, "");
  }
  const help = cli("--help");
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: mcp-wire explain FILE/);
});

test("explain: a 2026-07-28 session: the envelope's note, an input_required round in the label, the retry's own note", () => {
  const file = join(ROOT, "fixtures/modern/sdk-v2-mrtr-elicitation.jsonl");
  const lines = explainRecording(parseRecording(readFileSync(file, "utf8"), file));
  assert.match(lines[0]!, /server\/discover .* _meta: the envelope/);
  assert.match(lines[3]!, /0: result \(tools\/call\), input_required {2}result, resultType input_required \(2026-07-28\)/);
  assert.match(lines[4]!, /1: tools\/call greet {2}request `tools\/call` again, under a new id/);
});

/** C0 (but the newline between lines), DEL and C1 controls: none may reach a terminal from a recording. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

test("explain: control characters from the recording (ANSI sequences, \\r, \\b, C1, bidi overrides) are shown as \\u escapes, never sent to the terminal", () => {
  const method = "\u001b[31mred\u001b[0m\r\b\u009b2J\u202eevil";
  const recording = parseRecording([
    "# a header with \u001b]0;title\u0007 in it",
    "-- session --",
    `> {"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)}}`,
    "> not json \u001b[2J\u0085",
    "",
  ].join("\n"));
  const lines = explainRecording(recording, { wire: true });
  for (const line of lines) assert.doesNotMatch(line, CONTROL, JSON.stringify(line));
  assert.match(lines[0]!, /a header with \\u001b\]0;title\\u0007 in it/);
  assert.ok(lines[1]!.includes("1: \\u001b[31mred\\u001b[0m\\u000d\\u0008\\u009b2J\\u202eevil"), lines[1]);
  assert.ok(lines[4]!.includes("not json \\u001b[2J\\u0085"), lines[4]);
  // Color, asked for, is the only escape sequence: ours.
  const colored = explainRecording(recording, { color: true }).join("\n");
  assert.doesNotMatch(colored.replace(/\u001b\[\d+m/g, ""), CONTROL);
});
