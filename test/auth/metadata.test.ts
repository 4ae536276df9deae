import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { AuthMetadataError, readAuthorizationServerMetadata, readProtectedResourceMetadata, sameResource } from "../../src/auth/metadata.js";
import { AuthFetchError, fetchJson } from "../../src/auth/fetch-json.js";
import { MemoryCredentialStore } from "../../src/auth/credentials.js";

const PRM_URL = "https://mcp.example/.well-known/oauth-protected-resource/mcp";

test("PRM: a document naming the resource asked for reads, unknown fields kept", () => {
  const doc = readProtectedResourceMetadata({ resource: "https://mcp.example/mcp", authorization_servers: ["https://as.example"], extra: 1 }, PRM_URL, "https://mcp.example/mcp");
  assert.deepEqual(doc.authorization_servers, ["https://as.example"]);
  assert.equal(doc.extra, 1);
});

test("PRM: another resource, a missing resource, or wrong field types are refused, naming the URL", () => {
  assert.throws(() => readProtectedResourceMetadata({ resource: "https://evil.example/mcp" }, PRM_URL, "https://mcp.example/mcp"), (e: unknown) => e instanceof AuthMetadataError && /evil\.example/.test(e.message) && e.message.startsWith(PRM_URL));
  assert.throws(() => readProtectedResourceMetadata({}, PRM_URL), /"resource" must be a non-empty string/);
  assert.throws(() => readProtectedResourceMetadata({ resource: "https://mcp.example/mcp", authorization_servers: "https://as.example" }, PRM_URL), /"authorization_servers" must be an array of strings/);
  assert.throws(() => readProtectedResourceMetadata([], PRM_URL), /is not a JSON object/);
});

test("AS metadata: the issuer must be the one asked for; endpoints must be http(s) URLs", () => {
  const url = "https://as.example/.well-known/oauth-authorization-server";
  const ok = readAuthorizationServerMetadata({ issuer: "https://as.example", token_endpoint: "https://as.example/token", code_challenge_methods_supported: ["S256"] }, url, "https://as.example");
  assert.equal(ok.token_endpoint, "https://as.example/token");
  assert.throws(() => readAuthorizationServerMetadata({ issuer: "https://other.example" }, url, "https://as.example"), /names the issuer "https:\/\/other\.example"/);
  assert.throws(() => readAuthorizationServerMetadata({ issuer: "https://as.example", token_endpoint: "javascript:alert(1)" }, url, "https://as.example"), /"token_endpoint" must be an http\(s\) URL/);
  assert.throws(() => readAuthorizationServerMetadata({ issuer: "https://as.example", authorization_response_iss_parameter_supported: "yes" }, url, "https://as.example"), /must be a boolean/);
});

test("sameResource: normalised URLs compare equal; a different path does not", () => {
  assert.ok(sameResource("HTTPS://MCP.example:443/", "https://mcp.example"));
  assert.ok(!sameResource("https://mcp.example/a", "https://mcp.example/b"));
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { server, url: `http://127.0.0.1:${address.port}` };
}

test("fetchJson: parses JSON, follows a same-origin redirect, refuses another origin and an oversized body", async (t) => {
  const { server, url } = await serve((req, res) => {
    if (req.url === "/moved") return void res.writeHead(302, { location: "/doc" }).end();
    if (req.url === "/away") return void res.writeHead(302, { location: "http://localhost:1/doc" }).end();
    if (req.url === "/big") return void res.end("x".repeat(2000));
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ ok: true }));
  });
  t.after(() => server.close());
  const moved = await fetchJson("metadata", `${url}/moved`, {});
  assert.deepEqual(moved.json, { ok: true });
  assert.equal(moved.url, `${url}/doc`);
  await assert.rejects(fetchJson("metadata", `${url}/away`, {}), (e: unknown) => e instanceof AuthFetchError && /another origin/.test(e.message));
  await assert.rejects(fetchJson("metadata", `${url}/big`, {}, { maxBytes: 1000 }), /more than the limit of 1000|passed the limit of 1000/);
  const big = await fetchJson("metadata", `${url}/big`, {}, { maxBytes: 5000 });
  assert.equal(big.json, undefined);
});

test("fetchJson: a server that never answers fails in time, naming the step", async (t) => {
  const { server, url } = await serve(() => {});
  t.after(() => server.closeAllConnections?.());
  t.after(() => server.close());
  await assert.rejects(fetchJson("token request", `${url}/token`, { method: "POST" }, { timeoutMs: 200 }), /^AuthFetchError: token request: .*no answer in time/);
});

test("MemoryCredentialStore: keyed by issuer and resource; returns copies", async () => {
  const store = new MemoryCredentialStore();
  await store.save({ issuer: "https://a", resource: "https://r", tokens: { access_token: "t1", token_type: "Bearer" } });
  assert.equal(await store.load({ issuer: "https://b", resource: "https://r" }), undefined);
  const loaded = await store.load({ issuer: "https://a", resource: "https://r" });
  assert.equal(loaded?.tokens?.access_token, "t1");
  loaded!.tokens!.access_token = "changed";
  assert.equal((await store.load({ issuer: "https://a", resource: "https://r" }))?.tokens?.access_token, "t1");
  await store.remove({ issuer: "https://a", resource: "https://r" });
  assert.equal(await store.load({ issuer: "https://a", resource: "https://r" }), undefined);
});
