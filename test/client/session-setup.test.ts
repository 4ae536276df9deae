// After Streamable HTTP opens a new session on its own (the server ended the old one), the client
// sets up again what the application had: its resource subscriptions and its log level (issue 7,
// item 17), and a new session the server refuses fails the message that needed it. Against the demo
// server over loopback (it "expires" the session by DELETE) and scripted servers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { NOTES_URI } from "../../src/demo/server-definition.js";
import { SessionRenewalError } from "../../src/http/client-session.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import type { LoggingMessageNotificationParams } from "../../src/mcp/logging.js";
import { serve } from "../helpers/http-peer.js";
import { initializeResult, json, routine, scriptedServer } from "../helpers/scripted-http.js";

const info = { name: "renewal-tests", version: "1" };
/** Sessions are the handshake era's (2026-07-28 has none): every client here pins it. */
const HANDSHAKE = { protocolVersion: "2025-11-25" } as const;

const next = <T>(client: McpClient, event: string) => new Promise<T>((resolve) => client.once(event, resolve));

test("streamable http: after a new session, the subscriptions and the log level are restored, and updates flow again", { timeout: 10_000 }, async () => {
  const server = await serve();
  try {
    const transport = new StreamableHttpClientTransport(server.url);
    const client = new McpClient(info, HANDSHAKE);
    await client.connect(transport);
    await client.subscribe(NOTES_URI);
    await client.setLoggingLevel("debug");
    const logs: LoggingMessageNotificationParams[] = [];
    client.on("log", (params: LoggingMessageNotificationParams) => logs.push(params));

    // The server ends the session (as idle expiry would); the next call meets the 404.
    const first = transport.sessionId!;
    assert.equal((await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": first } })).status, 200);
    const renewed = next<Error[]>(client, "sessionRenewed");
    await client.callTool("add", { a: 1, b: 2 });
    assert.notEqual(transport.sessionId, first);
    assert.deepEqual(await renewed, [], "everything was restored");

    const updated = next<string>(client, "resourceUpdated");
    server.mcp.resourceUpdated(NOTES_URI);
    assert.equal(await updated, NOTES_URI);
    logs.length = 0;
    await client.callTool("echo", { text: "hi" });
    assert.ok(logs.some((log) => log.level === "debug"), "the debug level holds in the new session");
    await client.close();
  } finally {
    await server.close();
  }
});

test("streamable http: what cannot be restored is reported with the sessionRenewed event", { timeout: 10_000 }, async () => {
  let sessions = 0;
  let ended = false;
  const server = await scriptedServer((seen, response) => {
    const session = seen.headers["mcp-session-id"];
    if (ended && session === "s1") return void response.writeHead(404).end();
    if (routine(seen, response)) return;
    const id = seen.body!.id;
    if (seen.rpc === "initialize") return json(response, initializeResult(id), { "mcp-session-id": `s${++sessions}` });
    // The second session refuses the subscription: a server may change between sessions.
    if (seen.rpc === "resources/subscribe" && session === "s2") return json(response, JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32002, message: "resource not found" } }));
    json(response, JSON.stringify({ jsonrpc: "2.0", id, result: {} }));
  });
  try {
    const client = new McpClient(info, HANDSHAKE);
    await client.connect(new StreamableHttpClientTransport(server.url, { listen: false }));
    await client.subscribe("docs://kept");
    await client.subscribe("docs://dropped");
    await client.unsubscribe("docs://dropped");
    await client.setLoggingLevel("warning");
    ended = true;
    const renewed = next<Error[]>(client, "sessionRenewed");
    await client.ping();
    const failures = await renewed;
    assert.deepEqual(failures.map((error) => error.message), ["resource not found"]);
    const again = server.seen.filter((s) => s.headers["mcp-session-id"] === "s2" && s.rpc !== "ping" && s.rpc !== "notifications/initialized");
    assert.deepEqual(again.map((s) => `${s.rpc} ${JSON.stringify(s.body!.params)}`).sort(), ['logging/setLevel {"level":"warning"}', 'resources/subscribe {"uri":"docs://kept"}']);
    await client.close();
  } finally {
    await server.close();
  }
});

test("streamable http: a new session's initialize that the server refuses fails the call that met the 404, and is not a renewal", { timeout: 10_000 }, async () => {
  let initializes = 0;
  let ended = false;
  const server = await scriptedServer((seen, response) => {
    if (ended && seen.headers["mcp-session-id"] === "s1") return void response.writeHead(404).end();
    if (routine(seen, response)) return;
    const id = seen.body!.id;
    // The first initialize opens s1; the second (the first new session) is refused; the third opens s2.
    if (seen.rpc === "initialize" && ++initializes === 2) return json(response, JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: "no room for you" } }));
    if (seen.rpc === "initialize") return json(response, initializeResult(id), { "mcp-session-id": `s${initializes === 1 ? 1 : 2}` });
    json(response, JSON.stringify({ jsonrpc: "2.0", id, result: {} }));
  });
  try {
    const transport = new StreamableHttpClientTransport(server.url, { listen: false });
    const problems: string[] = [];
    const client = new McpClient(info, { ...HANDSHAKE, onProblem: (problem) => problems.push(problem) });
    const renewals: Error[][] = [];
    client.on("sessionRenewed", (failures: Error[]) => renewals.push(failures));
    await client.connect(transport);
    ended = true;
    await assert.rejects(client.ping(), (error: unknown) => {
      assert.ok(error instanceof SessionRenewalError, String(error));
      assert.match(error.message, /^initialize \(new session\): the server did not open a new session: it answered with error -32603: no room for you$/);
      return true;
    });
    const initialized = () => server.seen.filter((s) => s.rpc === "notifications/initialized").length;
    assert.equal(initialized(), 1, "no notifications/initialized after a refused initialize");
    assert.equal(transport.sessionId, undefined);
    assert.deepEqual(renewals, [], "a refused initialize is no renewal");
    // The next message tries again, and this time the server opens a session.
    await client.ping();
    assert.equal(transport.sessionId, "s2");
    assert.equal(initialized(), 2);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(renewals, [[]]);
    assert.deepEqual(problems, [], "the refusal reached the connection as no stray response");
    await client.close();
  } finally {
    await server.close();
  }
});
