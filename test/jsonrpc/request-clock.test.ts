// The correlator's clock stands still while held (a person signing in through OAuth): no deadline
// passes meanwhile, every deadline moves by the time held, and the clocks run again on release.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PendingRequests, RequestTimeoutError } from "../../src/jsonrpc/pending.js";
import { RequestClock } from "../../src/jsonrpc/request-clock.js";

function settled(promise: Promise<unknown>): { error?: unknown; done: boolean } {
  const state: { error?: unknown; done: boolean } = { done: false };
  promise.then(() => (state.done = true), (error: unknown) => Object.assign(state, { done: true, error }));
  return state;
}

test("request clock: while held, neither the idle nor the total deadline passes; after release they run again", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const pending = new PendingRequests();
  const call = settled(pending.track(1, "tools/call", { timeouts: { idleMs: 100, maxTotalMs: 150 } }));
  t.mock.timers.tick(60);
  pending.clock.hold();
  t.mock.timers.tick(10_000);
  await Promise.resolve();
  assert.equal(call.done, false, "no deadline passes while the clock is held");
  pending.clock.release();
  // 60 ms had passed before the hold: the idle deadline is 40 ms away, not in the past.
  t.mock.timers.tick(39);
  await Promise.resolve();
  assert.equal(call.done, false);
  t.mock.timers.tick(1);
  await Promise.resolve();
  assert.ok(call.error instanceof RequestTimeoutError && /after 100 ms \(idle timeout\)/.test(call.error.message), String(call.error));
});

test("request clock: the total deadline moves by the time held, and progress still restarts only the idle clock", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const pending = new PendingRequests();
  const call = settled(pending.track(1, "tools/call", { timeouts: { idleMs: 100, maxTotalMs: 150 } }));
  t.mock.timers.tick(90);
  pending.touch(1);
  pending.clock.hold();
  t.mock.timers.tick(5_000);
  pending.clock.release();
  t.mock.timers.tick(59);
  await Promise.resolve();
  assert.equal(call.done, false);
  t.mock.timers.tick(1);
  await Promise.resolve();
  assert.ok(call.error instanceof RequestTimeoutError && /maximum total time/.test(call.error.message), String(call.error));
});

test("request clock: holds nest, a request made while held waits for the release, and a stray release changes nothing", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const clock = new RequestClock();
  clock.release();
  assert.equal(clock.held, false);
  const pending = new PendingRequests(clock);
  clock.hold();
  clock.hold();
  const call = settled(pending.track(1, "ping", { timeouts: { idleMs: 50, maxTotalMs: 50 } }));
  t.mock.timers.tick(1_000);
  clock.release();
  assert.equal(clock.held, true, "one hold is left");
  t.mock.timers.tick(1_000);
  await Promise.resolve();
  assert.equal(call.done, false);
  clock.release();
  assert.equal(clock.held, false);
  t.mock.timers.tick(50);
  await Promise.resolve();
  assert.ok(call.error instanceof RequestTimeoutError, String(call.error));
});

test("request clock: now() stands still while held; after() fires in the clock's time and cancel() stops it", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_000 });
  const clock = new RequestClock();
  const fired: string[] = [];
  clock.after(100, () => fired.push("a"));
  const b = clock.after(100, () => fired.push("b"));
  assert.equal(clock.after(Infinity, () => fired.push("never")), undefined);
  clock.cancel(b);
  t.mock.timers.tick(30);
  clock.hold();
  t.mock.timers.tick(500);
  assert.equal(clock.now(), 1_030);
  clock.release();
  assert.equal(clock.now(), 1_030);
  t.mock.timers.tick(69);
  assert.deepEqual(fired, []);
  t.mock.timers.tick(1);
  assert.deepEqual(fired, ["a"]);
});
