// The list of a Streamable HTTP handler's running 2026-07-28 sessions (http/session-opener.ts),
// which its keep-alives and close() walk: what is added is walked, newest first, until removed;
// a removal is once only; a session removed while the walk visits it does not stop the walk.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RunningSessions } from "../../src/http/session-opener.js";
import type { LiveSession } from "../../src/http/session-table.js";

/** A stand-in: the list only holds and hands back what it is given. */
const live = (id: string) => ({ id }) as unknown as LiveSession;
const ids = (running: RunningSessions) => [...running].map((session) => session.id);

test("running sessions: each added one is walked, newest first, until its removal", () => {
  const running = new RunningSessions();
  const removeA = running.add(live("a"));
  const removeB = running.add(live("b"));
  const removeC = running.add(live("c"));
  assert.deepEqual(ids(running), ["c", "b", "a"]);
  removeB();
  assert.deepEqual(ids(running), ["c", "a"]);
  removeC();
  assert.deepEqual(ids(running), ["a"]);
  removeA();
  assert.deepEqual(ids(running), []);
  running.add(live("d"));
  assert.deepEqual(ids(running), ["d"]);
});

test("running sessions: a second removal of the same entry changes nothing", () => {
  const running = new RunningSessions();
  running.add(live("a"));
  const removeB = running.add(live("b"));
  running.add(live("c"));
  removeB();
  removeB();
  assert.deepEqual(ids(running), ["c", "a"]);
});

test("running sessions: a session removed while the walk visits it does not end the walk", () => {
  const running = new RunningSessions();
  const removers = new Map<string, () => void>();
  for (const id of ["a", "b", "c"]) removers.set(id, running.add(live(id)));
  const visited: string[] = [];
  for (const session of running) {
    visited.push(session.id);
    removers.get(session.id)!();
  }
  assert.deepEqual(visited, ["c", "b", "a"]);
  assert.deepEqual(ids(running), []);
});
