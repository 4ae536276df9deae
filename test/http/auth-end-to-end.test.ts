// Our OAuth client against our resource server, over loopback with the test authorization server
// between them: McpClient's HTTP transports meet a 401, discover (the challenge's PRM, the issuer's
// metadata), register (DCR), authorize with PKCE through a headless user agent, and call a tool;
// in both protocol generations, and over the legacy HTTP+SSE transport when the resource is the
// server's origin (the default, the MCP endpoint's URL, does not cover /sse: the client says so).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { LegacySseClientTransport } from "../../src/http/legacy-client.js";
import { withAuthorizedServer } from "../helpers/authorized-http.js";
import { headless } from "../helpers/oauth-stubs.js";
import { ADAPTER } from "../helpers/http-peer.js";
import { McpHttpServer } from "../../src/http/server.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

const SCOPES = ["mcp:read", "mcp:write"];
const peers = withAuthorizedServer(SCOPES);

for (const protocolVersion of ["2025-11-25", undefined] as const) {
  test(`end to end (${protocolVersion ?? "the client's default era"}): 401, discovery, DCR, PKCE, a tool call`, async (t) => {
    const before = peers.as.requests.length;
    const client = new McpClient({ name: "e2e", version: "1" }, protocolVersion ? { protocolVersion } : {});
    t.after(() => client.close());
    await client.connect(new StreamableHttpClientTransport(peers.served.url, { authorization: { userAgent: headless() }, listen: false }));
    const result = await client.callTool("add", { a: 20, b: 22 });
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), { sum: 42 });
    const paths = peers.as.requests.slice(before).map((r) => r.path.split("?")[0]);
    for (const path of ["/.well-known/oauth-authorization-server", "/register", "/authorize", "/token"]) assert.ok(paths.includes(path), `${path} in ${paths.join(" ")}`);
  });
}

test("end to end over the legacy HTTP+SSE transport, with the origin as the resource (it covers /sse and /messages)", async (t) => {
  // The default resource, the MCP endpoint's URL, does not cover /sse, and a client checks that it does.
  const refused = new McpClient({ name: "e2e-legacy", version: "1" });
  await assert.rejects(LegacySseClientTransport.open(`${peers.served.origin}/sse`, { authorization: { userAgent: headless() } }).then((transport) => refused.connect(transport)), /names the resource .*\/mcp", which is not .*\/sse/);
  const port = await freePort();
  const http = new McpHttpServer(createDemoServer(), { authorization: { issuer: peers.as.issuer, resource: `http://127.0.0.1:${port}` } });
  const listening = await http.listen({ port, adapter: ADAPTER });
  t.after(async () => {
    await http.close();
    await listening.close();
  });
  const client = new McpClient({ name: "e2e-legacy", version: "1" });
  t.after(() => client.close());
  await client.connect(await LegacySseClientTransport.open(`${listening.origin}/sse`, { authorization: { userAgent: headless() } }));
  const result = await client.callTool("add", { a: 1, b: 1 });
  assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), { sum: 2 });
});

/** A port nothing listens on just now (the resource must be known before the server listens). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
