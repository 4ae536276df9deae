// Checking an opaque access token by asking its issuer (RFC 7662 token introspection): the
// resource server POSTs the token with its own client credentials and reads whether it is active,
// whom it is for, until when, and with which scopes; then applies the same rules as to a JWT's
// claims. Used for tokens that are not JWTs when `authorization.introspection` is set.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
// (OAuth 2.1 section 5.2 allows either way of validating). Anyone can send made-up tokens, and
// each would be a POST carrying our secret: so the POSTs under way are bounded (past the bound,
// IntrospectionBusyError: 503), and a token the issuer called inactive is refused unasked for a
// while (keyed by its sha256, never the token itself). Active answers are not cached: a revoked
// token stops working at once. Left out: JWT-secured answers (RFC 9701).

import { createHash } from "node:crypto";
import { isObject } from "../jsonrpc/messages.js";
import { fetchJson, type FetchJsonOptions } from "./fetch-json.js";
import { discoverAuthorizationServer } from "./jwks.js";
import { checkClaims, DEFAULT_MAX_TOKEN_LENGTH, TokenRejectedError, type VerifiedToken } from "./jwt-verify.js";
import { AuthMetadataError, isSecureUrl } from "./metadata.js";
import { basicAuthorization, refusal } from "./token-endpoint.js";

export interface IntrospectionOptions {
  /** The resource server's own client credentials at the authorization server (client_secret_basic). */
  clientId: string;
  clientSecret: string;
  /** The introspection endpoint (default: the issuer's metadata's introspection_endpoint); https, or http to this machine. */
  endpoint?: string;
  /** Bounds for each introspection request (default: fetch-json's), and the fetch to use. */
  fetchOptions?: FetchJsonOptions;
  /** The most introspection requests under way at once (default 8); past it a request gets 503 with Retry-After. */
  maxConcurrent?: number;
  /** How long a token the issuer called inactive is refused without asking again, in ms (default 30 s; 0: never cached). */
  negativeCacheMs?: number;
  /** The most inactive tokens remembered (default 1000); past it the oldest is forgotten. */
  negativeCacheEntries?: number;
}

export const DEFAULT_INTROSPECTION_CONCURRENCY = 8;
export const DEFAULT_NEGATIVE_CACHE_MS = 30_000;
export const DEFAULT_NEGATIVE_CACHE_ENTRIES = 1000;

export interface IntrospectionContext {
  issuer: string;
  maxTokenLength?: number;
  clockSkewSeconds?: number;
  now?: () => number;
}

/** Every introspection request allowed at once is under way: our side is busy, not the token bad (503). */
export class IntrospectionBusyError extends Error {
  constructor(readonly limit: number) {
    super(`token introspection: ${limit} requests are already under way, the limit; try again shortly`);
    this.name = "IntrospectionBusyError";
  }
}

const INACTIVE = "it is not active (expired, revoked, or unknown to the issuer)";

/** A TokenVerifier (resource-server.ts) that asks the issuer about each token. */
export function introspectionVerifier(options: IntrospectionOptions, context: IntrospectionContext): (token: string, resource: string) => Promise<VerifiedToken> {
  // Spec (security_best_practices, SSRF; OAuth 2.1 section 1.5): our secret goes only over TLS, or to this machine.
  if (options.endpoint !== undefined && !isSecureUrl(options.endpoint)) throw new Error(`authorization: the introspection endpoint ${JSON.stringify(options.endpoint)} must be https (or http to this machine)`);
  let endpoint: Promise<string> | undefined = options.endpoint === undefined ? undefined : Promise.resolve(options.endpoint);
  const maxConcurrent = options.maxConcurrent ?? DEFAULT_INTROSPECTION_CONCURRENCY;
  const inactive = new InactiveTokens(options.negativeCacheMs ?? DEFAULT_NEGATIVE_CACHE_MS, options.negativeCacheEntries ?? DEFAULT_NEGATIVE_CACHE_ENTRIES, context.now ?? Date.now);
  let underWay = 0;
  return async (token, resource) => {
    const maxTokenLength = context.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH;
    // The same bound as a JWT's: an absurd token is not sent on to the issuer either.
    if (token.length > maxTokenLength) throw new TokenRejectedError(`it is longer than ${maxTokenLength} characters`);
    if (inactive.has(token)) throw new TokenRejectedError(INACTIVE);
    if (underWay >= maxConcurrent) throw new IntrospectionBusyError(maxConcurrent);
    underWay++;
    let json: { [field: string]: unknown };
    try {
      json = await introspect(token);
    } finally {
      underWay--;
    }
    // Spec (RFC 7662 section 2.2): an inactive token says nothing more, and is refused.
    if (!json.active) {
      inactive.add(token);
      throw new TokenRejectedError(INACTIVE);
    }
    // The answer's iss may be left out (RFC 7662 makes it optional): then the issuer asked is the one vouching.
    return checkClaims({ ...json, iss: json.iss ?? context.issuer }, {
      issuer: context.issuer,
      // Spec (authorization#token-handling): the audience must name us; an answer without aud is refused.
      audience: resource,
      clockSkewSeconds: context.clockSkewSeconds,
      now: context.now,
      introspected: true,
    });
  };

  async function introspect(token: string): Promise<{ [field: string]: unknown }> {
    // A failed discovery is not kept: the next request tries again.
    endpoint ??= introspectionEndpoint(context.issuer, options.fetchOptions).catch((error: unknown) => {
      endpoint = undefined;
      throw error;
    });
    const url = await endpoint;
    const answer = await fetchJson("token introspection", url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", authorization: basicAuthorization(options.clientId, options.clientSecret) },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
    }, options.fetchOptions);
    if (answer.status !== 200) throw refusal("token introspection", answer.status, answer.json, answer.url);
    if (!isObject(answer.json) || typeof answer.json.active !== "boolean") throw new AuthMetadataError(answer.url, 'the introspection answer has no boolean "active"');
    return answer.json;
  }
}

/** Tokens the issuer called inactive, by their sha256, each until its time is up; the oldest forgotten first. */
class InactiveTokens {
  /** Insertion order is age order: the first entry is the oldest. */
  readonly #until = new Map<string, number>();

  constructor(readonly ttlMs: number, readonly maxEntries: number, readonly now: () => number) {}

  has(token: string): boolean {
    const key = digest(token);
    const until = this.#until.get(key);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    this.#until.delete(key);
    return false;
  }

  add(token: string): void {
    if (this.ttlMs <= 0 || this.maxEntries <= 0) return;
    const key = digest(token);
    this.#until.delete(key);
    while (this.#until.size >= this.maxEntries) this.#until.delete(this.#until.keys().next().value!);
    this.#until.set(key, this.now() + this.ttlMs);
  }
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

async function introspectionEndpoint(issuer: string, fetchOptions?: FetchJsonOptions): Promise<string> {
  const metadata = await discoverAuthorizationServer(issuer, fetchOptions);
  if (metadata.introspection_endpoint === undefined) throw new AuthMetadataError(issuer, "names no introspection_endpoint in its metadata; opaque tokens cannot be checked");
  // Its URL is https or on this machine: readAuthorizationServerMetadata refused the document otherwise.
  return metadata.introspection_endpoint;
}
