// Streamable HTTP, POST: the HTTP-level rules a request must pass (Accept, Content-Type, size,
// JSON, batches, MCP-Protocol-Version, session header) and the forms of the answer (202, JSON).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ACCEPT_BOTH, answerOf, initializeRequest, LATEST, notification, openSession, post, raw, request, serve, type Message, type Served, type Session } from "../helpers/http-peer.js";

const LIMIT = 2048;
let served: Served;
let json: Served;
let session: Session;

before(async () => {
  served = await serve({ maxBodyBytes: LIMIT });
  json = await serve({ jsonResponses: true });
  session = await openSession(served.url);
});
after(async () => {
  await served.close();
  await json.close();
});

/**
 * An HTTP error's body: a JSON-RPC error, without id unless the message had one we could read
 * (then it is echoed, exactly as the stdio transport answers an invalid request).
 */
function assertErrorBody(body: string, code?: number, id?: unknown): void {
  const parsed = JSON.parse(body);
  assert.equal(parsed.jsonrpc, "2.0");
  if (id === undefined) assert.equal("id" in parsed, false, "an HTTP-level error carries no id");
  else assert.equal(parsed.id, id, "a readable id is echoed");
  assert.equal(typeof parsed.error.message, "string");
  if (code !== undefined) assert.equal(parsed.error.code, code);
}

const INIT = JSON.stringify(initializeRequest());

const acceptCases: { name: string; accept?: string; status: number }[] = [
  { name: "no Accept header", status: 406 },
  { name: "application/json only", accept: "application/json", status: 406 },
  { name: "text/event-stream only", accept: "text/event-stream", status: 406 },
  { name: "an unrelated type", accept: "text/html", status: 406 },
  { name: "both types", accept: ACCEPT_BOTH, status: 200 },
  { name: "both types, other order, with parameters", accept: "text/event-stream;q=0.9, application/json;q=1", status: 200 },
  { name: "both types, upper case", accept: "Application/JSON, Text/Event-Stream", status: 200 },
];
for (const c of acceptCases) {
  test(`POST Accept: ${c.name} -> ${c.status}`, async () => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (c.accept !== undefined) headers.accept = c.accept;
    const reply = await raw(served.origin, { method: "POST", headers, body: INIT });
    assert.equal(reply.status, c.status);
    if (c.status === 406) assertErrorBody(reply.body);
    else assert.match(String(reply.headers["mcp-session-id"]), /^[\x21-\x7e]+$/);
  });
}

const contentTypeCases: { name: string; type?: string; status: number }[] = [
  { name: "no Content-Type", status: 415 },
  { name: "text/plain", type: "text/plain", status: 415 },
  { name: "application/x-www-form-urlencoded", type: "application/x-www-form-urlencoded", status: 415 },
  { name: "application/json-seq (another media type)", type: "application/json-seq", status: 415 },
  { name: "application/json", type: "application/json", status: 200 },
  { name: "application/json with charset", type: "application/json; charset=utf-8", status: 200 },
];
for (const c of contentTypeCases) {
  test(`POST Content-Type: ${c.name} -> ${c.status}`, async () => {
    const headers: Record<string, string> = { accept: ACCEPT_BOTH };
    if (c.type !== undefined) headers["content-type"] = c.type;
    const reply = await raw(served.origin, { method: "POST", headers, body: INIT });
    assert.equal(reply.status, c.status);
    if (c.status === 415) assertErrorBody(reply.body);
  });
}

const sizeCases: { name: string; bytes: number; chunked: boolean; status: number }[] = [
  { name: "exactly the limit, with Content-Length", bytes: LIMIT, chunked: false, status: 200 },
  { name: "one byte over, with Content-Length", bytes: LIMIT + 1, chunked: false, status: 413 },
  { name: "far over, chunked (no Content-Length)", bytes: LIMIT * 8, chunked: true, status: 413 },
  { name: "exactly the limit, chunked", bytes: LIMIT, chunked: true, status: 200 },
];
for (const c of sizeCases) {
  test(`POST body size: ${c.name} -> ${c.status}`, async () => {
    // A valid initialize padded with trailing whitespace to the exact size.
    const body = INIT + " ".repeat(c.bytes - INIT.length);
    assert.equal(Buffer.byteLength(body), c.bytes);
    const headers: Record<string, string> = { accept: ACCEPT_BOTH, "content-type": "application/json" };
    if (c.chunked) headers["transfer-encoding"] = "chunked";
    else headers["content-length"] = String(c.bytes);
    const reply = await raw(served.origin, { method: "POST", headers, body });
    assert.equal(reply.status, c.status);
    if (c.status === 413) assertErrorBody(reply.body);
  });
}

test("POST: a body that is not JSON gets 400 with a -32700 error and no id", async () => {
  const response = await session.post("{not json");
  assert.equal(response.status, 400);
  assertErrorBody(await response.text(), -32700);
});

const notAMessageCases: { name: string; body: string; id?: unknown }[] = [
  { name: "an object with neither method nor result", body: '{"hello":"world"}' },
  { name: "a number", body: "42" },
  { name: "a string", body: '"ping"' },
  { name: "an id with neither result nor error", body: '{"jsonrpc":"2.0","id":1}', id: 1 },
];
for (const c of notAMessageCases) {
  // Spec (transports#sending-messages-to-the-server): 202 only for an accepted notification or
  // response; anything else gets an HTTP error status such as 400.
  test(`POST: valid JSON that is not a JSON-RPC message (${c.name}) gets 400, not 202`, async () => {
    const response = await session.post(c.body);
    assert.equal(response.status, 400, `body ${c.body} was answered ${response.status}`);
    assertErrorBody(await response.text(), -32600, c.id);
  });
}

test("POST: a batch in a 2025-11-25 session gets 400 with -32600", async () => {
  const response = await session.post([request(1, "ping"), request(2, "ping")]);
  assert.equal(response.status, 400);
  assertErrorBody(await response.text(), -32600);
});

test("POST: initialize inside a batch gets 400", async () => {
  const response = await post(served.url, [initializeRequest()]);
  assert.equal(response.status, 400);
  assertErrorBody(await response.text(), -32600);
});

test("POST: a batch in a 2025-03-26 session is answered with an array of both responses", async () => {
  const old = await openSession(json.url, "2025-03-26");
  const response = await old.post([request("a", "ping"), request("b", "tools/call", { name: "add", arguments: { a: 2, b: 3 } })]);
  assert.equal(response.status, 200);
  const body = (await response.json()) as Message[];
  assert.ok(Array.isArray(body), `expected an array, got ${JSON.stringify(body)}`);
  const byId = new Map(body.map((m) => [m.id, m]));
  assert.deepEqual(byId.get("a")?.result, {});
  assert.equal(byId.get("b")?.result.content[0].text, JSON.stringify({ sum: 5 }));
});

const acceptedCases = [
  { name: "a notification", body: notification("notifications/cancelled", { requestId: "nobody", reason: "test" }) },
  { name: "a result response", body: { jsonrpc: "2.0", id: "s-1", result: {} } },
  { name: "an error response", body: { jsonrpc: "2.0", id: "s-2", error: { code: -1, message: "refused" } } },
];
for (const c of acceptedCases) {
  test(`POST: ${c.name} gets 202 with an empty body`, async () => {
    const response = await session.post(c.body);
    assert.equal(response.status, 202);
    assert.equal(await response.text(), "");
  });
}

test("POST: a JSON-RPC error (unknown method) is HTTP 200 carrying the error", async () => {
  const response = await session.post(request(7, "no/such/method"));
  assert.equal(response.status, 200);
  const answer = await answerOf(response);
  assert.equal(answer.id, 7);
  assert.equal(answer.error.code, -32601);
});

const versionCases = [
  { name: "a future version", value: "2099-01-01" },
  { name: "garbage", value: "latest" },
  { name: "an empty value", value: "" },
];
for (const c of versionCases) {
  for (const method of ["POST", "GET", "DELETE"] as const) {
    // Spec (transports#protocol-version-header): an invalid or unsupported value gets 400 Bad Request.
    test(`MCP-Protocol-Version ${c.name} on ${method} -> 400`, async () => {
      const own = await openSession(served.url);
      const headers: Record<string, string> = { ...own.headers, "mcp-protocol-version": c.value, accept: method === "GET" ? "text/event-stream" : ACCEPT_BOTH };
      if (method === "POST") headers["content-type"] = "application/json";
      const reply = await raw(served.origin, { method, headers, body: method === "POST" ? JSON.stringify(request(1, "ping")) : undefined });
      assert.equal(reply.status, 400, `${method} with MCP-Protocol-Version ${JSON.stringify(c.value)} was answered ${reply.status}`);
    });
  }
}

test("MCP-Protocol-Version: leaving it out is accepted", async () => {
  const { "mcp-protocol-version": _, ...headers } = session.headers;
  const response = await post(served.url, request(8, "ping"), headers);
  assert.equal(response.status, 200);
  assert.deepEqual((await answerOf(response)).result, {});
});

const sessionHeaderCases: { name: string; method: "POST" | "GET" | "DELETE"; id?: string; status: number }[] = [
  { name: "POST without MCP-Session-Id", method: "POST", status: 400 },
  { name: "GET without MCP-Session-Id", method: "GET", status: 400 },
  { name: "DELETE without MCP-Session-Id", method: "DELETE", status: 400 },
  { name: "POST with an unknown id", method: "POST", id: "no-such-session", status: 404 },
  { name: "GET with an unknown id", method: "GET", id: "no-such-session", status: 404 },
  { name: "DELETE with an unknown id", method: "DELETE", id: "no-such-session", status: 404 },
];
for (const c of sessionHeaderCases) {
  // Spec (transports#session-management): no header (not initialize) SHOULD get 400; an unknown one, 404.
  test(`session header: ${c.name} -> ${c.status}`, async () => {
    const headers: Record<string, string> = { accept: c.method === "GET" ? "text/event-stream" : ACCEPT_BOTH, "content-type": "application/json", "mcp-protocol-version": LATEST };
    if (c.id !== undefined) headers["mcp-session-id"] = c.id;
    const reply = await raw(served.origin, { method: c.method, headers, body: c.method === "POST" ? JSON.stringify(request(1, "tools/list")) : undefined });
    assert.equal(reply.status, c.status);
    assertErrorBody(reply.body);
  });
}

test("POST: initialize that carries an MCP-Session-Id is refused with 400", async () => {
  const response = await post(served.url, initializeRequest(), { "mcp-session-id": session.id });
  assert.equal(response.status, 400);
});

test("sessions: ids are visible ASCII and differ between sessions", async () => {
  const a = await openSession(served.url);
  const b = await openSession(served.url);
  for (const id of [a.id, b.id]) assert.match(id, /^[\x21-\x7e]{16,}$/);
  assert.notEqual(a.id, b.id);
});

test("jsonResponses: initialize and tools/call are answered with application/json bodies", async () => {
  const init = await post(json.url, initializeRequest());
  assert.equal(init.status, 200);
  assert.match(init.headers.get("content-type") ?? "", /^application\/json/);
  assert.ok(init.headers.get("mcp-session-id"));
  assert.equal(((await init.json()) as Message).result.protocolVersion, LATEST);

  const s = await openSession(json.url);
  const response = await s.post(request("e", "tools/call", { name: "echo", arguments: { text: "hi" } }));
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
  const body = await response.json();
  assert.deepEqual(body, { jsonrpc: "2.0", id: "e", result: { content: [{ type: "text", text: "echo: hi" }] } });
});

test("request ids keep their type: \"1\" and 1 are answered as sent", async () => {
  const s = await openSession(json.url);
  const [a, b] = await Promise.all([s.call("1", "ping"), s.call(1, "ping")]);
  assert.equal(a.id, "1");
  assert.equal(b.id, 1);
});
