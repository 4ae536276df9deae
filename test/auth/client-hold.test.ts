// A person's authorization does not count against the client's timeouts: while the OAuth client
// waits on the user agent, the probe's, the handshake's and every request's clocks stand still
// (Transport.onHold, jsonrpc/request-clock.ts RequestClock); they run again after, the hold ends when
// the authorization fails too, and a failed authorization is never taken for a verdict on the era.
// Small timeouts against a user agent slower than all of them together, over loopback.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { McpClient, type ClientOptions } from "../../src/client/client.js";
import { EraCache } from "../../src/client/modern/era-cache.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { LegacySseClientTransport } from "../../src/http/legacy-client.js";
import { AuthorizationError } from "../../src/auth/authorization-code.js";
import { oauthClientFor, type OAuthOptions } from "../../src/auth/oauth-client.js";
import type { UserAgent } from "../../src/auth/user-agent.js";
import { RequestTimeoutError } from "../../src/jsonrpc/pending.js";
import { headless, stubAuthorization, type Stub, type StubOptions } from "../helpers/oauth-stubs.js";

type Context = { after(fn: () => Promise<void>): void };

/**
 * Every clock of the client, together shorter than the person takes (PERSON_MS), yet each long
 * enough for the flow's own requests (discovery, registration, the token) in a cold process on a
 * loaded machine: those are not held (fetch-json.ts bounds them), and 400 ms was seen to be too short.
 */
const TIMEOUTS: ClientOptions = { probeTimeoutMs: 1000, handshakeTimeoutMs: 1000, timeouts: { idleMs: 1000, maxTotalMs: 1000 } };
const PERSON_MS = 3100;

/** The headless user agent, but the person takes `ms` to approve (or refuses, after `ms`, with `refuse`). */
function slowPerson(ms: number, refuse?: Error): UserAgent & { asked: number; ms: number } {
  const inner = headless();
  const agent = {
    asked: 0,
    ms,
    redirectUri: () => inner.redirectUri(),
    async authorize(url: URL) {
      agent.asked++;
      await sleep(agent.ms);
      if (refuse) throw refuse;
      return inner.authorize(url);
    },
  };
  return agent;
}

async function withStub(t: Context, options: StubOptions = {}): Promise<Stub> {
  const stub = await stubAuthorization(options);
  t.after(() => stub.close());
  return stub;
}

function client(t: Context, options: ClientOptions = {}): McpClient {
  const made = new McpClient({ name: "hold-test", version: "1" }, { ...TIMEOUTS, eraCache: new EraCache(), ...options });
  t.after(() => made.close());
  return made;
}

test("a person slower than the probe, handshake and request timeouts together still connects and calls a tool (modern era)", async (t) => {
  const stub = await withStub(t);
  const agent = slowPerson(PERSON_MS);
  const cache = new EraCache();
  const mcp = client(t, { eraCache: cache });
  const transport = new HttpClientTransport(stub.url, { authorization: { userAgent: agent } });
  await mcp.connect(transport);
  assert.equal(mcp.era, "modern", mcp.eraReason);
  assert.deepEqual(cache.get(transport.peerKey), { era: "modern", version: mcp.protocolVersion });
  const result = await mcp.callTool("add", { a: 2, b: 3 });
  assert.deepEqual(result.content, [{ type: "text", text: JSON.stringify({ sum: 5 }) }]);
  assert.equal(agent.asked, 1, "the person is asked once");
  // The clocks run again after the release: a call that then stalls still times out.
  await assert.rejects(mcp.callTool("countdown", { steps: 5, intervalMs: 1000 }, { timeouts: { idleMs: 100, maxTotalMs: 100 } }), RequestTimeoutError);
});

test("the handshake era: initialize waits for the person, and notifications/initialized still has the handshake's time left", async (t) => {
  const stub = await withStub(t);
  const mcp = client(t, { protocolVersion: "2025-11-25" });
  await mcp.connect(new HttpClientTransport(stub.url, { authorization: { userAgent: slowPerson(PERSON_MS) } }));
  assert.equal(mcp.era, "handshake");
  assert.equal((await mcp.callTool("add", { a: 1, b: 1 })).isError, undefined);
});

test("a request of an open session whose token is refused waits for the person beyond its own timeouts", async (t) => {
  const stub = await withStub(t, { refresh: false });
  // Quick the first time, so that connect() is not what is tested here.
  const agent = slowPerson(0);
  const mcp = client(t);
  await mcp.connect(new HttpClientTransport(stub.url, { authorization: { userAgent: agent } }));
  agent.ms = PERSON_MS;
  stub.tokens.clear();
  const result = await mcp.callTool("add", { a: 20, b: 22 });
  assert.deepEqual(result.content, [{ type: "text", text: JSON.stringify({ sum: 42 }) }]);
  assert.equal(agent.asked, 2);
});

test("a failing authorization releases the hold, surfaces from connect() as an AuthorizationError naming the step, and leaves no era verdict", async (t) => {
  const stub = await withStub(t);
  const options: OAuthOptions = { userAgent: slowPerson(100, new Error("the person closed the browser")) };
  const waits: boolean[] = [];
  const stop = oauthClientFor(options).onPersonWait((waiting) => waits.push(waiting));
  t.after(async () => stop());
  const cache = new EraCache();
  const transport = new HttpClientTransport(stub.url, { authorization: options });
  await assert.rejects(client(t, { eraCache: cache }).connect(transport), (error: unknown) =>
    error instanceof AuthorizationError && error.message === "server/discover: the person closed the browser");
  assert.deepEqual(waits, [true, false]);
  assert.equal(cache.get(transport.peerKey), undefined);
});

test("an authorization server's refusal (HTTP 400 invalid_grant) during the probe is not taken for a legacy server's refusal", async (t) => {
  // The redirect brings back a code the token endpoint does not know: it answers 400 invalid_grant.
  const stub = await withStub(t, { redirect: (redirect) => (redirect.searchParams.set("code", "forged"), redirect) });
  const cache = new EraCache();
  const transport = new HttpClientTransport(stub.url, { authorization: { userAgent: headless() } });
  await assert.rejects(client(t, { eraCache: cache }).connect(transport), (error: unknown) =>
    error instanceof AuthorizationError && /^server\/discover: token request .*400 invalid_grant/.test(error.message));
  assert.equal(cache.get(transport.peerKey), undefined, "no verdict about the era");
  const afterRefusal = stub.log.slice(stub.log.indexOf("POST /token") + 1);
  assert.deepEqual(afterRefusal, [], "no initialize, no second authorization");
});

test("HTTP+SSE: the wait for the endpoint event does not count the person's sign-in (a 401 to the GET)", async (t) => {
  // The PRM at the root names the origin: the one resource behind both /sse and /messages.
  const stub = await withStub(t, { legacy: true, prmPath: "/.well-known/oauth-protected-resource", prm: (origin) => ({ resource: origin }) });
  const legacy = await LegacySseClientTransport.open(`${stub.origin}/sse`, { authorization: { userAgent: slowPerson(PERSON_MS) }, endpointTimeoutMs: 1000 });
  t.after(() => legacy.close());
  assert.equal(new URL(legacy.endpoint).pathname, "/messages");
});
