// Golden client transcripts: a real server's recorded side (fixtures/client-transcripts, from
// the recordings in fixtures/recorded/) is replayed as a fake server against our client, and what our client
// sends is compared with the expected `-- client --` section. The same format as the server's
// goldens, with the roles of the two sections swapped: here the server part is given.
// MCP_WIRE_UPDATE_GOLDEN=1 rewrites the client sections, for review.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { McpClient } from "../../src/client/client.js";
import { RpcError, type JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import type { Transport, TransportHandlers } from "../../src/protocol/transport.js";
import { normalizeLines, readTranscript, type Transcript } from "../helpers/transcript.js";

/** Answers each request of the client with the recorded messages up to and including its response. */
class RecordedServer implements Transport {
  readonly received: string[] = [];
  #queue: string[];
  #handlers: TransportHandlers | undefined;

  constructor(serverLines: string[]) {
    this.#queue = [...serverLines];
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    this.received.push(JSON.stringify(message));
    if (Array.isArray(message) || !("method" in message) || !("id" in message)) return;
    const at = this.#queue.findIndex((line) => { const m = JSON.parse(line); return !("method" in m) && m.id === message.id; });
    if (at < 0) throw new Error(`the recording has no answer to ${message.method} (id ${JSON.stringify(message.id)})`);
    // The answer, what came before it, and what the server sent unprompted right after it.
    let end = at + 1;
    while (end < this.#queue.length && "method" in JSON.parse(this.#queue[end]!)) end++;
    const batch = this.#queue.splice(0, end);
    setImmediate(() => batch.forEach((line) => this.#handlers?.message(line)));
  }

  async close(): Promise<void> {
    this.#handlers?.close();
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** What each transcript's client does, named by its `# drive:` header line. */
const drives: Record<string, (client: McpClient, events: string[]) => Promise<void>> = {
  async "everything-sdk-session"(client, events) {
    const tools = await client.listAllTools();
    assert.ok(tools.some((t) => t.name === "echo"));
    assert.deepEqual((await client.callTool("echo", { message: "hello from the SDK client" })).content, [{ type: "text", text: "Echo: hello from the SDK client" }]);
    assert.deepEqual((await client.callTool("get-sum", { a: 3, b: 4 })).content, [{ type: "text", text: "The sum of 3 and 4 is 7." }]);
    assert.equal((await client.callTool("no_such_tool", {})).isError, true);
    assert.ok((await client.listResources()).resources.length > 0);
    assert.ok((await client.listResourceTemplates()).resourceTemplates.length > 0);
    assert.match(JSON.stringify(await client.readResource("demo://resource/static/document/architecture.md")), /Architectur/);
    assert.ok((await client.listPrompts()).prompts.some((p) => p.name === "args-prompt"));
    assert.equal((await client.getPrompt("args-prompt", { city: "Paris" })).messages.length, 1);
    assert.deepEqual((await client.complete({ ref: { type: "ref/prompt", name: "args-prompt" }, argument: { name: "city", value: "P" } })).completion.values, []);
    await client.setLoggingLevel("debug");
    await client.ping();
    await settle(); // the server's own roots/list request comes last
    assert.equal(events.filter((e) => e === "toolsChanged").length, 4, "each list_changed raised an event");
  },
  async "everything-interop-session"(client) {
    await client.listTools();
    for (const [name, args] of [["add", { a: 3, b: 4 }], ["echo", { text: "interop echo 5jcr6d ✓ \"quotes\" & <tags>" }], ["get_time", {}], ["no_such_tool_1796002154665", {}]] as const) {
      assert.equal((await client.callTool(name, args)).isError, true, name);
    }
    await client.listResources();
    await assert.rejects(client.readResource("docs://demo/protocol-notes"), (e: unknown) => e instanceof RpcError && e.code === -32602);
    await client.listPrompts();
    await client.getPrompt("args-prompt", { city: "interop-city" });
    await client.ping();
  },
  async "inspector-tools-call"(client) {
    await client.setLoggingLevel("debug");
    await client.listTools();
    assert.deepEqual((await client.callTool("echo", { message: "hello from inspector" })).content, [{ type: "text", text: "Echo: hello from inspector" }]);
  },
};

const dir = new URL("../../fixtures/client-transcripts/", import.meta.url);
for (const file of readdirSync(dir).filter((f) => f.endsWith(".transcript")).sort()) {
  test(`golden client: ${file}`, async () => {
    const path = new URL(file, dir).pathname;
    const transcript: Transcript = readTranscript(path);
    const drive = drives[transcript.header.find((l) => l.startsWith("# drive:"))!.slice(8).trim()]!;
    const server = new RecordedServer(transcript.server);
    const roots = file.includes("sdk") ? { roots: () => [{ uri: "file:///work", name: "work" }], sampling: () => ({ role: "assistant" as const, content: { type: "text" as const, text: "x" }, model: "m" }), elicitation: { form: () => ({ action: "decline" as const }) } } : {};
    // The recordings are handshake sessions (initialize first): the era is pinned, no probe.
    const client = new McpClient({ name: "mcp-wire-golden", version: "1.0.0" }, { ...roots, protocolVersion: "2025-11-25" });
    const events: string[] = [];
    client.on("toolsChanged", () => events.push("toolsChanged"));
    await client.connect(server);
    await drive(client, events);
    await client.close();
    if (process.env.MCP_WIRE_UPDATE_GOLDEN === "1") {
      const lines = [...transcript.header, "-- client --", ...server.received, "-- server --", ...transcript.server, ""];
      writeFileSync(path, lines.join("\n"));
      return;
    }
    assert.deepEqual(normalizeLines(server.received), normalizeLines(transcript.client));
  });
}
