// The listen's own id and how it ends: only notifications tagged with the open listen's request
// id are heard (a forged or stale acknowledgement changes nothing), a server that cancels the
// listen ends it as its result does, and a broken stream is re-opened with backoff
// (basic/patterns/subscriptions#cancellation, #graceful-closure).
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { LISTEN_RETRY } from "../../src/client/modern/listen.js";
import { listens, listenServer, SUB, type Sent } from "../helpers/client-modern-peer.js";

const info = { name: "test-client", version: "1.0.0" };
/** Lets queued deliveries (setImmediate) and their promise chains run; no timer, so mock timers do not stop it. */
const settle = async () => { for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve)); };

/** A client connected to listenServer(), its listen sent, and the problems it reports. */
async function listening(server = listenServer()) {
  const problems: string[] = [];
  const client = new McpClient(info, { onProblem: (p) => problems.push(p) });
  await client.connect(server);
  await settle();
  return { client, problems };
}

test("a forged acknowledgement (another subscriptionId) neither silences the listen nor counts as its acknowledgement", async () => {
  const server = listenServer();
  const { client, problems } = await listening(server);
  const id = listens(server)[0]!.id;
  const acknowledged: unknown[] = [];
  client.on("subscriptionsAcknowledged", (filter) => acknowledged.push(filter));
  server.deliver({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: {}, _meta: { [SUB]: 999 } } });
  await settle();
  assert.deepEqual(acknowledged, [], "not ours: no event, no 'did not honour'");
  assert.ok(!problems.some((p) => /did not honour/.test(p)), problems.join("\n"));

  let changes = 0;
  client.on("toolsChanged", () => changes++);
  server.deliver({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: id } } });
  await settle();
  assert.equal(changes, 1, "the open listen's notifications are still heard");
  await client.close();
});

test("untagged or foreign-tagged list changes are dropped in 2026-07-28, reported once", async () => {
  const server = listenServer();
  const { client, problems } = await listening(server);
  let changes = 0;
  client.on("toolsChanged", () => changes++);
  server.deliver(
    { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: "someone-else" } } },
  );
  await settle();
  assert.equal(changes, 0);
  assert.equal(problems.filter((p) => /dropped a notification with no subscriptionId/.test(p)).length, 1, problems.join("\n"));
  assert.equal(problems.filter((p) => /dropped a notification/.test(p)).length, 1, "once");
  await client.close();
});

test("a late acknowledgement of the listen just replaced is not taken for the new one's (no 'did not honour')", async () => {
  const server = listenServer(undefined, (m) => m === listens(server)[0]);
  const { client, problems } = await listening(server);
  const first = listens(server)[0]!;
  let subscribed = false;
  void client.subscribe("file:///a.txt").then(() => (subscribed = true));
  server.deliver({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: { [SUB]: first.id } } });
  await settle();
  assert.deepEqual(problems, [], "the stale acknowledgement is dropped quietly");
  assert.equal(subscribed, false, "subscribe() waits for the new listen's own acknowledgement");
  await client.close();
  assert.equal(subscribed, true, "and close() ends the wait");
});

test("a server that ends the listen with notifications/cancelled: re-opened, as when it answers", async () => {
  const server = listenServer();
  const { client, problems } = await listening(server);
  server.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: listens(server)[0]!.id, reason: "shutting down" } });
  await settle();
  assert.equal(listens(server).length, 2, "re-opened");
  assert.deepEqual(problems, []);
  await client.close();
});

test("a listen whose stream broke is re-opened after a doubling delay; an acknowledgement resets the count; past the bound it is reported", async (t) => {
  const problems: string[] = [];
  let breakNext = 2;
  const server = listenServer(undefined, () => breakNext === 0);
  const send = server.send.bind(server);
  server.send = async (message, options) => {
    const sent = message as Sent;
    await send(message, options);
    if (sent.method === "subscriptions/listen" && breakNext > 0) {
      breakNext--;
      throw new Error("the response stream broke");
    }
  };
  const client = new McpClient(info, { onProblem: (p) => problems.push(p) });
  await client.connect(server);
  t.mock.timers.enable({ apis: ["setTimeout"] });
  await settle();
  assert.equal(listens(server).length, 1);
  t.mock.timers.tick(LISTEN_RETRY.firstDelayMs - 1);
  await settle();
  assert.equal(listens(server).length, 1, "not before the first delay");
  t.mock.timers.tick(1);
  await settle();
  assert.equal(listens(server).length, 2, "re-opened after the first delay, with a new id");
  assert.notEqual(listens(server)[1]!.id, listens(server)[0]!.id);
  t.mock.timers.tick(LISTEN_RETRY.firstDelayMs * 2);
  await settle();
  assert.equal(listens(server).length, 3, "after twice the delay; this one is acknowledged");
  assert.deepEqual(problems, []);

  // Acknowledged: the count of breaks starts again (maxInARow more), but no notification came,
  // so the delay goes on doubling: a listen that never brings anything is not re-opened in a hurry.
  breakNext = Infinity;
  server.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: listens(server)[2]!.id } });
  await settle();
  t.mock.timers.tick(LISTEN_RETRY.firstDelayMs * 2);
  await settle();
  assert.equal(listens(server).length, 4, "the server's cancel: re-opened (and this one breaks)");
  for (let i = 0; i < LISTEN_RETRY.maxInARow; i++) {
    t.mock.timers.tick(Math.min(LISTEN_RETRY.firstDelayMs * 2 ** (3 + i), LISTEN_RETRY.maxDelayMs));
    await settle();
    assert.equal(listens(server).length, 5 + i);
  }
  assert.ok(problems.some((p) => /the response stream broke; no longer listening/.test(p)), problems.join("\n"));
  t.mock.timers.tick(LISTEN_RETRY.maxDelayMs);
  await settle();
  assert.equal(listens(server).length, 4 + LISTEN_RETRY.maxInARow, "no more");
  t.mock.timers.reset();
  await client.close();
});

test("a server that ends each listen: re-opened at once after a notification was heard, ever more slowly when none was", async (t) => {
  const server = listenServer();
  const { client, problems } = await listening(server);
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const end = (n: number) => server.deliver({ jsonrpc: "2.0", id: listens(server)[n]!.id, result: { resultType: "complete", _meta: { [SUB]: listens(server)[n]!.id } } });
  end(0);
  await settle();
  assert.equal(listens(server).length, 2, "the first end: re-opened at once");
  server.deliver({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: listens(server)[1]!.id } } });
  end(1);
  await settle();
  assert.equal(listens(server).length, 3, "acknowledged and heard from: at once again");
  end(2);
  await settle();
  assert.equal(listens(server).length, 3, "acknowledged but silent: not at once");
  t.mock.timers.tick(LISTEN_RETRY.firstDelayMs);
  await settle();
  assert.equal(listens(server).length, 4);
  end(3);
  await settle();
  t.mock.timers.tick(LISTEN_RETRY.firstDelayMs * 2 - 1);
  await settle();
  assert.equal(listens(server).length, 4, "the delay doubled");
  t.mock.timers.tick(1);
  await settle();
  assert.equal(listens(server).length, 5);
  assert.deepEqual(problems, []);
  t.mock.timers.reset();
  await client.close();
});
