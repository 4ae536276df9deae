// The demo's two-way tools, played by a real McpClient over an in-memory pair: greet (form
// elicitation), summarize (sampling) and toggle_extra (a tools list change the client hears).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation, client/sampling,
// server/tools#list-changed-notification
import { test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { McpClient, type ClientOptions } from "../../src/client/client.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import type { CreateMessageRequestParams, CreateMessageResult } from "../../src/mcp/client-features.js";
import type { ElicitRequestFormParams, ElicitResult } from "../../src/mcp/elicitation.js";
import type { CallToolResult } from "../../src/mcp/tools.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { RpcError } from "../../src/jsonrpc/messages.js";

async function connect(options: ClientOptions = {}): Promise<McpClient> {
  const [clientEnd, serverEnd] = createMemoryPair();
  createDemoServer().connect(serverEnd);
  const client = new McpClient({ name: "demo-test", version: "1.0.0" }, options);
  await client.connect(clientEnd);
  return client;
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `<${block.type}>`)).join("\n");
}

/** A client whose user answers every form with `answer`; the forms asked are kept in `asked`. */
async function greetWith(answer: ElicitResult): Promise<{ result: CallToolResult; asked: ElicitRequestFormParams[] }> {
  const asked: ElicitRequestFormParams[] = [];
  const client = await connect({ elicitation: { form: (params) => (asked.push(params), answer) } });
  const result = await client.callTool("greet", {});
  await client.close();
  return { result, asked };
}

test("greet: asks for a required string `name` and greets the user by the name accepted", async () => {
  const { result, asked } = await greetWith({ action: "accept", content: { name: "Ada" } });
  assert.equal(asked.length, 1);
  const schema = asked[0]!.requestedSchema;
  assert.equal(schema.properties.name?.type, "string");
  assert.ok(schema.properties.name?.title, "the name field has a title to show");
  assert.deepEqual(schema.required, ["name"]);
  assert.equal(result.isError, undefined);
  assert.match(textOf(result), /Hello, Ada!/);
});

for (const action of ["decline", "cancel"] as const) {
  test(`greet: a ${action} is a normal result saying there is no greeting`, async () => {
    const { result } = await greetWith({ action });
    assert.equal(result.isError, undefined);
    assert.match(textOf(result), /no greeting/);
    assert.doesNotMatch(textOf(result), /Hello/);
  });
}

test("greet: an accept without a usable name is a tool error, not a greeting of nobody", async () => {
  const { result } = await greetWith({ action: "accept", content: { name: "  " } });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /sent no name/);
});

// A handshake session: 2026-07-28 answers the same tools/call -32021 instead (test below).
test("greet and summarize: a client without the capability gets an isError result saying it cannot be asked", async () => {
  const client = await connect({ protocolVersion: "2025-11-25" });
  const greet = await client.callTool("greet", {});
  assert.equal(greet.isError, true);
  assert.match(textOf(greet), /^elicitation\/create: the client did not declare the elicitation capability$/);
  const summarize = await client.callTool("summarize", { text: "Some text." });
  assert.equal(summarize.isError, true);
  assert.match(textOf(summarize), /^sampling\/createMessage: the client did not declare the sampling capability$/);
  await client.close();
});

test("greet and summarize, 2026-07-28: a client without the capability gets -32021 (what the server must ask is not declared)", async () => {
  const client = await connect();
  assert.equal(client.era, "modern");
  for (const [tool, args] of [["greet", {}], ["summarize", { text: "Some text." }]] as const) {
    await assert.rejects(client.callTool(tool, args), (e: unknown) => e instanceof RpcError && e.code === -32021, tool);
  }
  await client.close();
});

/** A client whose model answers every sampling request with `answer`; the requests are kept in `asked`. */
async function summarizeWith(answer: CreateMessageResult, text: string) {
  const asked: CreateMessageRequestParams[] = [];
  const client = await connect({ sampling: (params) => (asked.push(params), answer) });
  const result = await client.callTool("summarize", { text });
  await client.close();
  return { result, asked };
}

test("summarize: asks the client's model for a one-sentence summary and returns the model's text", async () => {
  const summary = "A fox jumps over a dog.";
  const { result, asked } = await summarizeWith({ role: "assistant", content: { type: "text", text: summary }, model: "test-model" }, "The quick brown fox jumps over the lazy dog.");
  assert.equal(asked.length, 1);
  const request = asked[0]!;
  assert.equal(request.messages.length, 1);
  assert.equal(request.messages[0]!.role, "user");
  assert.match(JSON.stringify(request.messages[0]!.content), /The quick brown fox jumps over the lazy dog\./);
  assert.match(JSON.stringify(request.messages[0]!.content), /one sentence/);
  assert.ok(request.systemPrompt, "a system prompt says what the model is for");
  assert.ok(request.maxTokens > 0 && request.maxTokens <= 500, `maxTokens ${request.maxTokens}`);
  assert.equal(result.isError, undefined);
  assert.equal(textOf(result), summary);
});

test("summarize: a model that answers without text gets a clear tool error", async () => {
  const { result } = await summarizeWith({ role: "assistant", content: { type: "image", data: "AAAA", mimeType: "image/png" }, model: "pixel-model" }, "x");
  assert.equal(result.isError, true);
  assert.match(textOf(result), /pixel-model\) answered with image, not text/);
});

test("toggle_extra: adds then removes the tool reverse, and the client hears each list change", async () => {
  const client = await connect();
  const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
  assert.ok(!(await names()).includes("reverse"));

  const added = once(client, "toolsChanged");
  assert.match(textOf(await client.callTool("toggle_extra", {})), /added the tool reverse/);
  await added;
  assert.ok((await names()).includes("reverse"));
  assert.equal(textOf(await client.callTool("reverse", { text: "MCP" })), "PCM");

  const removed = once(client, "toolsChanged");
  assert.match(textOf(await client.callTool("toggle_extra", {})), /removed the tool reverse/);
  await removed;
  assert.ok(!(await names()).includes("reverse"));
  await client.close();
});

// The client's answer to greet's or summarize's question belongs to that question, not to the
// tools/call: an error answer or a result we cannot read becomes the tool's isError result,
// naming the step, and never the tools/call's protocol error. An error answer to a server request
// is the handshake era's (2026-07-28 has no error form of an input response): pinned.
const failedAnswers: { name: string; tool: string; args: object; options: ClientOptions; text: RegExp }[] = [
  {
    name: "a client rejecting sampling (error -1)",
    tool: "summarize",
    args: { text: "a long text" },
    options: { sampling: () => { throw new RpcError(-1, "User rejected sampling request"); } },
    text: /^sampling\/createMessage: the client answered -1 User rejected sampling request$/,
  },
  {
    name: "a client whose elicitation handler fails (-32603)",
    tool: "greet",
    args: {},
    options: { elicitation: { form: () => { throw new Error("no user here"); } } },
    text: /^elicitation\/create: the client answered -32603 elicitation\/create: internal error$/,
  },
  {
    name: "a client answering an elicitation with an unknown action",
    tool: "greet",
    args: {},
    options: { elicitation: { form: () => ({ action: "ok" }) as unknown as ElicitResult } },
    text: /^elicitation\/create: the peer's response was malformed: result: "action" must be one of accept, decline, cancel, got "ok"$/,
  },
];

for (const c of failedAnswers) {
  test(`two-way tools: ${c.name} makes an isError result naming the step, not a tools/call error`, async () => {
    const client = await connect({ ...c.options, protocolVersion: "2025-11-25" });
    const result = await client.callTool(c.tool, c.args as { [key: string]: unknown });
    await client.close();
    assert.equal(result.isError, true);
    assert.match(textOf(result), c.text);
  });
}
