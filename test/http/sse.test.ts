// sse.ts: the event wire format (checked by parsing it back the way the WHATWG algorithm does)
// and the EventStore that keeps a session's events for resumption: ids unique across streams,
// replay of one stream only, priming events left out, and the bounds.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
// and https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventStore, formatEvent, KEEP_ALIVE, SSE_HEADERS, type SseEvent } from "../../src/http/sse.js";

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

test("EventStore: ids are unique across the session's streams and name their stream", () => {
  const store = new EventStore();
  const ids = [store.append("p1", ""), store.append("p1", "a"), store.append("get", "b"), store.append("p2", "c"), store.append("p1", "d")];
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual(ids.map((id) => store.streamOf(id)), ["p1", "p1", "get", "p2", "p1"]);
});

const streamOfCases: { id: string; stream: string | undefined }[] = [
  { id: "nope:1", stream: undefined },
  { id: "no-colon", stream: undefined },
  { id: ":1", stream: undefined },
  { id: "", stream: undefined },
];
for (const c of streamOfCases) {
  test(`EventStore.streamOf(${JSON.stringify(c.id)}) is ${c.stream}`, () => {
    const store = new EventStore();
    store.append("p1", "x");
    assert.equal(store.streamOf(c.id), c.stream);
  });
}

test("EventStore.after: the later events of that stream only, priming events left out", () => {
  const store = new EventStore();
  const priming = store.append("p1", "");
  const first = store.append("p1", "one");
  store.append("p2", "other stream");
  store.append("get", "standalone");
  const second = store.append("p1", "two");
  const third = store.append("p1", "three");
  assert.deepEqual(store.after(priming), [{ id: first, data: "one" }, { id: second, data: "two" }, { id: third, data: "three" }]);
  assert.deepEqual(store.after(first), [{ id: second, data: "two" }, { id: third, data: "three" }]);
  assert.deepEqual(store.after(third), []);
});

const unknownCases = ["p1:999", "p9:1", "garbage", ""];
for (const id of unknownCases) {
  test(`EventStore.after(${JSON.stringify(id)}) is undefined for an id it never gave`, () => {
    const store = new EventStore();
    store.append("p1", "");
    store.append("p1", "x");
    assert.equal(store.after(id), undefined);
  });
}

test("EventStore: beyond maxEvents the oldest go first, and resuming from a dropped id is refused", () => {
  const store = new EventStore({ maxEvents: 3 });
  const ids = ["a", "b", "c", "d", "e"].map((data) => store.append("p1", data));
  assert.equal(store.size.events, 3);
  assert.equal(store.after(ids[0]!), undefined, "the oldest event was dropped");
  assert.equal(store.after(ids[1]!), undefined);
  assert.deepEqual(store.after(ids[2]!)!.map((e) => e.data), ["d", "e"]);
});

test("EventStore: beyond maxBytes the oldest go first, across streams", () => {
  const store = new EventStore({ maxBytes: 10 });
  const a = store.append("p1", "aaaa");
  store.append("p2", "bbbb");
  store.append("p2", "cccc");
  assert.ok(store.size.bytes <= 10);
  assert.equal(store.streamOf(a), undefined, "p1 lost its only event, so the stream is gone");
  assert.equal(store.after(a), undefined);
});

test("EventStore: an id is never given twice, even after a stream's events were dropped", () => {
  const store = new EventStore({ maxEvents: 1 });
  const seen = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const id = store.append(i % 2 === 0 ? "p1" : "p2", `event ${i}`);
    assert.equal(seen.has(id), false, `id ${id} given twice`);
    seen.add(id);
  }
  assert.equal(store.size.events, 1);
});

test("EventStore: a long run keeps only the bound and still replays correctly", () => {
  const store = new EventStore({ maxEvents: 100 });
  let last = "";
  for (let i = 0; i < 5000; i++) last = store.append("p1", String(i));
  assert.equal(store.size.events, 100);
  const kept = store.after(store.append("p1", "tail-start"));
  assert.deepEqual(kept, []);
  const recent = store.after(last)!;
  assert.deepEqual(recent.map((e) => e.data), ["tail-start"]);
});
