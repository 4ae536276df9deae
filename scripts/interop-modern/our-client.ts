// Our client library (McpClient, not the CLI, which declares no client capabilities) against an SDK
// v2 server, with an elicitation and a sampling handler: greet and summarize must run through them,
// and toggle_extra must be heard as a tools list change. On a legacy session SDK v2's shim turns its
// input_required rounds into real server requests; our client, dual-era by default, speaks
// 2026-07-28 to it, so the same handlers answer the rounds. The era is checked and reported.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation (legacy),
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr (modern)

import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import type { CallToolResult } from "../../src/mcp/tools.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { StdioClientTransport } from "../../src/transports/stdio-client.js";
import { sleep } from "../interop.js";

const CHANGE_WAIT_MS = 5_000;

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");

/** `target`: a stdio command line, or one URL. Returns what it saw; throws on the first failure. */
export async function driveWithOurClient(target: string[], cwd: string): Promise<string> {
  const asked = { elicit: 0, sample: 0, changes: 0 };
  const client = new McpClient({ name: "mcp-wire-interop-modern", version: "0.1.0" }, {
    elicitation: { form: () => (asked.elicit++, { action: "accept", content: { name: "Ada" } }) },
    sampling: () => (asked.sample++, { role: "assistant", content: { type: "text", text: "A short summary." }, model: "mcp-wire-stub-model", stopReason: "endTurn" }),
  });
  client.on("toolsChanged", () => asked.changes++);
  const transport = target[0].startsWith("http") ? new HttpClientTransport(target[0]) : new StdioClientTransport({ command: target[0], args: target.slice(1), cwd });
  try {
    await client.connect(transport);
    // SDK v2's server is dual-era: the default ("auto") must find it modern, not fall back.
    assert.equal(client.era, "modern", `the client chose ${client.era}: ${client.eraReason}`);
    assert.equal(textOf(await client.callTool("greet", {})), "Hello, Ada!");
    assert.equal(asked.elicit, 1, "greet: the elicitation handler did not run exactly once");
    assert.equal(textOf(await client.callTool("summarize", { text: "MCP has two generations." })), "A short summary.");
    assert.equal(asked.sample, 1, "summarize: the sampling handler did not run exactly once");
    await client.callTool("toggle_extra", {});
    const started = performance.now();
    while (asked.changes === 0 && performance.now() - started < CHANGE_WAIT_MS) await sleep(20);
    // Put the list back, so that the server's next client sees the same tools.
    await client.callTool("toggle_extra", {});
    assert.ok(asked.changes > 0, `no toolsChanged event within ${CHANGE_WAIT_MS} ms`);
    return `protocol ${client.protocolVersion} (${client.eraReason}): greet and summarize through our handlers, toggle_extra heard as toolsChanged`;
  } finally {
    await client.close();
  }
}
