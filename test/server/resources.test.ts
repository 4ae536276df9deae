// resources/read, subscribe and unsubscribe against hostile input: a subscription is for a
// resource that exists (as a read would find it), its URI is bounded in length, a session's
// subscriptions are bounded in number, and a connection made for one request offers none.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { ErrorCode } from "../../src/mcp/errors.js";
import { DEFAULT_MAX_SUBSCRIPTIONS, DEFAULT_MAX_URI_LENGTH, McpServer, type ServerOptions } from "../../src/server/definition.js";
import type { ServerConnectionOptions } from "../../src/server/connection.js";
import { RawPeer } from "../helpers/raw-peer.js";

type Answer = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

function server(options: ServerOptions = {}): McpServer {
  const definition = new McpServer({ name: "t", version: "1" }, options);
  definition.resource({ uri: "mem://fixed", name: "fixed" }, (uri) => [{ uri, text: "F" }]);
  // A template that matches any item, of which only a few exist.
  definition.resourceTemplate({ uriTemplate: "mem://items/{name}", name: "item" }, (uri, variables) => {
    if (!/^item\d+$/.test(String(variables.name))) throw new RpcError(ErrorCode.ResourceNotFound, `resources/read: no item ${variables.name}`, { uri });
    return [{ uri, text: String(variables.name) }];
  });
  return definition;
}

/** An operating session (single-request connections start operating; others shake hands first). */
async function open(definition: McpServer, options: ServerConnectionOptions = {}) {
  const peer = new RawPeer();
  const session = definition.connect(peer, options);
  let next = 100;
  const ask = async (method: string, params: object): Promise<Answer> => {
    const id = next++;
    peer.write({ jsonrpc: "2.0", id, method, params });
    await peer.waitForSent(peer.sent.length + 1);
    return peer.sent.at(-1) as Answer;
  };
  if (!options.singleRequest) {
    await ask("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } });
    peer.write({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
  return { peer, session, ask };
}

test("resources/subscribe: a URI a template matches but whose resource does not exist is -32002, as for resources/read", async () => {
  const { session: s, ask } = await open(server());
  const read = await ask("resources/read", { uri: "mem://items/ghost" });
  const subscribe = await ask("resources/subscribe", { uri: "mem://items/ghost" });
  assert.equal(read.error?.code, -32002);
  assert.equal(subscribe.error?.code, -32002);
  assert.match(subscribe.error!.message, /^resources\/subscribe: no resource at "mem:\/\/items\/ghost"/);
  assert.deepEqual(subscribe.error!.data, { uri: "mem://items/ghost" });
  assert.deepEqual((await ask("resources/subscribe", { uri: "mem://items/item1" })).result, {});
  assert.deepEqual((await ask("resources/subscribe", { uri: "mem://fixed" })).result, {});
  assert.deepEqual([...s.subscriptions], ["mem://items/item1", "mem://fixed"]);
});

test("resources: a uri over maxUriLength is -32602 with the limit, for read, subscribe and unsubscribe", async () => {
  const { session: s, ask } = await open(server({ maxUriLength: 40 }));
  const long = `mem://items/item${"1".repeat(40)}`;
  for (const method of ["resources/read", "resources/subscribe", "resources/unsubscribe"]) {
    const answer = await ask(method, { uri: long });
    assert.equal(answer.error?.code, -32602, method);
    assert.match(answer.error!.message, new RegExp(`^${method}: "uri" is ${long.length} characters long, over the limit of 40`));
    assert.deepEqual(answer.error!.data, { limit: 40 });
  }
  assert.equal(s.subscriptions.size, 0);
  assert.equal(new McpServer({ name: "t", version: "1" }).maxUriLength, DEFAULT_MAX_URI_LENGTH);
});

test("resources/subscribe: a session holds at most maxSubscriptions; resubscribing is no new one, and unsubscribing makes room", async () => {
  const { session: s, ask } = await open(server({ maxSubscriptions: 2 }));
  assert.deepEqual((await ask("resources/subscribe", { uri: "mem://items/item1" })).result, {});
  assert.deepEqual((await ask("resources/subscribe", { uri: "mem://items/item2" })).result, {});
  assert.deepEqual((await ask("resources/subscribe", { uri: "mem://items/item2" })).result, {});
  const full = await ask("resources/subscribe", { uri: "mem://items/item3" });
  assert.equal(full.error?.code, -32602);
  assert.match(full.error!.message, /already has 2 subscriptions, the most it may have/);
  assert.deepEqual(full.error!.data, { limit: 2 });
  await ask("resources/unsubscribe", { uri: "mem://items/item1" });
  assert.deepEqual((await ask("resources/subscribe", { uri: "mem://items/item3" })).result, {});
  assert.deepEqual([...s.subscriptions], ["mem://items/item2", "mem://items/item3"]);
  assert.equal(new McpServer({ name: "t", version: "1" }).maxSubscriptions, DEFAULT_MAX_SUBSCRIPTIONS);
});

test("singleRequest: a connection with no channel back declares neither subscribe nor listChanged, and refuses resources/subscribe", async () => {
  const definition = server();
  definition.tool({ name: "t1", inputSchema: { type: "object" } }, () => ({ content: [] }));
  definition.prompt({ name: "p" }, () => ({ messages: [] }));
  const { session: single, ask } = await open(definition, { singleRequest: { protocolVersion: "2025-11-25" } });
  assert.deepEqual(single.capabilities.resources, {});
  assert.deepEqual(single.capabilities.tools, {});
  assert.deepEqual(single.capabilities.prompts, {});
  const answer = await ask("resources/subscribe", { uri: "mem://fixed" });
  assert.equal(answer.error?.code, -32601);
  assert.equal(single.subscriptions.size, 0);
  // Initialize on a single-request connection declares the same.
  const { ask: askFresh } = await open(definition, { singleRequest: {} });
  const init = await askFresh("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } });
  assert.deepEqual((init.result!.capabilities as { resources: unknown }).resources, {});
});
