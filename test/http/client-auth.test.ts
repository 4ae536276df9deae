// OAuth under the HTTP client transports (client-auth.ts through fetchStep): the HTTP+SSE transport
// shares its stream's authorization with its POST endpoint; a DELETE starts no authorization; a
// server that refuses fresh tokens gets one retry, not a loop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { AuthorizationError } from "../../src/auth/authorization-code.js";
import type { OAuthOptions } from "../../src/auth/oauth-client.js";
import { LegacySseClientTransport } from "../../src/http/legacy-client.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { headless, stubAuthorization } from "../helpers/oauth-stubs.js";

test("HTTP+SSE: the GET stream's 401 authorizes, and the POST endpoint uses the same token (one authorization)", async (t) => {
  const stub = await stubAuthorization({ legacy: true, prmPath: "/.well-known/oauth-protected-resource", prm: (origin) => ({ resource: origin }) });
  t.after(() => stub.close());
  const transport = await LegacySseClientTransport.open(`${stub.origin}/sse`, { authorization: { userAgent: headless() } });
  const client = new McpClient({ name: "legacy-oauth", version: "1" });
  t.after(() => client.close());
  await client.connect(transport);
  await client.callTool("add", { a: 1, b: 2 });
  assert.equal(stub.authorizations.length, 1);
  assert.ok(stub.log.includes("POST /messages"));
  // The POSTs were never refused: no second discovery for the endpoint.
  assert.equal(stub.log.filter((line) => line.includes("/.well-known/")).length, 2);
});

test("a DELETE carries the token but starts no authorization when refused", async (t) => {
  const stub = await stubAuthorization();
  t.after(() => stub.close());
  // The handshake era, which has a session to DELETE.
  const client = new McpClient({ name: "delete", version: "1" }, { protocolVersion: "2025-11-25" });
  const transport = new StreamableHttpClientTransport(stub.url, { authorization: { userAgent: headless() }, listen: false });
  await client.connect(transport);
  assert.equal(stub.authorizations.length, 1);
  stub.tokens.clear();
  await client.close();
  assert.ok(stub.log.includes("DELETE /mcp"));
  assert.equal(stub.authorizations.length, 1);
  assert.equal(stub.tokenRequests.length, 1);
});

test("a server that answers 401 to fresh tokens too: one new authorization, then an error saying so", async (t) => {
  const stub = await stubAuthorization();
  t.after(() => stub.close());
  let grants = 0;
  const authorization: OAuthOptions = { grant: async () => (grants++, { access_token: "never-accepted", token_type: "Bearer" }) };
  const client = new McpClient({ name: "refused", version: "1" });
  t.after(() => client.close());
  await assert.rejects(client.connect(new StreamableHttpClientTransport(stub.url, { authorization })), (error: unknown) => error instanceof AuthorizationError && /answered 401 again after a new authorization/.test(error.message));
  assert.equal(grants, 1);
});
