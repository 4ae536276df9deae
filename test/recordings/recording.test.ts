// The one reader of recordings (src/recordings/recording.ts): the three forms, what each keeps, and a
// clear error with the line for a recording that cannot be read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ArgumentSyntaxError, formatRecording, formatSession, headerLines, parseRecording, quoteArgument, RecordingFormatError, sessionLine, sessionLinePrefix, sessionNote, splitArguments } from "../../src/recordings/recording.js";

const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const ANSWER = '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}';

test("recording: the session form keeps both directions in wire order, with times, header fields and prose", () => {
  const text = [
    "# A session recorded by hand.",
    "# transport: stdio",
    "# command: node dist/server.js",
    "# protocol: 2025-11-25",
    "# ignore: /result/serverInfo/version",
    "# ignore: /result/content/0/text",
    "-- session --",
    `> +0 ${INIT}`,
    `< +4 ${ANSWER}`,
    "> not json at all",
    "",
  ].join("\n");
  const recording = parseRecording(text, "hand.recording");
  assert.equal(recording.form, "session");
  assert.equal(recording.header.transport, "stdio");
  assert.equal(recording.header.command, "node dist/server.js");
  assert.equal(recording.header.protocol, "2025-11-25");
  assert.deepEqual(recording.header.ignore, ["/result/serverInfo/version", "/result/content/0/text"]);
  assert.deepEqual(recording.entries.map((e) => [e.dir, e.at]), [["c2s", 0], ["s2c", 4], ["c2s", undefined]]);
  assert.equal((recording.entries[1]!.message as { id: number }).id, 1);
  assert.equal(recording.entries[2]!.message, undefined, "a line that is not JSON is kept, unparsed");
  assert.equal(recording.entries[2]!.text, "not json at all");
  // Written back, it reads the same.
  assert.deepEqual(parseRecording(formatSession(recording)), recording);
});

test("recording: JSON lines ({dir, msg}) as other recorders write them", () => {
  const text = `{"dir":"c2s","msg":${INIT}}\n{"dir":"s2c","msg":${ANSWER},"t":7}\n`;
  const recording = parseRecording(text);
  assert.equal(recording.form, "jsonl");
  assert.deepEqual(recording.entries.map((e) => [e.dir, e.at]), [["c2s", undefined], ["s2c", 7]]);
  assert.deepEqual(recording.entries[0]!.message, JSON.parse(INIT));
});

test("recording: every golden transcript and every recorded session reads, with both sides present", () => {
  const dirs = [fileURLToPath(new URL("../../fixtures/transcripts/", import.meta.url)), fileURLToPath(new URL("../../fixtures/recorded/", import.meta.url))];
  let read = 0;
  for (const dir of dirs) {
    const files = readdirSync(dir).filter((f) => f.endsWith(".transcript") || f.endsWith(".jsonl"));
    assert.ok(files.length >= 5, `${files.length} recordings at ${dir}`);
    for (const file of files) {
      const recording = parseRecording(readFileSync(dir + file, "utf8"), file);
      assert.ok(recording.entries.some((e) => e.dir === "c2s") && recording.entries.some((e) => e.dir === "s2c"), file);
      read++;
    }
  }
  assert.ok(read >= 20, `read ${read} recordings`);
});

test("recording: a golden transcript keeps its args and prose, the client's lines first", () => {
  const recording = parseRecording(["# Paging.", "# args: --page-size 2", "-- client --", INIT, "-- server --", ANSWER, ""].join("\n"));
  assert.equal(recording.form, "golden");
  assert.deepEqual(recording.header.args, ["--page-size", "2"]);
  assert.deepEqual(recording.header.lines, ["# Paging.", "# args: --page-size 2"]);
  assert.deepEqual(recording.entries.map((e) => e.dir), ["c2s", "s2c"]);
});

test("recording: what cannot be read is a RecordingFormatError naming the line", () => {
  const cases: [string, RegExp][] = [
    ["", /^r:1: the recording is empty$/],
    [`{"dir":"c2s","msg":${INIT}}\n{"dir":"s2c","msg":{"jsonrpc"`, /^r:2: not a JSON line \(a recording cut short\?\)$/],
    ['{"dir":"up","msg":{}}', /^r:1: each line must be/],
    ["# header\n-- middle --\n", /^r:2: expected "-- session --" or "-- client --"/],
    [`-- session --\n> ${INIT}\n? what`, /^r:3: a session line starts with/],
    [`-- client --\n${INIT}\n`, /needs "-- server --"/],
    ["# ignore: \n-- session --\n", /^r:1: "# ignore:" needs a JSON pointer that starts with "\/", got ""$/],
    ["# prose\n# ignore: result/x\n-- session --\n", /^r:2: "# ignore:" needs a JSON pointer/],
  ];
  for (const [text, why] of cases) {
    assert.throws(() => parseRecording(text, "r"), (error: unknown) => error instanceof RecordingFormatError && why.test(error.message), JSON.stringify(text.slice(0, 30)));
  }
});

test("recording: a new recording's header and lines, as record writes them", () => {
  const lines = headerLines({ transport: "http", url: "http://127.0.0.1:3000/mcp", ignore: ["/result/x"] });
  assert.deepEqual(lines, ["# transport: http", "# url: http://127.0.0.1:3000/mcp", "# ignore: /result/x"]);
  assert.equal(sessionLine("s2c", ANSWER, 12.4), `< +12 ${ANSWER}`);
  assert.equal(sessionLine("c2s", INIT), `> ${INIT}`);
  assert.equal(sessionLinePrefix("c2s", 3), "> +3 ");
});

test("recording: a note of the recorder's among the session lines is skipped by readers", () => {
  const note = sessionNote("> +5 a line of 300 bytes passed through,\nnot kept");
  assert.equal(note, "# > +5 a line of 300 bytes passed through, not kept");
  const recording = parseRecording(["-- session --", `> +0 ${INIT}`, note, `< +4 ${ANSWER}`, ""].join("\n"));
  assert.deepEqual(recording.entries.map((e) => e.dir), ["c2s", "s2c"]);
});

test("recording: a golden client line of blanks is kept (it was written to the server); empty lines only separate", () => {
  const recording = parseRecording(["# blanks", "-- client --", INIT, "   ", "", "-- server --", ANSWER, "  ", ""].join("\n"));
  assert.deepEqual(recording.entries.map((e) => [e.dir, e.text]), [["c2s", INIT], ["c2s", "   "], ["s2c", ANSWER]]);
});

test("recording: formatRecording writes each form back as it reads", () => {
  const golden = ["# a golden", "# args: --page-size 2", "-- client --", INIT, "-- server --", ANSWER, ""].join("\n");
  const session = ["# a session", "-- session --", `> +0 ${INIT}`, `< +3 ${ANSWER}`, ""].join("\n");
  const jsonl = `{"dir":"c2s","msg":${INIT},"t":0}\n{"dir":"s2c","msg":${ANSWER}}\n`;
  for (const text of [golden, session, jsonl]) assert.equal(formatRecording(parseRecording(text)), text);
});

/** A message whose params hold arrays `depth` levels deep. */
function nested(depth: number, id = 2): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"x":${"[".repeat(depth)}${"]".repeat(depth)}}}`;
}

test("recording: a message nested deeper than the bound is refused in every form, naming its line; the bound is an option", () => {
  const deep = nested(5000);
  const forms: [string, number][] = [
    [["-- session --", `> ${INIT}`, `< ${ANSWER}`, `> ${deep}`].join("\n"), 4],
    [["-- client --", INIT, deep, "-- server --", ANSWER].join("\n"), 3],
    [[JSON.stringify({ dir: "c2s", msg: JSON.parse(INIT) }), `{"dir":"c2s","msg":${deep}}`].join("\n"), 2],
  ];
  for (const [text, line] of forms) {
    assert.throws(() => parseRecording(text, "deep.recording"), (error: unknown) => {
      assert.ok(error instanceof RecordingFormatError);
      assert.equal(error.line, line);
      assert.match(error.message, /^deep\.recording:\d+: a message nested deeper than 256 levels/);
      return true;
    });
  }
  // Brackets inside strings do not count; the bound itself is allowed, in JSON lines too.
  assert.equal(parseRecording(["-- session --", `> {"jsonrpc":"2.0","method":"x","params":{"s":"${"[".repeat(5000)}"}}`].join("\n")).entries.length, 1);
  assert.equal(parseRecording(["-- session --", `> ${nested(254)}`].join("\n")).entries.length, 1);
  assert.equal(parseRecording(`{"dir":"c2s","msg":${nested(254)}}`).entries.length, 1);
  assert.throws(() => parseRecording(["-- session --", `> ${nested(255)}`].join("\n")), RecordingFormatError);
  assert.throws(() => parseRecording(["-- session --", `> ${nested(10)}`].join("\n"), "r", { maxNesting: 8 }), /nested deeper than 8 levels/);
  assert.equal(parseRecording(["-- session --", `> ${nested(1000)}`].join("\n"), "r", { maxNesting: 1002 }).entries.length, 1);
});

test("recording: a \\r before a message line's \\n is the wire's and is kept; a file saved with CRLF line endings loses them; a raw U+2028 stays in its line", () => {
  const wire = ["-- session --", `> +0 ${INIT}\r`, `< +3 ${ANSWER}`, '> {"jsonrpc":"2.0","method":"x","params":{"s":"a\u2028b"}}', ""].join("\n");
  const recording = parseRecording(wire);
  assert.deepEqual(recording.entries.map((entry) => entry.text.endsWith("\r")), [true, false, false]);
  assert.deepEqual(recording.entries[0]!.message, JSON.parse(INIT));
  assert.deepEqual(recording.entries[2]!.message, { jsonrpc: "2.0", method: "x", params: { s: "a\u2028b" } });
  assert.equal(formatSession(recording), wire, "written back byte for byte");
  const saved = ["# saved by an editor", "-- session --", `> ${INIT}`, `< ${ANSWER}`, ""].join("\r\n");
  const edited = parseRecording(saved);
  assert.deepEqual(edited.entries.map((entry) => entry.text), [INIT, ANSWER]);
  assert.deepEqual(edited.header.lines, ["# saved by an editor"]);
});

test("recording: quoteArgument and splitArguments round-trip a command line, whatever its arguments hold", () => {
  const cases: string[][] = [
    ["node", "dist/server.js", "--port=3000", "a@b%c+d:e,f"],
    ["node", "my server.js", "two  spaces", " lead", "trail "],
    ["echo", 'say "hi"', "it's", '"', '\\', "C:\\Program Files\\x", 'back\\"slash'],
    ["", "x", "", ""],
    ["héllo", "日本語", "emoji 🙂", "\u202e bidi", "tab\there", "new\nline", "\u2028"],
  ];
  for (const args of cases) {
    const line = args.map(quoteArgument).join(" ");
    assert.ok(!line.includes("\n"), `one line: ${line}`);
    assert.deepEqual(splitArguments(line), args, line);
  }
  // Plain words stay bare, so a recorded command reads as it was typed.
  assert.equal(["node", "dist/server.js", "--http"].map(quoteArgument).join(" "), "node dist/server.js --http");
  assert.equal(quoteArgument("a b"), '"a b"');
  assert.equal(quoteArgument(""), '""');
  assert.throws(() => splitArguments('node "\\q"'), ArgumentSyntaxError);
});

test('recording: "# args:" reads quoted words as "# command:" does; a quoted word that is not JSON is an error naming the line', () => {
  const golden = (args: string) => ["# a golden", `# args: ${args}`, "-- client --", INIT, "-- server --", ANSWER, ""].join("\n");
  assert.deepEqual(parseRecording(golden('--name "two words" --empty ""')).header.args, ["--name", "two words", "--empty", ""]);
  assert.deepEqual(parseRecording(golden("--page-size 2")).header.args, ["--page-size", "2"]);
  assert.throws(() => parseRecording(golden('--bad "\\x"'), "f.transcript"), (error: unknown) =>
    error instanceof RecordingFormatError && /^f\.transcript:2: "# args:" cannot read the quoted word/.test(error.message));
});
