// `mcp-wire diagram` (src/recordings/diagram*.ts): one arrow per recorded line in both formats, the
// Mermaid text in the grammar we emit (read back by a parser of our own line shapes), the SVG
// well-formed XML (a small strict checker, itself tested), labels escaped, the command line's codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI } from "../cli/program.js";
import { mermaidDiagram } from "../../src/recordings/diagram-mermaid.js";
import { svgDiagram } from "../../src/recordings/diagram-svg.js";
import { describeRecording } from "../../src/recordings/explain-messages.js";
import { parseRecording, type Recording } from "../../src/recordings/recording.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RECORDED = join(ROOT, "fixtures/recorded");

/** Every real recording we have: the recorded sessions (fixtures/recorded/) and the client goldens. */
function realRecordings(): { name: string; recording: Recording }[] {
  const files = readdirSync(join(ROOT, "fixtures/client-transcripts")).map((name) => join(ROOT, "fixtures/client-transcripts", name));
  // And the golden of batches (one empty, one with an item that is no message), to count their arrows.
  files.push(join(ROOT, "fixtures/transcripts/batch-2025-03-26.transcript"));
  files.push(...readdirSync(RECORDED).filter((name) => name.endsWith(".jsonl")).map((name) => join(RECORDED, name)));
  return files.map((file) => ({ name: file, recording: parseRecording(readFileSync(file, "utf8"), file) }));
}

const HOSTILE = 'odd <b>&"name\'; #x';
/** A session with one of every kind of line, and a label that needs escaping in both formats. */
const MIXED = parseRecording([
  "-- session --",
  `> +0 {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(HOSTILE)}}}`,
  `< +3 {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`,
  `< +5 {"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`,
  `> +6 {"jsonrpc":"2.0","id":2,"method":"ping"}`,
  `< +7 {"jsonrpc":"2.0","id":2,"result":{}}`,
  `> +8 {"jsonrpc":"1.0","id":3,"method":"ping"}`,
  `> +9 this is not json`,
  `> +10 [{"jsonrpc":"2.0","id":4,"method":"ping"}]`,
  "",
].join("\n"));

/** The direction of each message in a recording, a batch's messages each (an empty batch is one line, drawn as one). */
function messagesOf(recording: Recording): string[] {
  return recording.entries.flatMap((entry) => (Array.isArray(entry.message) && entry.message.length > 0 ? entry.message.map(() => entry.dir) : [entry.dir]));
}

/** Our Mermaid output, read back: every line must be one of the shapes mermaidDiagram writes. */
function parseMermaid(text: string): { from: string; arrow: string; to: string; label: string }[] {
  const lines = text.trimEnd().split("\n");
  assert.equal(lines[0], "sequenceDiagram");
  assert.equal(lines[1], "    participant C as Client");
  assert.equal(lines[2], "    participant S as Server");
  const note = /^    Note over C,S: (.+)$/.exec(lines[3] ?? "");
  if (note) assert.doesNotMatch(note[1]!.replace(/#\d+;/g, ""), /[#;<>&"]/, `unescaped note: ${lines[3]}`);
  // A batch: a shaded block, headed by its size, around its messages' arrows (at least one).
  const body = lines.slice(note ? 4 : 3).join("\n").replace(/    rect rgb\(238, 243, 251\)\n    Note over C,S: batch of (\d+)\n((?:    [CS][^\n]*\n)+?)    end(?:\n|$)/g, (_, size: string, arrows: string) => {
    assert.equal(arrows.split("\n").length - 1, Number(size), `a batch of ${size} draws ${size} arrows`);
    return arrows;
  });
  return body.split("\n").filter((line) => line !== "").map((line) => {
    const match = /^    ([CS])(->>|-->>|-x|--x)([CS]): (.+)$/.exec(line);
    assert.ok(match, `not a message line of ours: ${line}`);
    assert.notEqual(match[1], match[3], "an arrow goes from one participant to the other");
    // Mermaid ends a statement at ";" and reads "#...;" as an entity: only entities may use them,
    // and the text is HTML, so no raw markup characters either.
    assert.doesNotMatch(match[4]!.replace(/#\d+;/g, ""), /[#;<>&"]/, `unescaped text: ${line}`);
    return { from: match[1]!, arrow: match[2]!, to: match[3]!, label: match[4]! };
  });
}

/** Undoes Mermaid's decimal entity codes, to compare a label with what it stands for. */
const unentity = (text: string) => text.replace(/#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)));

/**
 * A strict well-formedness check for the XML we write (no DTD, no CDATA, no comments): one root
 * element, tags balanced and properly nested, attributes double-quoted, and in text and attribute
 * values no "<" and no "&" that does not start an entity. Returns the element names, in order.
 */
function checkXml(xml: string): string[] {
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, "");
  // Every position starts a tag, text, or a stray "<", so the scan always reaches the end.
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/gy;
  const stack: string[] = [];
  const elements: string[] = [];
  let roots = 0;
  const checkEntities = (text: string) => assert.doesNotMatch(text, /&(?!#\d+;|amp;|lt;|gt;|quot;|apos;)/, `a bare "&" in ${JSON.stringify(text.slice(0, 60))}`);
  for (let match = token.exec(body); match; match = token.exec(body)) {
    const [, closing, name, attributes, selfClosing, text, stray] = match;
    if (stray) assert.fail(`a "<" that starts no tag at ${match.index}: ${JSON.stringify(body.slice(match.index, match.index + 40))}`);
    if (text !== undefined) {
      if (stack.length === 0) assert.match(text, /^\s*$/, "text outside the root element");
      checkEntities(text);
      continue;
    }
    checkEntities(attributes!);
    if (closing) {
      assert.equal(stack.pop(), name, `</${name}> closes another element`);
      continue;
    }
    if (stack.length === 0) roots++;
    elements.push(name!);
    if (!selfClosing) stack.push(name!);
  }
  assert.deepEqual(stack, [], "elements left open");
  assert.equal(roots, 1, "exactly one root element");
  return elements;
}

test("diagram: the XML checker itself rejects what is not well-formed", () => {
  assert.doesNotThrow(() => checkXml('<a x="1"><b/>t &amp; &#60;</a>'));
  for (const bad of ["<a><b></a></b>", "<a>x & y</a>", '<a x="<"></a>', "<a>", "<a></a><b></b>", "<a>1 < 2</a>", "<a x=1></a>"]) {
    assert.throws(() => checkXml(bad), assert.AssertionError, bad);
  }
});

for (const { name, recording } of realRecordings()) {
  test(`diagram: ${name.slice(ROOT.length - 1)}: one arrow per message, in both formats`, () => {
    const messages = describeRecording(recording);
    const arrows = parseMermaid(mermaidDiagram(messages, "a note"));
    const sent = messagesOf(recording);
    assert.equal(arrows.length, sent.length);
    arrows.forEach((arrow, i) => assert.equal(arrow.from, sent[i] === "c2s" ? "C" : "S"));
    const svg = svgDiagram(messages, { note: "a note" });
    const elements = checkXml(svg);
    assert.equal(elements[0], "svg");
    assert.equal(svg.match(/<line class="arrow"/g)?.length, sent.length);
  });
}

test("diagram: Mermaid arrows: requests and results solid, notifications dotted, errors and non-JSON-RPC crossed", () => {
  const arrows = parseMermaid(mermaidDiagram(describeRecording(MIXED)));
  assert.deepEqual(arrows.map((a) => `${a.from}${a.arrow}${a.to}`), ["C->>S", "S-->>C", "S-xC", "C->>S", "S->>C", "C--xS", "C--xS", "C->>S"]);
  assert.deepEqual(arrows.map((a) => unentity(a.label)), [
    `1: tools/call ${HOSTILE}`, "notifications/progress", "1: error -32602 (tools/call)", "2: ping", "2: result (ping)", "not JSON-RPC", "not JSON", "4: ping",
  ]);
  assert.ok(arrows[0]!.label.includes("#60;b#62;#38;#34;name'#59; #35;x"), arrows[0]!.label);
});

test("diagram: a batch is drawn one arrow per message, grouped as one batch (Mermaid: a shaded block; SVG: a band), its answers matched to its requests; an empty batch is one crossed arrow", () => {
  const recording = parseRecording([
    "-- session --",
    '> +1 [{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]',
    '< +2 [{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}]',
    "> +3 []",
    "",
  ].join("\n"));
  const messages = describeRecording(recording);
  const mermaid = mermaidDiagram(messages);
  const arrows = parseMermaid(mermaid);
  assert.deepEqual(arrows.map((a) => `${a.from}${a.arrow}${a.to} ${unentity(a.label)}`), [
    "C->>S 1: ping", "C-->>S notifications/initialized", "C->>S 2: tools/list", "S->>C 1: result (ping)", "S-xC 2: error -32601 (tools/list)", "C--xS empty batch",
  ]);
  assert.deepEqual(mermaid.match(/Note over C,S: batch of \d+/g), ["Note over C,S: batch of 3", "Note over C,S: batch of 2"]);
  const svg = svgDiagram(messages);
  checkXml(svg);
  assert.equal(svg.match(/<line class="arrow"/g)?.length, 6);
  assert.deepEqual(svg.match(/>batch of \d+</g), [">batch of 3<", ">batch of 2<"]);
  assert.deepEqual(svg.match(/fill="#777">[^<]*</g)?.map((t) => t.slice(12, -1)), ["1.1 +1 ms", "1.2 +1 ms", "1.3 +1 ms", "2.1 +2 ms", "2.2 +2 ms", "3 +3 ms"]);
});

test("diagram: SVG: notifications dashed, errors red, markup in labels escaped, times at the left", () => {
  const svg = svgDiagram(describeRecording(MIXED), { title: "a <title> & more" });
  checkXml(svg);
  const groups = svg.split("\n").filter((line) => line.startsWith('<g class="message'));
  assert.equal(groups.length, MIXED.entries.length);
  const arrowOf = (group: string) => /<line class="arrow"[^>]*>/.exec(group)![0];
  assert.match(groups[0]!, /^<g class="message request">/);
  assert.doesNotMatch(arrowOf(groups[0]!), /dasharray|c62828/);
  assert.match(arrowOf(groups[1]!), /stroke-dasharray/, "a notification is dashed");
  assert.match(arrowOf(groups[2]!), /stroke="#c62828"/, "an error is red");
  assert.match(groups[2]!, /fill="#c62828" font-weight="bold">1: error -32602 \(tools\/call\)</);
  assert.doesNotMatch(arrowOf(groups[4]!), /c62828/, "a result is not");
  assert.match(arrowOf(groups[6]!), /stroke="#c62828"/, "a line that is not JSON is red");
  assert.ok(groups[0]!.includes("odd &#60;b&#62;&#38;&#34;name&#39;; #x"), groups[0]);
  assert.match(groups[2]!, />3 \+5 ms</);
  assert.ok(svg.includes("<title>a &#60;title&#62; &#38; more</title>"));
});

test("diagram: SVG: a long session grows taller; a long label is cut, its full text in the <title>", () => {
  const long = "x".repeat(200);
  const lines = ["-- session --"];
  for (let i = 0; i < 100; i++) lines.push(`> {"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"${long}"}}`);
  const messages = describeRecording(parseRecording(lines.join("\n")));
  const height = (svg: string) => Number(/<svg [^>]*height="(\d+)"/.exec(svg)![1]);
  const small = svgDiagram(messages.slice(0, 10));
  const big = svgDiagram(messages);
  assert.ok(height(big) >= height(small) + 90 * 20, `${height(small)} -> ${height(big)}`);
  checkXml(big);
  const group = big.split("\n").find((line) => line.startsWith('<g class="message'))!;
  const shown = /text-anchor="middle"[^>]*>([^<]*)</.exec(group)![1]!;
  assert.ok(shown.endsWith("…") && shown.length < 80, shown);
  assert.ok(/<title>[^<]*<\/title>/.exec(group)![0].includes(long), "the full label is in the title");
});

test("diagram: SVG: a control character or a character beyond the BMP in a label stays well-formed", () => {
  const name = "\u0001bell\u0007" + "😀".repeat(80);
  const recording = parseRecording(`-- session --\n> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)}}}\n`);
  const svg = svgDiagram(describeRecording(recording));
  checkXml(svg);
  assert.doesNotMatch(svg, /[\u0001\u0007]/);
  assert.doesNotMatch(svg, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/, "no lone surrogate");
});

test("diagram: control characters (ANSI sequences, \\r, \\b, C1, bidi overrides) are shown as \\u escapes in both formats; the SVG stays well-formed", () => {
  const name = "\u001b[31mred\r\b\u009b\u202e";
  const recording = parseRecording(`-- session --\n> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)}}}\n> raw \u001b[2J\u0085 \ud83d line\n`);
  const messages = describeRecording(recording);
  const svg = svgDiagram(messages, { title: "t\u001b", note: "n\u0008" });
  checkXml(svg);
  assert.doesNotMatch(svg, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  assert.ok(svg.includes("\\u001b[31mred\\u000d\\u0008\\u009b\\u202e"), svg);
  const mermaid = mermaidDiagram(messages);
  assert.doesNotMatch(mermaid, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]|#(?:27|13|8|155|8238);/);
  assert.ok(unentity(parseMermaid(mermaid)[0]!.label).includes("\\u001b[31mred\\u000d\\u0008\\u009b\\u202e"), mermaid);
});

test("diagram: a tool's isError result is amber in the SVG (a failed tool, not a failed protocol)", () => {
  const recording = parseRecording([
    "-- session --",
    '> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}',
    '< {"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}',
  ].join("\n"));
  const svg = svgDiagram(describeRecording(recording));
  const groups = svg.split("\n").filter((line) => line.startsWith('<g class="message'));
  assert.match(groups[1]!, /<line class="arrow"[^>]*stroke="#a15c00"[^>]*marker-end="url\(#isError\)"/);
  assert.match(groups[1]!, />1: result \(tools\/call\), isError</);
  assert.doesNotMatch(groups[0]!, /a15c00/);
});

const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, "diagram", ...args], { encoding: "utf8", timeout: 20_000 });

test("diagram: the command line: mermaid on stdout by default, svg to --out, bad input and usage with their codes", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-diagram-"));
  const file = join(dir, "mixed.recording");
  writeFileSync(file, ["-- session --", ...MIXED.entries.map((e) => `${e.dir === "c2s" ? ">" : "<"} ${e.text}`)].join("\n"));
  const mermaid = cli(file);
  assert.equal(mermaid.status, 0, mermaid.stderr);
  assert.equal(parseMermaid(mermaid.stdout).length, MIXED.entries.length);
  const out = join(dir, "mixed.svg");
  const svg = cli(file, "--format", "svg", "--out", out);
  assert.equal(svg.status, 0, svg.stderr);
  assert.equal(svg.stdout, "", "with --out, nothing on stdout");
  assert.equal(readFileSync(out, "utf8").match(/<line class="arrow"/g)?.length, MIXED.entries.length);

  // A golden transcript says, in both formats, that it keeps each side's order only.
  const golden = join(ROOT, "fixtures/transcripts/ids.transcript");
  assert.match(cli(golden).stdout.split("\n")[3]!, /^    Note over C,S: a golden transcript keeps each side's order only/);
  assert.match(cli(golden, "--format", "svg").stdout, /font-style="italic">a golden transcript keeps each side&#39;s order only/);

  const corrupt = join(dir, "corrupt.jsonl");
  writeFileSync(corrupt, '{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}\n{"dir":"s2c","msg":{"jsonrp');
  const deep = join(dir, "deep.jsonl");
  writeFileSync(deep, `{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${"[".repeat(5000)}${"]".repeat(5000)}}}}\n`);
  const cases: { args: string[]; status: number; stderr: RegExp }[] = [
    { args: [corrupt], status: 1, stderr: /corrupt\.jsonl:2: not a JSON line/ },
    { args: [deep, "--format", "svg"], status: 1, stderr: /^mcp-wire diagram: .*deep\.jsonl:1: a message nested deeper than 256 levels/ },
    { args: [join(dir, "missing")], status: 1, stderr: /missing: cannot read the file \(ENOENT\)/ },
    { args: [file, "--out", join(dir, "no-such-dir", "x.svg")], status: 1, stderr: /cannot write .*no-such-dir/ },
    { args: [file, "--format", "png"], status: 2, stderr: /--format must be mermaid or svg/ },
    { args: [], status: 2, stderr: /needs a recording FILE/ },
    { args: [file, "--bogus"], status: 2, stderr: /bogus/ },
  ];
  for (const c of cases) {
    const result = cli(...c.args);
    assert.equal(result.status, c.status, `${c.args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, c.stderr);
    assert.equal(result.stdout, "");
  }
});

test("diagram: the README's SVG (fixtures/recordings/diagram/) is what diagram draws from its recording today", () => {
  const source = join(RECORDED, "sdk-client-vs-server-everything.jsonl");
  const text = readFileSync(source, "utf8");
  const drawn = svgDiagram(describeRecording(parseRecording(text, source)), { title: "MCP session: sdk-client-vs-server-everything.jsonl" });
  assert.equal(readFileSync(join(ROOT, "fixtures/recordings/diagram/sdk-client-vs-server-everything.svg"), "utf8"), drawn, "regenerate it: mcp-wire diagram fixtures/recorded/sdk-client-vs-server-everything.jsonl --format svg --out fixtures/recordings/diagram/sdk-client-vs-server-everything.svg");
});
