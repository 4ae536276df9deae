// The connection limits of listen(): slow or half-sent requests are answered 408 and dropped after
// the (small, configured) header and request timeouts, a full house makes the peer that waited
// longest without a request yield its slot, only a house of busy sockets refuses with 503, an
// oversized head gets 431, and two Host headers get 400. Every refusal carries a JSON-RPC error.
// Responses are not timed: an SSE-like stream outlives the request timeout.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { connectionLimits } from "../../src/http/connections.js";
import { listen, originOf, type Listening, type ListenOptions } from "../../src/http/node.js";
import { eventually, raw, withinLimit } from "../helpers/http-peer.js";

/** A raw socket: what it received, and a promise for its closing. */
interface RawPeer {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
}

/** Connects and sends `text` (say, half a request head), then leaves the socket as it is. */
async function rawPeer(origin: string, text: string): Promise<RawPeer> {
  const url = new URL(origin);
  const socket = connect(Number(url.port), url.hostname);
  let received = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (received += chunk));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(text);
  return { socket, received: () => received, closed };
}

const HALF_HEAD = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n";

/** The status line and JSON-RPC error of a raw HTTP response. */
function parseRaw(text: string): { status: number; error: { code: number; message: string } } {
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1]);
  const body = text.slice(text.indexOf("\r\n\r\n") + 4);
  return { status, error: JSON.parse(body).error };
}

async function serveOk(options: ListenOptions): Promise<Listening> {
  return listen(async () => new Response("ok"), options);
}

test("listen: peers that send half a head get 408 after headersTimeoutMs and are dropped; a legitimate request then succeeds", async () => {
  const listening = await serveOk({ maxConnections: 5, headersTimeoutMs: 200, requestTimeoutMs: 400 });
  try {
    const slow = await Promise.all(Array.from({ length: 5 }, () => rawPeer(listening.origin, HALF_HEAD)));
    await withinLimit("the slow peers to be dropped", Promise.all(slow.map((peer) => peer.closed)));
    for (const peer of slow) {
      const answer = parseRaw(peer.received());
      assert.equal(answer.status, 408);
      assert.match(answer.error.message, /request timeout: the request head did not arrive within 200 ms/);
    }
    assert.equal((await raw(listening.origin, { method: "GET", path: "/" })).body, "ok");
  } finally {
    await listening.close();
  }
});

test("listen: with every slot held by peers that sent no full head, a new client takes the slot of the one that waited longest", async () => {
  // The header timeout is long: the legitimate client must not have to wait for it.
  const listening = await serveOk({ maxConnections: 3, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
  try {
    const slow: RawPeer[] = [];
    for (let i = 0; i < 3; i++) slow.push(await rawPeer(listening.origin, HALF_HEAD));
    const reply = await withinLimit("a legitimate request", raw(listening.origin, { method: "GET", path: "/" }));
    assert.equal(reply.body, "ok");
    // The oldest slow peer yielded, without an answer (it never asked anything complete); the
    // legitimate client's connection has closed since, so the others keep their slots.
    await withinLimit("the oldest slow peer to be dropped", slow[0]!.closed);
    assert.equal(slow[0]!.received(), "");
    assert.equal(slow[1]!.socket.destroyed || slow[2]!.socket.destroyed, false);
  } finally {
    await listening.close();
  }
});

test("listen: when every slot is busy answering, a new connection gets 503 with a JSON-RPC error; once one frees, it is served", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = 0;
  const listening = await listen(async (request) => {
    if (new URL(request.url).pathname === "/hold") {
      holding++;
      await released;
    }
    return new Response("ok");
  }, { maxConnections: 2 });
  try {
    const held = [raw(listening.origin, { method: "GET", path: "/hold" }), raw(listening.origin, { method: "GET", path: "/hold" })];
    // Both requests are being answered (busy), not merely connected (which could yield their slots).
    await eventually("both held requests to reach the handler", () => holding === 2);
    const refused = await rawPeer(listening.origin, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await withinLimit("the refusal", refused.closed);
    const answer = parseRaw(refused.received());
    assert.equal(answer.status, 503);
    assert.match(answer.error.message, /all 2 connections are in use/);
    release();
    for (const reply of await Promise.all(held)) assert.equal(reply.body, "ok");
    assert.equal((await raw(listening.origin, { method: "GET", path: "/" })).body, "ok");
  } finally {
    await listening.close();
  }
});

test("listen: a body slower than requestTimeoutMs gets 408; a response streaming longer than that is not cut", async () => {
  const listening = await listen(async (request) => {
    if (request.method === "POST") return new Response(await request.text());
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        controller.enqueue(new TextEncoder().encode(`tick ${++n}\n`));
        if (n === 10) controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }, { headersTimeoutMs: 100, requestTimeoutMs: 200 });
  try {
    const slowBody = await rawPeer(listening.origin, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: text/plain\r\ncontent-length: 10\r\n\r\nabc");
    await withinLimit("the slow body to be refused", slowBody.closed);
    const answer = parseRaw(slowBody.received());
    assert.equal(answer.status, 408);
    assert.match(answer.error.message, /the request did not arrive whole within 200 ms/);

    // Ten ticks 50 ms apart: 500 ms, more than twice the request timeout.
    const response = await fetch(listening.origin + "/stream");
    assert.equal((await response.text()).trim().split("\n").length, 10);
  } finally {
    await listening.close();
  }
});

test("listen: a request head over maxHeaderBytes gets 431 with a JSON-RPC error", async () => {
  const listening = await serveOk({ maxHeaderBytes: 1024 });
  try {
    const peer = await rawPeer(listening.origin, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nx-filler: ${"a".repeat(2000)}\r\n\r\n`);
    await withinLimit("the refusal", peer.closed);
    const answer = parseRaw(peer.received());
    assert.equal(answer.status, 431);
    assert.match(answer.error.message, /header fields too large: the limit is 1024 bytes/);
  } finally {
    await listening.close();
  }
});

test("listen: a malformed request gets 400 with a JSON-RPC error", async () => {
  const listening = await serveOk({});
  try {
    const peer = await rawPeer(listening.origin, "NOT HTTP AT ALL\r\n\r\n");
    await withinLimit("the refusal", peer.closed);
    const answer = parseRaw(peer.received());
    assert.equal(answer.status, 400);
    assert.match(answer.error.message, /bad request: malformed HTTP/);
  } finally {
    await listening.close();
  }
});

test("node adapter: a request with two Host headers gets 400, whichever comes first (RFC 9112 section 3.2)", async () => {
  let handled = 0;
  const listening = await listen(async () => (handled++, new Response("ok")));
  try {
    for (const hosts of [["127.0.0.1", "evil.example"], ["evil.example", "127.0.0.1"], ["127.0.0.1", "127.0.0.1"]]) {
      const peer = await rawPeer(listening.origin, `GET / HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join("")}Connection: close\r\n\r\n`);
      await withinLimit("the answer", peer.closed);
      const answer = parseRaw(peer.received());
      assert.equal(answer.status, 400, JSON.stringify(hosts));
      assert.match(answer.error.message, /more than one Host/);
    }
    assert.equal(handled, 0, "the handler never saw them");
  } finally {
    await listening.close();
  }
});

test("connectionLimits: defaults, and values node:http would refuse are refused up front with their name", () => {
  assert.deepEqual(connectionLimits({}), { maxConnections: 2048, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxHeaderBytes: 16 * 1024 });
  assert.throws(() => connectionLimits({ headersTimeoutMs: 500, requestTimeoutMs: 200 }), /headersTimeoutMs \(500\) must not exceed requestTimeoutMs \(200\)/);
  // Given alone, one timeout carries the other's default along rather than clash with it.
  assert.equal(connectionLimits({ headersTimeoutMs: 60_000 }).requestTimeoutMs, 60_000);
  assert.equal(connectionLimits({ requestTimeoutMs: 200 }).headersTimeoutMs, 200);
  assert.throws(() => connectionLimits({ maxConnections: 0 }), /maxConnections must be a positive whole number/);
  assert.throws(() => connectionLimits({ keepAliveTimeoutMs: 1.5 }), /keepAliveTimeoutMs/);
});

test("originOf: a server on every interface is reached at this machine's loopback address", () => {
  assert.equal(originOf("0.0.0.0", 3000), "http://127.0.0.1:3000");
  assert.equal(originOf("::", 3000), "http://[::1]:3000");
  assert.equal(originOf("127.0.0.1", 80), "http://127.0.0.1:80");
  assert.equal(originOf("::1", 8080), "http://[::1]:8080");
  assert.equal(originOf("localhost", 1), "http://localhost:1");
});
