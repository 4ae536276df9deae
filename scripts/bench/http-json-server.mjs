// Our Streamable HTTP server answering requests with application/json instead of an SSE stream,
// for the HTTP rows of `npm run bench` (dist/server.js --http has no flag for that): the demo
// definition and McpHttpServer from dist/, like the real server. Prints its endpoint on stderr in
// the words dist/server.js uses, and exits on SIGTERM.

import { McpHttpServer } from "../../dist/index.js";
import { createDemoServer } from "../../dist/demo/server-definition.js";

const server = new McpHttpServer(createDemoServer(), {
  jsonResponses: true,
  onProblem: (message) => process.stderr.write(`http-json-server: ${message}\n`),
});
const listening = await server.listen({ port: 0 });
process.stderr.write(`mcp-wire-server: Streamable HTTP at ${listening.origin}/mcp (JSON responses)\n`);
process.on("SIGTERM", () => void server.close().then(() => listening.close()).then(() => process.exit(0)));
