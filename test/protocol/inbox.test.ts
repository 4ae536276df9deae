// Inbox: jobs are taken up in arrival order, each until it settles or the event loop turns; the
// weight in flight pauses the input at the bound (onFull(true)) and resumes it at half of it
// (onFull(false)); idle() waits for every job taken in. No spec section: JSON-RPC allows any order,
// and the bound is ours (see DEFAULT_MAX_IN_FLIGHT in protocol/connection.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Inbox } from "../../src/protocol/inbox.js";

/** One turn of the event loop: the pump's own wake-up, scheduled earlier, runs before it. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A job that runs until the test ends it. */
function held(log: string[], name: string) {
  let end!: () => void;
  let fail!: (error: Error) => void;
  const job = () => {
    log.push(`start ${name}`);
    return new Promise<void>((resolve, reject) => ((end = resolve), (fail = reject)));
  };
  return { job, end: () => end(), fail: (error: Error) => fail(error) };
}

/** Whether `promise` has settled after the queued callbacks and one turn have run. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await turn();
  return settled;
}

test("inbox: jobs that answer at once run one after another, in arrival order", async () => {
  const inbox = new Inbox();
  const log: string[] = [];
  for (const name of ["a", "b", "c", "d"]) {
    inbox.enqueue(async () => {
      log.push(`start ${name}`);
      await Promise.resolve();
      await Promise.resolve();
      log.push(`end ${name}`);
    });
  }
  await inbox.idle();
  assert.deepEqual(log, ["start a", "end a", "start b", "end b", "start c", "end c", "start d", "end d"]);
});

test("inbox: a job that waits holds up the next one until the event loop turns, no longer", async () => {
  const inbox = new Inbox();
  const log: string[] = [];
  const a = held(log, "a");
  inbox.enqueue(a.job);
  inbox.enqueue(async () => void log.push("start b"));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  assert.deepEqual(log, ["start a"], "b waits while a may still answer within this turn");
  await turn();
  assert.deepEqual(log, ["start a", "start b"]);
  a.end();
  await inbox.idle();
});

test("inbox: a job that fails counts as finished and does not stop the ones behind it", async () => {
  const inbox = new Inbox(2);
  const log: string[] = [];
  const a = held(log, "a");
  inbox.enqueue(a.job);
  inbox.enqueue(async () => {
    log.push("start b");
    throw new Error("b failed");
  });
  inbox.enqueue(async () => void log.push("start c"));
  await turn();
  a.fail(new Error("a failed"));
  await inbox.idle();
  assert.deepEqual(log, ["start a", "start b", "start c"]);
});

// Each step takes in a held job of that weight ("+w") or ends the job taken in at that place
// ("-i"); `say` is what onFull said during each step: "pause" (true), "resume" (false) or nothing.
const bounds: { name: string; limit: number; steps: string[]; say: string[] }[] = [
  { name: "pauses at the bound, resumes at half of it, not one below", limit: 4, steps: ["+1", "+1", "+1", "+1", "-0", "-1", "-2", "-3"], say: ["", "", "", "pause", "", "resume", "", ""] },
  { name: "half of an odd bound is rounded down", limit: 5, steps: ["+1", "+1", "+1", "+1", "+1", "-0", "-1", "-2"], say: ["", "", "", "", "pause", "", "", "resume"] },
  { name: "a bound of 1 pauses on every job", limit: 1, steps: ["+1", "-0", "+1", "-1"], say: ["pause", "resume", "pause", "resume"] },
  { name: "says pause once, however far past the bound", limit: 2, steps: ["+1", "+1", "+1", "+1", "-0", "-1", "-2"], say: ["", "pause", "", "", "", "", "resume"] },
  { name: "pauses again only at the bound after a resume", limit: 4, steps: ["+1", "+1", "+1", "+1", "-0", "-1", "+1", "+1"], say: ["", "", "", "pause", "", "resume", "", "pause"] },
  { name: "a job counts by its weight", limit: 10, steps: ["+6", "+3", "+1", "-2", "-1", "-0"], say: ["", "", "pause", "", "", "resume"] },
  { name: "one job heavier than the bound pauses alone", limit: 3, steps: ["+5", "-0"], say: ["pause", "resume"] },
  { name: "a job of weight 0 still counts 1 (an empty batch is owed an answer)", limit: 3, steps: ["+0", "+0", "+0", "-0", "-1"], say: ["", "", "pause", "", "resume"] },
];
for (const c of bounds) {
  test(`inbox bound: ${c.name}`, async () => {
    const said: boolean[] = [];
    const inbox = new Inbox(c.limit, (full) => said.push(full));
    const jobs: ReturnType<typeof held>[] = [];
    const saidPerStep: string[] = [];
    for (const step of c.steps) {
      const before = said.length;
      const n = Number(step.slice(1));
      if (step.startsWith("+")) {
        jobs.push(held([], `job ${jobs.length}`));
        inbox.enqueue(jobs.at(-1)!.job, n);
      } else {
        jobs[n]!.end();
      }
      await turn();
      assert.ok(said.length - before <= 1, `${step}: onFull said ${said.slice(before)}`);
      saidPerStep.push(said.length > before ? (said.at(-1) ? "pause" : "resume") : "");
    }
    assert.deepEqual(saidPerStep, c.say);
  });
}

test("inbox: idle() resolves at once when nothing is in flight, else when every job taken in has finished", async () => {
  const inbox = new Inbox();
  assert.equal(await settledYet(inbox.idle()), true);
  const log: string[] = [];
  const [a, b] = [held(log, "a"), held(log, "b")];
  inbox.enqueue(a.job);
  inbox.enqueue(b.job);
  const idle = [inbox.idle(), inbox.idle()];
  await turn();
  assert.deepEqual(log, ["start a", "start b"]);
  b.end();
  assert.equal(await settledYet(Promise.race(idle)), false, "a is still running");
  a.end();
  assert.deepEqual(await Promise.all(idle), [undefined, undefined]);
});

test("inbox: idle() waits for a job of weight 0 (an empty batch), queued behind another", async () => {
  const inbox = new Inbox();
  const log: string[] = [];
  const empty = held(log, "empty batch");
  inbox.enqueue(async () => {});
  inbox.enqueue(empty.job, 0);
  const idle = inbox.idle();
  assert.equal(await settledYet(idle), false, "the empty batch is still to be answered");
  assert.deepEqual(log, ["start empty batch"]);
  empty.end();
  await idle;
});

test("inbox: a long burst keeps its order and its weights, taken in before and while it runs", { timeout: 10_000 }, async () => {
  // 3000 quick jobs of weights 1, 2, 3, 1, ... (6000 in all). The first 1500 stay under the bound;
  // job 1200 takes in the other 1500, which reach it. The consumed front of the queue is dropped
  // twice on the way, and the input resumes exactly when what is left weighs half the bound,
  // which it can only do if every job still carries its own weight after that.
  const limit = 3500;
  const weight = (i: number) => (i % 3) + 1;
  const ran: number[] = [];
  const said: { full: boolean; afterJobs: number }[] = [];
  const inbox = new Inbox(limit, (full) => said.push({ full, afterJobs: ran.length }));
  const job = (i: number) => async () => {
    ran.push(i);
    if (i === 1200) for (let j = 1500; j < 3000; j++) inbox.enqueue(job(j), weight(j));
  };
  for (let i = 0; i < 1500; i++) inbox.enqueue(job(i), weight(i));
  await inbox.idle();
  assert.deepEqual(ran, Array.from({ length: 3000 }, (_, i) => i));
  let left = 6000;
  let resumeAfter = 0;
  while (left > limit / 2) left -= weight(resumeAfter++);
  assert.deepEqual(said, [{ full: true, afterJobs: 1201 }, { full: false, afterJobs: resumeAfter }]);
});

test("inbox: a job that throws instead of rejecting does not stop the jobs behind it", async () => {
  const inbox = new Inbox();
  const ran: string[] = [];
  inbox.enqueue(() => Promise.resolve());
  assert.doesNotThrow(() => inbox.enqueue(() => { throw new Error("job threw"); }));
  inbox.enqueue(() => { ran.push("after"); return Promise.resolve(); });
  await inbox.idle();
  assert.deepEqual(ran, ["after"]);
});
