// 2026-07-28 POSTs on the dual-era endpoint: the era is the body's, no session is minted or read,
// and each check answers with its own status: envelope and version 400, header mismatch 400 with
// -32020, unknown or removed method 404, notifications 202; the endpoint's security and size bounds
// apply as to legacy traffic. Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
// (#protocol-version-header, #server-validation, #backward-compatibility) and basic#error-codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpServer, text } from "../../src/server/definition.js";
import { ACCEPT_BOTH, notification, post, raw, request, serve, type Message } from "../helpers/http-peer.js";
import { mirroredHeaders } from "../../src/http/mcp-headers.js";
import { envelope, MODERN, modernRequest, postModern } from "../helpers/http-modern-peer.js";

/** The demo server, plus a tool that mirrors its `region` argument into Mcp-Param-Region. */
function withHeaderTool(): McpServer {
  return createDemoServer().tool(
    { name: "weather", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, days: { type: "integer" } } } },
    async (args) => ({ content: [text(`weather in ${String(args.region)}`)] }),
  );
}

const REGION = [{ header: "Region", path: ["region"], type: "string" as const }];

async function errorOf(response: Response): Promise<Message["error"]> {
  return ((await response.json()) as Message).error;
}

test("modern: tools/call is answered as JSON with resultType, and no session is minted", async () => {
  const served = await serve();
  try {
    const response = await postModern(served.url, modernRequest(1, "tools/call", { name: "add", arguments: { a: 1, b: 2 } }));
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(response.headers.get("mcp-session-id"), null);
    const answer = (await response.json()) as Message;
    assert.deepEqual(answer.result.structuredContent, { sum: 3 });
    assert.equal(answer.result.resultType, "complete");
    assert.equal(served.http.streamable.sessionCount, 0);
  } finally {
    await served.close();
  }
});

test("modern: Mcp-Session-Id and Last-Event-ID are ignored, even when unknown", async () => {
  const served = await serve();
  try {
    const response = await postModern(served.url, modernRequest(1, "server/discover"), { "mcp-session-id": "no-such-session", "last-event-id": "p1:7" });
    assert.equal(response.status, 200);
    assert.deepEqual(((await response.json()) as Message).result.supportedVersions, [MODERN]);
  } finally {
    await served.close();
  }
});

// Each refusal: the request, the headers to change, the status and the JSON-RPC error code.
const refusals: { name: string; message: object; headers?: Record<string, string | null>; status: number; code: number; data?: object; text?: RegExp }[] = [
  {
    name: "an envelope without clientCapabilities is 400 -32602",
    message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } } },
    status: 400, code: -32602,
  },
  {
    name: "an unsupported version is 400 -32022 with supported and requested",
    message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { ...envelope(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } },
    status: 400, code: -32022, data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], requested: "2099-01-01" },
  },
  {
    name: "a MCP-Protocol-Version header other than the body's version is 400 -32020",
    message: modernRequest(1, "tools/list"), headers: { "mcp-protocol-version": "2025-11-25" }, status: 400, code: -32020, text: /MCP-Protocol-Version/,
  },
  { name: "a missing Mcp-Method is 400 -32020", message: modernRequest(1, "tools/list"), headers: { "mcp-method": null }, status: 400, code: -32020, text: /Mcp-Method header is missing/ },
  { name: "a wrong Mcp-Method is 400 -32020", message: modernRequest(1, "tools/list"), headers: { "mcp-method": "prompts/list" }, status: 400, code: -32020 },
  {
    name: "a wrong Mcp-Name is 400 -32020",
    message: modernRequest(1, "tools/call", { name: "add", arguments: { a: 1, b: 2 } }), headers: { "mcp-name": "echo" }, status: 400, code: -32020,
    text: /Mcp-Name header value 'echo' does not match body value 'add'/,
  },
  { name: "a missing Mcp-Name is 400 -32020", message: modernRequest(1, "prompts/get", { name: "x" }), headers: { "mcp-name": null }, status: 400, code: -32020 },
  {
    name: "a malformed base64 sentinel in Mcp-Name is 400 -32020",
    message: modernRequest(1, "tools/call", { name: "add", arguments: { a: 1, b: 2 } }), headers: { "mcp-name": "=?base64?not*base64?=" }, status: 400, code: -32020,
  },
  { name: "an unknown method is 404 -32601", message: modernRequest(1, "no/such/method"), status: 404, code: -32601 },
  { name: "a method 2026-07-28 removed (ping) is 404 -32601", message: modernRequest(1, "ping"), status: 404, code: -32601 },
  { name: "resources/subscribe, removed, is 404 -32601", message: modernRequest(1, "resources/subscribe", { uri: "docs://x" }), status: 404, code: -32601 },
  { name: "initialize with a valid modern claim is 404 -32601", message: modernRequest(1, "initialize", { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: "c", version: "1" } }), status: 404, code: -32601 },
  {
    name: "the header check comes before the method check: an unknown method with a wrong Mcp-Method is 400",
    message: modernRequest(1, "no/such/method"), headers: { "mcp-method": "tools/list" }, status: 400, code: -32020,
  },
  {
    name: "the version check comes before the header check",
    message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { ...envelope(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } },
    headers: { "mcp-method": null }, status: 400, code: -32022,
  },
  {
    name: "a claimless request with a modern MCP-Protocol-Version is 400 -32602 naming the missing keys",
    message: request(1, "tools/list"), headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" }, status: 400, code: -32602,
    text: /io\.modelcontextprotocol\/protocolVersion.*io\.modelcontextprotocol\/clientCapabilities/,
  },
  {
    name: "initialize (legacy) with a modern MCP-Protocol-Version is 400 -32020",
    message: request(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }),
    headers: { "mcp-protocol-version": MODERN }, status: 400, code: -32020,
  },
  {
    name: "a batch holding a modern request is 400 -32600",
    message: [modernRequest(1, "tools/list"), modernRequest(2, "prompts/list")], status: 400, code: -32600,
  },
  {
    name: "an in-band -32021 (greet asks for elicitation the request does not declare) is 400",
    message: modernRequest(1, "tools/call", { name: "greet", arguments: {} }), status: 400, code: -32021,
  },
  {
    // The SDK v2 client sends a progressToken whenever it is given a progress callback: the answer,
    // not the token, decides between JSON and SSE, so the refusal keeps its status.
    name: "an in-band -32021 for a request with a progressToken is still 400, as JSON",
    message: modernRequest(1, "tools/call", { name: "greet", arguments: {} }, { progressToken: 1 }), status: 400, code: -32021,
  },
  {
    name: "an in-band -32021 for a request with a logLevel is still 400, as JSON",
    message: modernRequest(1, "tools/call", { name: "greet", arguments: {} }, { "io.modelcontextprotocol/logLevel": "debug" }), status: 400, code: -32021,
  },
];

for (const c of refusals) {
  test(`modern: ${c.name}`, async () => {
    const served = await serve();
    try {
      const response = await postModern(served.url, c.message, c.headers);
      assert.equal(response.status, c.status);
      assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
      const error = await errorOf(response);
      assert.equal(error.code, c.code, JSON.stringify(error));
      if (c.data) assert.deepEqual(error.data, c.data);
      if (c.text) assert.match(error.message, c.text);
      assert.equal(served.http.streamable.sessionCount, 0);
    } finally {
      await served.close();
    }
  });
}

test("modern: an in-band -32602 (an unknown tool) is an answer like a result: 200", async () => {
  const served = await serve();
  try {
    const response = await postModern(served.url, modernRequest(1, "tools/call", { name: "nope", arguments: {} }));
    assert.equal(response.status, 200);
    assert.equal((await errorOf(response)).code, -32602);
  } finally {
    await served.close();
  }
});

test("modern: a refusal before the handler answers the request's id", async () => {
  const served = await serve();
  try {
    const response = await postModern(served.url, modernRequest("abc", "ping"));
    assert.equal(((await response.json()) as Message).id, "abc");
  } finally {
    await served.close();
  }
});

test("modern: an unknown MCP-Protocol-Version on a modern body is judged by the body (-32022), a legacy body keeps its 400", async () => {
  const served = await serve();
  try {
    const claim = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { ...envelope(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } };
    const modern = await postModern(served.url, claim, { "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list" });
    assert.equal(modern.status, 400);
    assert.equal((await errorOf(modern)).code, -32022);
    const legacy = await post(served.url, request(1, "tools/list"), { "mcp-protocol-version": "2099-01-01" });
    assert.equal(legacy.status, 400);
    assert.match((await errorOf(legacy)).message, /unsupported MCP-Protocol-Version "2099-01-01"/);
  } finally {
    await served.close();
  }
});

test("modern: Mcp-Name in the base64 form is decoded before it is compared", async () => {
  const served = await serve();
  try {
    // "add" needs no encoding, but a client may send the encoded form of any value.
    const encoded = "=?base64?" + Buffer.from("add").toString("base64") + "?=";
    const response = await postModern(served.url, modernRequest(1, "tools/call", { name: "add", arguments: { a: 2, b: 2 } }), { "mcp-name": encoded });
    assert.equal(response.status, 200);
    assert.deepEqual(((await response.json()) as Message).result.structuredContent, { sum: 4 });
  } finally {
    await served.close();
  }
});

const paramCases: { name: string; args: object; headers: Record<string, string | null>; status: number }[] = [
  { name: "a matching Mcp-Param-Region passes", args: { region: "eu-west" }, headers: {}, status: 200 },
  { name: "Mcp-Param-Region matches case-insensitively by name", args: { region: "eu-west" }, headers: { "mcp-param-region": null, "MCP-PARAM-REGION": "eu-west" }, status: 200 },
  { name: "a missing Mcp-Param-Region for a value in the body is 400", args: { region: "eu-west" }, headers: { "mcp-param-region": null }, status: 400 },
  { name: "a mismatched Mcp-Param-Region is 400", args: { region: "eu-west" }, headers: { "mcp-param-region": "us-east" }, status: 400 },
  { name: "no header is expected for an absent argument", args: {}, headers: {}, status: 200 },
  { name: "a header for an absent argument is 400", args: {}, headers: { "mcp-param-region": "eu-west" }, status: 400 },
  { name: "a non-ASCII value in the base64 form passes", args: { region: "Zürich" }, headers: {}, status: 200 },
];

for (const c of paramCases) {
  test(`modern: x-mcp-header: ${c.name}`, async () => {
    const served = await serve({}, withHeaderTool());
    try {
      const response = await postModern(served.url, modernRequest(1, "tools/call", { name: "weather", arguments: c.args }), c.headers, REGION);
      assert.equal(response.status, c.status);
      if (c.status === 400) assert.equal((await errorOf(response)).code, -32020);
      else assert.equal(((await response.json()) as Message).result.resultType, "complete");
    } finally {
      await served.close();
    }
  });
}

test("modern: a notification is 202; one with only MCP-Protocol-Version (the SDK v2 listen close) too; a wrong header is 400", async () => {
  const served = await serve();
  try {
    const bare = await post(served.url, notification("notifications/cancelled", { requestId: 7 }), { "mcp-protocol-version": MODERN });
    assert.equal(bare.status, 202);
    const claimed = await postModern(served.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, _meta: envelope() } });
    assert.equal(claimed.status, 202);
    const wrong = await postModern(served.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, _meta: envelope() } }, { "mcp-method": "notifications/progress" });
    assert.equal(wrong.status, 400);
    assert.equal((await errorOf(wrong)).code, -32020);
    assert.equal(served.http.streamable.sessionCount, 0);
  } finally {
    await served.close();
  }
});

test("modern: GET and DELETE with a modern MCP-Protocol-Version and no session are 405, Allow: POST", async () => {
  const served = await serve();
  try {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(served.url, { method, headers: { accept: "text/event-stream", "mcp-protocol-version": MODERN } });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get("allow"), "POST");
      await response.body?.cancel();
    }
  } finally {
    await served.close();
  }
});

test("modern: a bad Origin or Host is 403, a bad token 401, an oversized body 413, as for legacy traffic", async () => {
  const served = await serve({ allowedOrigins: ["http://good.example"], bearerToken: "a-long-enough-test-token-0123456789", maxBodyBytes: 2048 });
  try {
    const auth = { authorization: "Bearer a-long-enough-test-token-0123456789" };
    const call = modernRequest(1, "tools/list");
    assert.equal((await postModern(served.url, call, { ...auth, origin: "http://evil.example" })).status, 403);
    assert.equal((await postModern(served.url, call, { origin: "http://good.example" })).status, 401);
    const big = modernRequest(1, "tools/call", { name: "echo", arguments: { text: "x".repeat(4096) } });
    assert.equal((await postModern(served.url, big, { ...auth, origin: "http://good.example" })).status, 413);
    assert.equal((await postModern(served.url, call, { ...auth, origin: "http://good.example" })).status, 200);
    // A hostile Host (DNS rebinding) is refused before the body is read, modern or not.
    const headers = { ...mirroredHeaders(call), ...auth, host: "evil.example", accept: ACCEPT_BOTH, "content-type": "application/json" };
    assert.equal((await raw(served.origin, { method: "POST", headers, body: JSON.stringify(call) })).status, 403);
  } finally {
    await served.close();
  }
});

test("modern: Accept and Content-Type are checked as for legacy traffic (406, 415)", async () => {
  const served = await serve();
  try {
    assert.equal((await postModern(served.url, modernRequest(1, "tools/list"), { accept: "application/json" })).status, 406);
    assert.equal((await postModern(served.url, modernRequest(1, "tools/list"), { "content-type": "text/plain" })).status, 415);
  } finally {
    await served.close();
  }
});

test("modern: a method behind a capability the server does not offer (prompts/list, no prompts) is 404 -32601", async () => {
  const bare = new McpServer({ name: "bare", version: "1.0.0" }).tool({ name: "one", inputSchema: { type: "object" } }, async () => ({ content: [text("1")] }));
  const served = await serve({}, bare);
  try {
    const response = await postModern(served.url, modernRequest(1, "prompts/list"));
    assert.equal(response.status, 404);
    assert.equal((await errorOf(response)).code, -32601);
    // Refused before the handler runs: a log level (which may turn an answer into an event stream) changes nothing.
    const logged = await postModern(served.url, modernRequest(2, "prompts/list", {}, { "io.modelcontextprotocol/logLevel": "info" }));
    assert.equal(logged.status, 404);
    assert.equal((await postModern(served.url, modernRequest(3, "tools/list"))).status, 200);
  } finally {
    await served.close();
  }
});
