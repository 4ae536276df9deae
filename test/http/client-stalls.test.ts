// Client timeouts against HTTP servers that stall (issue 7, item 11): a timeout or an abort ends
// the caller's wait whatever the transport is doing, and the POST it was waiting on is let go.
// The POSTs nobody waits for are bounded too: notifications/initialized by the handshake timeout,
// a cancel by its call's idle timeout.
// Scripted loopback servers (test/helpers/scripted-http.ts); small timeouts; a generous guard
// only proves that the wait ends at all.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { McpClient } from "../../src/client/client.js";
import { HandshakeTimeoutError } from "../../src/client/errors.js";
import { RequestAbortedError, RequestTimeoutError } from "../../src/jsonrpc/pending.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { LegacySseClientTransport } from "../../src/http/legacy-client.js";
import { initializeResult, json, legacyServer, routine, scriptedServer, wait, type SeenRequest } from "../helpers/scripted-http.js";

const info = { name: "stall-tests", version: "1" };
const quick = { idleMs: 200, maxTotalMs: 200 };
/**
 * For the tests about the handshake era's own steps (initialize, notifications/initialized, a new
 * session, a cancel's POST, the HTTP+SSE fallback): the client pins it, so the probe does not come first.
 */
const HANDSHAKE = { protocolVersion: "2025-11-25" } as const;

/** Rejects if `promise` has not settled within `ms`: the hang these tests are about. */
function settlesWithin<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms)));
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** Opens an event stream and sends nothing on it. */
const silentStream = (response: ServerResponse) => response.writeHead(200, { "content-type": "text/event-stream" }).flushHeaders();

/** Streamable HTTP: initialize is answered; `stall` says which other POSTs are never answered. */
function stallingStreamable(stall: (seen: SeenRequest) => boolean) {
  return scriptedServer((seen, response) => {
    if (stall(seen)) return;
    if (routine(seen, response)) return;
    if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id), { "mcp-session-id": "s1" });
    json(response, JSON.stringify({ jsonrpc: "2.0", id: seen.body!.id, result: {} }));
  });
}

test("streamable http: the handshake timeout fires when the server opens the stream and never answers; the POST is let go", async () => {
  const server = await scriptedServer((seen, response) => (seen.rpc === "initialize" ? silentStream(response) : void routine(seen, response)));
  try {
    // Long enough for the POST to reach the server (in this process) even while other test files
    // load the machine: the point is what happens after it arrived and was never answered.
    const client = new McpClient(info, { ...HANDSHAKE, handshakeTimeoutMs: 1000 });
    await assert.rejects(settlesWithin(client.connect(new StreamableHttpClientTransport(server.url))), HandshakeTimeoutError);
    await wait(() => server.seen[0]?.abandoned === true);
    // Spec (basic/utilities/cancellation): initialize is never cancelled; the POST is only aborted locally.
    assert.ok(!server.seen.some((s) => s.rpc === "notifications/cancelled"));
  } finally {
    await server.close();
  }
});

test("streamable http: a request timeout fires when the POST and the cancel's own POST both stall; the cancel is let go after the call's idle timeout", async () => {
  const server = await stallingStreamable((seen) => seen.rpc === "tools/call" || seen.rpc === "notifications/cancelled");
  try {
    const problems: string[] = [];
    const client = new McpClient(info, { ...HANDSHAKE, timeouts: quick, onProblem: (problem) => problems.push(problem) });
    await client.connect(new StreamableHttpClientTransport(server.url, { listen: false }));
    await assert.rejects(settlesWithin(client.callTool("slow")), RequestTimeoutError);
    const call = server.seen.find((s) => s.rpc === "tools/call")!;
    await wait(() => call.abandoned && server.seen.some((s) => s.rpc === "notifications/cancelled"));
    // Nobody waits for the cancel, so it must not wait for close() either (they would pile up).
    await wait(() => server.seen.find((s) => s.rpc === "notifications/cancelled")!.abandoned, 3000);
    assert.ok(problems.some((p) => /notifications\/cancelled: the peer did not take it within 200 ms/.test(p)), problems.join("; "));
    // The session goes on, and close() is not held up.
    await client.ping();
    await settlesWithin(client.close());
  } finally {
    await server.close();
  }
});

test("streamable http: the caller's abort ends its wait for a POST that stalls", async () => {
  const server = await stallingStreamable((seen) => seen.rpc === "tools/call");
  try {
    const client = new McpClient(info);
    await client.connect(new StreamableHttpClientTransport(server.url, { listen: false }));
    const abort = new AbortController();
    const call = client.callTool("slow", undefined, { signal: abort.signal });
    await wait(() => server.seen.some((s) => s.rpc === "tools/call"));
    abort.abort();
    await assert.rejects(settlesWithin(call), RequestAbortedError);
    await wait(() => server.seen.find((s) => s.rpc === "tools/call")!.abandoned);
    await client.close();
  } finally {
    await server.close();
  }
});

test("streamable http: connect() fails with HandshakeTimeoutError when the server stalls the POST of notifications/initialized; the session is ended", async () => {
  const server = await stallingStreamable((seen) => seen.rpc === "notifications/initialized");
  try {
    const client = new McpClient(info, { ...HANDSHAKE, handshakeTimeoutMs: 300 });
    await assert.rejects(settlesWithin(client.connect(new StreamableHttpClientTransport(server.url, { listen: false })), 3000), (error: unknown) => {
      assert.ok(error instanceof HandshakeTimeoutError, String(error));
      assert.equal(error.step, "notifications/initialized");
      assert.match(error.message, /^notifications\/initialized: the server did not take it within the handshake's 300 ms$/);
      return true;
    });
    assert.equal(client.isConnected, false);
    await wait(() => server.seen.find((s) => s.rpc === "notifications/initialized")!.abandoned);
    await wait(() => server.seen.some((s) => s.method === "DELETE" && s.headers["mcp-session-id"] === "s1"));
  } finally {
    await server.close();
  }
});

for (const step of ["initialize", "notifications/initialized"] as const) {
  test(`legacy http+sse: the handshake timeout fires when the POST of ${step} stalls; the POST and the stream are let go`, async () => {
    const server = await legacyServer({ stall: (seen) => seen.rpc === step });
    try {
      const client = new McpClient(info, { handshakeTimeoutMs: 300, protocolVersion: "2024-11-05" });
      const transport = await LegacySseClientTransport.open(`${server.origin}/sse`);
      await assert.rejects(settlesWithin(client.connect(transport), 3000), (error: unknown) => error instanceof HandshakeTimeoutError && error.step === step);
      assert.equal(client.isConnected, false);
      await wait(() => server.seen.find((s) => s.rpc === step)!.abandoned);
      await wait(() => server.seen[0]!.abandoned);
    } finally {
      await server.close();
    }
  });
}

test("legacy http+sse: a request timeout fires when its POST stalls, and the POST is let go; so is the cancel's", async () => {
  const server = await legacyServer({ stall: (seen) => seen.rpc === "tools/call" || seen.rpc === "notifications/cancelled" });
  try {
    const client = new McpClient(info, { timeouts: quick, protocolVersion: "2024-11-05" });
    await client.connect(await LegacySseClientTransport.open(`${server.origin}/sse`));
    await assert.rejects(settlesWithin(client.callTool("slow")), RequestTimeoutError);
    await wait(() => server.seen.find((s) => s.rpc === "tools/call")!.abandoned);
    // The cancel's stalled POST is let go after the call's idle timeout, not at close().
    await wait(() => server.seen.find((s) => s.rpc === "notifications/cancelled")?.abandoned === true, 3000);
    await client.ping();
    await settlesWithin(client.close());
  } finally {
    await server.close();
  }
});

test("streamable http: a new session's initialize that stalls is abandoned with its call; the next call opens the session", async () => {
  let ended = false;
  let initializes = 0;
  const server = await scriptedServer((seen, response) => {
    if (ended && seen.headers["mcp-session-id"] === "s1") return void response.writeHead(404).end();
    if (routine(seen, response)) return;
    // The first initialize opens s1; the second (the first new session) stalls; the third opens s2.
    if (seen.rpc === "initialize" && ++initializes === 2) return;
    if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id), { "mcp-session-id": `s${initializes === 1 ? 1 : 2}` });
    json(response, JSON.stringify({ jsonrpc: "2.0", id: seen.body!.id, result: {} }));
  });
  try {
    const transport = new StreamableHttpClientTransport(server.url, { listen: false });
    const client = new McpClient(info, { ...HANDSHAKE, timeouts: quick });
    await client.connect(transport);
    ended = true;
    await assert.rejects(settlesWithin(client.callTool("t")), RequestTimeoutError);
    await wait(() => server.seen.filter((s) => s.rpc === "initialize")[1]!.abandoned);
    await settlesWithin(client.ping({ timeouts: { idleMs: 5000, maxTotalMs: 5000 } }));
    assert.equal(transport.sessionId, "s2");
    await client.close();
  } finally {
    await server.close();
  }
});

test("fallback: the handshake timeout also ends the wait for an HTTP+SSE endpoint that never comes; the stream is let go", async () => {
  const server = await scriptedServer((seen, response) => (seen.method === "GET" ? silentStream(response) : void response.writeHead(405).end()));
  try {
    const client = new McpClient(info, { ...HANDSHAKE, handshakeTimeoutMs: 200 });
    // The endpoint timeout is far away: only the handshake's own can end this in time.
    const transport = new HttpClientTransport(server.url, { endpointTimeoutMs: 60_000 });
    await assert.rejects(settlesWithin(client.connect(transport)), HandshakeTimeoutError);
    await wait(() => server.seen.some((s) => s.method === "GET") && server.seen.filter((s) => s.method === "GET").every((s) => s.abandoned));
    assert.equal(transport.kind, undefined);
  } finally {
    await server.close();
  }
});
