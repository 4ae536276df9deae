// The node:http adapter for web-standard handlers: bodies stream both ways, a handler that throws
// becomes a 500, and clients that vanish mid-stream or mid-body do not take the server down (and,
// Spec (transports#sending-messages-to-the-server): a disconnect is not a cancellation).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { listen, toNodeListener } from "../../src/http/node.js";
import { formatEvent, SSE_HEADERS } from "../../src/http/sse.js";
import { SseSink } from "../../src/http/sse-sink.js";
import { ACCEPT_BOTH, eventually, messagesOf, openGet, openSession, raw, request, serve, SseReader, type Served, type Session } from "../helpers/http-peer.js";

// Anything thrown where nobody catches it would land here instead of silently passing.
const escaped: unknown[] = [];
const record = (error: unknown) => void escaped.push(error);
before(() => {
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
});
after(() => {
  process.off("uncaughtException", record);
  process.off("unhandledRejection", record);
});

/** Starts a raw POST and resolves with the response once its first body chunk has arrived. */
function startPost(origin: string, session: Session, body: object): Promise<{ req: ClientRequest; res: IncomingMessage; first: string }> {
  const url = new URL("/mcp", origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent: false, headers: { ...session.headers, accept: ACCEPT_BOTH, "content-type": "application/json" } }, (res) => {
      res.once("data", (chunk: Buffer) => resolve({ req, res, first: chunk.toString("utf8") }));
    });
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end(JSON.stringify(body));
  });
}

/** Resolves when the server side has seen `count` connections close. */
function serverSideCloses(served: Served, count: number): Promise<void> {
  let closed = 0;
  return new Promise((resolve) => {
    served.listening.server.on("connection", (socket) => socket.on("close", () => ++closed === count && resolve()));
  });
}

test("node adapter: a client that disconnects mid-stream does not crash the server; the work goes on and can be resumed", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const closes = serverSideCloses(served, 1);
    const { req, first } = await startPost(served.origin, s, request("cd", "tools/call", { name: "countdown", arguments: { steps: 5, intervalMs: 5 }, _meta: { progressToken: "t" } }));
    const priming = /^id: (.+)$/m.exec(first)?.[1];
    assert.ok(priming, `the first chunk is the priming event: ${JSON.stringify(first)}`);
    req.destroy();
    await closes;

    // The server still serves, and the countdown, never cancelled, finishes on its stream.
    assert.deepEqual((await s.call("after", "ping")).result, {});
    const resumed = await openGet(served.url, { ...s.headers, "last-event-id": priming });
    assert.equal(resumed.status, 200);
    const messages = messagesOf(await new SseReader(resumed.body!).rest());
    assert.equal(messages.at(-1)?.id, "cd");
    assert.equal(messages.at(-1)?.result.content[0].text, "countdown: done after 5 steps");
    assert.deepEqual(escaped, []);
  } finally {
    await served.close();
  }
});

test("node adapter: a dropped GET stream followed by notifications does not crash the server", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const closes = serverSideCloses(served, 1);
    const url = new URL("/mcp", served.origin);
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "GET", agent: false, headers: { ...s.headers, accept: "text/event-stream" } });
    req.on("error", () => {});
    req.end();
    await new Promise<void>((resolve) => req.on("response", (res) => res.once("data", () => resolve())));
    req.destroy();
    await closes;
    for (let i = 0; i < 5; i++) served.mcp.tool({ name: `late_${i}`, inputSchema: { type: "object" } }, () => ({ content: [] }));
    assert.equal((await s.call("list", "tools/list")).result.tools.length, 12);
    assert.deepEqual(escaped, []);
  } finally {
    await served.close();
  }
});

test("node adapter: a client that disconnects mid-body does not crash the server", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const closes = serverSideCloses(served, 1);
    const url = new URL("/mcp", served.origin);
    const req = httpRequest({
      host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent: false,
      headers: { ...s.headers, accept: ACCEPT_BOTH, "content-type": "application/json", "content-length": "1000" },
    });
    req.on("error", () => {});
    req.write('{"jsonrpc":"2.0","id":1,');
    await new Promise((resolve) => req.once("socket", (socket) => (socket.connecting ? socket.once("connect", resolve) : resolve(undefined))));
    req.destroy();
    await closes;
    assert.deepEqual((await s.call("after", "ping")).result, {});
    assert.deepEqual(escaped, []);
  } finally {
    await served.close();
  }
});

test("node adapter: a handler that throws becomes a 500 with the reason", async () => {
  const listening = await listen(async () => {
    throw new Error("boom");
  });
  try {
    const reply = await raw(listening.origin, { method: "GET", path: "/" });
    assert.equal(reply.status, 500);
    assert.match(reply.body, /boom/);
  } finally {
    await listening.close();
  }
});

test("node adapter: response bodies stream (the first chunk arrives before the handler finishes)", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer(
    toNodeListener(async () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("one\n"));
          await released;
          controller.enqueue(new TextEncoder().encode("two\n"));
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.equal(first, "one\n");
    release();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    assert.equal(rest, "two\n");
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("node adapter: request bodies reach the handler, and the handler sees the Host header as sent", async () => {
  const listening = await listen(async (request) => new Response(`${request.method} ${request.headers.get("host")} ${await request.text()}`));
  try {
    const reply = await raw(listening.origin, { method: "POST", path: "/x", headers: { host: "example.test:81", "content-type": "text/plain" }, body: "hello" });
    assert.equal(reply.body, "POST example.test:81 hello");
  } finally {
    await listening.close();
  }
});

test("listen: binds to 127.0.0.1 by default", async () => {
  const listening = await listen(async () => new Response("ok"));
  try {
    assert.match(listening.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((listening.server.address() as AddressInfo).address, "127.0.0.1");
  } finally {
    await listening.close();
  }
});

test("node adapter: backpressure: while the client reads nothing, the adapter stops reading the response stream", async () => {
  // A producer with no end of its own: without backpressure the adapter would pull it into the
  // socket's buffer as fast as it can. It stops by itself at CEILING, to bound the test's memory.
  const CHUNK = 64 * 1024;
  const CEILING = 64 * 1024 * 1024;
  let pulled = 0;
  let lastPull = Date.now();
  const listening = await listen(async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= CEILING) return new Promise<void>(() => {});
        pulled += CHUNK;
        lastPull = Date.now();
        controller.enqueue(new Uint8Array(CHUNK));
      },
    }, { highWaterMark: 0 });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  try {
    const url = new URL(listening.origin);
    const req = httpRequest({ host: url.hostname, port: url.port, path: "/", agent: false });
    req.on("error", () => {});
    // Take the response head, then read nothing more.
    const responded = new Promise<void>((resolve) => req.on("response", (res) => (res.pause(), resolve())));
    req.end();
    await responded;
    // Wait until the pulling has stopped (nothing pulled for a while) or hit the ceiling.
    await eventually("the pulling to stop", () => pulled >= CEILING || Date.now() - lastPull > 300, 20_000);
    assert.ok(pulled < CEILING, `the adapter pulled ${pulled} bytes that nobody read`);
    req.destroy();
  } finally {
    await listening.close();
  }
});

test("node adapter: a client that left while the handler ran: the response stream is cancelled, so its sink sees the client gone", async () => {
  // The handler answers only after the client's socket has closed, as a slow POST would whose
  // client sent its body and left: the 'close' event is over before the adapter writes anything.
  let socketClosed!: () => void;
  const clientLeft = new Promise<void>((resolve) => (socketClosed = resolve));
  let gone = false;
  const server = createServer(toNodeListener(async (request) => {
    await request.text();
    await clientLeft;
    const sink = new SseSink(() => (gone = true));
    sink.write(formatEvent({ event: "message", data: "late" }));
    return new Response(sink.body, { headers: SSE_HEADERS });
  }));
  server.on("connection", (socket) => socket.on("close", () => socketClosed()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent: false, headers: { "content-type": "application/json" } });
    req.on("error", () => {});
    req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    await new Promise((resolve) => req.once("finish", resolve));
    req.destroy();
    await eventually("the sink to see the client gone", () => gone);
    assert.deepEqual(escaped, []);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
