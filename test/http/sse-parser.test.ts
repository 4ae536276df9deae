// The client's SSE parser: each case is fed whole, cut at every position, and one character at a
// time, and must give the same events, last event id and retry every way.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readEvents, SseLimitError, SseParser, type ReceivedEvent } from "../../src/http/sse-parser.js";

interface Case { name: string; input: string; events: ReceivedEvent[]; lastEventId?: string; retry?: number }

const message = (data: string): ReceivedEvent => ({ event: "message", data });

const cases: Case[] = [
  { name: "one unnamed event", input: 'data: {"a":1}\n\n', events: [message('{"a":1}')] },
  { name: "data lines joined with \\n", input: "data: one\ndata:two\ndata:  three\n\n", events: [message("one\ntwo\n three")] },
  { name: "CRLF and lone CR line ends", input: "data: a\r\n\r\ndata: b\r\rdata: c\n\r\n", events: [message("a"), message("b"), message("c")] },
  { name: "comments (keep-alives) are skipped", input: ": keep-alive\n\n: x\ndata: y\n\n", events: [message("y")] },
  { name: "a named event", input: "event: endpoint\ndata: /messages?sessionId=1\n\n", events: [{ event: "endpoint", data: "/messages?sessionId=1" }] },
  { name: "a priming event: an id, retry, empty data", input: "id: p1:1\nretry: 500\ndata: \n\n", events: [message("")], lastEventId: "p1:1", retry: 500 },
  { name: "an id without data still moves the cursor", input: "data: x\nid: 7\n\nid: 8\n\n", events: [message("x")], lastEventId: "8" },
  { name: "an event cut off by the end is not dispatched, nor is its id taken", input: "id: 1\ndata: a\n\nid: 2\ndata: b\n", events: [message("a")], lastEventId: "1" },
  { name: "a bad retry is ignored; a field without a colon is a name with no value", input: "retry: soon\ndata\n\n", events: [message("")] },
  { name: "unknown fields are ignored, an id with NUL too", input: "foo: bar\nid: a\0b\ndata: z\n\n", events: [message("z")] },
  { name: "multi-byte characters", input: 'data: {"t":"héllo ✓ 🎉"}\n\n', events: [message('{"t":"héllo ✓ 🎉"}')] },
];

function run(chunks: string[]) {
  const parser = new SseParser();
  const events = chunks.flatMap((chunk) => parser.push(chunk));
  return { events, lastEventId: parser.lastEventId, retry: parser.retry };
}

for (const c of cases) {
  test(`sse parser: ${c.name}`, () => {
    const expected = { events: c.events, lastEventId: c.lastEventId, retry: c.retry };
    assert.deepEqual(run([c.input]), expected, "whole");
    for (let at = 0; at <= c.input.length; at++) assert.deepEqual(run([c.input.slice(0, at), c.input.slice(at)]), expected, `cut at ${at}`);
    assert.deepEqual(run([...c.input]), expected, "one character at a time");
  });
}

test("sse parser: readEvents decodes bytes split inside a character, and stops when asked", async () => {
  const bytes = new TextEncoder().encode("data: ✓\n\ndata: second\n\ndata: third\n\n");
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
      controller.close();
    },
  });
  const seen: string[] = [];
  await readEvents(body, new SseParser(), (event) => seen.push(event.data), () => seen.length === 2);
  assert.deepEqual(seen, ["✓", "second"]);
});

const limited: { name: string; input: string; error?: RegExp; events?: number }[] = [
  { name: "an event exactly at the limit (in bytes) is read", input: `data:${"é".repeat(8)}\n\n`, events: 1 },
  { name: "a line one byte past the limit", input: `data:${"é".repeat(8)}x`, error: /^an SSE line passed the limit of 21 bytes$/ },
  { name: "an event past the limit across lines", input: "data:1234567\ndata:1234567\ndata:1234567\n", error: /^an SSE event passed the limit of 21 bytes$/ },
  { name: "a comment line past the limit", input: `:${"c".repeat(21)}`, error: /^an SSE line passed the limit/ },
  { name: "comment lines do not add to an event, and each event starts from zero", input: `:${"c".repeat(20)}\n`.repeat(3) + "data:1234567890123456\n\n".repeat(3), events: 3 },
];

for (const c of limited) {
  test(`sse parser, limited to 21 bytes: ${c.name}, in any chunking`, () => {
    for (const chunks of [[c.input], [...c.input]]) {
      const parser = new SseParser({ maxEventBytes: 21 });
      const read = () => chunks.flatMap((chunk) => parser.push(chunk)).length;
      if (c.error) assert.throws(read, (error: unknown) => error instanceof SseLimitError && c.error!.test(error.message));
      else assert.equal(read(), c.events);
    }
  });
}
