// The textbook's connection on in-memory streams: the correlator gives up after its timeout and
// says so (notifications/cancelled), a late answer is dropped; a cancelled request is never
// answered; a handler's unexpected error is one -32603 answer. Timers are mocked.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { Connection } from "../../src/textbook/connection.js";
import type { Params } from "../../src/textbook/wire.js";

function wired(route: ConstructorParameters<typeof Connection>[2] = () => ({})) {
  const input = new PassThrough(), output = new PassThrough();
  const sent: Params[] = [];
  output.setEncoding("utf8").on("data", (chunk: string) => sent.push(...chunk.trim().split("\n").map((line) => JSON.parse(line) as Params)));
  return { connection: new Connection(input, output, route), input, sent };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

test("textbook connection: a request unanswered within its timeout is rejected and cancelled on the wire; a late answer is dropped", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { connection, input, sent } = wired();
    const answer = connection.request("tools/call", { name: "countdown" }, 1000);
    const outcome = answer.then(() => "answered", (error: Error) => error.message);
    mock.timers.tick(999);
    assert.deepEqual(sent.map((message) => message.method), ["tools/call"]);
    mock.timers.tick(1);
    assert.equal(await outcome, "tools/call: no answer within 1000 ms");
    await turn();
    assert.deepEqual(sent[1], { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0, reason: "timed out" } });
    input.write('{"jsonrpc":"2.0","id":0,"result":{}}\n');
    await turn();
    assert.equal(sent.length, 2, "a late answer is neither an error nor answered");
  } finally {
    mock.timers.reset();
  }
});

test("textbook connection: a cancelled request gets no answer; an unexpected error is one -32603", async () => {
  let release = () => {};
  const { input, sent } = wired(({ method }, context) => {
    if (method === "boom") throw new TypeError("a bug");
    return new Promise((resolve) => { release = () => resolve({}); context.signal.addEventListener("abort", () => resolve({})); });
  });
  input.write('{"jsonrpc":"2.0","id":1,"method":"slow"}\n{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n');
  input.write('{"jsonrpc":"2.0","id":2,"method":"boom"}\n');
  await turn();
  release();
  await turn();
  assert.deepEqual(sent, [{ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "boom: internal error" } }]);
});
