// What sniff reads from the first and last bytes of a message that could not be parsed whole: its
// id (only when it stands first or last, and only an id that could be echoed exactly) and whether it
// is a request or a response (https://www.jsonrpc.org/specification: "method" vs "result"/"error").
// Anything it cannot tell for sure must stay unknown rather than guessed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EDGE_BYTES, sniff, sniffText, type Sniffed } from "../../src/jsonrpc/sniff.js";

// Each case is the head and tail of a message cut in the middle, as the framing hands them over.
const ids: { name: string; head: string; tail?: string; id: Sniffed["id"] }[] = [
  { name: "an integer id as the first member", head: '{"id":7,"method":"x","params":{"a":"', id: 7 },
  { name: "an id right after jsonrpc", head: '{"jsonrpc":"2.0","id":41,"method":"x"', id: 41 },
  { name: "an id with whitespace around", head: ' \t{ "jsonrpc" : "2.0" , "id" : -3 , "method"', id: -3 },
  { name: "a string id", head: '{"id":"req-9","method":"x"', id: "req-9" },
  { name: "a string id with escapes", head: String.raw`{"id":"a\"b\\c","method":"x"`, id: 'a"b\\c' },
  { name: "the largest safe integer", head: '{"id":9007199254740991,"method":"x"', id: 9007199254740991 },
  { name: "an id as the last member", head: '{"method":"x","params":{"a":"', tail: 'zzz"},"jsonrpc":"2.0","id":"last"}', id: "last" },
  { name: "an integer id as the last member, then whitespace", head: '{"method":"x"', tail: '"b"}, "id" : 12 }  ', id: 12 },
  { name: "the head's id, when both edges show one", head: '{"id":1,"method":"x"', tail: '"id":2}', id: 1 },
  // Not first or last: the id inside a nested object is not the message's.
  { name: "an id nested at the end of params", head: '{"method":"x","params":{"a":"', tail: '","id":5}}', id: undefined },
  { name: "an id nested at the start of params", head: '{"params":{"id":5},"method":"x"', id: undefined },
  { name: "an id in the middle only", head: '{"method":"x","id":5,"params":{"a":"', tail: 'zz"}}', id: undefined },
  // Ids that could not be echoed exactly (see readableId in messages.ts) are not read at all.
  { name: "a fractional id", head: '{"id":1.5,"method":"x"', id: undefined },
  { name: "an exponent id", head: '{"id":1e3,"method":"x"', id: undefined },
  { name: "an integer beyond the safe range", head: '{"id":9007199254740993,"method":"x"', id: undefined },
  { name: "an integer of more digits than are read", head: '{"id":12345678901234567,"method":"x"', id: undefined },
  { name: "a fractional id at the end", head: '{"method":"x"', tail: ',"id":1.5}', id: undefined },
  { name: "a null id", head: '{"id":null,"method":"x"', id: undefined },
  { name: "an object id", head: '{"id":{"a":1},"method":"x"', id: undefined },
  { name: "a string id too long to read", head: `{"id":"${"k".repeat(201)}","method":"x"`, id: undefined },
  { name: "a string id cut off by the edge", head: '{"id":"abc', id: undefined },
];
for (const c of ids) {
  test(`sniff: id of ${c.name}`, () => {
    assert.deepEqual(sniff(c.head, c.tail ?? "").id, c.id);
  });
}

const kinds: { name: string; head: string; tail?: string; looksLike: Sniffed["looksLike"] }[] = [
  { name: "a method member", head: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{', looksLike: "request" },
  { name: "a result member", head: '{"jsonrpc":"2.0","id":1,"result":{"content":[', looksLike: "response" },
  { name: "an error member", head: '{"jsonrpc":"2.0","id":1,"error":{"code":-1,', looksLike: "response" },
  { name: "a notification (no id)", head: '{"jsonrpc":"2.0","method":"notifications/message","params":{', looksLike: "request" },
  { name: "the first kind member deciding", head: '{"result":{},"method":"x"', looksLike: "response" },
  { name: "a nested method in a result", head: '{"id":3,"result":{"content":[{"method":"x"}]', looksLike: "response" },
  { name: "a nested result in params, then method", head: '{"id":5,"params":{"result":"a"},"method":"x"', looksLike: "request" },
  { name: "a nested error only", head: '{"id":5,"params":{"error":{"code":1}},"x":', looksLike: undefined },
  { name: "a kind name as a string value", head: '{"id":5,"x":"method","y":"result"', looksLike: undefined },
  { name: "braces and quotes inside a string value", head: String.raw`{"x":"}}\"{","result":{}`, looksLike: "response" },
  { name: "a kind member inside a batch", head: '[{"jsonrpc":"2.0","id":1,"method":"x"}', looksLike: undefined },
  { name: "a method member at the very end", head: '{"params":{"a":"', tail: 'zz"},"method":"tools/call"}', looksLike: "request" },
  { name: "a method followed by id and jsonrpc", head: '{"params":{"a":"', tail: '"},"method":"x","id":"r1","jsonrpc":"2.0"}', looksLike: "request" },
  { name: "a result at the very end", head: '{"id":1,"x":{"a":"', tail: 'zz"},"result":{}}', looksLike: undefined },
  { name: "a method at the end of params", head: '{"id":1,"params":{"a":"', tail: 'zz","method":"x"}}', looksLike: undefined },
  { name: "no kind member anywhere", head: '{"jsonrpc":"2.0","id":6,"x":"', tail: 'aaaa"}', looksLike: undefined },
  { name: "text that is not JSON", head: "hello there", tail: "hello there", looksLike: undefined },
];
for (const c of kinds) {
  test(`sniff: kind of ${c.name}`, () => {
    assert.equal(sniff(c.head, c.tail ?? "").looksLike, c.looksLike);
  });
}

test("sniff: what is unknown is left out, not set to undefined", () => {
  assert.deepEqual(sniff("garbage", "garbage"), {});
  assert.deepEqual(Object.keys(sniff('{"id":1,', "")), ["id"]);
});

test("sniffText: a whole text that failed to parse is read at both ends", () => {
  assert.deepEqual(sniffText('{"jsonrpc":"2.0","id":4,"result":{"content":['), { id: 4, looksLike: "response" });
  assert.deepEqual(sniffText(`{"method":"x","params":{"p":"${"a".repeat(3 * EDGE_BYTES)}"},"id":"tail"}`), { id: "tail", looksLike: "request" });
});

test(`sniffText: nothing beyond the first and last ${EDGE_BYTES} characters is looked at`, () => {
  const padding = "a".repeat(EDGE_BYTES);
  // The kind member sits past the head's edge and before the tail's: only the id at the end shows.
  const hidden = `{"jsonrpc":"2.0","p":"${padding}","result":{},"q":"${padding}","id":9}`;
  assert.deepEqual(sniffText(hidden), { id: 9 });
  // The same members without the padding, all within the edges, show the kind as well.
  assert.deepEqual(sniffText(`{"jsonrpc":"2.0","p":"","result":{},"q":"","id":9}`), { id: 9, looksLike: "response" });
});
