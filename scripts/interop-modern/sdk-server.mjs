// A peer server written with the official TypeScript SDK v2 (@modelcontextprotocol/server), dual-era
// the way SDK v2 does it: `serveStdio` on stdio, `createMcpHandler` on Streamable HTTP. It offers the
// same tool names as mcp-wire's demo server, so one set of checks drives both: echo, add, greet (form
// elicitation, written MRTR style: an input_required result, which SDK v2's legacy shim turns into a
// real elicitation/create request for 2025 clients), summarize (sampling, likewise), toggle_extra
// (a tools list change), a prompt and a resource.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
// Usage: node sdk-server.mjs stdio | node sdk-server.mjs http [port] (prints "listening <url>").
// scripts/interop-modern.ts copies this file next to the pinned SDK so its imports resolve there.

import { createServer } from "node:http";
import { Readable } from "node:stream";
import { createMcpHandler, fromJsonSchema, inputRequired, inputResponse, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const NAME_SCHEMA = { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] };
const EMPTY = fromJsonSchema({ type: "object", properties: {} });
const text = (value) => ({ content: [{ type: "text", text: value }] });

/** Whether the tool `reverse` is offered: shared by every instance (HTTP builds one per request). */
let extra = false;
/** How a list change reaches listeners: set per transport below. */
let announceToolsChanged = () => {};

function addReverse(server) {
  return server.registerTool("reverse", { inputSchema: fromJsonSchema({ type: "object", properties: { text: { type: "string" } }, required: ["text"] }) },
    async ({ text: value }) => text([...value].reverse().join("")));
}

function build() {
  const server = new McpServer(
    { name: "sdk-v2-peer", version: "2.4.0" },
    { capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} }, instructions: "SDK v2 peer for mcp-wire interop." },
  );
  server.registerTool("echo", { description: "Returns its text.", inputSchema: fromJsonSchema({ type: "object", properties: { text: { type: "string" } }, required: ["text"] }) },
    async ({ text: value }) => text(`echo: ${value}`));
  server.registerTool("add", {
    description: "Adds two numbers.",
    inputSchema: fromJsonSchema({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }),
    outputSchema: fromJsonSchema({ type: "object", properties: { sum: { type: "number" } }, required: ["sum"] }),
  }, async ({ a, b }) => ({ ...text(JSON.stringify({ sum: a + b })), structuredContent: { sum: a + b } }));
  // Without an inputSchema SDK v2 calls a handler with (ctx) alone; with one, (args, ctx).
  server.registerTool("greet", { description: "Asks the user's name (form elicitation), then greets them.", inputSchema: EMPTY }, async (_args, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, "name");
    if (answer.kind !== "elicit") {
      return inputRequired({ inputRequests: { name: inputRequired.elicit({ message: "What is your name?", requestedSchema: NAME_SCHEMA }) } });
    }
    if (answer.action !== "accept" || typeof answer.content?.name !== "string") return text(`greet: no name (${answer.action})`);
    return text(`Hello, ${answer.content.name}!`);
  });
  server.registerTool("summarize", {
    description: "Asks the client's model (sampling) for a one-line summary of text.",
    inputSchema: fromJsonSchema({ type: "object", properties: { text: { type: "string" } }, required: ["text"] }),
  }, async ({ text: value }, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, "summary");
    if (answer.kind !== "sampling") {
      const messages = [{ role: "user", content: { type: "text", text: `Summarize in one sentence: ${value}` } }];
      return inputRequired({ inputRequests: { summary: inputRequired.createMessage({ messages, maxTokens: 100 }) } });
    }
    const block = Array.isArray(answer.result.content) ? answer.result.content[0] : answer.result.content;
    return text(block?.type === "text" ? block.text : `summarize: the model answered ${block?.type}`);
  });
  server.registerTool("toggle_extra", { description: "Adds or removes the tool reverse (a tools list change).", inputSchema: EMPTY }, async () => {
    extra = !extra;
    announceToolsChanged(server);
    return text(extra ? "added reverse" : "removed reverse");
  });
  if (extra) addReverse(server);
  server.registerPrompt("explain_topic", {
    description: "Explains a topic.",
    argsSchema: fromJsonSchema({ type: "object", properties: { topic: { type: "string" } }, required: ["topic"] }),
  }, async ({ topic }) => ({ messages: [{ role: "user", content: { type: "text", text: `Explain ${topic}.` } }] }));
  server.registerResource("notes", "docs://sdk-v2/notes", { mimeType: "text/plain", description: "A fixed text." },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "SDK v2 peer notes" }] }));
  return server;
}

const [mode = "stdio", port = "0"] = process.argv.slice(2);
if (mode === "stdio") {
  // One pinned instance per connection: its own list_changed goes to open listens (modern) or
  // out unsolicited (legacy).
  let reverse;
  announceToolsChanged = (server) => {
    // Registering or removing a tool makes the instance send notifications/tools/list_changed.
    if (extra) reverse = addReverse(server);
    else reverse?.remove();
  };
  serveStdio(build, { onerror: (error) => process.stderr.write(`sdk-server: ${error.message}\n`) });
} else if (mode === "http") {
  const handler = createMcpHandler(build, { onerror: (error) => process.stderr.write(`sdk-server: ${error.message}\n`) });
  // A fresh instance per request, so a change is published on the handler's bus for open listens.
  announceToolsChanged = () => handler.notify.toolsChanged();
  const http = createServer(async (req, res) => {
    try {
      const url = `http://${req.headers.host}${req.url}`;
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : Readable.toWeb(req);
      const response = await handler.fetch(new Request(url, { method: req.method, headers: req.headers, body, duplex: "half" }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) return void res.end();
      // A listen stream stays open: closing the socket is how the client ends it.
      res.on("close", () => response.body.cancel().catch(() => {}));
      for await (const chunk of response.body) res.write(chunk);
      res.end();
    } catch (error) {
      process.stderr.write(`sdk-server: ${error instanceof Error ? error.stack : error}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  http.listen(Number(port), "127.0.0.1", () => process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`));
} else {
  process.stderr.write("usage: node sdk-server.mjs stdio | node sdk-server.mjs http [port]\n");
  process.exit(2);
}
