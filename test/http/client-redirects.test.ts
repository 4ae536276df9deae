// Redirects, for both HTTP client transports (issue 7, item 8): a redirect to another origin is
// never followed, so the caller's headers, the session id and the messages stay on the origin it
// named; same-origin redirects that keep the method are followed, a bounded number of times.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { CrossOriginError, HttpRedirectError, MAX_REDIRECTS } from "../../src/http/client-fetch.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { LegacySseClientTransport } from "../../src/http/legacy-client.js";
import { initializeResult, json, routine, scriptedServer, type Route } from "../helpers/scripted-http.js";

const info = { name: "redirect-tests", version: "1" };
const headers = { "x-api-key": "secret-key-that-must-stay-home" };

/** A well-behaved session, except where `redirect` gives a Location for a request. */
function redirecting(redirect: (path: string, rpc: string | undefined) => { status: number; location: string } | undefined): Route {
  return (seen, response) => {
    const to = redirect(seen.path, seen.rpc);
    if (to) return void response.writeHead(to.status, { location: to.location }).end();
    if (routine(seen, response)) return;
    if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id), { "mcp-session-id": "home-session" });
    json(response, JSON.stringify({ jsonrpc: "2.0", id: seen.body!.id, result: { content: [] } }));
  };
}

/** The first request of connect(): initialize in a pinned handshake, the server/discover probe by default. */
const firstRequests = [{ options: { protocolVersion: "2025-11-25" }, step: "initialize" }, { options: {}, step: "server/discover" }] as const;

test("streamable http: a redirect of initialize (or of the probe) to another origin is refused; the other origin hears nothing", async () => {
  const elsewhere = await scriptedServer(redirecting(() => undefined));
  const home = await scriptedServer(redirecting(() => ({ status: 307, location: elsewhere.url })));
  try {
    // Through HttpClientTransport too: a refused redirect is no reason to try HTTP+SSE.
    // A refused redirect of the probe is no reason to fall back to initialize either.
    for (const { options, step } of firstRequests) {
      for (const transport of [new StreamableHttpClientTransport(home.url, { headers }), new HttpClientTransport(home.url, { headers })]) {
        await assert.rejects(new McpClient(info, options).connect(transport), (error: unknown) =>
          error instanceof CrossOriginError && new RegExp(`^${step}: the redirect \\(307\\) to http://127\\.0\\.0\\.1:\\d+ is on another origin; not followed`).test(error.message));
      }
    }
    assert.deepEqual(elsewhere.seen, []);
  } finally {
    await home.close();
    await elsewhere.close();
  }
});

test("streamable http: a redirect mid-session to another origin fails that call only; the session id is kept", async () => {
  const elsewhere = await scriptedServer((seen, response) => json(response, "{}", { "mcp-session-id": "their-session" }));
  const home = await scriptedServer(redirecting((_, rpc) => (rpc === "tools/call" ? { status: 308, location: `${elsewhere.origin}/steal` } : undefined)));
  try {
    const transport = new StreamableHttpClientTransport(home.url, { headers, listen: false });
    // The session id is the handshake era's: pinned.
    const client = new McpClient(info, { protocolVersion: "2025-11-25" });
    await client.connect(transport);
    await assert.rejects(client.callTool("t"), CrossOriginError);
    assert.deepEqual(elsewhere.seen, []);
    assert.equal(transport.sessionId, "home-session");
    await client.ping();
    await client.close();
  } finally {
    await home.close();
    await elsewhere.close();
  }
});

test("streamable http: a same-origin 307 or 308 is followed with its method, body and headers", async () => {
  const home = await scriptedServer(redirecting((path) => (path === "/old" ? { status: 307, location: "/older" } : path === "/older" ? { status: 308, location: "/mcp" } : undefined)));
  try {
    // It checks that the session id follows the redirects: the handshake era, pinned.
    const client = new McpClient(info, { protocolVersion: "2025-11-25" });
    await client.connect(new StreamableHttpClientTransport(`${home.origin}/old`, { headers, listen: false }));
    assert.deepEqual((await client.callTool("t")).content, []);
    const calls = home.seen.filter((s) => s.rpc === "tools/call");
    assert.deepEqual(calls.map((s) => s.path), ["/old", "/older", "/mcp"]);
    assert.ok(calls.every((s) => s.method === "POST" && s.headers["x-api-key"] === headers["x-api-key"] && s.headers["mcp-session-id"] === "home-session"));
    await client.close();
  } finally {
    await home.close();
  }
});

test("streamable http: a same-origin redirect that would turn the POST into a GET, and a redirect loop, are refused", async () => {
  const cases = [
    { to: { status: 302, location: "/mcp" }, message: (step: string) => new RegExp(`^${step}: the server answered POST with redirect 302, which would turn it into a GET`) },
    { to: { status: 307, location: "/loop" }, message: (step: string) => new RegExp(`^${step}: more than ${MAX_REDIRECTS} redirects$`) },
  ];
  for (const { options, step } of firstRequests) {
    for (const c of cases) {
      const home = await scriptedServer(redirecting((path) => (path === "/loop" ? c.to : undefined)));
      try {
        await assert.rejects(new McpClient(info, options).connect(new StreamableHttpClientTransport(`${home.origin}/loop`)), (error: unknown) =>
          error instanceof HttpRedirectError && c.message(step).test(error.message));
        assert.ok(home.seen.length <= MAX_REDIRECTS + 1);
      } finally {
        await home.close();
      }
    }
  }
});

test("legacy http+sse: the event stream's redirect to another origin is refused, by the same rule as the endpoint", async () => {
  const elsewhere = await scriptedServer((_, response) => response.writeHead(200, { "content-type": "text/event-stream" }).write("event: endpoint\ndata: /messages\n\n"));
  const home = await scriptedServer((_, response) => response.writeHead(302, { location: `${elsewhere.origin}/sse` }).end());
  try {
    await assert.rejects(LegacySseClientTransport.open(`${home.origin}/sse`, { headers }), (error: unknown) =>
      error instanceof CrossOriginError && /^GET \/sse: the redirect \(302\) to http:\/\/127\.0\.0\.1:\d+ is on another origin/.test(error.message));
    assert.deepEqual(elsewhere.seen, []);
  } finally {
    await home.close();
    await elsewhere.close();
  }
});
