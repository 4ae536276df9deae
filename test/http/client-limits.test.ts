// The HTTP client transports' size limit (issue 7, item 3): a JSON body, an SSE event or an SSE
// line from the server past maxMessageBytes stops the reading, and the waiting call fails at once
// with an error naming the step and the limit. A tiny limit keeps every test small; the scripted
// servers stop on their own after 1 MiB, should the client keep reading. And what a client keeps
// per message is let go with it (the legacy transport's listeners on its stream's signal).
import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import type { ServerResponse } from "node:http";
import { McpClient } from "../../src/client/client.js";
import { ConnectionClosedError } from "../../src/jsonrpc/pending.js";
import { MessageTooLargeError } from "../../src/http/client-fetch.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { LegacySseClientTransport } from "../../src/http/legacy-client.js";
import { initializeResult, json, legacyServer, routine, scriptedServer, wait, type SeenRequest } from "../helpers/scripted-http.js";

const info = { name: "limit-tests", version: "1" };
const LIMIT = 1024;

/** Writes `piece` again and again until the client lets go (or 1 MiB has gone out). */
function endless(response: ServerResponse, first: string, piece: string): void {
  let sent = 0;
  response.write(first);
  const more = () => {
    if (response.destroyed || sent > 1024 * 1024) return void response.end();
    sent += piece.length;
    response.write(piece, () => setImmediate(more));
  };
  more();
}

/** Streamable HTTP: initialize is answered; tools/call is answered by `answer`. */
function serverAnswering(answer: (seen: SeenRequest, response: ServerResponse) => void) {
  return scriptedServer((seen, response) => {
    if (routine(seen, response)) return;
    if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id), { "mcp-session-id": "s1" });
    if (seen.rpc === "tools/call") return answer(seen, response);
    json(response, JSON.stringify({ jsonrpc: "2.0", id: seen.body!.id, result: {} }));
  });
}

const sse = (response: ServerResponse) => response.writeHead(200, { "content-type": "text/event-stream" });
const cases: { name: string; what: RegExp; answer: (seen: SeenRequest, response: ServerResponse) => void }[] = [
  {
    name: "a JSON body that never ends",
    what: /a JSON body/,
    answer: (seen, response) => endless(response.writeHead(200, { "content-type": "application/json" }), `{"jsonrpc":"2.0","id":${seen.body!.id},"result":{"x":"`, "x".repeat(512)),
  },
  {
    name: "a JSON body whose Content-Length is over the limit",
    what: /a JSON body/,
    answer: (seen, response) => json(response, JSON.stringify({ jsonrpc: "2.0", id: seen.body!.id, result: { x: "é".repeat(LIMIT) } })),
  },
  { name: "an SSE line that never ends", what: /an SSE line/, answer: (_, response) => endless(sse(response), "data: ", "y".repeat(512)) },
  { name: "an SSE event of many short lines that never ends", what: /an SSE event/, answer: (_, response) => endless(sse(response), "", "data: z\n") },
];

for (const c of cases) {
  test(`streamable http: ${c.name} fails the call at once, naming the step and the limit`, async () => {
    const server = await serverAnswering(c.answer);
    try {
      const client = new McpClient(info, { timeouts: { idleMs: 30_000 } });
      await client.connect(new StreamableHttpClientTransport(server.url, { listen: false, maxMessageBytes: LIMIT }));
      await assert.rejects(client.callTool("big"), (error: unknown) => {
        assert.ok(error instanceof MessageTooLargeError, String(error));
        assert.match(error.message, /^tools\/call: /);
        assert.match(error.message, c.what);
        assert.match(error.message, /limit of 1024 bytes/);
        return true;
      });
      // The client let go of a body that never ends.
      if (!c.name.includes("Content-Length")) await wait(() => server.seen.find((s) => s.rpc === "tools/call")!.abandoned);
      // The session goes on.
      await client.ping();
      await client.close();
    } finally {
      await server.close();
    }
  });
}

test("streamable http: a message under the limit is read, in bytes; comment lines do not count toward an event", async () => {
  const server = await serverAnswering((seen, response) => {
    sse(response).write(`: ${"k".repeat(LIMIT - 10)}\n: ${"k".repeat(LIMIT - 10)}\n`);
    response.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: seen.body!.id, result: { content: [{ type: "text", text: "é".repeat(200) }] } })}\n\n`);
  });
  try {
    const client = new McpClient(info);
    await client.connect(new StreamableHttpClientTransport(server.url, { listen: false, maxMessageBytes: LIMIT }));
    assert.equal((await client.callTool("small")).content[0]!.type, "text");
    await client.close();
  } finally {
    await server.close();
  }
});

test("legacy http+sse: an event past the limit on the stream fails every waiting call at once", async () => {
  const server = await legacyServer({ answer: (seen, stream) => seen.rpc === "tools/call" && (endless(stream, "event: message\ndata: ", "w".repeat(512)), true) });
  try {
    const client = new McpClient(info, { protocolVersion: "2024-11-05" });
    await client.connect(await LegacySseClientTransport.open(`${server.origin}/sse`, { maxMessageBytes: LIMIT }));
    const closed = new Promise<unknown>((resolve) => client.once("close", resolve));
    await assert.rejects(client.callTool("big"), (error: unknown) => {
      assert.ok(error instanceof ConnectionClosedError, String(error));
      assert.ok(error.cause instanceof MessageTooLargeError);
      assert.match(error.message, /http\+sse: event stream: an SSE line from the server passed the limit of 1024 bytes/);
      return true;
    });
    assert.ok((await closed) instanceof MessageTooLargeError);
    await wait(() => server.seen[0]!.abandoned);
  } finally {
    await server.close();
  }
});

test("legacy http+sse: sending leaves no listener behind on the stream's signal, however many messages go out", async () => {
  const server = await legacyServer();
  try {
    // The stream's signal is the one its GET went out with; a wrapped fetch shows it to the test.
    let streamSignal: AbortSignal | undefined;
    const watching: typeof fetch = (input, init) => {
      if (init?.method === "GET") streamSignal = init.signal ?? undefined;
      return fetch(input, init);
    };
    const client = new McpClient(info, { protocolVersion: "2024-11-05" });
    await client.connect(await LegacySseClientTransport.open(`${server.origin}/sse`, { fetch: watching }));
    const before = getEventListeners(streamSignal!, "abort").length;
    for (let i = 0; i < 30; i++) await client.ping();
    assert.equal(getEventListeners(streamSignal!, "abort").length, before, "one listener per POST was left on the stream's signal");
    await client.close();
  } finally {
    await server.close();
  }
});
