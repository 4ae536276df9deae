// What the Streamable HTTP client transport reads off the messages it carries: describe() (the
// text, the step errors name, the requests whose answers keep a POST open, whether it is the
// initialize) and answersIn() (the responses in a text from the server, by id, as received).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import { answersIn, describe, type Answer, type Outgoing } from "../../src/http/client-messages.js";

const ping = (id: string | number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "ping" });
const initialized: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/initialized" };
const initialize: JSONRPCMessage = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

const describeCases: { name: string; message: JSONRPCMessage | JSONRPCMessage[]; want: Omit<Outgoing, "text"> }[] = [
  { name: "a request: its method, its id", message: ping(7), want: { step: "ping", ids: [7], initialize: false } },
  { name: "a string id stays a string", message: ping("7"), want: { step: "ping", ids: ["7"], initialize: false } },
  { name: "a notification: no request in it", message: initialized, want: { step: "notifications/initialized", ids: [], initialize: false } },
  { name: "a result: named by its id", message: { jsonrpc: "2.0", id: 3, result: {} }, want: { step: "response 3", ids: [], initialize: false } },
  {
    name: "an error: named by its id, as JSON",
    message: { jsonrpc: "2.0", id: "x", error: { code: -32601, message: "no" } },
    want: { step: 'response "x"', ids: [], initialize: false },
  },
  { name: "the initialize request", message: initialize, want: { step: "initialize", ids: [0], initialize: true } },
  {
    name: "a batch: every request in it, named by its first message",
    message: [initialized, ping(1), { jsonrpc: "2.0", id: 9, result: {} }, ping("2")],
    want: { step: "notifications/initialized", ids: [1, "2"], initialize: false },
  },
  { name: "a batch holding initialize is not the initialize", message: [initialize], want: { step: "initialize", ids: [0], initialize: false } },
  { name: "an empty batch", message: [], want: { step: "batch", ids: [], initialize: false } },
];
for (const c of describeCases) {
  test(`describe: ${c.name}`, () => {
    const outgoing = describe(c.message);
    assert.deepEqual(outgoing, { ...c.want, text: outgoing.text });
    assert.deepEqual(JSON.parse(outgoing.text), c.message, "the text is the message");
    assert.doesNotMatch(outgoing.text, /\n/);
  });
}

test("describe: an initialize without an id (a notification, which the spec does not have) is not the initialize", () => {
  const outgoing = describe({ jsonrpc: "2.0", method: "initialize" } as JSONRPCMessage);
  assert.deepEqual([outgoing.ids, outgoing.initialize], [[], false]);
});

const answer = (id: string | number, result: unknown, error?: unknown): Answer => ({ id, result, error });

// Anything not a response with a string or number id is passed over: it cannot settle a request.
const answersCases: { name: string; text: string; want: Answer[] }[] = [
  { name: "a result", text: '{"jsonrpc":"2.0","id":1,"result":{"a":1}}', want: [answer(1, { a: 1 })] },
  { name: "an error", text: '{"jsonrpc":"2.0","id":"1","error":{"code":-32603,"message":"x"}}', want: [answer("1", undefined, { code: -32603, message: "x" })] },
  { name: "ids kept exactly as received", text: '[{"jsonrpc":"2.0","id":"1","result":1},{"jsonrpc":"2.0","id":1,"result":2}]', want: [answer("1", 1), answer(1, 2)] },
  {
    name: "a batch: its responses in order, its requests and notifications passed over",
    text: '[{"jsonrpc":"2.0","id":2,"result":null},{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/message"},{"jsonrpc":"2.0","id":3,"result":true}]',
    want: [answer(2, null), answer(3, true)],
  },
  { name: "a request from the server", text: '{"jsonrpc":"2.0","id":1,"method":"roots/list"}', want: [] },
  { name: "an error with a null id (an answer to no request)", text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}', want: [] },
  { name: "ids neither string nor number", text: '[{"id":true,"result":1},{"id":{},"result":1},{"result":1}]', want: [] },
  { name: "items that are not objects", text: '[1,"a",null,[{"jsonrpc":"2.0","id":1,"result":1}]]', want: [] },
  { name: "a value that is not a message", text: "42", want: [] },
  { name: "text that does not parse", text: '{"jsonrpc":"2.0","id":1,', want: [] },
  { name: "an empty text", text: "", want: [] },
];
for (const c of answersCases) {
  test(`answersIn: ${c.name}`, () => {
    assert.deepEqual(answersIn(c.text), c.want);
  });
}
