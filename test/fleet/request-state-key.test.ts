// The fleet's requestState key: from a file or MCP_WIRE_REQUEST_STATE_KEY, never the command line,
// refused below 32 bytes; two demo programs given the same key file split an input round between
// them (each remembers its own uses: without a shared store, a replay is refused by the process that
// accepted it). Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRequestStateKey, RequestStateKeyError } from "../../src/fleet/request-state-key.js";
import { listening, start } from "../helpers/server-program.js";
import { modernRequest, postModern } from "../helpers/http-modern-peer.js";
import type { Message } from "../helpers/http-peer.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-wire-key-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const KEY = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

function keyFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

test("request state key: from a file (one trailing newline dropped) or the environment variable", () => {
  assert.deepEqual(readRequestStateKey({ file: keyFile("k1", KEY + "\n"), env: {} }), Buffer.from(KEY));
  assert.deepEqual(readRequestStateKey({ env: { MCP_WIRE_REQUEST_STATE_KEY: KEY } }), Buffer.from(KEY));
  assert.equal(readRequestStateKey({ env: {} }), undefined);
});

test("request state key: too short, unreadable, or given twice is refused, saying why", () => {
  assert.throws(() => readRequestStateKey({ file: keyFile("k2", "short\n"), env: {} }), (error: Error) => error instanceof RequestStateKeyError && /5 bytes; it must be at least 32/.test(error.message));
  assert.throws(() => readRequestStateKey({ env: { MCP_WIRE_REQUEST_STATE_KEY: "x".repeat(31) } }), /31 bytes; it must be at least 32/);
  assert.throws(() => readRequestStateKey({ file: join(dir, "absent"), env: {} }), /cannot read the requestState key file/);
  assert.throws(() => readRequestStateKey({ file: keyFile("k3", KEY), env: { MCP_WIRE_REQUEST_STATE_KEY: KEY } }), /use one/);
});

test("request state key: the demo program refuses a key on the command line and a short key file", async () => {
  const inline = await start(["--request-state-key", KEY]);
  assert.ok("exitCode" in inline && inline.exitCode === 2, JSON.stringify(inline));
  assert.match(inline.stderr, /readable by every user/);
  const short = await start(["--request-state-key-file", keyFile("k4", "short")]);
  assert.ok("exitCode" in short && short.exitCode === 2);
  assert.match(short.stderr, /must be at least 32/);
  const badName = await start(["--instance", "a.b"]);
  assert.ok("exitCode" in badName && badName.exitCode === 2);
});

test("request state key: two demo programs with one key file complete a round split between them", async () => {
  const file = keyFile("k5", KEY + "\n");
  const a = await listening(["--request-state-key-file", file, "--instance", "a"]);
  const b = await listening([], { MCP_WIRE_REQUEST_STATE_KEY: KEY });
  try {
    const greet = async (origin: string, id: number, retry: object = {}) =>
      (await (await postModern(`${origin}/mcp`, modernRequest(id, "tools/call", { name: "greet", arguments: {}, ...retry }, {}, { elicitation: { form: {} } }))).json()) as Message;
    const asked = await greet(a.origin, 1);
    const key = Object.keys(asked.result.inputRequests)[0]!;
    const retry = { inputResponses: { [key]: { action: "accept", content: { name: "Grace" } } }, requestState: asked.result.requestState };
    const done = await greet(b.origin, 2, retry);
    assert.match(done.result?.content?.[0]?.text ?? "", /Grace/, JSON.stringify(done));
    assert.deepEqual((await greet(b.origin, 3, retry)).error?.data, { reason: "replayed" });
  } finally {
    await a.stop();
    await b.stop();
  }
});
