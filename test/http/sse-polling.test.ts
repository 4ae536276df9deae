// SSE polling (2025-11-25, basic/transports#sending-messages-to-the-server): once an event with an
// id has gone out, a server MAY close the connection of a POST's stream without ending the stream,
// after a `retry` field; the client waits that long, resumes with GET and Last-Event-ID, and gets
// everything sent meanwhile. A handler asks for it with context.closeStream(); where the answer
// cannot be resumed (a JSON body, a 2026-07-28 request, stdio) it says no and nothing changes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { McpClient } from "../../src/client/client.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { McpServer, text } from "../../src/server/definition.js";
import { messagesOf, openGet, openSession, post, request, serve, SseReader, type Message } from "../helpers/http-peer.js";

/**
 * A server whose `poll` tool reports progress 1, closes its connection (retry 20 ms), reports 2
 * and 3 while no connection carries the stream, and answers with what closeStream said. `big`
 * closes it, reports progress 16 times with a 1 KiB message, and answers with `size` characters.
 */
function pollingServer(): { mcp: McpServer; closed: boolean[] } {
  const closed: boolean[] = [];
  const mcp = new McpServer({ name: "polling", version: "1.0.0" })
    .tool({ name: "poll", inputSchema: { type: "object" } }, async (_args, context) => {
      await context.progress(1, 3);
      closed.push(context.closeStream(20));
      await sleep(30);
      await context.progress(2, 3);
      await context.progress(3, 3);
      return { content: [text(`closed: ${closed.at(-1)}`)] };
    })
    .tool({ name: "big", inputSchema: { type: "object", properties: { size: { type: "number" } } } }, async (args, context) => {
      closed.push(context.closeStream());
      await sleep(10);
      // Sixteen events of over 1 KiB each while no connection carries the stream.
      for (let i = 1; i <= 16; i++) await context.progress(i, 16, "y".repeat(1024));
      return { content: [text("x".repeat(args.size as number))] };
    });
  return { mcp, closed };
}

const poll = (id: string) => request(id, "tools/call", { name: "poll", arguments: {}, _meta: { progressToken: `${id}-token` } });

test("SSE polling: the handler closes its POST's connection; the stream ends with a retry field and no answer, and a GET with Last-Event-ID gets the rest, nothing lost or twice", async () => {
  const { mcp, closed } = pollingServer();
  const served = await serve({}, mcp);
  try {
    const s = await openSession(served.url);
    const response = await s.post(poll("p"));
    assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
    const before = await new SseReader(response.body!).rest();
    assert.deepEqual(closed, [true]);
    // The priming event (an id, empty data) first, then progress 1, then the retry the handler asked for.
    assert.equal(before[0]!.data, "");
    assert.ok(before[0]!.id);
    assert.equal(before.at(-1)!.retry, 20);
    assert.deepEqual(messagesOf(before).map((m) => m.params?.progress), [1]);
    const lastId = before.filter((e) => e.id !== undefined).at(-1)!.id!;

    const resumed = await openGet(served.url, { ...s.headers, "last-event-id": lastId });
    assert.equal(resumed.status, 200);
    const after = await new SseReader(resumed.body!).rest();
    const messages = messagesOf(after);
    assert.deepEqual(messages.filter((m) => m.method === "notifications/progress").map((m) => m.params.progress), [2, 3]);
    assert.deepEqual(messages.at(-1), { jsonrpc: "2.0", id: "p", result: { content: [{ type: "text", text: "closed: true" }] } });
    const ids = [...before, ...after].map((e) => e.id).filter((id) => id !== undefined);
    assert.equal(new Set(ids).size, ids.length, "no event delivered twice");
    // The stream was taken whole through the resume: there is nothing left to resume.
    assert.equal((await openGet(served.url, { ...s.headers, "last-event-id": lastId })).status, 400);
  } finally {
    await served.close();
  }
});

test("SSE polling: our client waits the retry, resumes, and gets every progress report and the result, once each", async () => {
  const { mcp, closed } = pollingServer();
  const served = await serve({}, mcp);
  const client = new McpClient({ name: "polling-client", version: "1" }, { protocolVersion: "2025-11-25" });
  try {
    await client.connect(new StreamableHttpClientTransport(served.url, { listen: false, minRetryMs: 10 }));
    const progress: number[] = [];
    const result = await client.callTool("poll", {}, { onProgress: ({ progress: p }) => progress.push(p) });
    assert.deepEqual(result.content, [{ type: "text", text: "closed: true" }]);
    assert.deepEqual(progress, [1, 2, 3]);
    assert.deepEqual(closed, [true]);
  } finally {
    await client.close();
    await served.close();
  }
});

test("SSE polling: a replay larger than maxStreamBacklogBytes is delivered whole on resume, not cut at every reconnect", async () => {
  const { mcp } = pollingServer();
  const served = await serve({ maxStreamBacklogBytes: 4096 }, mcp);
  try {
    const s = await openSession(served.url);
    const big = request("b", "tools/call", { name: "big", arguments: { size: 64 * 1024 }, _meta: { progressToken: "b" } });
    const before = await new SseReader((await s.post(big)).body!).rest();
    assert.deepEqual(messagesOf(before), [], "the answer came after the connection closed");
    await sleep(50);
    const resumed = await openGet(served.url, { ...s.headers, "last-event-id": before[0]!.id! });
    const replayed = messagesOf(await new SseReader(resumed.body!).rest());
    assert.equal(replayed.filter((m) => m.method === "notifications/progress").length, 16);
    const answer = replayed.at(-1) as Message;
    assert.equal(answer.id, "b");
    assert.equal(answer.result.content[0].text.length, 64 * 1024);
  } finally {
    await served.close();
  }
});

test("SSE polling: closeStream says no and changes nothing for a JSON answer, a 2026-07-28 request, a stream with no event id yet, and stdio", async () => {
  const { mcp, closed } = pollingServer();
  // JSON answers: the body is the answer; there is no stream to resume.
  const json = await serve({ jsonResponses: true }, mcp);
  try {
    const s = await openSession(json.url);
    assert.deepEqual((await s.call("j", "tools/call", { name: "poll", arguments: {} })).result.content, [{ type: "text", text: "closed: false" }]);
  } finally {
    await json.close();
  }
  const served = await serve({}, mcp);
  try {
    // 2025-06-18 sends no priming event: before its first event the client holds no id to resume after.
    const old = await openSession(served.url, "2025-06-18");
    const oldAnswer = await new SseReader((await old.post(request("o", "tools/call", { name: "big", arguments: { size: 1 } }))).body!).rest();
    assert.deepEqual(messagesOf(oldAnswer).at(-1)?.result.content, [{ type: "text", text: "x" }]);
    // 2026-07-28: no resuming, so the stream stays whole.
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const modern = await post(served.url, request("m", "tools/call", { name: "poll", arguments: {}, _meta: { ...meta, progressToken: "m" } }), { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "poll" });
    const modernEvents = await new SseReader(modern.body!).rest();
    assert.deepEqual(messagesOf(modernEvents).at(-1)?.result.content, [{ type: "text", text: "closed: false" }]);
  } finally {
    await served.close();
  }
  // stdio (here its in-memory twin): one connection, nothing to close.
  const [clientSide, serverSide] = createMemoryPair();
  mcp.connect(serverSide);
  const client = new McpClient({ name: "t", version: "1" }, { protocolVersion: "2025-11-25" });
  await client.connect(clientSide);
  assert.deepEqual((await client.callTool("poll", {})).content, [{ type: "text", text: "closed: false" }]);
  await client.close();
  assert.deepEqual(closed, [false, false, false, false]);
});
