// The trace wrapper is transparent both ways: what the connection tells its transport (a request
// that will not be answered, input to pause and resume) reaches the transport it wraps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { traceTransport } from "../../src/protocol/trace.js";
import { RawPeer } from "../helpers/raw-peer.js";

test("trace: unanswered, pauseInput and resumeInput reach the wrapped transport", () => {
  const inner = new RawPeer();
  const traced = traceTransport(inner, () => {});
  traced.pauseInput?.();
  assert.equal(inner.paused, true);
  traced.resumeInput?.();
  assert.equal(inner.paused, false);
  traced.unanswered?.(7);
  assert.deepEqual(inner.unansweredIds, [7]);
});

test("trace: a listener for new sessions reaches the wrapped transport, so --trace keeps state restoration", () => {
  const listeners: (() => void)[] = [];
  const inner = Object.assign(new RawPeer(), { onNewSession: (listener: () => void) => void listeners.push(listener) });
  const traced = traceTransport(inner, () => {});
  let renewed = 0;
  traced.onNewSession?.(() => renewed++);
  assert.equal(listeners.length, 1);
  listeners[0]!();
  assert.equal(renewed, 1);
});
