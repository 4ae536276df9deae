// The textbook's client against the textbook's server, both as a reader would run them: a whole
// session (initialize, initialized, list, call, read, get, ping, close) and the errors on the way.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { connect } from "../../src/textbook/client.js";
import { RpcError } from "../../src/textbook/wire.js";

const SERVER = fileURLToPath(new URL("../../dist/textbook/demo.js", import.meta.url));

test("textbook client: a whole session with the textbook server, closed with exit 0", async () => {
  const client = await connect(process.execPath, [SERVER]);
  assert.equal(client.initialized.protocolVersion, "2025-11-25");
  assert.deepEqual((client.initialized.serverInfo as { name: string }).name, "mcp-wire-demo");
  const tools = (await client.list("tools")).tools as { name: string }[];
  assert.deepEqual(tools.map((tool) => tool.name), ["echo", "add", "get_time", "countdown"]);
  assert.deepEqual(await client.call("echo", { text: "hi" }), { content: [{ type: "text", text: "echo: hi" }] });
  assert.deepEqual((await client.call("add", { a: 2, b: 40 })).structuredContent, { sum: 42 });
  assert.equal((await client.call("add", { a: "two", b: 2 })).isError, true);
  await assert.rejects(client.call("no_such_tool"), (error: RpcError) => error.code === -32602);
  const read = await client.request("resources/read", { uri: "docs://demo/protocol-notes" });
  assert.match((read.contents as { text: string }[])[0]!.text, /^## Lifecycle/m);
  const prompts = (await client.list("prompts")).prompts as { name: string; arguments: { name: string; required: boolean }[] }[];
  assert.deepEqual(prompts.map((prompt) => [prompt.name, prompt.arguments.map((argument) => [argument.name, argument.required])]),
    [["review_message", [["message", true], ["version", false]]]]);
  const prompt = await client.request("prompts/get", { name: "review_message", arguments: { message: "{}" } });
  assert.equal(prompt.description, "Review one MCP message");
  assert.deepEqual(await client.request("ping"), {});
  assert.equal(await client.close(), 0);
});
