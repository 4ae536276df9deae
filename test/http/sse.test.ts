// sse.ts: the event wire format (checked by parsing it back the way the WHATWG algorithm does)
// and the EventStore that keeps a session's events for resumption: ids unique across streams,
// replay of one stream only, priming events left out, and the bounds.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
// and https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatEvent, KEEP_ALIVE, SSE_HEADERS, type SseEvent } from "../../src/http/sse.js";

/** The WHATWG parse of one or more events: lines end at CRLF, LF or a lone CR; data lines join with LF. */
function parse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let data: string[] = [];
  let current: Partial<SseEvent> = {};
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0 || current.id !== undefined) events.push({ ...current, data: data.join("\n") });
      data = [];
      current = {};
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (name === "data") data.push(value);
    else if (name === "id") current.id = value;
    else if (name === "event") current.event = value;
    else if (name === "retry") current.retry = Number(value);
  }
  return events;
}

const exactCases: { name: string; event: SseEvent; wire: string }[] = [
  { name: "data only", event: { data: '{"a":1}' }, wire: 'data: {"a":1}\n\n' },
  { name: "id and data", event: { id: "p1:2", data: "x" }, wire: "id: p1:2\ndata: x\n\n" },
  { name: "a priming event: id, retry, empty data", event: { id: "p1:1", data: "", retry: 1000 }, wire: "id: p1:1\nretry: 1000\ndata: \n\n" },
  { name: "a named event", event: { event: "endpoint", data: "/messages?sessionId=abc" }, wire: "event: endpoint\ndata: /messages?sessionId=abc\n\n" },
  { name: "two lines of data", event: { data: "one\ntwo" }, wire: "data: one\ndata: two\n\n" },
];
for (const c of exactCases) {
  test(`formatEvent: ${c.name}`, () => {
    assert.equal(formatEvent(c.event), c.wire);
    assert.deepEqual(parse(c.wire), [c.event]);
  });
}

const roundTrips: { name: string; data: string; parsed: string }[] = [
  { name: "several LF lines", data: "a\nb\nc", parsed: "a\nb\nc" },
  { name: "a trailing newline", data: "a\n", parsed: "a\n" },
  { name: "blank lines inside", data: "a\n\nb", parsed: "a\n\nb" },
  { name: "a line that looks like a field", data: "x\nid: fake\nevent: fake", parsed: "x\nid: fake\nevent: fake" },
  { name: "a line that looks like a comment", data: "x\n: not a comment", parsed: "x\n: not a comment" },
  { name: "CRLF line ends (normalized to LF)", data: "a\r\nb", parsed: "a\nb" },
  { name: "a lone CR, which SSE also treats as a line end", data: "a\rb", parsed: "a\nb" },
];
for (const c of roundTrips) {
  test(`formatEvent: multi-line data survives the WHATWG parse: ${c.name}`, () => {
    const events = parse(formatEvent({ id: "s:1", data: c.data }));
    assert.equal(events.length, 1, "exactly one event, never split or merged");
    assert.equal(events[0]!.id, "s:1");
    assert.equal(events[0]!.data, c.parsed);
  });
}

test("KEEP_ALIVE is a comment block that parses to no event; SSE_HEADERS name the event-stream type", () => {
  assert.deepEqual(parse(KEEP_ALIVE), []);
  assert.match(KEEP_ALIVE, /^:.*\n\n$/);
  assert.equal(SSE_HEADERS["content-type"], "text/event-stream");
  assert.match(SSE_HEADERS["cache-control"]!, /no-cache/);
});
