// What `mcp-wire record` keeps (src/recordings/record-file.ts): lines cut from a byte stream wherever its
// chunks break, within a bound, and the session file written a line at a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LineCutter, SessionFile } from "../../src/recordings/record-file.js";
import { parseRecording } from "../../src/recordings/recording.js";

function cut(chunks: Buffer[], maxLineBytes = 1000): string[] {
  const got: string[] = [];
  const cutter = new LineCutter(maxLineBytes, (bytes, start, end) => got.push(bytes.toString("utf8", start, end)), (bytes) => got.push(`<${bytes} bytes>`));
  for (const chunk of chunks) cutter.push(chunk);
  cutter.end();
  return got;
}

test("record file: the same lines wherever the chunks break (a multi-byte character split too)", () => {
  const bytes = Buffer.from('{"a":1}\r\n\n{"b":"é€"}\nno newline');
  // A "\r" before the newline stays: the recording keeps the wire's bytes, and its reader drops it.
  const expected = ['{"a":1}\r', "", '{"b":"é€"}', "no newline"];
  for (let at = 0; at <= bytes.length; at++) {
    assert.deepEqual(cut([bytes.subarray(0, at), bytes.subarray(at)]), expected, `cut at ${at}`);
  }
  assert.deepEqual(cut([...bytes].map((byte) => Buffer.from([byte]))), expected, "a byte at a time");
});

test("record file: a line over the bound is reported by its length, within one chunk or across many, and the next line is whole", () => {
  const long = "x".repeat(25);
  assert.deepEqual(cut([Buffer.from(`${long}\nok\n`)], 10), ["<25 bytes>", "ok"]);
  const pieces = Buffer.from(`${long}\nok\n`);
  assert.deepEqual(cut([pieces.subarray(0, 4), pieces.subarray(4, 15), pieces.subarray(15)], 10), ["<25 bytes>", "ok"]);
  assert.deepEqual(cut([Buffer.from(long)], 10), ["<25 bytes>"], "cut short by the end of the stream");
  assert.deepEqual(cut([Buffer.from("x".repeat(10) + "\n")], 10), ["x".repeat(10)], "exactly at the bound is kept");
});

test("record file: the header, then each line with its time and bytes as they came, readable as a session recording once flushed", () => {
  const path = join(mkdtempSync(join(tmpdir(), "mcp-wire-record-file-")), "s.recording");
  const file = new SessionFile(path, { transport: "stdio", command: "node server.js" });
  file.line("c2s", Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
  file.line("c2s", Buffer.from([0x7b, 0xff, 0x7d]));
  file.flush();
  // Read before close: what a crash would leave.
  const early = parseRecording(readFileSync(path, "utf8"));
  assert.deepEqual(early.entries.map((e) => e.text), ['{"jsonrpc":"2.0","id":1,"method":"ping"}', "{\uFFFD}"]);
  file.note("a note");
  file.line("s2c", Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}'));
  file.close();
  const recording = parseRecording(readFileSync(path, "utf8"));
  assert.equal(recording.header.command, "node server.js");
  assert.deepEqual(recording.entries.map((e) => [e.dir, typeof e.at]), [["c2s", "number"], ["c2s", "number"], ["s2c", "number"]]);
  assert.match(readFileSync(path, "utf8"), /^# a note$/m);
});

test("record file: lines of every length (a range of a chunk, past the short-copy size, past the buffer) land byte for byte, and what follows a long line is whole", () => {
  const path = join(mkdtempSync(join(tmpdir(), "mcp-wire-record-file-")), "s.recording");
  const file = new SessionFile(path, { transport: "stdio" });
  const chunk = Buffer.from("junk{\"a\":1}more");
  const lines = ["x".repeat(255), "y".repeat(257), "z".repeat(300 * 1024), "after"];
  file.record(() => {
    file.line("c2s", chunk, 4, 11);
    for (const line of lines) file.line("s2c", Buffer.from(line));
  });
  // Recorded again after the 300 KiB line: the buffer it grew for is not reused half-written.
  file.record(() => file.line("c2s", chunk, 4, 11));
  file.close();
  const text = readFileSync(path, "utf8");
  const session = text.slice(text.indexOf("-- session --\n") + "-- session --\n".length);
  // One chunk's lines share one time; the prefix is the only thing added to the wire's bytes.
  const at = /^> \+(\d+) /.exec(session)![1];
  const expected = [`> +${at} {"a":1}`, ...lines.map((line) => `< +${at} ${line}`)].join("\n") + "\n";
  assert.equal(session.slice(0, expected.length), expected);
  assert.match(session.slice(expected.length), /^> \+\d+ \{"a":1\}\n$/);
});
