// The OAuth client and an MCP server reached over plain http on another machine: MCP authorization
// requires https there (loopback aside), so no authorization is started and nothing is fetched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AuthorizationError } from "../../src/auth/authorization-code.js";
import { OAuthClient } from "../../src/auth/oauth-client.js";

test("a 401 from an MCP server over plain http to another machine starts no authorization", async () => {
  const fetched: string[] = [];
  const fetch = async (input: string | URL | Request) => (fetched.push(String(input)), new Response("{}", { status: 404 }));
  let asked = 0;
  const userAgent = { redirectUri: async () => "http://127.0.0.1:1/cb", authorize: async (url: URL) => (asked++, url) };
  const client = new OAuthClient({ userAgent, fetchOptions: { fetch: fetch as typeof globalThis.fetch } });
  await assert.rejects(client.authorize(new URL("http://mcp.example/mcp"), { resource_metadata: "https://mcp.example/prm" }, undefined, false), (error: unknown) =>
    error instanceof AuthorizationError && /^authorization: http:\/\/mcp\.example\/mcp asks for authorization over plain http to another machine; MCP authorization requires https/.test(error.message));
  assert.deepEqual([fetched, asked], [[], 0]);
});
