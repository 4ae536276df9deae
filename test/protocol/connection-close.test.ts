// Connection.close over the three kinds of transport close: one that stops at once
// (CLOSED_AT_ONCE, as an HTTP session's does), one that takes time, one that throws; and the
// close listeners, each run once, in order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import { Connection, type RequestContext } from "../../src/protocol/connection.js";
import { CLOSED_AT_ONCE, type Transport, type TransportHandlers } from "../../src/protocol/transport.js";

/** A connection over a transport whose close is `close` (handed the handlers the connection gave it). */
function connectionOver(close: (handlers: TransportHandlers) => Promise<void>): { connection: Connection; closed: string[] } {
  let handlers: TransportHandlers | undefined;
  const transport: Transport = { start: (h) => void (handlers = h), send: () => Promise.resolve(), close: () => close(handlers!) };
  const connection = new Connection(transport, { dispatcher: new Dispatcher<RequestContext>([]) });
  const closed: string[] = [];
  connection.onClose(() => closed.push("first"));
  connection.onClose(() => closed.push("second"));
  connection.start();
  return { connection, closed };
}

test("connection close: a transport that stopped at once is not waited for: closed, its listeners run once, when close() returns", () => {
  const { connection, closed } = connectionOver((handlers) => (handlers.close(), CLOSED_AT_ONCE));
  const closing = connection.close();
  assert.equal(closing, CLOSED_AT_ONCE);
  assert.equal(connection.isClosed, true);
  assert.deepEqual(closed, ["first", "second"]);
});

test("connection close: a transport that takes time to close is waited for, and the listeners still run once", async () => {
  let finish: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (finish = resolve));
  const { connection, closed } = connectionOver(() => stopped);
  const closing = connection.close();
  assert.notEqual(closing, CLOSED_AT_ONCE);
  assert.equal(connection.isClosed, false);
  finish!();
  await closing;
  assert.equal(connection.isClosed, true);
  assert.deepEqual(closed, ["first", "second"]);
  await connection.close();
  assert.deepEqual(closed, ["first", "second"]);
});

test("connection close: a transport whose close throws makes close() reject, not throw", async () => {
  const { connection } = connectionOver(() => {
    throw new Error("close failed");
  });
  let closing: Promise<void> | undefined;
  assert.doesNotThrow(() => (closing = connection.close()));
  await assert.rejects(closing!, /close failed/);
});
