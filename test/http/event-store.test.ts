// The replay store of Streamable HTTP sessions: ids unique across a session's streams, replay of
// one stream only, bounds per session and shared by all sessions (in UTF-8 bytes), and dropping
// what the client has confirmed.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
import { test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { EventStore, ReplayBudget } from "../../src/http/event-store.js";

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

test("EventStore: bytes are UTF-8 bytes, not UTF-16 characters", () => {
  const store = new EventStore({ maxBytes: 10 });
  // Three characters, nine bytes.
  const first = store.append("p1", "€€€");
  assert.equal(store.size.bytes, 9);
  store.append("p1", "€");
  assert.equal(store.after(first), undefined, "12 bytes is over the 10-byte bound, so the oldest went");
  assert.equal(store.size.bytes, 3);
});

test("ReplayBudget: one bound for every session's store; the oldest event of any session goes first", () => {
  const budget = new ReplayBudget({ maxBytes: 10 });
  const a = new EventStore({ budget });
  const b = new EventStore({ budget });
  const oldest = a.append("p1", "aaaa");
  const kept = a.append("p2", "aaaa");
  b.append("p1", "bbbb");
  assert.ok(budget.size.bytes <= 10);
  assert.equal(a.after(oldest), undefined, "session a's oldest event made room for session b");
  assert.deepEqual(a.after(kept), []);
  assert.equal(b.size.events, 1);
  // A store that ends gives its share back.
  b.clear();
  assert.equal(budget.size.bytes, 4);
  assert.equal(budget.size.events, 1);
});

test("EventStore.confirm: a resume from an id drops the stream's earlier events; the id itself stays as the resume point", () => {
  const budget = new ReplayBudget();
  const store = new EventStore({ budget });
  const ids = ["a", "b", "c", "d"].map((data) => store.append("p1", data));
  const other = store.append("p2", "x");
  store.confirm(ids[2]!);
  assert.equal(store.size.events, 3, "a and b went; c, d and p2's event stay");
  assert.equal(budget.size.events, 3);
  assert.equal(store.after(ids[0]!), undefined);
  assert.deepEqual(store.after(ids[2]!)!.map((e) => e.data), ["d"], "a second resume from the same id still works");
  assert.deepEqual(store.after(other), []);
});

test("EventStore.forget: a stream taken whole is dropped, and its ids can no longer be resumed from", () => {
  const budget = new ReplayBudget();
  const store = new EventStore({ budget });
  const id = store.append("p1", "answer");
  store.append("p2", "other");
  store.forget("p1");
  assert.equal(store.after(id), undefined);
  assert.deepEqual(store.size, { events: 1, bytes: 5 });
  assert.deepEqual(budget.size, { events: 1, bytes: 5 });
});

test("EventStore: a long run of confirmed events keeps the store and the budget small", () => {
  const budget = new ReplayBudget();
  const store = new EventStore({ budget });
  for (let i = 0; i < 20_000; i++) {
    const id = store.append("get", `event ${i}`);
    store.confirm(id);
  }
  assert.equal(store.size.events, 1);
  assert.equal(budget.size.events, 1);
});

test("EventStore: a long run past the bound, mixed with confirmed streams, keeps its accounting exact", () => {
  const budget = new ReplayBudget({ maxEvents: 50 });
  const stores = [new EventStore({ budget, maxEvents: 30 }), new EventStore({ budget, maxEvents: 30 })];
  for (let i = 0; i < 10_000; i++) {
    const store = stores[i % 2]!;
    const id = store.append(i % 3 === 0 ? `p${i}` : "get", `event ${i}`);
    if (i % 3 === 0) store.forget(`p${i}`);
    else if (i % 7 === 0) store.confirm(id);
  }
  const total = stores[0]!.size.events + stores[1]!.size.events;
  assert.equal(budget.size.events, total);
  assert.ok(total <= 50);
  assert.equal(budget.size.bytes, stores[0]!.size.bytes + stores[1]!.size.bytes);
});

test("ReplayBudget: once every session has ended, the budget keeps none of their stores alive", async () => {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const budget = new ReplayBudget();
  const stores = Array.from({ length: 20 }, () => endedSession(budget));
  assert.deepEqual(budget.size, { events: 0, bytes: 0 });
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const alive = stores.filter((ref) => ref.deref() !== undefined).length;
  assert.equal(alive, 0, `${alive} of 20 ended sessions' stores are still reachable through the budget`);
});

/** A session as the load test runs one (a GET stream's priming event, calls whose streams the client took whole), then ended. */
function endedSession(budget: ReplayBudget): WeakRef<EventStore> {
  const store = new EventStore({ budget });
  store.append("get", "");
  for (let call = 0; call < 50; call++) {
    store.append(`p${call}`, "");
    store.append(`p${call}`, `answer ${call}`);
    store.forget(`p${call}`);
  }
  store.clear();
  return new WeakRef(store);
}
