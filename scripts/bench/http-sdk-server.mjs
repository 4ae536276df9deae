// The official TypeScript SDK v1 as the HTTP rows' second comparison: its McpServer with the same
// echo tool as our demo ("echo: " + text, arguments checked by a zod schema as ours checks its
// JSON Schema) behind its StreamableHTTPServerTransport on plain node:http, one transport per
// session as its README shows: answers as application/json (`json`, enableJsonResponse) or as SSE
// streams (`sse`). The SDK is imported from `sdkDir`, where scripts/bench/http-rows.ts installed it
// pinned, outside this project. Prints its endpoint on stderr and exits on SIGTERM.
// Usage: node http-sdk-server.mjs <sdkDir> json|sse

import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, mode] = process.argv.slice(2);
if (!sdkDir || (mode !== "json" && mode !== "sse")) throw new Error("usage: http-sdk-server.mjs <sdkDir> json|sse");
const { McpServer, StreamableHTTPServerTransport, isInitializeRequest, z } = await import(pathToFileURL(join(sdkDir, "sdk-server.mjs")).href);

const transports = new Map();

function definition() {
  const server = new McpServer({ name: "sdk-bench", version: "1.0.0" });
  server.registerTool("echo", { description: "Repeats the given text back", inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: "text", text: `echo: ${text}` }],
  }));
  return server;
}

const http = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", async () => {
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (!transport && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: mode === "json",
        onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
      });
      transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
      await definition().connect(transport);
    }
    if (!transport) {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "no session" }, id: null }));
      return;
    }
    await transport.handleRequest(req, res, body);
  });
});

// Exiting on SIGTERM (not dying of it) lets --cpu-prof write its profile.
process.on("SIGTERM", () => process.exit(0));
http.listen(0, "127.0.0.1", () => process.stderr.write(`sdk-bench: listening at http://127.0.0.1:${http.address().port}/mcp\n`));
