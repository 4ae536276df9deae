// Discovery (RFC 9728, RFC 8414, OIDC Discovery, 2025-03-26 fallbacks) against a loopback server
// whose documents each test lists: which URLs are asked in which order, and every refusal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { discover, metadataUrls, resourceCovers } from "../../src/auth/discovery.js";
import { AuthFetchError } from "../../src/auth/fetch-json.js";
import { AuthMetadataError } from "../../src/auth/metadata.js";

type Route = { status?: number; body?: unknown; raw?: string; location?: string };

/** Serves `routes(origin)` by path (404 for the rest) and records every path asked for. */
async function documents(t: { after(fn: () => void): void }, routes: (origin: string) => Record<string, Route>) {
  const asked: string[] = [];
  let origin = "";
  const server = createServer((request, response) => {
    asked.push(request.url ?? "");
    const route = routes(origin)[request.url ?? ""];
    if (route === undefined) return void response.writeHead(404).end("not found");
    if (route.location) return void response.writeHead(302, { location: route.location }).end();
    response.writeHead(route.status ?? 200, { "content-type": "application/json" }).end(route.raw ?? JSON.stringify(route.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.after(() => server.close());
  return { origin, asked, server: new URL(`${origin}/mcp`) };
}

const AS = (issuer: string) => ({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, code_challenge_methods_supported: ["S256"] });

test("the challenge's resource_metadata URL first; an issuer with a path: RFC 8414, OIDC insertion, OIDC appending, in that order", async (t) => {
  const site = await documents(t, (origin) => ({
    "/custom/prm.json": { body: { resource: `${origin}/mcp`, authorization_servers: [`${origin}/tenant1`], scopes_supported: ["a"] } },
    "/tenant1/.well-known/openid-configuration": { body: AS(`${origin}/tenant1`) },
  }));
  const found = await discover(site.server, { resource_metadata: `${site.origin}/custom/prm.json` }, {});
  assert.deepEqual(site.asked, ["/custom/prm.json", "/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"]);
  assert.equal(found.issuer, `${site.origin}/tenant1`);
  assert.equal(found.resource, `${site.origin}/mcp`);
  assert.deepEqual(found.prm?.scopes_supported, ["a"]);
});

test("no challenge URL: the path-aware well-known URL, then the root one, whose resource (the origin) covers /mcp", async (t) => {
  const site = await documents(t, (origin) => ({
    "/.well-known/oauth-protected-resource": { body: { resource: origin, authorization_servers: [origin] } },
    "/.well-known/openid-configuration": { body: AS(origin) },
  }));
  const found = await discover(site.server, undefined, {});
  assert.deepEqual(site.asked, ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]);
  assert.equal(found.resource, site.origin);
});

test("a PRM naming another resource stops discovery before any authorization server is asked", async (t) => {
  const site = await documents(t, (origin) => ({
    "/.well-known/oauth-protected-resource/mcp": { body: { resource: "https://evil.example.com/mcp", authorization_servers: [origin] } },
  }));
  await assert.rejects(discover(site.server, undefined, {}), (error: unknown) => error instanceof AuthMetadataError && /names the resource "https:\/\/evil\.example\.com\/mcp".*not used/.test(error.message));
  assert.deepEqual(site.asked, ["/.well-known/oauth-protected-resource/mcp"]);
});

const failures: { name: string; route: (origin: string) => Route; error: RegExp; type: typeof AuthMetadataError | typeof AuthFetchError }[] = [
  { name: "a PRM that is not JSON", route: () => ({ raw: "<html>hello</html>" }), error: /is not a JSON object/, type: AuthMetadataError },
  { name: "a malformed PRM", route: (origin) => ({ body: { resource: `${origin}/mcp`, authorization_servers: "nope" } }), error: /"authorization_servers" must be an array of strings/, type: AuthMetadataError },
  { name: "a PRM naming no authorization server", route: (origin) => ({ body: { resource: `${origin}/mcp` } }), error: /names no authorization server/, type: AuthMetadataError },
  { name: "a PRM naming a non-http authorization server", route: (origin) => ({ body: { resource: `${origin}/mcp`, authorization_servers: ["file:///etc"] } }), error: /"file:\/\/\/etc", which is not https/, type: AuthMetadataError },
  { name: "a PRM naming a plain-http authorization server on another machine", route: (origin) => ({ body: { resource: `${origin}/mcp`, authorization_servers: ["http://169.254.169.254/latest"] } }), error: /"http:\/\/169\.254\.169\.254\/latest", which is not https/, type: AuthMetadataError },
  { name: "an oversized PRM", route: () => ({ raw: `{"resource":"${"x".repeat(5000)}"}` }), error: /limit of 1000 bytes/, type: AuthFetchError },
  { name: "a PRM redirecting to another origin", route: () => ({ location: "http://localhost:9/prm" }), error: /redirects to another origin/, type: AuthFetchError },
];

for (const c of failures) {
  test(`discovery refuses ${c.name}, with an error naming the URL`, async (t) => {
    const site = await documents(t, (origin) => ({ "/.well-known/oauth-protected-resource/mcp": c.route(origin) }));
    await assert.rejects(discover(site.server, undefined, { maxBytes: 1000 }), (error: unknown) => error instanceof c.type && c.error.test(error.message) && error.message.includes(site.origin));
  });
}

test("authorization server metadata naming another issuer is refused; none found lists where we looked", async (t) => {
  const site = await documents(t, (origin) => ({
    "/.well-known/oauth-protected-resource/mcp": { body: { resource: `${origin}/mcp`, authorization_servers: [origin] } },
    "/.well-known/oauth-authorization-server": { body: AS("https://other.example") },
  }));
  await assert.rejects(discover(site.server, undefined, {}), /names the issuer "https:\/\/other\.example"/);
  const empty = await documents(t, (origin) => ({ "/.well-known/oauth-protected-resource/mcp": { body: { resource: `${origin}/mcp`, authorization_servers: [origin] } } }));
  await assert.rejects(discover(empty.server, undefined, {}), /no authorization server metadata at .*oauth-authorization-server, .*openid-configuration/);
});

test("2025-03-26: no PRM, metadata at the server's root (its issuer may have a path on that origin)", async (t) => {
  const site = await documents(t, (origin) => ({ "/.well-known/oauth-authorization-server": { body: AS(`${origin}/oauth`) } }));
  const found = await discover(site.server, undefined, {});
  assert.equal(found.issuer, `${site.origin}/oauth`);
  assert.equal(found.resource, `${site.origin}/mcp`);
  assert.equal(found.prm, undefined);
});

test("2025-03-26: no PRM and no metadata: the default endpoints at the server's origin", async (t) => {
  const site = await documents(t, () => ({}));
  const found = await discover(site.server, undefined, {});
  assert.equal(found.metadata.authorization_endpoint, `${site.origin}/authorize`);
  assert.equal(found.metadata.token_endpoint, `${site.origin}/token`);
  assert.equal(found.metadata.registration_endpoint, `${site.origin}/register`);
  assert.equal(found.issuer, site.origin);
});

test("metadataUrls: the spec's two orders", () => {
  assert.deepEqual(metadataUrls("https://as.example"), ["https://as.example/.well-known/oauth-authorization-server", "https://as.example/.well-known/openid-configuration"]);
  assert.deepEqual(metadataUrls("https://as.example/t/"), [
    "https://as.example/.well-known/oauth-authorization-server/t",
    "https://as.example/.well-known/openid-configuration/t",
    "https://as.example/t/.well-known/openid-configuration",
  ]);
});

test("resourceCovers: the server's URL or a whole-segment prefix on the same origin", () => {
  const server = new URL("https://mcp.example/api/mcp");
  const cases: [string, boolean][] = [
    ["https://mcp.example/api/mcp", true], ["https://MCP.example:443/api/mcp/", true], ["https://mcp.example", true], ["https://mcp.example/api", true],
    ["https://mcp.example/ap", false], ["https://mcp.example/api/mcp2", false], ["http://mcp.example/api/mcp", false],
    ["https://evil.example/api/mcp", false], ["https://mcp.example/api/mcp#x", false], ["not a url", false],
  ];
  for (const [resource, covers] of cases) assert.equal(resourceCovers(resource, server), covers, resource);
});

test("a challenge naming resource_metadata over plain http to another machine (or not http at all) is refused, and nothing is fetched", async (t) => {
  const site = await documents(t, () => ({}));
  for (const named of ["http://169.254.169.254/latest/meta-data", "file:///etc/passwd"]) {
    await assert.rejects(discover(site.server, { resource_metadata: named }, {}), (error: unknown) =>
      error instanceof AuthMetadataError && error.message.startsWith(`${named}: named by the server's challenge`) && /not https/.test(error.message));
  }
  assert.deepEqual(site.asked, []);
});

test("authorization server metadata whose endpoints are plain http to another machine is refused, naming the endpoint", async (t) => {
  const site = await documents(t, (origin) => ({
    "/.well-known/oauth-protected-resource/mcp": { body: { resource: `${origin}/mcp`, authorization_servers: [origin] } },
    "/.well-known/oauth-authorization-server": { body: { ...AS(origin), token_endpoint: "http://10.0.0.1/token" } },
  }));
  await assert.rejects(discover(site.server, undefined, {}), (error: unknown) =>
    error instanceof AuthMetadataError && /"token_endpoint" must be an http\(s\) URL, and https unless it is on this machine \("http:\/\/10\.0\.0\.1\/token"\)/.test(error.message));
});

/** A hostile document's strings are quoted in errors in part: a message stays a line a person can read. */
const READABLE = 2000;

test("a PRM naming a 200 KB authorization server, or metadata naming a 200 KB issuer: the error quotes them in part", async (t) => {
  const huge = "y".repeat(200_000);
  const missing = await documents(t, (origin) => ({ "/.well-known/oauth-protected-resource/mcp": { body: { resource: `${origin}/mcp`, authorization_servers: [`${origin}/${huge}`] } } }));
  await assert.rejects(discover(missing.server, undefined, {}), (error: unknown) =>
    error instanceof AuthMetadataError && /no authorization server metadata at/.test(error.message) && /200,0\d\d characters/.test(error.message) && error.message.length < READABLE);
  const other = await documents(t, (origin) => ({
    "/.well-known/oauth-protected-resource/mcp": { body: { resource: `${origin}/mcp`, authorization_servers: [origin] } },
    "/.well-known/oauth-authorization-server": { body: { ...AS(origin), issuer: `https://other.example/${huge}` } },
  }));
  await assert.rejects(discover(other.server, undefined, {}), (error: unknown) =>
    error instanceof AuthMetadataError && /names the issuer "https:\/\/other\.example\/yyy/.test(error.message) && error.message.length < READABLE);
  const resource = await documents(t, () => ({ "/.well-known/oauth-protected-resource/mcp": { body: { resource: `https://evil.example/${huge}`, authorization_servers: ["https://as.example"] } } }));
  await assert.rejects(discover(resource.server, undefined, {}), (error: unknown) =>
    error instanceof AuthMetadataError && /names the resource "https:\/\/evil\.example\/yyy/.test(error.message) && error.message.length < READABLE);
});

test("a document redirecting to another scheme is refused, naming the scheme (a file: URL has no origin to name)", async (t) => {
  const site = await documents(t, () => ({ "/.well-known/oauth-protected-resource/mcp": { location: "file:///etc/passwd" } }));
  await assert.rejects(discover(site.server, undefined, {}), (error: unknown) => error instanceof AuthFetchError && /redirects to a file: URL; not followed/.test(error.message));
});
