// The demo program's --max-remembered-states, as a host runs it (`node dist/server.js` over stdio):
// with room for one used requestState, a second greet round's retry is refused -32603 `busy`
// rather than the first state forgotten, and the first state stays refused as replayed. Bad values
// are a usage error. Builds first: `npm test` does.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { SERVER } from "../helpers/server-program.js";
import { envelope } from "../helpers/modern-peer.js";

type Message = { id?: unknown; result?: any; error?: any };

/** A stdio server and a way to send one request and read its answer. */
function stdioServer(args: string[]) {
  const child = spawn(process.execPath, [SERVER, ...args], { stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map<unknown, (message: Message) => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as Message;
    waiting.get(message.id)?.(message);
  });
  let nextId = 1;
  const greet = (retry: object = {}): Promise<Message> => {
    const id = nextId++;
    const answered = new Promise<Message>((resolve) => waiting.set(id, resolve));
    const params = { name: "greet", arguments: {}, ...retry, _meta: envelope({ elicitation: { form: {} } }) };
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }) + "\n");
    return answered;
  };
  return { greet, stop: () => child.kill() };
}

function answering(asked: Message, name: string): object {
  const key = Object.keys(asked.result.inputRequests)[0]!;
  return { inputResponses: { [key]: { action: "accept", content: { name } } }, requestState: asked.result.requestState };
}

test("demo program: with --max-remembered-states 1 a full replay memory refuses the next retry and forgets nothing", async () => {
  const server = stdioServer(["--max-remembered-states", "1"]);
  try {
    const [first, second] = [await server.greet(), await server.greet()];
    assert.equal((await server.greet(answering(first, "Ada"))).result?.resultType, "complete");
    const refused = await server.greet(answering(second, "Bob"));
    assert.equal(refused.error?.code, -32603, JSON.stringify(refused));
    assert.deepEqual([refused.error.data.reason, refused.error.data.limit], ["busy", 1]);
    assert.equal((await server.greet(answering(first, "Eve"))).error?.data?.reason, "replayed");
  } finally {
    server.stop();
  }
});

test("demo program: --max-remembered-states needs a positive whole number; --help names it", () => {
  const bad = spawnSync(process.execPath, [SERVER, "--max-remembered-states", "0"], { input: "", encoding: "utf8", timeout: 10_000 });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--max-remembered-states needs a positive whole number/);
  const help = spawnSync(process.execPath, [SERVER, "--help"], { encoding: "utf8", timeout: 10_000 });
  assert.match(help.stderr, /--max-remembered-states N/);
});
