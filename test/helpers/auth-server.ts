// A small OAuth 2.1 authorization server for tests, on node:http at 127.0.0.1 (a random port): RFC
// 8414 metadata, a JWK Set, /authorize that approves at once, /token (authorization_code with PKCE
// S256, refresh_token, client_credentials), /register (RFC 7591), issuing real signed JWT access
// tokens (RS256, ES256 or EdDSA) for the `resource` asked for (RFC 8707). For the resource server's
// failures it mints deliberately bad tokens (`mint`), rotates keys (`rotate`), and serves a JWK Set
// that is slow, huge or not JSON (`jwksMode`). Opaque tokens (`opaque`) are checked at /introspect
// (RFC 7662, by a client with a secret), and any token can be revoked. Everything it was asked is in `requests`.
//
//   const as = await startAuthServer({ scopes: ["mcp:read"] });
//   const token = as.mint({ audience: "http://127.0.0.1:1234/mcp", scope: "mcp:read" });
//   as.mint({ audience, expiresIn: -600 });        // expired; also issuer, notBefore, alg, key, badSignature
//   const kid = as.rotate("ES256");                 // a new published key, used from now on for ES256
//   as.jwksMode = "not-json";                       // or "slow", "huge", "many-keys", "error"
//   as.tokenOverrides = { audience: "https://elsewhere.example" };  // /token issues bad tokens too
//   as.authorizeMode = "wrong-state";               // or "no-code", "wrong-iss", "no-iss": bad redirects
//   delete as.metadata.code_challenge_methods_supported;          // the metadata served is this object
//   await as.close();
// Not shipped; nothing here is production-grade (codes and tokens live in memory, consent is implied).

import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { newKey, signJws, type SigningAlgorithm, type SigningKey } from "./auth-server-keys.js";

export type { SigningAlgorithm } from "./auth-server-keys.js";

/** What an access token says and how it is signed; each field can make it bad in one way. */
export interface TokenSpec {
  /** `aud`: the resource (a string or several); required. */
  audience: string | string[];
  /** `scope`, space-separated; omitted if undefined. */
  scope?: string;
  /** `iss`, default this server's issuer. */
  issuer?: string;
  /** Seconds from now to `exp` (default the server's tokenLifetimeSeconds; negative: expired). */
  expiresIn?: number;
  /** Seconds from now to `nbf` (omitted by default). */
  notBefore?: number;
  alg?: SigningAlgorithm;
  /** "published" (default): the current key of `alg`; "unpublished": a key the JWK Set never shows (an unknown kid). */
  key?: "published" | "unpublished";
  /** The signature of another payload: a forged token. */
  badSignature?: boolean;
  /** More claims, or replacements (undefined removes one). */
  claims?: Record<string, unknown>;
  /** More header fields, or replacements (e.g. { alg: "none" }, { kid: undefined }). */
  header?: Record<string, unknown>;
}

export interface AuthServerOptions {
  /** scopes_supported, and what /token grants when no scope is asked (default ["mcp:read", "mcp:write"]). */
  scopes?: string[];
  /** A path in the issuer identifier, e.g. "/tenant1" (metadata then at the path-inserted URL). */
  issuerPath?: string;
  /** Lifetime of issued access tokens (default 3600 s). */
  tokenLifetimeSeconds?: number;
  /** Clients known before any registration (client_secret_basic/post if a secret is given, else none). */
  clients?: RegisteredClient[];
}

export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

export type JwksMode = "normal" | "slow" | "huge" | "not-json" | "many-keys" | "error";

/** How /authorize redirects back: as it should, or wrong in one way a client must catch. */
export type AuthorizeMode = "normal" | "no-code" | "wrong-state" | "wrong-iss" | "no-iss";

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource?: string;
  scope?: string;
}

export interface TestAuthServer {
  /** The issuer identifier (origin plus issuerPath). */
  issuer: string;
  origin: string;
  /** The RFC 8414 document served. */
  metadata: Record<string, unknown>;
  /** Every request: method and path (with query). */
  requests: { method: string; path: string }[];
  /** How /jwks answers from now on. */
  jwksMode: JwksMode;
  /** How /authorize redirects from now on. */
  authorizeMode: AuthorizeMode;
  /** Applied to every token /token issues (to make the client's tokens bad). */
  tokenOverrides: Partial<TokenSpec> | undefined;
  clients: Map<string, RegisteredClient>;
  mint(spec: TokenSpec): string;
  /** An opaque token (random text) whose claims only /introspect tells; `spec`'s signing fields are ignored. */
  opaque(spec: TokenSpec): string;
  /** From now on /introspect says the token is not active. */
  revoke(token: string): void;
  /** A new key for `alg` (default RS256), published beside the old ones and used from now on; its kid. */
  rotate(alg?: SigningAlgorithm): string;
  /** How many times the JWK Set was asked for. */
  jwksFetches(): number;
  close(): Promise<void>;
}

export async function startAuthServer(options: AuthServerOptions = {}): Promise<TestAuthServer> {
  const scopes = options.scopes ?? ["mcp:read", "mcp:write"];
  const lifetime = options.tokenLifetimeSeconds ?? 3600;
  const current = new Map<SigningAlgorithm, SigningKey>();
  const published: SigningKey[] = [];
  const unpublished = new Map<SigningAlgorithm, SigningKey>();
  const codes = new Map<string, PendingCode>();
  const opaqueTokens = new Map<string, Record<string, unknown>>();
  const revoked = new Set<string>();
  const refreshTokens = new Map<string, { clientId: string; resource?: string; scope?: string }>();
  const server = createServer((req, res) => void answer(req, res).catch((error: unknown) => send(res, 500, { error: "server_error", error_description: String(error) })));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = origin + (options.issuerPath ?? "");
  const slowAnswers = new Set<ServerResponse>();

  const as: TestAuthServer = {
    issuer,
    origin,
    metadata: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      jwks_uri: `${issuer}/jwks`,
      introspection_endpoint: `${issuer}/introspect`,
      scopes_supported: scopes,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
    },
    requests: [],
    jwksMode: "normal",
    authorizeMode: "normal",
    tokenOverrides: undefined,
    clients: new Map((options.clients ?? []).map((client) => [client.client_id, client])),
    mint(spec) {
      const alg = spec.alg ?? "RS256";
      const key = spec.key === "unpublished" ? unpublishedKey(alg) : currentKey(alg);
      const payload = claimsOf(spec);
      const header = { alg, typ: "at+jwt", kid: key.kid, ...spec.header };
      const token = signJws(header, payload, key);
      if (!spec.badSignature) return token;
      const forged = signJws(header, { ...payload, sub: "someone-else" }, key);
      return `${token.slice(0, token.lastIndexOf("."))}${forged.slice(forged.lastIndexOf("."))}`;
    },
    opaque(spec) {
      const token = randomBytes(24).toString("base64url");
      opaqueTokens.set(token, claimsOf(spec));
      return token;
    },
    revoke: (token) => void revoked.add(token),
    rotate(alg = "RS256") {
      const key = newKey(alg);
      current.set(alg, key);
      published.push(key);
      return key.kid;
    },
    jwksFetches: () => as.requests.filter((r) => r.path === new URL(as.metadata.jwks_uri as string).pathname).length,
    close: () => new Promise<void>((resolve) => {
      for (const res of slowAnswers) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };

  function claimsOf(spec: TokenSpec): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: spec.issuer ?? issuer,
      aud: spec.audience,
      sub: "test-user",
      iat: now,
      exp: now + (spec.expiresIn ?? lifetime),
      jti: randomBytes(8).toString("hex"),
      ...(spec.scope !== undefined ? { scope: spec.scope } : {}),
      ...(spec.notBefore !== undefined ? { nbf: now + spec.notBefore } : {}),
      ...spec.claims,
    };
  }

  // One key from the start, so the JWK Set is never empty.
  as.rotate("RS256");

  function currentKey(alg: SigningAlgorithm): SigningKey {
    if (!current.has(alg)) as.rotate(alg);
    return current.get(alg)!;
  }

  function unpublishedKey(alg: SigningAlgorithm): SigningKey {
    if (!unpublished.has(alg)) unpublished.set(alg, newKey(alg, `unpublished-${alg.toLowerCase()}`));
    return unpublished.get(alg)!;
  }

  function jwks(res: ServerResponse): void {
    const keys = published.map((key) => key.jwk);
    switch (as.jwksMode) {
      case "slow":
        // Headers, then nothing: the body never finishes.
        slowAnswers.add(res);
        res.writeHead(200, { "content-type": "application/json" }).write('{"keys": [');
        return;
      case "huge":
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys, padding: "x".repeat(1024 * 1024) }));
        return;
      case "not-json":
        res.writeHead(200, { "content-type": "text/html" }).end("<html>maintenance</html>");
        return;
      case "many-keys":
        return send(res, 200, { keys: Array.from({ length: 40 }, () => keys[0] ?? {}) });
      case "error":
        return send(res, 500, { error: "server_error" });
      default:
        return send(res, 200, { keys });
    }
  }

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", origin);
    as.requests.push({ method: req.method ?? "GET", path: url.pathname + url.search });
    const issuerPath = options.issuerPath ?? "";
    const path = url.pathname.startsWith(issuerPath + "/") ? url.pathname.slice(issuerPath.length) : url.pathname;
    if (url.pathname === `/.well-known/oauth-authorization-server${issuerPath}`) return send(res, 200, as.metadata);
    if (path === "/jwks") return jwks(res);
    if (path === "/authorize" && req.method === "GET") return authorize(url, res);
    if (path === "/token" && req.method === "POST") return token(req, new URLSearchParams(await body(req)), res);
    if (path === "/register" && req.method === "POST") return register(await body(req), res);
    if (path === "/introspect" && req.method === "POST") return introspect(req, new URLSearchParams(await body(req)), res);
    return send(res, 404, { error: "not_found" });
  }

  function authorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const client = as.clients.get(q.get("client_id") ?? "");
    const redirectUri = q.get("redirect_uri") ?? "";
    // Spec (OAuth 2.1 section 4.1.2.1): without a known client and its exact redirect URI, never redirect.
    if (!client || !client.redirect_uris.includes(redirectUri)) return send(res, 400, { error: "invalid_request", error_description: "unknown client or redirect_uri" });
    const back = new URL(redirectUri);
    const mode = as.authorizeMode;
    if (mode !== "no-iss") back.searchParams.set("iss", mode === "wrong-iss" ? "https://evil.example" : issuer);
    if (q.get("state") !== null) back.searchParams.set("state", mode === "wrong-state" ? "forged-state" : q.get("state")!);
    if (q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
      back.searchParams.set("error", "invalid_request");
    } else {
      const code = randomBytes(16).toString("base64url");
      codes.set(code, { clientId: client.client_id, redirectUri, challenge: q.get("code_challenge")!, resource: q.get("resource") ?? undefined, scope: q.get("scope") ?? undefined });
      if (mode !== "no-code") back.searchParams.set("code", code);
    }
    res.writeHead(302, { location: back.href }).end();
  }

  function token(req: IncomingMessage, form: URLSearchParams, res: ServerResponse): void {
    const client = authenticate(req, form);
    if (!client) return send(res, 401, { error: "invalid_client" });
    const grant = form.get("grant_type");
    let resource = form.get("resource") ?? undefined;
    let scope = form.get("scope") ?? undefined;
    if (grant === "authorization_code") {
      const pending = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      if (!pending || pending.clientId !== client.client_id || pending.redirectUri !== form.get("redirect_uri")) return send(res, 400, { error: "invalid_grant" });
      // Spec (RFC 7636 section 4.6): S256 of the verifier must be the challenge.
      if (createHash("sha256").update(verifier).digest("base64url") !== pending.challenge) return send(res, 400, { error: "invalid_grant", error_description: "PKCE verification failed" });
      // Spec (RFC 8707 section 2.2): the token request's resource must be one the grant was for.
      if (pending.resource !== undefined && resource !== undefined && resource !== pending.resource) return send(res, 400, { error: "invalid_target" });
      resource ??= pending.resource;
      scope ??= pending.scope;
    } else if (grant === "refresh_token") {
      const previous = refreshTokens.get(form.get("refresh_token") ?? "");
      refreshTokens.delete(form.get("refresh_token") ?? "");
      if (!previous || previous.clientId !== client.client_id) return send(res, 400, { error: "invalid_grant" });
      resource ??= previous.resource;
      scope ??= previous.scope;
    } else if (grant === "client_credentials") {
      if (client.client_secret === undefined) return send(res, 400, { error: "unauthorized_client" });
    } else {
      return send(res, 400, { error: "unsupported_grant_type" });
    }
    if (resource === undefined) return send(res, 400, { error: "invalid_target", error_description: "resource is required" });
    scope ??= scopes.join(" ");
    const refresh = randomBytes(16).toString("base64url");
    if (grant !== "client_credentials") refreshTokens.set(refresh, { clientId: client.client_id, resource, scope });
    const access = as.mint({ audience: resource, scope, claims: { client_id: client.client_id }, ...as.tokenOverrides });
    send(res, 200, { access_token: access, token_type: "Bearer", expires_in: lifetime, scope, ...(grant !== "client_credentials" ? { refresh_token: refresh } : {}) });
  }

  /** client_secret_basic, client_secret_post, or none (a public client names itself). */
  function authenticate(req: IncomingMessage, form: URLSearchParams): RegisteredClient | undefined {
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const [id, secret] = basic
      ? Buffer.from(basic, "base64").toString().split(":").map((part) => decodeURIComponent(part.replace(/\+/g, " ")))
      : [form.get("client_id") ?? "", form.get("client_secret") ?? undefined];
    const client = as.clients.get(id ?? "");
    if (!client) return undefined;
    return client.client_secret === undefined || client.client_secret === secret ? client : undefined;
  }

  /** RFC 7662: only a client with a secret may ask; an unknown, revoked or expired token is just inactive. */
  function introspect(req: IncomingMessage, form: URLSearchParams, res: ServerResponse): void {
    const client = authenticate(req, form);
    if (!client || client.client_secret === undefined) return send(res, 401, { error: "invalid_client" });
    const token = form.get("token") ?? "";
    const claims = opaqueTokens.get(token);
    const expired = typeof claims?.exp === "number" && claims.exp < Date.now() / 1000;
    send(res, 200, claims && !revoked.has(token) && !expired ? { active: true, ...claims } : { active: false });
  }

  function register(text: string, res: ServerResponse): void {
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return send(res, 400, { error: "invalid_client_metadata" });
    }
    const uris = request.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => typeof uri === "string")) return send(res, 400, { error: "invalid_redirect_uri" });
    const method = typeof request.token_endpoint_auth_method === "string" ? request.token_endpoint_auth_method : "client_secret_basic";
    const client: RegisteredClient = { client_id: `client-${randomBytes(6).toString("hex")}`, redirect_uris: uris as string[], ...(method !== "none" ? { client_secret: randomBytes(16).toString("hex") } : {}) };
    as.clients.set(client.client_id, client);
    send(res, 201, { ...request, ...client, token_endpoint_auth_method: method, client_id_issued_at: Math.floor(Date.now() / 1000) });
  }

  return as;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > 64 * 1024) req.destroy(new Error("request body too large"));
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}
