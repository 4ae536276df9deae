// The dual-era client and x-mcp-header: tools with invalid declarations left out of tools/list
// (with a warning), and tools/call carrying the Mcp-Param-* headers of its tool (SPEC_2026.md §7.2, §10 item 32).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { discoverResult, ScriptedServer } from "./modern-peer.js";

const info = { name: "test-client", version: "1.0.0" };
const page = (tools: object[]) => ({ tools, resultType: "complete", ttlMs: 0, cacheScope: "private" });
const REGION = { name: "deploy", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, count: { type: "integer", "x-mcp-header": "Count" } } } };
const PLAIN = { name: "plain", inputSchema: { type: "object" } };
const BAD = [
  { name: "on-a-number", inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } } },
  { name: "twice", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } } } },
  { name: "not-a-token", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "a b" } } } },
];

function server() {
  return new ScriptedServer((m) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: discoverResult({ tools: {} }) }];
    if (m.method === "tools/list") return [{ jsonrpc: "2.0", id: m.id, result: page([REGION, ...BAD, PLAIN]) }];
    if (m.method === "tools/call") return [{ jsonrpc: "2.0", id: m.id, result: { content: [], resultType: "complete" } }];
  });
}

test("tools/list: tools with invalid x-mcp-header declarations are left out, each with a warning", async () => {
  const problems: string[] = [];
  const client = new McpClient(info, { protocolVersion: "auto", onProblem: (p) => problems.push(p) });
  await client.connect(server());
  assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["deploy", "plain"]);
  assert.deepEqual((await client.listAllTools()).map((t) => t.name), ["deploy", "plain"]);
  for (const name of ["on-a-number", "twice", "not-a-token"]) assert.ok(problems.some((p) => p.includes(`left out the tool "${name}"`)), name);
  await client.close();
});

test("tools/call: the Mcp-Param-* headers of the tool's declarations go with the call (none for other tools)", async () => {
  const peer = server();
  const client = new McpClient(info, { protocolVersion: "auto" });
  await client.connect(peer);
  await client.listTools();
  await client.callTool("deploy", { region: "eu-west 1 \u00e9", count: 3 });
  await client.callTool("plain", { region: "x" });
  const calls = peer.sent.map((m, i) => [m, peer.headers[i]] as const).filter(([m]) => m.method === "tools/call");
  assert.deepEqual(calls[0]![1], { "mcp-param-region": "=?base64?ZXUtd2VzdCAxIMOp?=", "mcp-param-count": "3" });
  assert.equal(calls[1]![1], undefined);
  await client.close();
});
