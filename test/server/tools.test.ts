// tools/call's checks on what a handler returns hold for every version, the newest included,
// whose result goes on with its blocks as they are (server/compat.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../../src/mcp/versions.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { McpServer } from "../../src/server/definition.js";
import type { CallToolResult } from "../../src/mcp/tools.js";

for (const protocolVersion of SUPPORTED_PROTOCOL_VERSIONS) {
  test(`tools: a handler whose content holds something that is not a block gets -32603, never the wire (${protocolVersion})`, async () => {
    const problems: string[] = [];
    const server = new McpServer({ name: "s", version: "1" });
    // What a buggy handler written in plain JavaScript could return.
    const broken = { content: [null, 5] } as unknown as CallToolResult;
    server.tool({ name: "broken", inputSchema: { type: "object" } }, () => broken);
    const [clientEnd, serverEnd] = createMemoryPair();
    server.connect(serverEnd, { onProblem: (message) => problems.push(message) });
    const client = new McpClient({ name: "c", version: "1" }, { protocolVersion });
    await client.connect(clientEnd);
    await assert.rejects(client.callTool("broken", {}), (error: unknown) => error instanceof RpcError && error.code === -32603);
    assert.match(problems.join("\n"), /tool "broken" returned no content array of blocks, each with a type/);
    await client.close();
  });
}
