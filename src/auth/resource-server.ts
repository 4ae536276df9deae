// The MCP server as an OAuth 2.1 resource server: it publishes its Protected Resource Metadata
// (RFC 9728) at the well-known URLs, and lets an MCP request through only with a valid bearer
// token for it (RFC 6750), answering 401 with a challenge that says where to get one, or 403 when
// the token lacks a scope. Tokens are only read here: never logged, never passed on.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
// (authorization-server-location, token-handling, error-handling, scope-challenge-handling).
// The HTTP side calls it (http/security.ts's Gate for every request, http/server.ts for the metadata);
// it knows nothing of MCP itself.

import { createHash } from "node:crypto";
import { errorAnswer, jsonAnswer, type HttpAnswer, type HttpRequest } from "../http/exchange.js";
import { AuthFetchError } from "./fetch-json.js";
import { IntrospectionBusyError, introspectionVerifier, type IntrospectionOptions } from "./introspection.js";
import { Jwks, JwksError, type JwksOptions } from "./jwks.js";
import { checkClaims, checkSignature, decodeJws, TokenRejectedError, type VerifiedToken } from "./jwt-verify.js";
import { AuthMetadataError, isSecureUrl, type ProtectedResourceMetadata } from "./metadata.js";
import { OAuthError } from "./token-endpoint.js";

/**
 * Checks one access token for `resource`: the token's grant, or TokenRejectedError for a token
 * that is not good (401). Our side failing is a 503: the issuer's metadata, keys or introspection
 * endpoint could not be had (AuthFetchError, AuthMetadataError, JwksError, OAuthError), or every
 * introspection allowed at once is under way (IntrospectionBusyError). Any other error is a 401
 * too (a token that trips up the check is not a good one), reported through onProblem.
 */
export type TokenVerifier = (token: string, resource: string) => Promise<VerifiedToken>;

export interface AuthorizationOptions {
  /** The issuer identifier of the authorization server whose tokens are accepted: https, or http to this machine. */
  issuer: string;
  /**
   * This server's canonical URL: the audience its tokens must name, and the PRM's `resource`.
   * Default: where McpHttpServer.listen serves the MCP endpoint (its origin and path).
   */
  resource?: string;
  /** Scopes every MCP request needs, all of them (RFC 6749 scope-tokens); published as scopes_supported and asked for in challenges. */
  scopes?: string[];
  /** A person-readable name for consent screens (the PRM's resource_name). */
  resourceName?: string;
  /** How tokens are checked (default: defaultVerifier: JWTs by signature, opaque tokens by introspection if configured). */
  verifier?: TokenVerifier;
  /** Our client credentials for RFC 7662 introspection: with them, tokens that are not JWTs are asked about. */
  introspection?: IntrospectionOptions;
  /** Bounds on the key fetching of the default verifier (the issuer comes from `issuer`). */
  jwks?: Omit<JwksOptions, "issuer">;
  /** The longest token looked at, in characters (default DEFAULT_MAX_TOKEN_LENGTH, 8 KiB). */
  maxTokenLength?: number;
  /** Clock skew allowed on exp and nbf, in seconds (default 60). */
  clockSkewSeconds?: number;
}

/** The well-known path of RFC 9728, to which a resource's own path is appended. */
export const PRM_WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** What an admitted request's token grants, and whom it speaks for (ownerOf), to bind a session to. */
export interface Granted extends VerifiedToken {
  owner: string;
}

/** A token in the Authorization header: RFC 6750 section 2.1's b64token. */
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/** A JWT (three dot-separated parts) by its signature; any other token by introspection, when configured. */
export function defaultVerifier(options: AuthorizationOptions): TokenVerifier {
  const jwt = jwtVerifier(options);
  if (options.introspection === undefined) return jwt;
  const introspect = introspectionVerifier(options.introspection, {
    issuer: options.issuer,
    maxTokenLength: options.maxTokenLength,
    clockSkewSeconds: options.clockSkewSeconds,
    now: options.jwks?.now,
  });
  return (token, resource) => (token.split(".").length === 3 ? jwt(token, resource) : introspect(token, resource));
}

/** A JWT whose signature one of the issuer's keys made, and whose claims say it is for `resource`, now. */
export function jwtVerifier(options: AuthorizationOptions): TokenVerifier {
  const jwks = new Jwks({ ...options.jwks, issuer: options.issuer });
  return async (token, resource) => {
    const jws = decodeJws(token, options.maxTokenLength);
    checkSignature(jws, await jwks.key(jws.header));
    return checkClaims(jws.payload, { issuer: options.issuer, audience: resource, clockSkewSeconds: options.clockSkewSeconds, now: options.jwks?.now });
  };
}

export class ResourceServer {
  readonly #options: AuthorizationOptions;
  readonly #verify: TokenVerifier;
  readonly #onProblem: ((message: string) => void) | undefined;
  /**
   * The failure reported last. Jwks gives the same error again to every token while its cooldown
   * lasts: reported once, rather than once per request (a log line each, for anyone's made-up token).
   */
  #lastProblem: unknown;
  #resource: string | undefined;

  constructor(options: AuthorizationOptions, onProblem?: (message: string) => void) {
    checkIssuer(options.issuer);
    for (const scope of options.scopes ?? []) checkScope(scope);
    this.#options = options;
    this.#resource = options.resource === undefined ? undefined : checkResource(options.resource);
    this.#verify = options.verifier ?? defaultVerifier(options);
    this.#onProblem = onProblem;
  }

  /** The resource, when `resource` was not given: where the server turned out to listen. */
  useDefaultResource(url: string): void {
    this.#resource ??= checkResource(url);
  }

  get resource(): string | undefined {
    return this.#resource;
  }

  /** Spec (RFC 9728 section 3.1): the metadata's URL, the well-known path inserted before the resource's own path. */
  get metadataUrl(): string | undefined {
    if (this.#resource === undefined) return undefined;
    const url = new URL(this.#resource);
    return url.origin + PRM_WELL_KNOWN + url.pathname.replace(/\/$/, "");
  }

  get document(): ProtectedResourceMetadata | undefined {
    if (this.#resource === undefined) return undefined;
    const { issuer, scopes, resourceName } = this.#options;
    return {
      resource: this.#resource,
      // Spec (authorization#authorization-server-location): at least one authorization server.
      authorization_servers: [issuer],
      ...(scopes && scopes.length > 0 ? { scopes_supported: scopes } : {}),
      // Spec (authorization#access-token-usage): tokens only in the Authorization header.
      bearer_methods_supported: ["header"],
      ...(resourceName !== undefined ? { resource_name: resourceName } : {}),
    };
  }

  /**
   * The Protected Resource Metadata, if `request` asks for it: at the path-aware URL and at the
   * root one (the spec lets a client try both), without a token; undefined for any other path.
   */
  serveMetadata(request: HttpRequest): HttpAnswer | undefined {
    const path = request.path;
    if (path !== PRM_WELL_KNOWN && !path.startsWith(PRM_WELL_KNOWN + "/")) return undefined;
    const document = this.document;
    const own = this.metadataUrl === undefined ? undefined : new URL(this.metadataUrl).pathname;
    if (document === undefined || (path !== PRM_WELL_KNOWN && path !== own)) return errorAnswer(404, `not found: no protected resource metadata at ${path}`);
    if (request.method !== "GET" && request.method !== "HEAD") return errorAnswer(405, `${request.method} is not supported on ${path}`, { allow: "GET" });
    // Public and the same for everyone: a browser client on another origin may read it.
    return jsonAnswer(200, document, { "access-control-allow-origin": "*", "cache-control": "max-age=300" });
  }

  /**
   * What the request's token grants and whom it speaks for, or the refusal: 400, 401, 403, or 503
   * when the issuer's side cannot be had (or introspection is busy), as TokenVerifier says.
   */
  async authorize(request: HttpRequest): Promise<HttpAnswer | Granted> {
    const resource = this.#resource;
    if (resource === undefined) return errorAnswer(500, "internal error: authorization is on but this server's resource URL is not known (set authorization.resource)");
    // Spec (authorization#access-token-usage): access tokens MUST NOT be in the query string.
    if (request.query("access_token") !== null) return this.#refuse(400, "invalid_request", "access tokens are not accepted in the query string; send an Authorization header");
    const header = request.header("authorization");
    // Spec (RFC 6750 section 3.1): a request without credentials gets a challenge with no error code.
    if (header === null || !/^Bearer(\s|$)/i.test(header)) return this.#refuse(401, undefined, "a bearer token is required");
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) return this.#refuse(401, "invalid_token", "the Authorization header does not hold a bearer token");
    let granted: VerifiedToken;
    try {
      granted = await this.#verify(token, resource);
    } catch (error) {
      // Spec (authorization#token-handling): invalid or expired tokens MUST receive 401.
      if (error instanceof TokenRejectedError) return this.#refuse(401, "invalid_token", `the access token was refused: ${error.reason}`);
      if (error instanceof IntrospectionBusyError) return errorAnswer(503, "service unavailable: too many tokens are being checked at once; try again shortly", { "retry-after": "1" });
      if (error !== this.#lastProblem) this.#onProblem?.(`authorization: could not check a token: ${error instanceof Error ? error.message : String(error)}`);
      this.#lastProblem = error;
      if (!isUnavailable(error)) return this.#refuse(401, "invalid_token", "the access token was refused: it could not be read");
      return errorAnswer(503, "service unavailable: the authorization server's keys could not be had to check the token; try again later", { "retry-after": "30" });
    }
    const missing = (this.#options.scopes ?? []).filter((scope) => !granted.scopes.includes(scope));
    // Spec (authorization#runtime-insufficient-scope-errors): 403 insufficient_scope names the scopes needed.
    if (missing.length > 0) return this.#refuse(403, "insufficient_scope", `the access token lacks the scope ${missing.join(" ")}`);
    return { ...granted, owner: ownerOf(granted, token) };
  }

  /** A refusal with its RFC 6750 challenge, pointing at the metadata and naming the scopes this server needs. */
  #refuse(status: number, error: string | undefined, description: string): HttpAnswer {
    const scope = (this.#options.scopes ?? []).join(" ");
    const challenge = bearerChallenge({
      ...(error !== undefined ? { error, error_description: description } : {}),
      // Spec (authorization#protected-resource-metadata-discovery-requirements): resource_metadata on 401 (and, for consistency, 403).
      resource_metadata: this.metadataUrl!,
      // Spec (authorization, RFC 6750 section 3): servers SHOULD name the scopes needed.
      ...(scope !== "" ? { scope } : {}),
    });
    const reason = status === 403 ? "forbidden" : status === 400 ? "bad request" : "unauthorized";
    return errorAnswer(status, `${reason}: ${description}`, { "www-authenticate": challenge });
  }
}

/**
 * Whom a token speaks for, to bind a session to (security_best_practices#session-hijacking): its
 * issuer and subject, or, for an introspected token without one, its client; for a token that
 * names neither, only that token (by its sha256), so that two such tokens never share a session.
 */
export function ownerOf(granted: VerifiedToken, token: string): string {
  if (granted.subject === undefined && granted.clientId === undefined) return JSON.stringify(["token", createHash("sha256").update(token).digest("base64url")]);
  return JSON.stringify([granted.claims.iss ?? null, granted.subject ?? null, granted.subject === undefined ? (granted.clientId ?? null) : null]);
}

/** Failures of the issuer's side, or of reaching it: the token was not judged. */
function isUnavailable(error: unknown): boolean {
  return error instanceof AuthFetchError || error instanceof AuthMetadataError || error instanceof JwksError || error instanceof OAuthError;
}

/** `Bearer name="value", ...`, each value a quoted-string (RFC 9110 section 11.2) with `"` and `\` escaped. */
export function bearerChallenge(parameters: Record<string, string>): string {
  const rendered = Object.entries(parameters).map(([name, value]) => `${name}="${value.replace(/["\\]/g, "\\$&")}"`);
  return rendered.length === 0 ? "Bearer" : `Bearer ${rendered.join(", ")}`;
}

/**
 * Spec (RFC 9728 section 1.2, RFC 8707 section 2): a resource is an absolute http(s) URL without a
 * fragment. Kept as parsed (its href), so what is published and put in challenges is what was checked;
 * control characters and spaces are refused outright (the URL parser would drop some of them silently).
 */
function checkResource(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // Reported below.
  }
  if (parsed === undefined || (parsed.protocol !== "https:" && parsed.protocol !== "http:") || url.includes("#") || /[\x00-\x20\x7f]/.test(url)) {
    throw new Error(`authorization: the resource ${JSON.stringify(url)} must be an http(s) URL without a fragment, spaces or control characters`);
  }
  return parsed.href;
}

/**
 * Spec (authorization#communication-security; OAuth 2.1 section 1.5): the issuer is https, or http on
 * this machine; without TLS its metadata and keys could be anyone's. Compared exactly (RFC 8414 section
 * 3.3), so it is kept as given, and must hold nothing a URL parser would quietly drop.
 */
function checkIssuer(issuer: string): void {
  if (!isSecureUrl(issuer) || /[\x00-\x20\x7f]/.test(issuer)) throw new Error(`authorization: the issuer ${JSON.stringify(issuer)} must be an https URL (or http to this machine), without spaces or control characters`);
}

/** Spec (RFC 6749 section 3.3): a scope-token is visible ASCII but the double quote and backslash; it goes into challenges. */
function checkScope(scope: string): void {
  if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)) throw new Error(`authorization: the scope ${JSON.stringify(scope)} is not an RFC 6749 scope-token (visible ASCII but " and \\, no spaces)`);
}
