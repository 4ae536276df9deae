// node:http's own path (http/node-exchange.ts), what the shared HTTP tests cannot see from the
// outside: no Fetch API object is made per request, a body is parsed once, a body refused at its
// limit closes the connection instead of being read on, a body split inside a UTF-8 character
// still decodes, and a POST stream the client stops reading ends at its backlog bound: what was
// written to the ServerResponse after the socket's buffers filled.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { request as httpRequest, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpHttpServer, type HttpAdapter, type HttpServerOptions } from "../../src/http/server.js";
import { ResponseOutput } from "../../src/http/node-exchange.js";
import type { McpServer } from "../../src/server/definition.js";
import { ACCEPT_BOTH, eventually, initializeRequest, notification, openSession, request, withinLimit } from "../helpers/http-peer.js";

async function served(adapter: HttpAdapter, options: HttpServerOptions = {}, mcp: McpServer = createDemoServer()) {
  const http = new McpHttpServer(mcp, options);
  const listening = await http.listen({ adapter });
  return { listening, url: `${listening.origin}/mcp`, close: async () => (await http.close(), await listening.close()) };
}

/** One POST with node:http (not fetch, which makes Fetch API objects of its own), read to its end. */
function rawPost(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return withinLimit("a raw POST", new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", agent: false, headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  }));
}

const FETCH_CLASSES = ["Request", "Response", "Headers", "ReadableStream", "AbortController"] as const;

/** Counts the Fetch API objects made while `run` runs, by standing counting subclasses in for the globals. */
async function fetchObjectsMadeBy(run: () => Promise<void>): Promise<number> {
  const globals = globalThis as unknown as Record<string, new (...args: unknown[]) => object>;
  const originals = FETCH_CLASSES.map((name) => globals[name]!);
  let made = 0;
  FETCH_CLASSES.forEach((name, i) => {
    globals[name] = class extends originals[i]! {
      constructor(...args: unknown[]) {
        super(...args);
        made++;
      }
    };
  });
  try {
    await run();
  } finally {
    FETCH_CLASSES.forEach((name, i) => (globals[name] = originals[i]!));
  }
  return made;
}

const ECHO = JSON.stringify(request(2, "tools/call", { name: "echo", arguments: { text: "hi" } }));

test("node path: a POST body is parsed once: the HTTP rules read it, and the session takes the items they read", async () => {
  const server = await served("node");
  const parse = JSON.parse;
  let parsedBody = 0;
  try {
    const init = await rawPost(server.url, JSON.stringify(initializeRequest()), {});
    const headers = { "mcp-session-id": String(init.headers["mcp-session-id"]), "mcp-protocol-version": "2025-11-25" };
    await rawPost(server.url, JSON.stringify(notification("notifications/initialized")), headers);
    JSON.parse = (text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      if (text === ECHO) parsedBody++;
      return parse(text, reviver);
    };
    const reply = await rawPost(server.url, ECHO, headers);
    JSON.parse = parse;
    assert.match(reply.body, /echo: hi/);
    assert.equal(parsedBody, 1);
  } finally {
    JSON.parse = parse;
    await server.close();
  }
});

for (const jsonResponses of [true, false]) {
  test(`node path: a tools/call answered with ${jsonResponses ? "JSON" : "SSE"} makes no Request, Response, Headers, ReadableStream or AbortController (the web path does)`, async () => {
    const made: Record<HttpAdapter, number> = { node: 0, web: 0 };
    for (const adapter of ["node", "web"] as const) {
      const server = await served(adapter, { jsonResponses });
      try {
        const init = await rawPost(server.url, JSON.stringify(initializeRequest()), {});
        const headers = { "mcp-session-id": String(init.headers["mcp-session-id"]), "mcp-protocol-version": "2025-11-25" };
        await rawPost(server.url, JSON.stringify(notification("notifications/initialized")), headers);
        made[adapter] = await fetchObjectsMadeBy(async () => {
          const reply = await rawPost(server.url, ECHO, headers);
          assert.equal(reply.status, 200);
          assert.match(reply.body, /echo: hi/);
        });
      } finally {
        await server.close();
      }
    }
    assert.equal(made.node, 0);
    assert.ok(made.web > 0, "the probe sees the web path's objects");
  });
}

test("node path: a body past maxBodyBytes gets 413 and the connection closes, rather than the rest being read", async () => {
  const server = await served("node", { maxBodyBytes: 1024 });
  try {
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    let received = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("error", () => {});
    // Chunked, so only counting can find it too large; the end is never sent.
    socket.write(`POST /mcp HTTP/1.1\r\nhost: ${url.host}\r\naccept: ${ACCEPT_BOTH}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    socket.write(`800\r\n${" ".repeat(0x800)}\r\n`);
    await withinLimit("the server to answer and close", closed);
    assert.match(received, /^HTTP\/1\.1 413 /);
    assert.match(received, /\r\nconnection: close\r\n/i);
    assert.match(received, /payload too large: the limit is 1024 bytes/);
  } finally {
    await server.close();
  }
});

test("node path: a body whose chunks split a UTF-8 character is decoded whole", async () => {
  const server = await served("node", { jsonResponses: true });
  try {
    const s = await openSession(server.url);
    const body = Buffer.from(JSON.stringify(request(5, "tools/call", { name: "echo", arguments: { text: "é€😀" } })));
    const cut = body.indexOf(Buffer.from("€")) + 1;
    const url = new URL(server.url);
    const answer = await withinLimit("the split body's answer", new Promise<string>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", agent: false, headers: { ...s.headers, accept: ACCEPT_BOTH, "content-type": "application/json", "content-length": String(body.length) } }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve(text));
      });
      req.on("error", reject);
      req.write(body.subarray(0, cut));
      setTimeout(() => req.end(body.subarray(cut)), 20);
    }));
    assert.equal(JSON.parse(answer).result.content[0].text, "echo: é€😀");
  } finally {
    await server.close();
  }
});

test("node path: a POST stream its client stops reading ends once more than maxStreamBacklogBytes were written while the socket was full; the work goes on", async () => {
  const mcp = createDemoServer();
  // Logs of 100 kB until the test has seen the stream cut (or 40 MB): loopback socket buffers take
  // a few MiB before the response's own backlog fills. A timer between them lets the priming
  // event out first, as a real handler's work would.
  let cut = false;
  let logs = 0;
  let finished = false;
  mcp.tool({ name: "flood", inputSchema: { type: "object" } }, async (_args, context) => {
    for (; logs < 400 && !cut; logs++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await context.log("info", `${logs} ${"x".repeat(100_000)}`);
    }
    finished = true;
    return { content: [{ type: "text", text: "flood: done" }] };
  });
  const server = await served("node", { maxStreamBacklogBytes: 64 * 1024 }, mcp);
  try {
    const s = await openSession(server.url);
    await s.call("level", "logging/setLevel", { level: "info" });
    const url = new URL(server.url);
    // A paused client never reads the end of its connection, so the cut is seen from the server's side.
    const closedOnServer = new Set<number>();
    server.listening.server.on("connection", (socket) => {
      const port = socket.remotePort!;
      socket.once("close", () => closedOnServer.add(port));
    });
    const opened = await withinLimit("the POST stream to open", new Promise<{ firstId: string; port: number; destroy: () => void }>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", agent: false, headers: { ...s.headers, accept: ACCEPT_BOTH, "content-type": "application/json" } }, (res) => {
        res.setEncoding("utf8").once("data", (chunk: string) => {
          // The priming event's id; after it, nothing is read.
          res.pause();
          resolve({ firstId: /^id: (.+)$/m.exec(chunk)![1]!, port: req.socket!.localPort!, destroy: () => req.destroy() });
        });
      });
      req.on("error", reject);
      req.end(JSON.stringify(request("f", "tools/call", { name: "flood", arguments: {} })));
    }));
    await eventually("the server to end the unread stream", () => closedOnServer.has(opened.port), 20_000);
    cut = true;
    opened.destroy();
    assert.ok(logs < 400, "the stream was cut before the flood ran out");
    // Spec (transports#sending-messages-to-the-server): a disconnect is not a cancellation; the
    // handler finishes, and the session goes on.
    await eventually("the handler to finish", () => finished, 20_000);
    assert.deepEqual((await s.call("after", "ping")).result, {});
  } finally {
    await server.close();
  }
});

test("node path: events written while the socket is full wait as one list and go to node in one write at 'drain', counted as the backlog", () => {
  // A ServerResponse whose socket is full until 'drain': what ResponseOutput reads of it and calls.
  const written: string[] = [];
  const res = Object.assign(new EventEmitter(), { writableNeedDrain: false, write: (text: string) => (written.push(text), (res.writableNeedDrain = true), false) });
  const output = new ResponseOutput(res as unknown as ServerResponse);
  let rooms = 0;
  output.onRoom = () => rooms++;
  output.write("data: first\n\n");
  // Each small event handed to node would be four buffered writes (chunked framing), several times its size.
  for (let i = 0; i < 1000; i++) output.write(`data: ${i}\n\n`);
  assert.equal(written.length, 1, "only the write that filled the socket reached node");
  assert.equal(output.backlog, Array.from({ length: 1000 }, (_, i) => Buffer.byteLength(`data: ${i}\n\n`)).reduce((a, b) => a + b));
  res.writableNeedDrain = false;
  res.emit("drain");
  assert.equal(written.length, 2);
  assert.equal(written[1], Array.from({ length: 1000 }, (_, i) => `data: ${i}\n\n`).join(""));
  // Handed to node while the socket is full again: still the client's to take, still the backlog.
  assert.equal(output.backlog, Buffer.byteLength(written[1]!));
  assert.equal(rooms, 1);
});
