// The method table (src/mcp/methods.ts) as a contract. The `@ts-expect-error` lines are checked by
// `npm run typecheck` (part of `npm test`): each must fail to compile, or the check fails. The
// runtime tests check the readers (src/mcp/read.ts): what is not what the type claims gets -32602
// naming the method and the field, on both sides and for params and results alike.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Dispatcher, notificationRows, requestRows } from "../../src/protocol/dispatch.js";
import type { RequestHandlers, Row, Written } from "../../src/protocol/method-table.js";
import type { CallToolResult, ListToolsResult } from "../../src/mcp/tools.js";
import { ErrorCode, RpcError } from "../../src/jsonrpc/messages.js";
import { Connection, type RequestContext } from "../../src/protocol/connection.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import type { ClientRequests, ServerNotifications } from "../../src/mcp/methods.js";
import { readClientNotification, readClientRequestParams, readServerNotification } from "../../src/mcp/read.js";
import { McpClient } from "../../src/client/client.js";
import { McpServer, text } from "../../src/server/definition.js";
import type { ServerConnection } from "../../src/server/connection.js";
import { NotConnectedError } from "../../src/client/errors.js";
import { MalformedResponseError } from "../../src/jsonrpc/pending.js";

type ServerHandlers = RequestHandlers<ClientRequests, RequestContext>;

// Compile-time: each of these is wrong, and the compiler must say so.
export const wrongResult: ServerHandlers = {
  // @ts-expect-error a tools/call result's content is an array of blocks, not a string
  "tools/call": () => ({ content: "text" }),
};
export const misspelledParam: ServerHandlers = {
  // @ts-expect-error CallToolRequestParams has `name`, not `nmae`
  "tools/call": (params) => ({ content: [text(params.nmae)] }),
};
export async function wrongClientParams(client: McpClient): Promise<void> {
  // @ts-expect-error tools/call takes `name`, not `tool`
  await client.request("tools/call", { tool: "add" });
}
// A result as a handler writes it (Written) has only the fields its type declares, and `_meta`:
// a misspelled field in a literal that says what it is does not compile. (The spec's types keep
// `[key: string]: unknown` for reading, with which both literals below would compile.)
export const misspelledResultField: ServerHandlers = {
  // @ts-expect-error CallToolResult has `isError`, not `isErorr`
  "tools/call": (): Written<CallToolResult> => ({ content: [], isErorr: true }),
};
export const misspelledCursor: ServerHandlers = {
  // @ts-expect-error ListToolsResult has `nextCursor`, not `nextCursr`
  "tools/list": () => ({ tools: [], nextCursr: "2" }) satisfies Written<ListToolsResult>,
};
export const resultWithMeta: ServerHandlers = {
  "tools/list": () => ({ tools: [], nextCursor: "2", _meta: { "com.example/page": 1 } }) satisfies Written<ListToolsResult>,
};
export const unknownMethod: ServerHandlers = {
  // @ts-expect-error no such method in the table
  "tools/run": () => ({}),
};
// And what is right compiles: a handler typed by the table, and a typed call.
export const rightHandlers: ServerHandlers = {
  "tools/call": ({ name, arguments: args }) => ({ content: [text(`${name}(${JSON.stringify(args ?? {})})`)] }),
};
export async function rightCall(client: McpClient): Promise<string> {
  const result = await client.request("tools/call", { name: "add", arguments: { a: 1 } });
  return result.content[0]?.type ?? "none";
}

// Notifications are typed like requests: each role's notify is over its own table, so a wrong
// method or field does not compile, and the params may be left out only when all are optional.
export async function wrongServerNotifications(session: ServerConnection): Promise<void> {
  // @ts-expect-error no such notification (the table has notifications/tools/list_changed)
  await session.notify("notifications/tool/list_changed");
  // @ts-expect-error notifications/resources/updated carries `uri`, not `url`
  await session.notify("notifications/resources/updated", { url: "mem://a" });
  // @ts-expect-error a log record needs `data`
  await session.notify("notifications/message", { level: "info" });
  // @ts-expect-error notifications/roots/list_changed is the client's, not the server's
  await session.notify("notifications/roots/list_changed");
}
export async function wrongClientNotifications(client: McpClient): Promise<void> {
  // @ts-expect-error notifications/message is the server's, not the client's
  await client.notify("notifications/message", { level: "info", data: 1 });
  // @ts-expect-error a cancellation's reason is a string
  await client.notify("notifications/cancelled", { requestId: 1, reason: 7 });
}
// Cancellation and progress are read by the connection for every role: no role handles them.
export const protocolNotificationHandled = notificationRows(readServerNotification, {
  // @ts-expect-error notifications/progress is the connection's to read (ProtocolNotificationMethod)
  "notifications/progress": () => {},
});
// A handler's context sends nothing untyped: notifications go through the role's typed notify.
export const untypedContextNotify: ServerHandlers = {
  // @ts-expect-error RequestContext has no notify(method: string)
  "tools/call": (_params, context) => (void context.notify("notifications/anything"), { content: [] }),
};
export async function rightNotifications(session: ServerConnection, client: McpClient): Promise<void> {
  await session.notify("notifications/resources/updated", { uri: "mem://a" });
  await session.notify("notifications/message", { level: "info", data: { any: "json" } }, { relatedRequestId: 1 });
  await session.notify("notifications/tools/list_changed");
  await client.notify("notifications/roots/list_changed");
}

/** A dispatcher made of typed rows, on one end of a memory pair; the other end is a bare connection. */
function pair(rows: Row<RequestContext>[]): Connection {
  const [near, far] = createMemoryPair();
  new Connection(far, { dispatcher: new Dispatcher(rows) }).start();
  const connection = new Connection(near, { dispatcher: new Dispatcher([]) });
  connection.start();
  return connection;
}

const cases: { name: string; method: string; params: object; message: RegExp }[] = [
  { name: "a name that is not a string", method: "tools/call", params: { name: 5 }, message: /^tools\/call: "name" must be a string, got integer$/ },
  { name: "a missing name", method: "tools/call", params: {}, message: /^tools\/call: "name" is required$/ },
  { name: "arguments that are not an object", method: "tools/call", params: { name: "x", arguments: [1] }, message: /^tools\/call: "arguments" must be an object, got array$/ },
  { name: "a clientInfo without a version", method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c" } }, message: /^initialize: "clientInfo.version" is required$/ },
  { name: "a completion ref of an unknown type", method: "completion/complete", params: { ref: { type: "ref/other" }, argument: { name: "a", value: "" } }, message: /^completion\/complete: "ref.type" must be one of ref\/prompt, ref\/resource/ },
  { name: "a cursor that is not a string", method: "tools/list", params: { cursor: 1 }, message: /^tools\/list: "cursor" must be a string, got integer$/ },
  { name: "a _meta that is not an object", method: "tools/list", params: { _meta: "x" }, message: /^tools\/list: "_meta" must be an object/ },
];

for (const c of cases) {
  test(`typed contract: ${c.name} gets -32602 naming the field, and the handler never runs`, async () => {
    let ran = false;
    const handlers: ServerHandlers = {
      "tools/call": () => ((ran = true), { content: [] }),
      "tools/list": () => ((ran = true), { tools: [] }),
      initialize: () => { throw new Error("not reached"); },
      "completion/complete": () => ((ran = true), { completion: { values: [] } }),
    };
    const connection = pair(requestRows(readClientRequestParams, handlers));
    const error = await connection.request(c.method, c.params).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, ErrorCode.InvalidParams);
    assert.match(error.message, c.message);
    assert.equal(ran, false);
    await connection.close();
  });
}

test("typed contract: the handler gets the very params object, unknown fields kept", async () => {
  let seen: unknown;
  const connection = pair(requestRows(readClientRequestParams, {
    "tools/call": (params) => ((seen = params), { content: [] }),
  } satisfies ServerHandlers));
  await connection.request("tools/call", { name: "x", extra: { kept: true } });
  assert.deepEqual(seen, { name: "x", extra: { kept: true } });
  await connection.close();
});

test("typed contract: a notification whose params are not what the type claims is dropped and reported", async () => {
  const heard: unknown[] = [];
  const failures: string[] = [];
  const [near, far] = createMemoryPair();
  const handlers = { "notifications/message": (params) => void heard.push(params.level) } satisfies Partial<{ [M in keyof ServerNotifications]: (params: ServerNotifications[M]) => void }>;
  new Connection(far, {
    dispatcher: new Dispatcher(notificationRows(readServerNotification, handlers), { onInternalError: (method, error) => failures.push(`${method}: ${(error as Error).message}`) }),
  }).start();
  const connection = new Connection(near, { dispatcher: new Dispatcher([]) });
  connection.start();
  await connection.notify("notifications/message", { level: "loud", data: 1 });
  await connection.notify("notifications/message", { level: "info" });
  await connection.notify("notifications/message", { level: "info", data: "ok" });
  await connection.request("ping").catch(() => {}); // a round trip: the notifications before it are handled
  assert.deepEqual(heard, ["info"]);
  assert.equal(failures.length, 2);
  assert.match(failures[0]!, /^notifications\/message: notifications\/message: "level" must be one of debug, /);
  assert.match(failures[1]!, /"data" is required$/);
  await connection.close();
});

/**
 * A client connected to a fake server whose tools/call answers `result` as it is, as do the
 * methods of `others`; `initialize` adds fields to its initialize result.
 */
async function clientOfServerAnswering(
  result: object,
  others: { [method: string]: object } = {},
  initialize: object = {},
  options: ConstructorParameters<typeof McpClient>[1] = {},
): Promise<{ client: McpClient; close: () => Promise<void>; notify: (method: string, params: object) => Promise<void> }> {
  const [clientEnd, serverEnd] = createMemoryPair();
  const answer = (method: string, answer: object): Row<RequestContext> => ({ method, kind: "request", handle: () => ({ ...answer }) });
  const server = new Connection(serverEnd, {
    dispatcher: new Dispatcher([
      answer("initialize", { protocolVersion: "2025-11-25", capabilities: { tools: {}, prompts: {} }, serverInfo: { name: "fake", version: "1" }, ...initialize }),
      { method: "notifications/initialized", kind: "notification", handle: () => {} },
      answer("tools/call", result),
      ...Object.entries(others).map(([method, other]) => answer(method, other)),
    ]),
  });
  server.start();
  const client = new McpClient({ name: "test", version: "1" }, options);
  await client.connect(clientEnd);
  return { client, close: () => client.close(), notify: (method, params) => server.notify(method, params) };
}

// A result we cannot read is our local failure (MalformedResponseError), never an RpcError: a
// caller must be able to tell it from the peer answering -32602.
test("typed contract: a tools/call result without a content array is a MalformedResponseError naming the field", async () => {
  const { client, close } = await clientOfServerAnswering({ content: "text" });
  await assert.rejects(client.callTool("x"), (error: unknown) =>
    error instanceof MalformedResponseError && error.method === "tools/call" &&
    error.message === `tools/call: the peer's response was malformed: result: "content" must be an array, got string`);
  await close();
});

test("typed contract: a content block without a type is refused, naming its place", async () => {
  const { client, close } = await clientOfServerAnswering({ content: [{ type: "text", text: "a" }, { text: "b" }] });
  await assert.rejects(client.callTool("x"), (error: unknown) =>
    error instanceof MalformedResponseError && /result: "content\[1\]\.type" is required$/.test(error.message));
  await close();
});

test("typed contract: a result keeps the fields its type does not know", async () => {
  const { client, close } = await clientOfServerAnswering({ content: [], isError: false, vendorField: 7 });
  assert.deepEqual(await client.callTool("x"), { content: [], isError: false, vendorField: 7 });
  await close();
});

test("typed contract: a server without serverInfo fails the handshake, naming the field", async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  new Connection(serverEnd, {
    dispatcher: new Dispatcher([{ method: "initialize", kind: "request", handle: () => ({ protocolVersion: "2025-11-25", capabilities: {} }) }]),
  }).start();
  const client = new McpClient({ name: "test", version: "1" });
  await assert.rejects(client.connect(clientEnd), (error: unknown) =>
    error instanceof MalformedResponseError && /^initialize: the peer's response was malformed: result: "serverInfo" is required$/.test(error.message));
  assert.equal(client.isConnected, false);
});

test("typed contract: a session's typed notify sends the notification exactly as given", async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  const session = new McpServer({ name: "s", version: "1" }).connect(serverEnd);
  const heard: unknown[] = [];
  const client = new Connection(clientEnd, {
    dispatcher: new Dispatcher([{ method: "notifications/resources/updated", kind: "notification", handle: (p) => void heard.push(p.value) }]),
  });
  client.start();
  await session.notify("notifications/resources/updated", { uri: "mem://a" });
  await client.request("ping"); // a round trip: the notification before it is handled
  assert.deepEqual(heard, [{ uri: "mem://a" }]);
  await client.close();
});

test("typed contract: a client's notify before connect() rejects with NotConnectedError, naming the method", async () => {
  const client = new McpClient({ name: "test", version: "1" });
  await assert.rejects(client.notify("notifications/roots/list_changed"), (e: unknown) =>
    e instanceof NotConnectedError && /notifications\/roots\/list_changed/.test(e.message));
});

test("typed contract: no role reads cancellation or progress: the connection does, for both", () => {
  for (const readers of [readClientNotification, readServerNotification]) {
    assert.equal(Object.hasOwn(readers, "notifications/cancelled"), false);
    assert.equal(Object.hasOwn(readers, "notifications/progress"), false);
  }
});

// Leniency in results only: real servers send null for optional fields ("nextCursor": null made
// strict clients unable to list a server's tools). It reads as absent, so the value fits its type.
test("typed contract: null in an optional result field reads as absent", async () => {
  const { client, close } = await clientOfServerAnswering({ content: [], isError: null, structuredContent: null }, {
    "tools/list": { tools: [{ name: "t", inputSchema: { type: "object" } }], nextCursor: null },
    "prompts/get": { description: null, messages: [{ role: "user", content: { type: "text", text: "hi" } }] },
  }, { instructions: null });
  assert.equal(client.instructions, undefined);
  assert.deepEqual(await client.callTool("x"), { content: [] });
  assert.deepEqual(await client.listTools(), { tools: [{ name: "t", inputSchema: { type: "object" } }] });
  assert.deepEqual(await client.getPrompt("p"), { messages: [{ role: "user", content: { type: "text", text: "hi" } }] });
  await close();
});

test("typed contract: params stay strict: a null cursor gets -32602", async () => {
  const connection = pair(requestRows(readClientRequestParams, { "tools/list": () => ({ tools: [] }) } satisfies ServerHandlers));
  await assert.rejects(connection.request("tools/list", { cursor: null }), (e: unknown) =>
    e instanceof RpcError && e.code === ErrorCode.InvalidParams && /"cursor" must be a string, got null/.test(e.message));
  await connection.close();
});

test("typed contract: a prompts/get message's role must be user or assistant", async () => {
  const { client, close } = await clientOfServerAnswering({ content: [] }, {
    "prompts/get": { messages: [{ role: "system", content: { type: "text", text: "hi" } }] },
  });
  await assert.rejects(client.getPrompt("p"), (e: unknown) =>
    e instanceof MalformedResponseError && /result: "messages\[0\]\.role" must be one of user, assistant, got "system"$/.test(e.message));
  await close();
});

test("typed contract: a client reports a notification its reader refuses as dropped, naming the field", async () => {
  const problems: string[] = [];
  const logs: unknown[] = [];
  const { client, close, notify } = await clientOfServerAnswering({ content: [] }, { ping: {} }, {}, { onProblem: (message) => problems.push(message) });
  client.on("log", (params) => logs.push(params));
  await notify("notifications/message", { level: "loud", data: 1 });
  await client.ping(); // a round trip: the notification before it is handled
  assert.deepEqual(logs, []);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /^dropped a malformed notification: notifications\/message: "level" must be one of debug, /);
  await close();
});
