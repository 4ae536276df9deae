// tools/call's checks on what a handler returns hold for every version, the newest included,
// whose result goes on with its blocks as they are (server/compat.ts); a handler's failure, and an
// output that breaks its own outputSchema, are isError results in every era.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../../src/mcp/versions.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { McpServer } from "../../src/server/definition.js";
import type { CallToolResult } from "../../src/mcp/tools.js";
import { ModernPeer, MODERN, resultOf } from "../helpers/modern-peer.js";

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

/** Every era a tools/call is served in: each handshake version, and a 2026-07-28 request on its own. */
const ERAS = [...SUPPORTED_PROTOCOL_VERSIONS, MODERN] as const;

/** Calls `name` on `server` in `era`; the result as the client reads it, and the lines the server logged. */
async function callIn(era: (typeof ERAS)[number], server: McpServer, name: string): Promise<{ result: { [key: string]: unknown }; problems: string[] }> {
  const problems: string[] = [];
  const onProblem = (message: string) => void problems.push(message);
  if (era === MODERN) {
    const peer = new ModernPeer(server, { onProblem });
    return { result: resultOf(await peer.modern("tools/call", { name, arguments: {} })), problems };
  }
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd, { onProblem });
  const client = new McpClient({ name: "c", version: "1" }, { protocolVersion: era });
  await client.connect(clientEnd);
  const result = (await client.callTool(name, {})) as unknown as { [key: string]: unknown };
  await client.close();
  return { result, problems };
}

// What a handler throws reaches the model as it was thrown, as the SDKs send it: nothing prepended.
// Spec (server/tools#error-handling): failures inside the tool are tool execution errors, isError.
const THROWN: { name: string; thrown: () => unknown; text: string }[] = [
  { name: "an Error: its message", thrown: () => new Error("unknown city: Atlantis"), text: "unknown city: Atlantis" },
  { name: "a subclass of Error: its message", thrown: () => new RangeError("steps must be at most 10"), text: "steps must be at most 10" },
  { name: "an Error without a message: its name", thrown: () => new TypeError(), text: "TypeError" },
  { name: "a string: itself", thrown: () => "quota exceeded", text: "quota exceeded" },
  { name: "an error-like object (another realm's Error): its message", thrown: () => ({ name: "Error", message: "from a worker" }), text: "from a worker" },
  { name: "any other object: its JSON", thrown: () => ({ code: 7, reason: "busy" }), text: '{"code":7,"reason":"busy"}' },
  { name: "a number: its digits", thrown: () => 42, text: "42" },
  { name: "undefined: the word", thrown: () => undefined, text: "undefined" },
];

for (const era of ERAS) {
  for (const c of THROWN) {
    test(`tools: a handler that throws ${c.name}, as the isError text (${era})`, async () => {
      const server = new McpServer({ name: "s", version: "1" });
      server.tool({ name: "lookup", inputSchema: { type: "object" } }, async () => { throw c.thrown(); });
      const { result } = await callIn(era, server, "lookup");
      assert.deepEqual([result.content, result.isError], [[{ type: "text", text: c.text }], true]);
    });
  }
}

const WEATHER_SCHEMA = { type: "object", properties: { temperature: { type: "number" }, conditions: { type: "string" } }, required: ["temperature", "conditions"] } as const;

// Spec (server/tools#output-schema): the server MUST return structuredContent that conforms to the
// tool's outputSchema. One that does not is reported as the tool's failure (server/tools#error-handling),
// saying what is wrong, in every version: before 2025-06-18 the client never sees the schema, but
// it would see the bad value (as JSON text) all the same.
const BROKEN_OUTPUTS: { name: string; output: CallToolResult; text: string }[] = [
  {
    name: "a value of the wrong type and a missing property",
    output: { content: [], structuredContent: { temperature: "warm" } },
    text: "tools/call weather: structuredContent does not match the tool's outputSchema: missing required property \"conditions\"; temperature: must be number, got string",
  },
  {
    name: "a number that is not finite (null on the wire)",
    output: { content: [], structuredContent: { temperature: Infinity, conditions: "sunny" } },
    text: "tools/call weather: structuredContent does not match the tool's outputSchema: temperature: must be number, got null",
  },
  {
    name: "no structuredContent at all",
    output: { content: [{ type: "text", text: "sunny" }] },
    text: "tools/call weather: the tool has an outputSchema but returned no structuredContent",
  },
];

for (const era of ERAS) {
  for (const c of BROKEN_OUTPUTS) {
    test(`tools: ${c.name} against the outputSchema is an isError result saying so, and logged (${era})`, async () => {
      const server = new McpServer({ name: "s", version: "1" });
      server.tool({ name: "weather", inputSchema: { type: "object" }, outputSchema: WEATHER_SCHEMA }, () => c.output as never);
      const { result, problems } = await callIn(era, server, "weather");
      assert.deepEqual([result.content, result.isError, result.structuredContent], [[{ type: "text", text: c.text }], true, undefined]);
      assert.deepEqual(problems, [c.text]);
    });
  }
}

test("tools: what an outputSchema failure says is bounded, however many and however long the issues", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  const strict = { type: "object", additionalProperties: false } as const;
  const noisy = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${"x".repeat(10_000)}${i}`, i]));
  server.tool({ name: "noisy", inputSchema: { type: "object" }, outputSchema: strict }, () => ({ content: [], structuredContent: noisy }) as never);
  const { result } = await callIn("2025-11-25", server, "noisy");
  const [block] = result.content as { text: string }[];
  assert.ok(block!.text.length < 1500, `${block!.text.length} characters`);
  assert.match(block!.text, /^tools\/call noisy: structuredContent does not match the tool's outputSchema: must NOT have additional property "x{100}/);
  assert.match(block!.text, /\(10,0\d\d characters\); .*; and 995 more$/);
});
