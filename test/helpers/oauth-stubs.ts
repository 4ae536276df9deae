// A protected MCP server and its authorization server on one loopback port, for the OAuth client's
// tests: the demo server behind a bearer check (401 with a challenge, 403 insufficient_scope when a
// method needs a scope the token lacks), Protected Resource Metadata, RFC 8414 metadata, DCR, an
// authorization endpoint that approves at once (redirecting with code and state), and a token
// endpoint that checks PKCE and issues opaque tokens. Each test bends it through StubOptions and
// reads what the client did from the logs. Not a real authorization server (test/helpers/auth-server.ts is).
import { createHash } from "node:crypto";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { listen } from "../../src/http/node.js";
import { McpHttpServer } from "../../src/http/server.js";
import type { UserAgent } from "../../src/auth/user-agent.js";

export interface StubOptions {
  /** The PRM's fields over the default ({resource: <origin>/mcp, authorization_servers: [<origin>]}). */
  prm?: (origin: string) => Record<string, unknown>;
  /** Where the PRM is served (default the path-aware well-known URL); null: nowhere. */
  prmPath?: string | null;
  /** The 401's WWW-Authenticate (default: Bearer with resource_metadata naming prmPath). */
  challenge?: (origin: string) => string;
  /** The AS metadata's fields over the default. */
  metadata?: (origin: string) => Record<string, unknown>;
  /** The scope a JSON-RPC method needs (403 insufficient_scope without it). */
  needs?: (method: string) => string | undefined;
  /** expires_in of issued tokens (default 3600). */
  expiresIn?: number;
  /** Issue refresh tokens (default true). */
  refresh?: boolean;
  /** Answer every refresh grant with invalid_grant (a spent or revoked refresh token). */
  refuseRefresh?: boolean;
  /** Rotate refresh tokens (OAuth 2.1 section 4.3.1): each works once; a second use gets invalid_grant. */
  rotateRefresh?: boolean;
  /** The only scopes the token endpoint grants (default: whatever was asked). */
  grantable?: string[];
  /** Serve HTTP+SSE too (/sse and /messages, behind the same bearer check). */
  legacy?: boolean;
  /** How the authorization endpoint answers, given the redirect it would make (default: as is). */
  redirect?: (redirect: URL) => URL;
  /** The JSON text of the /register and /token answers, rewritten (a hostile server's 1e400, which JSON.stringify cannot write). */
  rewrite?: (path: string, text: string) => string;
  /** Milliseconds to wait before answering a request for this path (a slow authorization server). */
  delayMs?: (path: string) => number;
}

export interface Stub {
  origin: string;
  /** The MCP endpoint. */
  url: string;
  /** "GET /path" for every request, in order. */
  log: string[];
  authorizations: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  registrations: Record<string, unknown>[];
  /** Access tokens the MCP server accepts, with their scopes; a test may revoke one. */
  tokens: Map<string, string[]>;
  close(): Promise<void>;
}

export async function stubAuthorization(options: StubOptions = {}): Promise<Stub> {
  const mcp = new McpHttpServer(createDemoServer(), { legacySse: options.legacy === true });
  const stub: Omit<Stub, "origin" | "url" | "close"> = { log: [], authorizations: [], tokenRequests: [], registrations: [], tokens: new Map() };
  const codes = new Map<string, { challenge: string; scope: string }>();
  const refreshTokens = new Map<string, string>();
  let issued = 0;
  let origin = "";
  const prmPath = options.prmPath === undefined ? "/.well-known/oauth-protected-resource/mcp" : options.prmPath;
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}, path = "") =>
    new Response(options.rewrite?.(path, JSON.stringify(body)) ?? JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
  const issue = (asked: string) => {
    const scope = asked.split(" ").filter((name) => options.grantable?.includes(name) ?? true).join(" ");
    const access_token = `at-${++issued}`;
    stub.tokens.set(access_token, scope.split(" ").filter(Boolean));
    const refresh_token = options.refresh === false ? undefined : `rt-${issued}`;
    if (refresh_token) refreshTokens.set(refresh_token, scope);
    return json({ access_token, token_type: "Bearer", expires_in: options.expiresIn ?? 3600, scope, refresh_token }, 200, {}, "/token");
  };

  const listening = await listen(async (request) => {
    const url = new URL(request.url);
    stub.log.push(`${request.method} ${url.pathname}`);
    const delay = options.delayMs?.(url.pathname) ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (url.pathname === prmPath) return json({ resource: `${origin}/mcp`, authorization_servers: [origin], ...options.prm?.(origin) });
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json({
        issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, registration_endpoint: `${origin}/register`,
        code_challenge_methods_supported: ["S256"], token_endpoint_auth_methods_supported: ["none"], ...options.metadata?.(origin),
      });
    }
    if (url.pathname === "/register") {
      const body = (await request.json()) as Record<string, unknown>;
      stub.registrations.push(body);
      return json({ client_id: `client-${stub.registrations.length}`, token_endpoint_auth_method: "none" }, 201, {}, "/register");
    }
    if (url.pathname === "/authorize") {
      stub.authorizations.push(url.searchParams);
      const code = `code-${stub.authorizations.length}`;
      codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? "", scope: url.searchParams.get("scope") ?? "" });
      const redirect = new URL(url.searchParams.get("redirect_uri")!);
      redirect.searchParams.set("code", code);
      redirect.searchParams.set("state", url.searchParams.get("state") ?? "");
      return new Response(null, { status: 302, headers: { location: (options.redirect?.(redirect) ?? redirect).href } });
    }
    if (url.pathname === "/token") {
      const form = new URLSearchParams(await request.text());
      stub.tokenRequests.push(form);
      if (form.get("grant_type") === "refresh_token") {
        const scope = refreshTokens.get(form.get("refresh_token") ?? "");
        if (scope === undefined || options.refuseRefresh) return json({ error: "invalid_grant" }, 400);
        if (options.rotateRefresh) refreshTokens.delete(form.get("refresh_token")!);
        return issue(scope);
      }
      const grant = codes.get(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      if (grant === undefined || createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) return json({ error: "invalid_grant" }, 400);
      codes.delete(form.get("code")!);
      return issue(grant.scope);
    }
    if (!["/mcp", "/sse", "/messages"].includes(url.pathname)) return json({ error: "not_found" }, 404);
    const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    const scopes = token === undefined ? undefined : stub.tokens.get(token);
    if (scopes === undefined) {
      const challenge = options.challenge?.(origin) ?? `Bearer resource_metadata="${origin}${prmPath ?? ""}"`;
      return json({ error: "invalid_token" }, 401, { "www-authenticate": challenge });
    }
    const body = request.method === "POST" ? await request.clone().text() : "";
    const method = body === "" ? undefined : (JSON.parse(body) as { method?: string }).method;
    const needed = method === undefined ? undefined : options.needs?.(method);
    if (needed !== undefined && !needed.split(" ").every((scope) => scopes.includes(scope))) {
      return json({ error: "insufficient_scope" }, 403, { "www-authenticate": `Bearer error="insufficient_scope", scope="${needed}"` });
    }
    return mcp.handle(request);
  }, { port: 0, host: "127.0.0.1" });
  origin = listening.origin;
  return { ...stub, origin, url: `${origin}/mcp`, close: () => listening.close() };
}

/** A user agent without a person, as the conformance client's: GET the URL, return the redirect. */
export function headless(log: URL[] = []): UserAgent & { closed: number } {
  const agent = {
    closed: 0,
    redirectUri: async () => "http://127.0.0.1:1/callback",
    async authorize(url: URL) {
      log.push(url);
      const response = await fetch(url, { redirect: "manual" });
      await response.body?.cancel();
      return new URL(response.headers.get("location")!, url);
    },
    async close() {
      agent.closed++;
    },
  };
  return agent;
}
