// Restarting a crashed stdio server (client/restart.ts): every crash counts, a failed start or an
// exit soon after a good handshake alike, with backoff between restarts, until the budget is
// spent; a server that ran for the stable period earns a fresh budget. Its timers are injected:
// the delays are recorded and fire at once, and the clock moves only when the test moves it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { McpClient } from "../../src/client/client.js";
import { DEFAULT_RESTART, StdioServerConnection, type RestartPolicy, type RestartTimers } from "../../src/client/restart.js";

const MINIMAL = fileURLToPath(new URL("../../fixtures/servers/minimal.mjs", import.meta.url));
const info = { name: "restart-test", version: "1" };
/** Enough restarts to tell "gives up" from "restarts for ever" without running for ever. */
const MORE_THAN_ANY_BUDGET = 12;

/** Timers that fire on the next turn, whatever the delay, and a clock only the test moves. */
function fakeTimers() {
  const timers: RestartTimers & { time: number; delays: number[] } = {
    time: 0,
    delays: [] as number[],
    now: () => timers.time,
    setTimeout(fire: () => void, ms: number) {
      timers.delays.push(ms);
      return setImmediate(fire);
    },
    clearTimeout(handle: unknown) {
      clearImmediate(handle as ReturnType<typeof setImmediate>);
    },
  };
  return timers;
}

type Event = { name: string; attempt?: number; attempts?: number };

/** Starts `mode` under a restarting connection; resolves once it gave up, or after too many restarts. */
async function crashLoop(mode: string[], policy: Partial<RestartPolicy>, timers: RestartTimers) {
  const client = new McpClient(info, { protocolVersion: "2025-11-25" });
  const connection = new StdioServerConnection(client, { command: process.execPath, args: [MINIMAL, ...mode], graceMs: 200 }, policy, timers);
  const events: Event[] = [];
  const ended = new Promise<void>((resolve) => {
    client.on("restarting", ({ attempt }) => events.push({ name: "restarting", attempt }));
    client.on("restarted", ({ attempt }) => {
      events.push({ name: "restarted", attempt });
      if (events.filter((e) => e.name === "restarted").length >= MORE_THAN_ANY_BUDGET) resolve();
    });
    client.on("restartFailed", ({ attempts }) => {
      events.push({ name: "restartFailed", attempts });
      resolve();
    });
  });
  await connection.start();
  return { client, connection, events, ended };
}

test("a server that crashes just after each handshake is restarted maxRetries times with backoff, then restartFailed fires", async () => {
  const timers = fakeTimers();
  const policy = { maxRetries: 3, initialDelayMs: 250, maxDelayMs: 700 };
  const { connection, events, ended } = await crashLoop(["crash-after-handshake", "20"], policy, timers);
  await ended;
  await connection.close();
  const restarts = events.filter((e) => e.name === "restarted").length;
  assert.equal(restarts, policy.maxRetries, `restarted ${restarts} times`);
  assert.deepEqual(events.at(-1), { name: "restartFailed", attempts: policy.maxRetries });
  // Doubling from the first delay, capped.
  assert.deepEqual(timers.delays, [250, 500, 700]);
});

test("the stable period resets the count: a server that ran that long gets the whole budget again", async () => {
  const timers = fakeTimers();
  const policy = { maxRetries: 2, initialDelayMs: 10, maxDelayMs: 10, stableAfterMs: 60_000 };
  // exit-mid-call: it crashes when the test calls a tool, so the test says when each crash comes.
  const { client, connection, events } = await crashLoop(["exit-mid-call"], policy, timers);
  const crashAndRestart = async () => {
    const restarted = new Promise((resolve) => client.once("restarted", resolve));
    await assert.rejects(client.callTool("t"));
    await restarted;
  };
  for (let i = 0; i < 3; i++) {
    await crashAndRestart();
    timers.time += policy.stableAfterMs;
  }
  assert.deepEqual(events.filter((e) => e.name === "restarting").map((e) => e.attempt), [1, 1, 1], "each crash after a stable run is the first");
  // Now two crashes within the period: the second restart is attempt 2, the third crash gives up.
  await crashAndRestart();
  await crashAndRestart();
  const failed = new Promise<{ attempts: number }>((resolve) => client.once("restartFailed", resolve));
  await assert.rejects(client.callTool("t"));
  assert.equal((await failed).attempts, policy.maxRetries);
  assert.deepEqual(events.filter((e) => e.name === "restarting").map((e) => e.attempt), [1, 1, 1, 1, 2]);
  await connection.close();
});

test("failed starts and early exits count together against one budget", async () => {
  const timers = fakeTimers();
  const { client, connection, events } = await crashLoop(["exit-mid-call"], { maxRetries: DEFAULT_RESTART.maxRetries }, timers);
  const restarted = new Promise((resolve) => client.once("restarted", resolve));
  await assert.rejects(client.callTool("t"));
  await restarted;
  // From now on every start fails: the program is gone.
  (connection.parameters as { args: string[] }).args = ["/nonexistent/server.mjs"];
  const failed = new Promise<{ attempts: number }>((resolve) => client.once("restartFailed", resolve));
  await assert.rejects(client.callTool("t"));
  assert.equal((await failed).attempts, DEFAULT_RESTART.maxRetries);
  assert.deepEqual(events.filter((e) => e.name === "restarting").map((e) => e.attempt), [1, 2, 3]);
  await connection.close();
});

test("close() while a restart is starting the server again: nothing more is restarted or reported", async () => {
  const timers = fakeTimers();
  let connection: StdioServerConnection | undefined;
  let closing: Promise<void> | undefined;
  // The restart's wait ends, and close() comes while the new server is starting.
  const closingTimers: RestartTimers = {
    now: timers.now,
    setTimeout: (fire, ms) => timers.setTimeout(() => { fire(); setImmediate(() => (closing = connection!.close())); }, ms),
    clearTimeout: timers.clearTimeout,
  };
  const client = new McpClient(info, { protocolVersion: "2025-11-25" });
  connection = new StdioServerConnection(client, { command: process.execPath, args: [MINIMAL, "exit-mid-call"], graceMs: 200 }, { maxRetries: 3 }, closingTimers);
  const events: string[] = [];
  for (const event of ["restarting", "restarted", "restartFailed"]) client.on(event, () => events.push(event));
  await connection.start();
  await assert.rejects(client.callTool("t"));
  while (!closing) await new Promise((resolve) => setImmediate(resolve));
  await closing;
  // The start that close() cut short has failed by now (the close failed its initialize); a few
  // turns more for whatever its failure would set off.
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(events, ["restarting"]);
});
