import { test } from "node:test";
import assert from "node:assert/strict";
import { LineDecoder, type Frame } from "../../src/jsonrpc/framing.js";

/** Feeds `input` in pieces cut at `cuts` (byte offsets) and collects every frame. */
function decode(input: Buffer, cuts: number[], options = {}): Frame[] {
  const decoder = new LineDecoder(options);
  const frames: Frame[] = [];
  let start = 0;
  for (const cut of [...cuts, input.length]) {
    frames.push(...decoder.push(input.subarray(start, cut)));
    start = cut;
  }
  return [...frames, ...decoder.end()];
}

const lines = (frames: Frame[]) => frames.map((f) => (f.kind === "line" ? f.text : f.kind));

test("framing: splits on \\n only, whatever the chunk boundaries", () => {
  const input = Buffer.from('{"a":1}\n{"b":"x\\ny"}\n{"c":3}\n');
  const expected = ['{"a":1}', '{"b":"x\\ny"}', '{"c":3}'];
  for (let cut = 0; cut <= input.length; cut++) assert.deepEqual(lines(decode(input, [cut])), expected, `cut at ${cut}`);
  assert.deepEqual(lines(decode(input, Array.from({ length: input.length }, (_, i) => i))), expected, "one byte at a time");
});

test("framing: tolerates \\r\\n and skips blank lines", () => {
  assert.deepEqual(lines(decode(Buffer.from('{"a":1}\r\n\r\n  \n{"b":2}\n'), [8])), ['{"a":1}', '{"b":2}']);
});

test("framing: a UTF-8 character split across chunks is decoded whole", () => {
  const input = Buffer.from('{"t":"héllo ☃ 😀"}\n');
  for (let cut = 1; cut < input.length; cut++) assert.deepEqual(lines(decode(input, [cut])), ['{"t":"héllo ☃ 😀"}']);
});

test("framing: invalid UTF-8 is reported, and the next line still decodes", () => {
  const input = Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n{"ok":1}\n')]);
  assert.deepEqual(lines(decode(input, [])), ["invalid-utf8", '{"ok":1}']);
});

test("framing: an unterminated last line is still a message at the end of input", () => {
  assert.deepEqual(lines(decode(Buffer.from('{"a":1}\n{"b":2}'), [])), ['{"a":1}', '{"b":2}']);
});

test("framing: an oversize line is dropped with its size, and the stream recovers at the next newline", () => {
  const big = `{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"x":"${"a".repeat(5000)}"}}`;
  const input = Buffer.from(`${big}\n{"ok":1}\n`);
  const frames = decode(input, [100, 2000, 4000], { maxMessageBytes: 1000 });
  assert.deepEqual(frames[0], { kind: "too-large", bytes: big.length, id: 41, looksLike: "request" });
  assert.deepEqual(lines(frames.slice(1)), ['{"ok":1}']);
});

test("framing: the id of an oversize request is found at its end too, or left unknown", () => {
  const tail = `{"method":"tools/call","params":{"x":"${"a".repeat(3000)}"},"jsonrpc":"2.0","id":"req-9"}\n`;
  assert.deepEqual(decode(Buffer.from(tail), [10], { maxMessageBytes: 100 })[0], { kind: "too-large", bytes: tail.length - 1, id: "req-9", looksLike: "request" });
  const nested = `{"method":"x","params":{"y":"${"a".repeat(3000)}","id":5}}\n`;
  assert.equal((decode(Buffer.from(nested), [], { maxMessageBytes: 100 })[0] as { id?: unknown }).id, undefined);
});

test("framing: an oversize line shows whether it is a request or a response by its first kind member", () => {
  const cases = [
    { line: `{"jsonrpc":"2.0","id":3,"result":{"content":[{"method":"x","text":"${"a".repeat(3000)}"}]}}`, id: 3, looksLike: "response" },
    { line: `{"jsonrpc":"2.0","id":4,"error":{"code":1,"message":"${"a".repeat(3000)}"}}`, id: 4, looksLike: "response" },
    { line: `{"jsonrpc":"2.0","id":5,"params":{"result":"${"a".repeat(3000)}"},"method":"x"}`, id: 5, looksLike: "request" },
    { line: `{"jsonrpc":"2.0","id":6,"x":"${"a".repeat(3000)}"}`, id: 6, looksLike: undefined },
  ];
  for (const c of cases) {
    const frame = decode(Buffer.from(c.line + "\n"), [], { maxMessageBytes: 100 })[0] as { id?: unknown; looksLike?: unknown };
    assert.equal(frame.id, c.id);
    assert.equal(frame.looksLike, c.looksLike, c.line.slice(0, 40));
  }
});

test("framing: a line exactly at the limit is accepted", () => {
  const line = `{"a":"${"x".repeat(92)}"}`;
  assert.equal(line.length, 100);
  assert.deepEqual(lines(decode(Buffer.from(line + "\n"), [], { maxMessageBytes: 100 })), [line]);
});


test("framing: a chunk of many lines gives the frames that feeding it a byte at a time gives, whatever its lines hold", () => {
  // Whole lines in one chunk are decoded together (LineDecoder.#wholeLines), unless some line may
  // be over the limit or some byte is not UTF-8: each of these must come out as line by line.
  const pieces = [
    Buffer.from('{"a":1}\r\n\n \t\r\n{"t":"héllo ☃ 😀"}\n'),
    Buffer.concat([Buffer.from('{"bad":"'), Buffer.from([0xc3]), Buffer.from('"}\n')]),
    Buffer.from(`{"jsonrpc":"2.0","id":7,"method":"x","params":{"p":"${"a".repeat(120)}"}}\n`),
    Buffer.from('{"b":2}\n\r\n{"c":3}'),
  ];
  for (const maxMessageBytes of [100, 1000]) {
    for (const input of [Buffer.concat(pieces), Buffer.concat(pieces.filter((_, i) => i !== 1))]) {
      const expected = decode(input, Array.from({ length: input.length }, (_, i) => i), { maxMessageBytes });
      assert.ok(expected.length >= 4);
      for (let cut = 0; cut <= input.length; cut++) assert.deepEqual(decode(input, [cut], { maxMessageBytes }), expected, `limit ${maxMessageBytes}, cut at ${cut}`);
    }
  }
});
