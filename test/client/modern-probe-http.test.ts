// The probe over HTTP against servers that refuse the 2026-07-28 POST without a JSON-RPC answer
// (modern/probe.ts refusedOverHttp): a 400, 404 or 405 is a legacy server, so connect() falls
// back to initialize on the same URL; 401, 403 and 5xx say nothing about the era and stay errors.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era
// clients over HTTP), basic/transports/streamable-http#backward-compatibility. Scripted loopback
// servers (test/helpers/scripted-http.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { McpClient } from "../../src/client/client.js";
import { EraCache } from "../../src/client/modern/era-cache.js";
import { HttpStatusError } from "../../src/http/client-fetch.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { initializeResult, json, routine, scriptedServer } from "../helpers/scripted-http.js";

const info = { name: "probe-http-tests", version: "1" };

/** Bodies a legacy server may give its refusal: none, plain text, JSON that is no JSON-RPC message. */
const bodies: { name: string; write: (response: ServerResponse, status: number) => void }[] = [
  { name: "no body", write: (response, status) => void response.writeHead(status).end() },
  { name: "a text body", write: (response, status) => void response.writeHead(status, { "content-type": "text/plain" }).end("Bad Request: unknown method") },
  { name: "a JSON body that is no JSON-RPC message", write: (response, status) => void response.writeHead(status, { "content-type": "application/json" }).end('{"detail":"not found"}') },
];

/** A handshake-era Streamable HTTP server that refuses every other POST with `status`, written by `write`. */
function refusingServer(status: number, write: (response: ServerResponse, status: number) => void) {
  return scriptedServer((seen, response) => {
    if (routine(seen, response)) return;
    if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id), { "mcp-session-id": "s1" });
    if (seen.rpc === "server/discover") return write(response, status);
    json(response, JSON.stringify({ jsonrpc: "2.0", id: seen.body!.id, result: { tools: [] } }));
  });
}

for (const status of [400, 404, 405]) {
  for (const body of bodies) {
    test(`probe over http: HTTP ${status} with ${body.name} is a legacy server: connect() falls back to initialize`, async () => {
      const server = await refusingServer(status, body.write);
      try {
        const client = new McpClient(info, { eraCache: new EraCache() });
        const result = await client.connect(new StreamableHttpClientTransport(server.url, { listen: false }));
        assert.equal(client.era, "handshake");
        assert.equal(client.eraReason, `server/discover was refused with HTTP ${status} and no JSON-RPC answer: fell back to initialize`);
        assert.equal(result.protocolVersion, "2025-11-25");
        assert.deepEqual(server.seen.filter((s) => s.method === "POST").map((s) => s.rpc).slice(0, 3), ["server/discover", "initialize", "notifications/initialized"]);
        assert.deepEqual(await client.listTools(), { tools: [] });
        await client.close();
      } finally {
        await server.close();
      }
    });
  }
}

for (const status of [401, 403, 500, 503]) {
  test(`probe over http: HTTP ${status} says nothing about the era: connect() fails with it, and no initialize is sent`, async () => {
    const server = await refusingServer(status, bodies[1]!.write);
    try {
      const client = new McpClient(info, { eraCache: new EraCache() });
      await assert.rejects(client.connect(new StreamableHttpClientTransport(server.url, { listen: false })), (error: unknown) =>
        error instanceof HttpStatusError && error.status === status && error.message.startsWith(`server/discover: the server answered HTTP ${status}`));
      assert.equal(client.era, undefined);
      assert.ok(!server.seen.some((s) => s.rpc === "initialize"));
    } finally {
      await server.close();
    }
  });
}
