// The checks every HTTP request passes before MCP sees it (the Gate): Host and Origin against DNS
// rebinding, then an optional static bearer token or an OAuth access token (auth/resource-server.ts),
// and whom an admitted request's token speaks for, so that sessions answer only that user.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
// and basic/security_best_practices. Session ids are never treated as authentication.

import { createHash, timingSafeEqual } from "node:crypto";
import { ResourceServer, type AuthorizationOptions } from "../auth/resource-server.js";
import { errorAnswer, HttpAnswer, type HttpRequest } from "./exchange.js";

export interface SecurityOptions {
  /**
   * Host header values accepted (host or host:port, lowercase). Default: the loopback names on
   * any port, which is what a server bound to 127.0.0.1 should see.
   */
  allowedHosts?: string[];
  /** Origin header values accepted (e.g. "http://localhost:3000"). Default: loopback origins. */
  allowedOrigins?: string[];
  /** If set, every request must carry `Authorization: Bearer <token>` (a static token, for local use). */
  bearerToken?: string;
  /**
   * If set, the server is an OAuth resource server: every MCP request needs an access token from
   * `authorization.issuer` for this server (auth/resource-server.ts). Not together with bearerToken.
   */
  authorization?: AuthorizationOptions;
}

/** Every check before a request reaches MCP, for every endpoint of one server. */
export class Gate {
  /** Set when the server is an OAuth resource server (options.authorization). */
  readonly resourceServer: ResourceServer | undefined;
  readonly #options: SecurityOptions;
  /** Whom each admitted request's access token speaks for; weak, so it goes with the request. */
  readonly #owners = new WeakMap<HttpRequest, string>();

  constructor(options: SecurityOptions, onProblem?: (message: string) => void) {
    if (options.bearerToken !== undefined) checkTokenStrength(options.bearerToken);
    if (options.bearerToken !== undefined && options.authorization !== undefined) throw new Error("http: bearerToken and authorization exclude each other; choose one");
    this.#options = options;
    this.resourceServer = options.authorization && new ResourceServer(options.authorization, onProblem);
  }

  /**
   * Host, Origin, then the token: the refusal, if any. Spec (security_best_practices#session-hijacking):
   * every request is checked, whatever session it names. Only an OAuth token is judged
   * asynchronously (a promise then); without one every request is judged at once, with no promise of its own.
   */
  admit(request: HttpRequest): HttpAnswer | undefined | Promise<HttpAnswer | undefined> {
    // Spec (transports#security-warning): validate Origin (403); the suite checks Host too.
    if (!hostAllowed(request.header("host"), this.#options.allowedHosts)) return errorAnswer(403, "forbidden: Host not allowed");
    if (!originAllowed(request.header("origin"), this.#options.allowedOrigins)) return errorAnswer(403, "forbidden: Origin not allowed");
    const token = this.#options.bearerToken;
    if (token !== undefined && !bearerMatches(request.header("authorization"), token)) {
      return errorAnswer(401, "unauthorized: a valid bearer token is required", { "www-authenticate": 'Bearer realm="mcp"' });
    }
    if (this.resourceServer === undefined) return undefined;
    return this.#authorize(this.resourceServer, request);
  }

  async #authorize(resourceServer: ResourceServer, request: HttpRequest): Promise<HttpAnswer | undefined> {
    const granted = await resourceServer.authorize(request);
    if (granted instanceof HttpAnswer) return granted;
    this.#owners.set(request, granted.owner);
    return undefined;
  }

  /** Whom an admitted request's access token speaks for (undefined without OAuth): a session is bound to it. */
  owner(request: HttpRequest): string | undefined {
    return this.resourceServer === undefined ? undefined : this.#owners.get(request);
  }
}

/** The Host names of this machine, accepted on any port by default. */
export const LOOPBACK_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];
const LOOPBACK_HOSTS = new Set(LOOPBACK_NAMES);

/** Spec (transports#security-warning): a local server SHOULD check Host against DNS rebinding (the suite expects 403). */
export function hostAllowed(host: string | null, allowed: string[] | undefined): boolean {
  if (!host) return false;
  const value = host.toLowerCase();
  if (allowed) return allowed.includes(value) || allowed.includes(stripPort(value));
  return LOOPBACK_HOSTS.has(stripPort(value));
}

/** Spec (transports#security-warning): servers MUST validate Origin; an invalid one gets 403. No Origin (not a browser) passes. */
export function originAllowed(origin: string | null, allowed: string[] | undefined): boolean {
  if (origin === null) return true;
  if (allowed) return allowed.includes(origin);
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname.toLowerCase()) || LOOPBACK_HOSTS.has(`[${new URL(origin).hostname}]`);
  } catch {
    return false;
  }
}

function stripPort(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.lastIndexOf(":");
  return colon >= 0 ? host.slice(0, colon) : host;
}

/** Tokens from examples and docs that a real deployment must never use. */
const SAMPLE_TOKENS = new Set(["changeme", "change-me-please", "secret", "password", "your-token-here", "test-token", "0123456789abcdef", "abcdefghijklmnop"]);

/** Refuses weak tokens at start-up, before anyone can rely on them. */
export function checkTokenStrength(token: string): void {
  if (token.length < 16) throw new Error("http: the bearer token must be at least 16 characters long");
  // A space or control character could never arrive intact in an Authorization header.
  if (!/^[\x21-\x7e]+$/.test(token)) throw new Error("http: the bearer token must be visible ASCII characters, without spaces");
  if (SAMPLE_TOKENS.has(token.toLowerCase()) || /^(.)\1+$/.test(token)) {
    throw new Error("http: the bearer token is a well-known sample value; generate a random one (e.g. openssl rand -hex 32)");
  }
}

/**
 * Compares the presented Authorization header with the expected token in constant time (both
 * are hashed first, so neither the length nor the content leaks through timing).
 */
export function bearerMatches(header: string | null, token: string): boolean {
  const presented = header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim() ?? "";
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(token).digest();
  return timingSafeEqual(a, b) && presented.length > 0;
}
