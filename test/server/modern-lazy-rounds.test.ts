// A 2026-07-28 request's input rounds are made only once needed (server/modern/serve.ts,
// serveAsking): a handler that neither asks nor looks at its signal gets none, and one that does
// so only after awaiting something is served exactly as one that asks at once.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
import { test } from "node:test";
import assert from "node:assert/strict";
import { setImmediate as turn } from "node:timers/promises";
import { ErrorCode } from "../../src/mcp/errors.js";
import type { RequestContext } from "../../src/protocol/method-table.js";
import { McpServer, text } from "../../src/server/definition.js";
import { InputRounds } from "../../src/server/modern/input-rounds.js";
import { ModernRequest } from "../../src/server/modern/request.js";
import { RequestStateCodec } from "../../src/server/modern/request-state.js";
import { serveModernRequest } from "../../src/server/modern/serve.js";
import type { ClientRequestHandlers } from "../../src/server/serving.js";
import { envelope, errorOf, ModernPeer, resultOf } from "../helpers/modern-peer.js";

type Json = { [key: string]: unknown };

const FORM = { elicitation: { form: {} } };
const ASK_NAME = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };

/** A modern tools/call served by `handle` the 2026-07-28 way; answers the result and the request its handler saw. */
async function serveOne(handle: (request: ModernRequest) => Promise<Json>): Promise<{ result: Json; request: ModernRequest | undefined }> {
  // The server has a tool, so its modern capabilities cover tools/call; `handlers` stands in for its handler.
  const server = new McpServer({ name: "s", version: "1" });
  server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [] }));
  const peer = new ModernPeer(server);
  let seen: ModernRequest | undefined;
  const handlers: ClientRequestHandlers = {
    "tools/call"(_params, context) {
      assert.ok(context instanceof ModernRequest);
      seen = context;
      return handle(context) as never;
    },
  };
  const meta = envelope(FORM);
  const context: RequestContext = {
    id: 1, method: "tools/call", signal: new AbortController().signal, inBatch: false, meta,
    progressToken: undefined, ended: false, progress: async () => {},
  };
  const request = { jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: { name: "t", arguments: {}, _meta: meta } };
  const result = await serveModernRequest(peer.session, handlers, request, context, meta);
  return { result, request: seen };
}

test("lazy rounds: a handler that neither asks nor looks at its signal gets no input rounds", async () => {
  const { result, request } = await serveOne(async () => ({ content: [] }));
  assert.equal(result.resultType, "complete");
  assert.equal(request?.rounds, undefined);
});

test("lazy rounds: a handler that asks only after an await gets its rounds then, and is answered input_required", async () => {
  const { result, request } = await serveOne(async (context) => {
    await turn();
    await context.inputRounds()?.ask({ method: "elicitation/create", params: ASK_NAME }, () => ({}));
    return { content: [] };
  });
  assert.equal(result.resultType, "input_required", JSON.stringify(result));
  assert.deepEqual(Object.values(result.inputRequests as Json), [{ method: "elicitation/create", params: ASK_NAME }]);
  assert.equal(request?.rounds?.setAside, true);
});

function call(peer: ModernPeer, name: string, caps: Json): Promise<Json> {
  return peer.modern("tools/call", { name, arguments: {} }, envelope(caps));
}

test("lazy rounds: a signal first read after an await still aborts when its handler is set aside", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  let signal: AbortSignal | undefined;
  server.tool({ name: "t", inputSchema: { type: "object" } }, async (_args, context) => {
    await turn();
    signal = context.signal;
    await turn();
    return { content: [text(String((await context.elicit(ASK_NAME)).action))] };
  });
  const result = resultOf(await call(new ModernPeer(server), "t", FORM));
  assert.equal(result.resultType, "input_required", JSON.stringify(result));
  assert.equal(signal?.aborted, true);
});

test("lazy rounds: an ask past an await that the request's capabilities do not declare is still refused", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  server.tool({ name: "t", inputSchema: { type: "object" } }, async (_args, context) => {
    await turn();
    return { content: [text(String((await context.elicit(ASK_NAME)).action))] };
  });
  assert.equal(errorOf(await call(new ModernPeer(server), "t", {})).code, ErrorCode.MissingRequiredClientCapability);
});

test("lazy rounds: InputRounds.run, the rounds made up front, answers a handler that asks nothing with its result", async () => {
  const served = { protocolVersion: "2026-07-28" as const, logLevel: undefined, clientInfo: { name: "c", version: "1" }, clientCapabilities: FORM, signal: new AbortController().signal };
  const rounds = new InputRounds("tools/call", {}, served, new RequestStateCodec());
  assert.deepEqual(await rounds.run(() => ({ n: 1 })), { result: { n: 1 } });
  assert.equal(rounds.setAside, false);
});
