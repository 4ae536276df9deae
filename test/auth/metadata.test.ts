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

test("requestToken: client_secret_basic form-encodes id and secret; the answer becomes a TokenSet; an error answer an OAuthError", async (t) => {
  const { requestToken, OAuthError } = await import("../../src/auth/token-endpoint.js");
  const seen: { authorization?: string; body: string }[] = [];
  const { server, url } = await serve((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ authorization: req.headers.authorization, body });
      res.setHeader("content-type", "application/json");
      if (new URLSearchParams(body).get("code") === "bad") return void res.writeHead(400).end(JSON.stringify({ error: "invalid_grant", error_description: "expired code" }));
      res.end(JSON.stringify({ access_token: "at", token_type: "bearer", expires_in: 60, refresh_token: "rt" }));
    });
  });
  t.after(() => server.close());
  const tokens = await requestToken("token request", `${url}/token`, { grant_type: "authorization_code", code: "c1" }, { method: "client_secret_basic", client_id: "my id", client_secret: "s:e/c" }, { requestedScope: "a b", now: () => 1000 });
  assert.deepEqual(tokens, { access_token: "at", token_type: "Bearer", expires_at: 61_000, refresh_token: "rt", scope: "a b" });
  assert.equal(Buffer.from(seen[0]!.authorization!.slice(6), "base64").toString(), "my+id:s%3Ae%2Fc");
  assert.equal(new URLSearchParams(seen[0]!.body).get("client_id"), null);
  await assert.rejects(
    requestToken("token request", `${url}/token`, { grant_type: "authorization_code", code: "bad" }, { method: "client_secret_post", client_id: "id", client_secret: "s" }),
    (e: unknown) => e instanceof OAuthError && e.error === "invalid_grant" && /expired code/.test(e.message),
  );
  const posted = new URLSearchParams(seen[1]!.body);
  assert.deepEqual([posted.get("client_id"), posted.get("client_secret"), seen[1]!.authorization], ["id", "s", undefined]);
});

test("readTokenAnswer: a missing token, a non-Bearer type or a bad expires_in is refused", async () => {
  const { readTokenAnswer } = await import("../../src/auth/token-endpoint.js");
  assert.throws(() => readTokenAnswer("t", { token_type: "Bearer" }, "u", undefined, 0), /no "access_token"/);
  assert.throws(() => readTokenAnswer("t", { access_token: "a", token_type: "mac" }, "u", undefined, 0), /not Bearer/);
  assert.throws(() => readTokenAnswer("t", { access_token: "a", token_type: "Bearer", expires_in: "soon" }, "u", undefined, 0), /expires_in/);
});

test("isSecureUrl: https anywhere, http only to this machine", async () => {
  const { isSecureUrl } = await import("../../src/auth/metadata.js");
  for (const ok of ["https://as.example/x", "http://127.0.0.1:8080/", "http://127.9.9.9/", "http://localhost:3000/a", "http://[::1]:9/"]) assert.ok(isSecureUrl(ok), ok);
  for (const bad of ["http://as.example/", "http://169.254.169.254/latest", "http://10.0.0.1/", "http://127.0.0.1.evil.example/", "ftp://127.0.0.1/", "javascript:alert(1)", "not a url"]) assert.ok(!isSecureUrl(bad), bad);
});

test("AS metadata: an endpoint over plain http to another machine is refused; https, and http on this machine, are kept", () => {
  const url = "https://as.example/.well-known/oauth-authorization-server";
  for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint", "jwks_uri", "introspection_endpoint"]) {
    assert.throws(() => readAuthorizationServerMetadata({ issuer: "https://as.example", [field]: "http://as.example/x" }, url, "https://as.example"), new RegExp(`"${field}" must be an http\\(s\\) URL, and https unless`));
  }
  const kept = readAuthorizationServerMetadata({ issuer: "https://as.example", token_endpoint: "http://127.0.0.1:9/token", authorization_endpoint: "https://as.example/a" }, url, "https://as.example");
  assert.equal(kept.token_endpoint, "http://127.0.0.1:9/token");
});

test("sameResource: a trailing slash is dropped only on an empty path", () => {
  assert.ok(sameResource("https://mcp.example/", "https://mcp.example"));
  assert.ok(!sameResource("https://mcp.example/mcp/", "https://mcp.example/mcp"));
  assert.ok(!sameResource("https://mcp.example/?a=1", "https://mcp.example?a=1/"));
});
