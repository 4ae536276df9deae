// Client identity in the spec's order (pre-registered, CIMD, a kept registration, DCR), the DCR
// request's body, and how each client authenticates at the token endpoint.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { clientAuthentication, ClientRegistrationError, isLoopback, registerClient, type RegistrationRequest } from "../../src/auth/registration.js";
import { OAuthError } from "../../src/auth/token-endpoint.js";
import type { AuthorizationServerMetadata } from "../../src/auth/metadata.js";

/** A registration endpoint answering `status` and `answer`, recording the bodies it got. */
async function registrar(t: { after(fn: () => void): void }, status: number, answer: unknown) {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => server.close());
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/register`, bodies };
}

function request(metadata: Partial<AuthorizationServerMetadata>, more: Partial<RegistrationRequest> = {}): RegistrationRequest {
  return { issuer: "https://as.example", metadata: { issuer: "https://as.example", ...metadata }, redirectUri: "http://127.0.0.1:4000/callback", clientName: "test", fetchOptions: {}, ...more };
}

test("a pre-registered client comes first, even where CIMD and DCR are offered", async () => {
  const client = { issuer: "https://as.example", client_id: "pre", client_secret: "s" };
  const got = await registerClient(request({ client_id_metadata_document_supported: true, registration_endpoint: "http://127.0.0.1:1/register" }, { client, clientMetadataUrl: "https://app.example/client.json" }));
  assert.deepEqual(got, { client, registered: false });
});

test("pre-registered credentials go only to the issuer they name: another is refused naming both, never the secret", async () => {
  const client = { issuer: "https://trusted.example", client_id: "pre", client_secret: "top-secret" };
  await assert.rejects(registerClient(request({ registration_endpoint: "http://127.0.0.1:1/register" }, { client })), (error: unknown) =>
    error instanceof ClientRegistrationError && /registered at https:\/\/trusted\.example, not at https:\/\/as\.example/.test(error.message) && !error.message.includes("top-secret"));
  // Without an issuer it cannot be told where it belongs, so it goes nowhere.
  await assert.rejects(registerClient(request({}, { client: { client_id: "pre", client_secret: "top-secret" } })), /names no issuer/);
});

test("clientFor picks credentials by the discovered issuer; undefined goes on to CIMD or DCR", async () => {
  const asked: string[] = [];
  const clientFor = (issuer: string) => (asked.push(issuer), issuer === "https://as.example" ? { client_id: "per-issuer", client_secret: "s" } : undefined);
  assert.deepEqual((await registerClient(request({}, { clientFor }))).client, { issuer: "https://as.example", client_id: "per-issuer", client_secret: "s" });
  const cimd = await registerClient(request({ client_id_metadata_document_supported: true }, { issuer: "https://other.example", clientFor, clientMetadataUrl: "https://app.example/client.json" }));
  assert.equal(cimd.client.client_id, "https://app.example/client.json");
  assert.deepEqual(asked, ["https://as.example", "https://other.example"]);
  // A pre-registered client for another issuer falls back on clientFor before it is refused.
  const client = { issuer: "https://trusted.example", client_id: "pre" };
  assert.equal((await registerClient(request({}, { client, clientFor }))).client.client_id, "per-issuer");
  await assert.rejects(registerClient(request({}, { clientFor: () => ({ issuer: "https://elsewhere.example", client_id: "x" }) })), /clientFor gave a client registered at https:\/\/elsewhere\.example/);
});

test("CIMD: our metadata URL is the client_id when the server supports it; an http or pathless URL is refused", async () => {
  const got = await registerClient(request({ client_id_metadata_document_supported: true }, { clientMetadataUrl: "https://app.example/client.json" }));
  assert.deepEqual(got.client, { client_id: "https://app.example/client.json", token_endpoint_auth_method: "none" });
  await assert.rejects(registerClient(request({ client_id_metadata_document_supported: true }, { clientMetadataUrl: "http://app.example/client.json" })), ClientRegistrationError);
  await assert.rejects(registerClient(request({ client_id_metadata_document_supported: true }, { clientMetadataUrl: "https://app.example/" })), /must be https with a path/);
});

test("DCR: redirect URI, refresh_token grant, a public client asked for, native for a loopback redirect", async (t) => {
  const { endpoint, bodies } = await registrar(t, 201, { client_id: "new", client_secret: "sec", client_secret_expires_at: 0 });
  const got = await registerClient(request({ registration_endpoint: endpoint, token_endpoint_auth_methods_supported: ["client_secret_post", "none"] }));
  assert.equal(got.registered, true);
  assert.deepEqual(got.client, { client_id: "new", client_secret: "sec", client_secret_expires_at: 0, token_endpoint_auth_method: "none", redirect_uris: ["http://127.0.0.1:4000/callback"] });
  assert.deepEqual(bodies[0], {
    redirect_uris: ["http://127.0.0.1:4000/callback"], client_name: "test", grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"], token_endpoint_auth_method: "none", application_type: "native",
  });
});

test("DCR: the auth method follows what the server supports (basic when it says nothing); an https redirect is a web client", async (t) => {
  const { endpoint, bodies } = await registrar(t, 201, { client_id: "new" });
  await registerClient(request({ registration_endpoint: endpoint }, { redirectUri: "https://app.example/cb" }));
  await registerClient(request({ registration_endpoint: endpoint, token_endpoint_auth_methods_supported: ["client_secret_post"] }));
  assert.deepEqual(bodies.map((body) => [body.token_endpoint_auth_method, body.application_type]), [["client_secret_basic", "web"], ["client_secret_post", "native"]]);
});

test("DCR refusals: an RFC 7591 error, an answer without client_id", async (t) => {
  const refused = await registrar(t, 400, { error: "invalid_redirect_uri", error_description: "no" });
  await assert.rejects(registerClient(request({ registration_endpoint: refused.endpoint })), (error: unknown) => error instanceof OAuthError && error.error === "invalid_redirect_uri");
  const empty = await registrar(t, 201, { client_secret: "s" });
  await assert.rejects(registerClient(request({ registration_endpoint: empty.endpoint })), /the answer has no "client_id"/);
});

// Issue 19's attack: nothing bounded a registered client_id, which goes into the authorization URL
// the CLI prints (a 135 KB one made 120 KB of stderr) and into the credentials file.
test("DCR: a client_id longer than 1024 characters is refused, shown only in part", async (t) => {
  const long = await registrar(t, 201, { client_id: "c".repeat(135_000), client_secret: "s" });
  await assert.rejects(registerClient(request({ registration_endpoint: long.endpoint })), (error: unknown) =>
    error instanceof Error && /"client_id" is longer than 1024 characters/.test(error.message) && error.message.length < 400);
  const { endpoint } = await registrar(t, 201, { client_id: "c".repeat(1024) });
  assert.equal((await registerClient(request({ registration_endpoint: endpoint }))).client.client_id.length, 1024);
});

// Issue 19 item 3: 1e400 parses as Infinity, which the credentials file would hold as null.
test("DCR: client_secret_expires_at must be a finite time in seconds (0: never); Infinity or a negative one is refused", async (t) => {
  for (const text of ["1e400", "-1", "1e300", '"soon"']) {
    const server = createServer((_request, response) => response.writeHead(201, { "content-type": "application/json" }).end(`{"client_id":"c","client_secret":"s","client_secret_expires_at":${text}}`));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    t.after(() => server.close());
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/register`;
    await assert.rejects(registerClient(request({ registration_endpoint: endpoint })), /"client_secret_expires_at" must be seconds since the epoch from 0 to 10000000000/, text);
  }
  const { endpoint } = await registrar(t, 201, { client_id: "c", client_secret: "s", client_secret_expires_at: 2_000_000_000 });
  assert.equal((await registerClient(request({ registration_endpoint: endpoint }))).client.client_secret_expires_at, 2_000_000_000);
});

test("a kept registration is reused for the same redirect URI while its secret lasts; none at all is a clear error", async (t) => {
  const { endpoint, bodies } = await registrar(t, 201, { client_id: "again" });
  const stored = { client_id: "kept", redirect_uris: ["http://127.0.0.1:4000/callback"] };
  assert.equal((await registerClient(request({ registration_endpoint: endpoint }, { stored }))).client.client_id, "kept");
  assert.equal((await registerClient(request({ registration_endpoint: endpoint }, { stored: { ...stored, redirect_uris: ["http://127.0.0.1:5/cb"] } }))).client.client_id, "again");
  assert.equal((await registerClient(request({ registration_endpoint: endpoint }, { stored: { ...stored, client_secret_expires_at: 1 } }))).client.client_id, "again");
  assert.equal(bodies.length, 2);
  await assert.rejects(registerClient(request({})), (error: unknown) => error instanceof ClientRegistrationError && /configure a pre-registered client/.test(error.message));
});

// Issue 19 item 13: the loopback listener takes a new port each time, so an exact match made a new registration per sign-in.
test("a kept registration is reused for a loopback redirect URI that differs only in port (RFC 8252 section 7.3)", async (t) => {
  const { endpoint, bodies } = await registrar(t, 201, { client_id: "again" });
  const kept = (uri: string) => ({ client_id: "kept", redirect_uris: [uri] });
  const reused = async (stored: string, asked: string) => (await registerClient(request({ registration_endpoint: endpoint }, { stored: kept(stored), redirectUri: asked }))).client.client_id === "kept";
  assert.equal(await reused("http://127.0.0.1:4000/callback", "http://127.0.0.1:51234/callback"), true);
  assert.equal(await reused("http://127.0.0.1/callback", "http://127.0.0.1:51234/callback"), true);
  assert.equal(await reused("http://[::1]:4000/callback", "http://[::1]:5/callback"), true);
  assert.equal(bodies.length, 0);
  // Another path, host, scheme or query is another redirect URI; so is a port on a name that is not a loopback literal.
  for (const [stored, asked] of [["http://127.0.0.1:4000/cb", "http://127.0.0.1:5/callback"], ["http://[::1]:4000/callback", "http://127.0.0.1:5/callback"],
    ["http://127.0.0.1:4000/callback?x=1", "http://127.0.0.1:5/callback"], ["https://127.0.0.1:4000/callback", "http://127.0.0.1:5/callback"],
    ["https://app.example:4000/callback", "https://app.example:5/callback"], ["http://localhost:4000/callback", "http://localhost:5/callback"]]) {
    assert.equal(await reused(stored!, asked!), false, `${stored} for ${asked}`);
  }
});

test("clientAuthentication: as registered, else by secret (basic unless only post), else public", () => {
  const metadata = { issuer: "https://as.example" };
  assert.deepEqual(clientAuthentication({ client_id: "a" }, metadata), { method: "none", client_id: "a" });
  assert.deepEqual(clientAuthentication({ client_id: "a", client_secret: "s", token_endpoint_auth_method: "none" }, metadata), { method: "none", client_id: "a" });
  assert.deepEqual(clientAuthentication({ client_id: "a", client_secret: "s", token_endpoint_auth_method: "client_secret_post" }, metadata).method, "client_secret_post");
  assert.equal(clientAuthentication({ client_id: "a", client_secret: "s" }, metadata).method, "client_secret_basic");
  assert.equal(clientAuthentication({ client_id: "a", client_secret: "s" }, { ...metadata, token_endpoint_auth_methods_supported: ["client_secret_post"] }).method, "client_secret_post");
});

test("isLoopback: 127.0.0.1, [::1] and localhost over http", () => {
  assert.deepEqual(["http://127.0.0.1:1/cb", "http://[::1]:2/", "http://localhost/x", "https://127.0.0.1/", "http://app.example/"].map(isLoopback), [true, true, true, false, false]);
});
