// The node:http adapter tells a handler when its client left: request.signal aborts when the
// response closes before it was written whole (how a 2026-07-28 request learns it was cancelled,
// Spec: 2026-07-28 basic/transports/streamable-http#cancellation), and never after a whole answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { listen } from "../../src/http/node.js";
import { eventually } from "../helpers/http-peer.js";

test("node adapter: request.signal aborts when the client leaves before the answer", async () => {
  let signal: AbortSignal | undefined;
  const server = await listen(async (request) => {
    signal = request.signal;
    // Answers only once the client is gone.
    await new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve(), { once: true }));
    return new Response("late");
  });
  try {
    const controller = new AbortController();
    const pending = fetch(server.origin + "/", { signal: controller.signal });
    await eventually("the handler to run", () => signal !== undefined);
    assert.equal(signal!.aborted, false);
    controller.abort();
    await assert.rejects(pending);
    await eventually("the signal to abort", () => signal!.aborted);
  } finally {
    await server.close();
  }
});

test("node adapter: request.signal stays quiet once the whole answer was written", async () => {
  let signal: AbortSignal | undefined;
  const server = await listen(async (request) => {
    signal = request.signal;
    return new Response("whole", { headers: { "content-length": "5" } });
  });
  try {
    const response = await fetch(server.origin + "/");
    assert.equal(await response.text(), "whole");
    // The connection ends too: its close must not read as the client leaving early.
    await server.close();
    assert.equal(signal!.aborted, false);
  } finally {
    await server.close();
  }
});
