// A 2026-07-28 server may end a client's listen with notifications/cancelled naming the listen's id
// (one of *our* requests): the call waiting on it ends with EndedByPeerError. A cancel naming any
// other request of ours changes nothing, and one naming the peer's own request stays a cancellation.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/cancellation and basic/patterns/subscriptions#cancellation
import { test } from "node:test";
import assert from "node:assert/strict";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import { EndedByPeerError } from "../../src/protocol/our-requests.js";
import { Connection, type RequestContext } from "../../src/protocol/connection.js";
import { RawPeer, settle } from "../helpers/raw-peer.js";

function open(): { peer: RawPeer; connection: Connection } {
  const peer = new RawPeer();
  const connection = new Connection(peer, { dispatcher: new Dispatcher<RequestContext>([]) });
  connection.start();
  return { peer, connection };
}

test("ended by the peer: a notifications/cancelled naming our listen ends it with EndedByPeerError", async () => {
  const { peer, connection } = open();
  const listen = connection.request("subscriptions/listen", { notifications: {} }, { timeouts: { idleMs: Infinity, maxTotalMs: Infinity } });
  await settle();
  const id = (peer.sent[0] as { id: number }).id;
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "server shutting down" } });
  const error = await listen.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof EndedByPeerError, String(error));
  assert.match(error.message, /subscriptions\/listen: the peer ended it \(notifications\/cancelled: server shutting down\)/);
  await connection.close();
});

test("ended by the peer: a cancel naming another request of ours changes nothing", async () => {
  const { peer, connection } = open();
  const call = connection.request("tools/call", { name: "t" });
  await settle();
  const id = (peer.sent[0] as { id: number }).id;
  peer.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });
  await settle();
  peer.write({ jsonrpc: "2.0", id, result: { content: [] } });
  assert.deepEqual(await call, { content: [] });
  await connection.close();
});
