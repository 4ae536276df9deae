// One real authorization flow over loopback, printed as numbered steps (markdown): the test
// authorization server (test/helpers/auth-server.ts), the demo program as a resource server
// (`node dist/server.js --http --auth-issuer ...`) and our McpClient with `authorization`, whose
// every HTTP exchange goes through a fetch that records it. A headless user agent plays the
// browser. Secrets (tokens, codes, verifiers, client secrets) are cut to their first 8 characters.
// Exits 1 if the flow fails or a step of the chain is missing: it is a check too (a test runs it).
// PROTOCOL_NOTES.md, "Authorization (HTTP only)", is written from its output.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
//
//   npm run auth:flow            (builds first; the demo program is dist/server.js)

import { McpClient } from "../src/client/client.js";
import { StreamableHttpClientTransport } from "../src/http/client-transport.js";
import type { UserAgent } from "../src/auth/user-agent.js";
import { isObject } from "../src/jsonrpc/messages.js";
import { startAuthServer } from "../test/helpers/auth-server.js";
import { listening } from "../test/helpers/server-program.js";

const SCOPES = "mcp:read mcp:write";
/** Never fetched: the headless user agent reads the redirect's Location instead of following it. */
const REDIRECT_URI = "http://127.0.0.1:8976/callback";
/** Values shown as their first 8 characters: they are secrets, or long random values that say nothing more. */
const SHORTENED = new Set(["access_token", "refresh_token", "id_token", "code", "code_verifier", "client_secret", "state", "code_challenge", "mcp-session-id"]);
/** The request headers that matter to the flow; the rest (accept, user-agent) are left out. */
const REQUEST_HEADERS = ["authorization", "content-type", "mcp-protocol-version", "mcp-session-id"];

/** The chain's steps, in the order they must happen (PROTOCOL_NOTES numbers them so). */
const STEPS = [
  "the MCP request without a token",
  "Protected Resource Metadata (RFC 9728)",
  "authorization server metadata (RFC 8414)",
  "Dynamic Client Registration (RFC 7591)",
  "authorization request (the user agent)",
  "token request (authorization_code)",
  "the MCP request with the access token",
] as const;

interface Exchange {
  step: string;
  request: string[];
  response: string[];
}

/** `abcdefgh…`: enough to tell two values apart, never the value. */
function short(value: string): string {
  return value.length > 8 ? `${value.slice(0, 8)}…` : value;
}

function shortenJson(value: unknown, key = ""): unknown {
  if (typeof value === "string") return SHORTENED.has(key) ? short(value) : value;
  if (Array.isArray(value)) return value.map((item) => shortenJson(item));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, shortenJson(item, name)]));
  return value;
}

/** Form fields or a query, decoded for reading, secrets shortened. */
function formLines(params: URLSearchParams): string[] {
  return [...params].map(([name, value]) => `  ${name}=${SHORTENED.has(name) ? short(value) : value}`);
}

function jsonLines(json: unknown): string[] {
  const shown = shortenJson(json);
  // A JSON-RPC message on one line; an OAuth document field by field.
  return (isObject(json) && "jsonrpc" in json ? JSON.stringify(shown) : JSON.stringify(shown, null, 2)).split("\n");
}

function bodyLines(body: RequestInit["body"], contentType: string | null): string[] {
  if (body === undefined || body === null) return [];
  const text = body instanceof URLSearchParams ? body.toString() : typeof body === "string" ? body : "(a body that is not text)";
  if (contentType?.includes("application/x-www-form-urlencoded")) return formLines(new URLSearchParams(text));
  try {
    return jsonLines(JSON.parse(text));
  } catch {
    return [text];
  }
}

/** Which step of the chain an exchange is, from where it goes and what it carries. */
function stepOf(url: URL, headers: Headers, mcpPath: string, body: RequestInit["body"]): string {
  if (url.pathname === mcpPath) return headers.has("authorization") ? STEPS[6] : STEPS[0];
  if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) return STEPS[1];
  if (url.pathname.startsWith("/.well-known/oauth-authorization-server") || url.pathname.includes("/.well-known/openid-configuration")) return STEPS[2];
  if (url.pathname.endsWith("/register")) return STEPS[3];
  if (url.pathname.endsWith("/authorize")) return STEPS[4];
  if (url.pathname.endsWith("/token")) return String(body).includes("grant_type=refresh_token") ? "token request (refresh_token)" : STEPS[5];
  return "another request";
}

/** A fetch that records each exchange (the request as sent, the response as answered) into `log`. */
function recordingFetch(log: Exchange[], mcpPath: string): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const method = init.method ?? "GET";
    const headers = new Headers(init.headers);
    const shown = REQUEST_HEADERS.flatMap((name) => {
      const value = headers.get(name);
      if (value === null) return [];
      const [scheme, credential] = value.split(" ");
      return [`${name}: ${name === "authorization" && credential ? `${scheme} ${short(credential)}` : SHORTENED.has(name) ? short(value) : value}`];
    });
    const request = [`${method} ${url.origin}${url.pathname}${url.search ? "?…" : ""}`, ...formLines(url.searchParams), ...shown, ...bodyLines(init.body, headers.get("content-type"))];
    const response = await fetch(input, init);
    const answer = [`${response.status} ${response.statusText}`];
    for (const name of ["www-authenticate", "location", "content-type"]) {
      const value = response.headers.get(name);
      if (value !== null) answer.push(`${name}: ${name === "location" ? shortenLocation(value) : value}`);
    }
    // Read before the caller does: every answer of this flow ends (the client does not listen on a GET stream).
    await readBody(response.clone(), answer).catch((error: unknown) => answer.push(`(the body broke off: ${String(error)})`));
    log.push({ step: stepOf(url, headers, mcpPath, init.body), request, response: answer });
    return response;
  };
}

/** The redirect back carries the code and state: shortened like any query. */
function shortenLocation(location: string): string {
  const url = new URL(location);
  return url.search ? `${url.origin}${url.pathname}?${[...url.searchParams].map(([name, value]) => `${name}=${SHORTENED.has(name) ? short(value) : value}`).join("&")}` : location;
}

/** A JSON body, or each message of an event stream (not its empty priming event), appended to `lines` once it has arrived. */
async function readBody(response: Response, lines: string[]): Promise<void> {
  const type = response.headers.get("content-type") ?? "";
  const text = await response.text();
  if (type.includes("application/json") && text) lines.push(...jsonLines(JSON.parse(text)));
  else if (type.includes("text/event-stream")) for (const [, data] of text.matchAll(/^data:(.*)$/gm)) if (data.trim()) lines.push(...jsonLines(JSON.parse(data)));
}

/** A user agent without a person: GET the authorization URL (recorded), and take the redirect it answers with. */
function headlessUserAgent(recorded: typeof fetch): UserAgent {
  return {
    redirectUri: async () => REDIRECT_URI,
    async authorize(authorizationUrl) {
      const response = await recorded(authorizationUrl, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (location === null) throw new Error(`authorization: ${authorizationUrl.pathname} answered ${response.status}, not a redirect`);
      return new URL(location, authorizationUrl);
    },
  };
}

/** The steps as markdown: a numbered heading per exchange, its request and response in a block. */
function render(log: Exchange[], as: { origin: string; seen: string[] }, serverOrigin: string): string {
  const out = [`# One authorization flow`, ``, `Authorization server (test/helpers/auth-server.ts): ${as.origin}`, `MCP server (node dist/server.js --http --auth-issuer ${as.origin} --auth-scopes "${SCOPES}"): ${serverOrigin}`, ``];
  log.forEach((exchange, index) => out.push(`${index + 1}. ${exchange.step}`, "", "```http", ...exchange.request, "", ...exchange.response, "```", ""));
  out.push(`Meanwhile the authorization server was asked (the resource server's requests among them):`, "", ...as.seen.map((line) => `- ${line}`));
  return out.join("\n");
}

/** Each step of STEPS, in order; the first missing one named. */
function checkChain(log: Exchange[]): void {
  let at = 0;
  for (const step of STEPS) {
    const found = log.findIndex((exchange, index) => index >= at && exchange.step === step);
    if (found < 0) throw new Error(`the flow has no "${step}" after step ${at}`);
    at = found + 1;
  }
  if (!log[0].response[0].startsWith("401")) throw new Error(`the first request was answered ${log[0].response[0]}, not 401`);
}

async function main(): Promise<void> {
  const as = await startAuthServer({ scopes: SCOPES.split(" ") });
  const server = await listening(["--auth-issuer", as.issuer, "--auth-scopes", SCOPES]).catch(async (error: unknown) => {
    await as.close();
    throw error;
  });
  const log: Exchange[] = [];
  const recorded = recordingFetch(log, "/mcp");
  const client = new McpClient({ name: "auth-flow", version: "1" }, { protocolVersion: "2025-11-25" });
  try {
    await client.connect(new StreamableHttpClientTransport(`${server.origin}/mcp`, {
      fetch: recorded,
      listen: false,
      authorization: { userAgent: headlessUserAgent(recorded), clientName: "auth-flow", fetchOptions: { fetch: recorded } },
    }));
    const result = await client.callTool("add", { a: 20, b: 22 });
    if (JSON.stringify(result.structuredContent) !== '{"sum":42}') throw new Error(`tools/call add: ${JSON.stringify(result)}`);
    await client.close(); // here, so that its DELETE is in the log; the second close below does nothing
    checkChain(log);
    const seen = as.requests.map((request) => `${request.method} ${request.path.split("?")[0]}`);
    process.stdout.write(render(log, { origin: as.origin, seen }, server.origin) + "\n");
  } finally {
    await client.close();
    await server.stop();
    await as.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`auth-flow: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
