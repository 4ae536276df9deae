// Which stream a server message takes: the two cases that once lost messages.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#multiple-connections
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { McpHttpServer } from "../../src/http/server.js";
import { text } from "../../src/server/definition.js";
import { ADAPTER } from "../helpers/http-peer.js";

test("routing: in JSON mode, a request the server makes during a call takes the GET stream", async () => {
  const definition = createDemoServer();
  definition.tool({ name: "ask", description: "asks the user", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
    return { content: [text(JSON.stringify(answer))] };
  });
  const http = new McpHttpServer(definition, { jsonResponses: true });
  const listening = await http.listen({ adapter: ADAPTER });
  const client = new McpClient({ name: "t", version: "1" }, { elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }) } });
  await client.connect(new StreamableHttpClientTransport(new URL("/mcp", listening.origin)));
  const result = await client.callTool("ask", {}, { timeouts: { idleMs: 5000 } });
  assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), { action: "accept", content: { name: "Ada" } });
  await client.close();
  await http.close();
  await listening.close();
});

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, pattern: RegExp): Promise<string> {
  const decoder = new TextDecoder();
  let seen = "";
  while (!pattern.test(seen)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended before ${pattern}; got ${seen}`);
    seen += decoder.decode(value, { stream: true });
  }
  return seen;
}

test("routing: a GET that resumes the standalone stream replaces a half-open one", async () => {
  const definition = createDemoServer();
  const http = new McpHttpServer(definition);
  const { origin, close } = await http.listen({ adapter: ADAPTER });
  const url = `${origin}/mcp`;
  const post = (body: unknown, headers: Record<string, string> = {}) => fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  const session = init.headers.get("mcp-session-id")!;
  await init.text();
  const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text();

  const first = await fetch(url, { headers: { accept: "text/event-stream", ...headers } });
  const firstReader = first.body!.getReader();
  const priming = /id: (\S+)/.exec(await readUntil(firstReader, /id: \S+\n/))![1]!;
  // The first connection is left open, as a half-open connection would be.
  const resumed = await fetch(url, { headers: { accept: "text/event-stream", "last-event-id": priming, ...headers } });
  assert.equal(resumed.status, 200);
  definition.tool({ name: "late", description: "added at run time", inputSchema: { type: "object" } }, () => ({ content: [] }));
  const seen = await readUntil(resumed.body!.getReader(), /notifications\/tools\/list_changed/);
  assert.match(seen, /notifications\/tools\/list_changed/);
  await firstReader.cancel();
  await http.close();
  await close();
});
