// The HTTP rows' baseline: the least work an honest node:http JSON-RPC echo server can do. Node
// built-ins only. Each POST body is read whole, JSON.parsed and answered with one stringified
// response: as application/json, or with `sse` as an event stream of one event. No sessions (it
// hands out a fixed MCP-Session-Id and ignores the one sent back), no header checks, no batches.
// Usage: node baseline-http.mjs [json|sse]; prints its endpoint on stderr.

import { createServer } from "node:http";

const sse = process.argv[2] === "sse";

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const body = JSON.stringify(answer(message));
    const session = message.method === "initialize" ? { "mcp-session-id": "baseline" } : {};
    if (sse) res.writeHead(200, { "content-type": "text/event-stream", ...session }).end(`event: message\ndata: ${body}\n\n`);
    else res.writeHead(200, { "content-type": "application/json", ...session }).end(body);
  });
});

function answer(message) {
  if (message.method === "initialize") {
    const result = { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "baseline", version: "1" } };
    return { jsonrpc: "2.0", id: message.id, result };
  }
  if (message.method === "tools/call" && message.params.name === "echo") {
    return { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "echo: " + message.params.arguments.text }] } };
  }
  return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "method not found" } };
}

// Exiting on SIGTERM (not dying of it) lets --cpu-prof write its profile.
process.on("SIGTERM", () => process.exit(0));
server.listen(0, "127.0.0.1", () => process.stderr.write(`baseline-http: listening at http://127.0.0.1:${server.address().port}/mcp\n`));
