// The session table of the Streamable HTTP handler, with an injected 'now' and stand-in sessions:
// the handshake deadline, idle expiry, what counts as activity, the eviction order of a full
// table, and the Retry-After it computes when every slot is in use.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
import { test } from "node:test";
import assert from "node:assert/strict";
import type { LifecycleState, ServerConnection } from "../../src/server/connection.js";
import type { HttpSessionTransport } from "../../src/http/session-transport.js";
import { SessionTable, type LiveSession, type SessionLimits } from "../../src/http/session-table.js";

/** The parts of a session the table looks at: its state, its close, and whether its transport is busy. */
interface Stand {
  live: LiveSession;
  state: LifecycleState;
  busy: boolean;
  readonly closed: boolean;
}

function stand(id: string, state: LifecycleState, at: { opened?: number; lastSeen?: number; busy?: boolean } = {}): Stand {
  const listeners: (() => void)[] = [];
  const s = {
    state,
    busy: at.busy ?? false,
    get closed() {
      return s.state === "closed";
    },
  } as Stand;
  const session = {
    get state() {
      return s.state;
    },
    onClose: (listener: () => void) => listeners.push(listener),
    close: async () => {
      if (s.state === "closed") return;
      s.state = "closed";
      for (const listener of listeners) listener();
    },
  };
  const transport = { get busy() { return s.busy; } };
  const opened = at.opened ?? 0;
  s.live = { id, session: session as unknown as ServerConnection, transport: transport as unknown as HttpSessionTransport, opened, lastSeen: at.lastSeen ?? opened };
  return s;
}

const LIMITS: SessionLimits = { maxSessions: 3, idleMs: 60_000, initializedMs: 10_000 };

function tableOf(stands: Stand[], limits: Partial<SessionLimits> = {}): SessionTable {
  const table = new SessionTable({ ...LIMITS, ...limits });
  for (const s of stands) table.add(s.live);
  return table;
}

const ids = (table: SessionTable) => [...table.values()].map((live) => live.id).sort();

// The handshake deadline counts from `opened`, the idle time from `lastSeen`; `<=`: at the deadline itself the session ends.
const sweepCases: { name: string; state: LifecycleState; busy: boolean; lastSeen?: number; at: number; ends: boolean }[] = [
  { name: "a session in its handshake lives until initializedMs", state: "awaiting-initialized", busy: false, at: 9_999, ends: false },
  { name: "a session in its handshake ends at initializedMs", state: "awaiting-initialized", busy: false, at: 10_000, ends: true },
  { name: "the handshake deadline holds for a session in use", state: "awaiting-initialized", busy: true, at: 10_000, ends: true },
  { name: "the handshake deadline holds however recent its last request", state: "awaiting-initialize", busy: false, lastSeen: 9_000, at: 10_000, ends: true },
  { name: "an operating session outlives the handshake deadline", state: "operating", busy: false, at: 10_000, ends: false },
  { name: "an operating session lives until idleMs", state: "operating", busy: false, at: 59_999, ends: false },
  { name: "an operating session ends after idleMs without a request", state: "operating", busy: false, at: 60_000, ends: true },
  { name: "idle time counts from the last request", state: "operating", busy: false, lastSeen: 30_000, at: 89_999, ends: false },
  { name: "an operating session in use never idles", state: "operating", busy: true, at: 10_000_000, ends: false },
];
for (const c of sweepCases) {
  test(`SessionTable.sweep: ${c.name}`, () => {
    const s = stand("a", c.state, { busy: c.busy, lastSeen: c.lastSeen });
    const table = tableOf([s]);
    table.sweep(c.at);
    assert.equal(s.closed, c.ends, c.ends ? "ended" : "still open");
    assert.equal(table.size, c.ends ? 0 : 1);
  });
}

test("SessionTable.sweep: an open stream is activity, so the idle time counts from the last sweep that saw it", () => {
  const s = stand("a", "operating", { busy: true });
  const table = tableOf([s]);
  table.sweep(100_000);
  s.busy = false;
  table.sweep(159_999);
  assert.equal(s.closed, false);
  table.sweep(160_000);
  assert.equal(s.closed, true);
});

test("SessionTable.get: finding a session is activity; an unknown id is undefined", () => {
  const s = stand("a", "operating");
  const table = tableOf([s]);
  assert.equal(table.get("a", 50_000), s.live);
  assert.equal(s.live.lastSeen, 50_000);
  table.sweep(109_999);
  assert.equal(s.closed, false, "idle counts from the lookup, not from the start");
  assert.equal(table.get("b", 50_000), undefined);
});

test("SessionTable: a session that closes on its own leaves the table; delete removes one without closing it", () => {
  const [a, b] = [stand("a", "operating"), stand("b", "operating")];
  const table = tableOf([a, b]);
  void a.live.session.close();
  assert.deepEqual(ids(table), ["b"]);
  table.delete("b");
  assert.equal(table.size, 0);
  assert.equal(b.closed, false, "delete is for a session its caller closes");
});

test("SessionTable.makeRoom: below maxSessions there is room and nothing ends", () => {
  const stands = [stand("a", "awaiting-initialized"), stand("b", "operating")];
  const table = tableOf(stands);
  assert.deepEqual(table.makeRoom(0), { free: true });
  assert.equal(table.size, 2);
  assert.ok(stands.every((s) => !s.closed));
});

// A full table (maxSessions 3): which session makes room. Opened at 0 unless said; lastSeen is the last request.
const evictionCases: { name: string; stands: Stand[]; evicted: string }[] = [
  {
    name: "a session in its handshake goes before operating ones, even ones idle longer",
    stands: [stand("old", "operating", { lastSeen: 0 }), stand("waiting", "awaiting-initialized", { opened: 5_000 }), stand("idle", "operating", { lastSeen: 1_000 })],
    evicted: "waiting",
  },
  {
    name: "among sessions in their handshake, the one seen least recently",
    stands: [stand("w1", "awaiting-initialized", { opened: 2_000 }), stand("w0", "awaiting-initialize", { opened: 1_000 }), stand("w2", "awaiting-initialized", { opened: 3_000 })],
    evicted: "w0",
  },
  {
    name: "among operating sessions, the one idle longest",
    stands: [stand("a", "operating", { lastSeen: 3_000 }), stand("b", "operating", { lastSeen: 1_000 }), stand("c", "operating", { lastSeen: 2_000 })],
    evicted: "b",
  },
  {
    name: "a session in use is never evicted, however long idle or early in its handshake",
    stands: [stand("busy-waiting", "awaiting-initialized", { busy: true }), stand("busy-old", "operating", { busy: true }), stand("recent", "operating", { lastSeen: 9_000 })],
    evicted: "recent",
  },
];
for (const c of evictionCases) {
  test(`SessionTable.makeRoom when full: ${c.name}`, () => {
    const table = tableOf(c.stands);
    assert.deepEqual(table.makeRoom(9_500), { free: true });
    assert.deepEqual(c.stands.filter((s) => s.closed).map((s) => s.live.id), [c.evicted]);
    assert.equal(table.size, 2);
    assert.equal(table.get(c.evicted, 9_500), undefined);
  });
}

// Every slot in use: Retry-After is the whole seconds, rounded up, until the first handshake deadline; at least 1.
const retryCases: { name: string; stands: Stand[]; now: number; retryAfterSeconds: number | undefined }[] = [
  { name: "the time left of the only handshake", stands: [stand("w", "awaiting-initialized", { busy: true })], now: 0, retryAfterSeconds: 10 },
  { name: "rounded up to whole seconds", stands: [stand("w", "awaiting-initialized", { busy: true })], now: 3_500, retryAfterSeconds: 7 },
  { name: "never under one second", stands: [stand("w", "awaiting-initialized", { busy: true })], now: 9_999, retryAfterSeconds: 1 },
  {
    name: "the first of several deadlines",
    stands: [stand("w1", "awaiting-initialized", { busy: true, opened: 4_000 }), stand("w0", "awaiting-initialize", { busy: true, opened: 2_000 })],
    now: 2_000,
    retryAfterSeconds: 10,
  },
  { name: "none when only operating sessions are in use, for they may last", stands: [stand("a", "operating", { busy: true })], now: 0, retryAfterSeconds: undefined },
];
for (const c of retryCases) {
  test(`SessionTable.makeRoom when every slot is in use: ${c.name}`, () => {
    const table = tableOf(c.stands, { maxSessions: c.stands.length });
    assert.deepEqual(table.makeRoom(c.now), { free: false, retryAfterSeconds: c.retryAfterSeconds });
    assert.ok(c.stands.every((s) => !s.closed), "no session in use is ended to make room");
  });
}

// The handler sweeps on a timer (as rarely as every initializedMs); a deadline must not wait for it.
test("SessionTable.makeRoom: the Retry-After it gives is kept: by then a slot is free, whether or not a sweep ran", () => {
  const w = stand("w", "awaiting-initialized", { busy: true });
  const table = tableOf([w], { maxSessions: 1 });
  const room = table.makeRoom(2_000);
  assert.deepEqual(room, { free: false, retryAfterSeconds: 8 });
  assert.deepEqual(table.makeRoom(2_000 + 8 * 1000), { free: true });
  assert.equal(w.closed, true, "the session past its handshake deadline made room");
});

const expiredCases: { name: string; s: () => Stand; at: number }[] = [
  { name: "its handshake deadline", s: () => stand("a", "awaiting-initialized"), at: 10_000 },
  { name: "its handshake deadline, though in use", s: () => stand("a", "awaiting-initialized", { busy: true }), at: 10_000 },
  { name: "its idle time", s: () => stand("a", "operating"), at: 60_000 },
];
for (const c of expiredCases) {
  test(`SessionTable.get: a session past ${c.name} is gone, even before a sweep ended it`, () => {
    const s = c.s();
    const table = tableOf([s]);
    assert.equal(table.get("a", c.at), undefined);
    assert.equal(s.closed, true);
    assert.equal(table.size, 0);
  });
}
