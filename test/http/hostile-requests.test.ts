// What a review of the node:http fast path found (issue 10), on both adapters (npm test runs
// test/http through each): a request target the URL parser cannot read is the client's mistake
// (400), never an exception that ends the process; a refusal given before a small body was read
// keeps the connection for the request behind it; and a stream's backlog bound counts what piles up
// while the socket is full, not an event being sent to a client that reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { McpServer, text } from "../../src/server/definition.js";
import { ACCEPT_BOTH, initializeRequest, messagesOf, openSession, request, serve, SseReader, withinLimit } from "../helpers/http-peer.js";

/** Writes `bytes` on one connection and returns everything the server sends until it closes or `quietMs` pass. */
function exchange(origin: string, bytes: string, quietMs = 300): Promise<string> {
  const { hostname, port } = new URL(origin);
  return withinLimit("a raw exchange", new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let received = "";
    let timer = setTimeout(() => socket.end(), quietMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
      clearTimeout(timer);
      timer = setTimeout(() => socket.end(), quietMs);
    });
    socket.on("close", () => (clearTimeout(timer), resolve(received)));
    socket.on("error", reject);
  }));
}

test("hostile requests: a request target the URL parser cannot read gets 400, and the server goes on answering", async () => {
  const served = await serve();
  try {
    for (const target of ["//", "//%zz/", "/\\\\", "http://[x]/mcp", "http://h:99999/mcp"]) {
      const reply = await exchange(served.origin, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      assert.match(reply, /^HTTP\/1\.1 400 /, `${target}: ${reply.slice(0, 80)}`);
      assert.match(reply, /the request target is not a URL/);
    }
    const s = await openSession(served.url);
    assert.equal((await s.call(1, "ping")).id, 1);
  } finally {
    await served.close();
  }
});

test("hostile requests: a refusal given before a small body was read keeps the connection, so a request pipelined behind it is answered", async () => {
  const served = await serve();
  try {
    const refused = JSON.stringify(request(1, "ping"));
    const init = JSON.stringify(initializeRequest(2));
    const host = new URL(served.origin).host;
    // The first POST asks for JSON only (406); the second is a proper initialize, on the same connection.
    const reply = await exchange(served.origin,
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(refused)}\r\n\r\n${refused}` +
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAccept: ${ACCEPT_BOTH}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(init)}\r\n\r\n${init}`, 500);
    assert.match(reply, /^HTTP\/1\.1 406 /);
    assert.doesNotMatch(reply.split("\r\n\r\n")[0]!, /connection: close/i);
    assert.match(reply, /HTTP\/1\.1 200 [\s\S]*"id":2,"result":\{"protocolVersion"/);
  } finally {
    await served.close();
  }
});

test("hostile requests: an event larger than the backlog bound, sent to a client that reads, is followed by the rest of its stream", async () => {
  const mcp = new McpServer({ name: "large-event", version: "1.0.0" })
    .tool({ name: "large", inputSchema: { type: "object" } }, async (_args, context) => {
      // One progress report of 4 MiB, then the result at once: written while the first is still going out.
      await context.progress(1, 1, "x".repeat(4 * 1024 * 1024));
      return { content: [text("done")] };
    });
  const served = await serve({ maxStreamBacklogBytes: 64 * 1024 }, mcp);
  try {
    const s = await openSession(served.url);
    const response = await s.post(request("l", "tools/call", { name: "large", arguments: {}, _meta: { progressToken: "l" } }));
    const messages = messagesOf(await new SseReader(response.body!).rest());
    assert.equal(messages.find((m) => m.method === "notifications/progress")?.params.message.length, 4 * 1024 * 1024);
    assert.deepEqual(messages.at(-1), { jsonrpc: "2.0", id: "l", result: { content: [{ type: "text", text: "done" }] } });
  } finally {
    await served.close();
  }
});
