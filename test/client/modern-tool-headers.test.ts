// The dual-era client and x-mcp-header: tools with invalid declarations left out of tools/list
// (with a warning), tools/call carrying the Mcp-Param-* headers of its tool, and the one retry after
// a -32020 with the declarations fetched again (basic/transports/streamable-http#custom-headers-from-tool-parameters).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { MAX_TOOLS_WITH_HEADERS, ToolHeaders } from "../../src/client/modern/tool-headers.js";
import { discoverResult, ScriptedServer } from "../helpers/client-modern-peer.js";

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

/**
 * A server whose deploy tool moved its header from Region to Zone since the client listed it: a
 * tools/call without the Mcp-Param-Zone header gets -32020 (`mismatches` times at most).
 */
function movedHeader(mismatches: number) {
  let lists = 0;
  let refused = 0;
  const zone = { ...REGION, inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Zone" } } } };
  return new ScriptedServer((m, peer) => {
    if (m.method === "server/discover") return [{ jsonrpc: "2.0", id: m.id, result: discoverResult({ tools: {} }) }];
    if (m.method === "tools/list") return [{ jsonrpc: "2.0", id: m.id, result: page([lists++ === 0 ? REGION : zone]) }];
    if (m.method !== "tools/call") return;
    const headers = peer.headers[peer.sent.indexOf(m)];
    if (headers?.["mcp-param-zone"] === undefined || refused < mismatches) {
      refused++;
      return [{ jsonrpc: "2.0", id: m.id, error: { code: -32020, message: "Header mismatch: Mcp-Param-Zone is required" } }];
    }
    return [{ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: `deployed to ${headers["mcp-param-zone"]}` }], resultType: "complete" } }];
  });
}

test("tools/call after -32020: tools/list is fetched again and the call retried once, with the headers the new declarations give", async () => {
  const peer = movedHeader(1);
  const client = new McpClient(info, { protocolVersion: "auto" });
  await client.connect(peer);
  await client.listTools();
  assert.deepEqual((await client.callTool("deploy", { region: "eu" })).content, [{ type: "text", text: "deployed to eu" }]);
  const wire = peer.sent.map((m, i) => [m, peer.headers[i]] as const).filter(([m]) => m.method === "tools/list" || m.method === "tools/call");
  assert.deepEqual(wire.map(([m]) => m.method), ["tools/list", "tools/call", "tools/list", "tools/call"]);
  assert.deepEqual(wire[1]![1], { "mcp-param-region": "eu" });
  assert.deepEqual(wire[3]![1], { "mcp-param-zone": "eu" });
  assert.notEqual(wire[1]![0].id, wire[3]![0].id, "the retry is a new request");
  await client.close();
});

test("tools/call after -32020 twice: retried once only, then the -32020 is the caller's", async () => {
  const peer = movedHeader(2);
  const client = new McpClient(info, { protocolVersion: "auto" });
  await client.connect(peer);
  await client.listTools();
  await assert.rejects(client.callTool("deploy", { region: "eu" }), (e: unknown) => e instanceof RpcError && e.code === -32020);
  assert.equal(peer.methods().filter((m) => m === "tools/call").length, 2);
  await client.close();
});

test("the declarations kept are bounded: a server listing new tools again and again makes the least recently listed forgotten", () => {
  const headers = new ToolHeaders();
  const listing = (n: number) => page(Array.from({ length: MAX_TOOLS_WITH_HEADERS }, (_, i) => ({ ...REGION, name: `tool-${n}-${i}` })));
  for (let n = 0; n < 3; n++) headers.fromList(listing(n) as Parameters<ToolHeaders["fromList"]>[0], () => {});
  assert.equal(headers.size, MAX_TOOLS_WITH_HEADERS);
  const args = { region: "eu", count: 1 };
  assert.equal(headers.forCall({ name: "tool-0-0", arguments: args }), undefined, "the first listing's tools are forgotten");
  assert.deepEqual(headers.forCall({ name: `tool-2-${MAX_TOOLS_WITH_HEADERS - 1}`, arguments: args }), headers.forCall({ name: "tool-2-0", arguments: args }));
  assert.ok(headers.forCall({ name: "tool-2-0", arguments: args }), "the latest listing's are kept");
});
