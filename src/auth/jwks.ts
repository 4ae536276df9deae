// The public keys an authorization server signs its tokens with: found through its metadata
// (RFC 8414, `jwks_uri`), fetched as a JWK Set (RFC 7517) with fetch-json.ts's bounds, kept, and
// fetched again when a token names a key we do not know (the issuer rotated its keys), but at most
// once per cooldown, so that tokens with made-up key ids cannot make us fetch on every request.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
// The issuer's metadata is found as the client finds it (discovery.ts); introspection.ts reads it too.
// Failures on our side (the issuer's metadata or keys unreachable, too big, malformed) are
// AuthFetchError, AuthMetadataError or JwksError, never a judgement of the token.

import { createPublicKey, type JsonWebKey, type KeyObject } from "node:crypto";
import { isObject } from "../jsonrpc/messages.js";
import { excerpt, fetchJson, type FetchJsonOptions } from "./fetch-json.js";
import { JWT_ALGORITHMS, TokenRejectedError, type JwsHeader } from "./jwt-verify.js";
import { findAuthorizationServer, metadataUrls } from "./discovery.js";
import { AuthMetadataError, isSecureUrl, type AuthorizationServerMetadata } from "./metadata.js";

export interface JwksOptions {
  /** The issuer whose keys these are; its metadata names `jwks_uri`. */
  issuer: string;
  /** The JWK Set's URL, if known: then the issuer's metadata is not fetched. https, or http to this machine. */
  jwksUri?: string;
  /** Bounds for the metadata and JWK Set requests (default: fetch-json's), and the fetch to use. */
  fetchOptions?: FetchJsonOptions;
  /** The most keys a JWK Set may hold (default 32); a bigger one is refused whole. */
  maxKeys?: number;
  /** The least time between two fetches that an unknown key id starts (default 30 s). */
  cooldownMs?: number;
  /** How long keys are trusted before they are fetched again, so a withdrawn key stops working (default 1 hour). */
  maxAgeMs?: number;
  /** The clock, in ms (default Date.now); for tests. */
  now?: () => number;
}

export const DEFAULT_MAX_KEYS = 32;
export const DEFAULT_JWKS_COOLDOWN_MS = 30_000;
export const DEFAULT_JWKS_MAX_AGE_MS = 60 * 60_000;

/** A JWK Set that is unusable as a whole. */
export class JwksError extends Error {
  constructor(readonly url: string, problem: string) {
    super(`jwks: ${excerpt(url)}: ${problem}`);
    this.name = "JwksError";
  }
}

interface PublishedKey {
  kid?: string;
  /** The JWK's `alg`, if it names one: then only that algorithm may use it. */
  alg?: string;
  key: KeyObject;
}

export class Jwks {
  readonly #options: JwksOptions;
  readonly #now: () => number;
  #keys: PublishedKey[] = [];
  /** When a fetch was last started, and when one last succeeded; -Infinity before the first. */
  #triedAt = -Infinity;
  #loadedAt = -Infinity;
  /** Why the last fetch failed, if it did: given again, while there are no keys to trust, until the cooldown lets us ask once more. */
  #lastError: Error | undefined;
  /** The fetch under way, shared by every request that waits for it. */
  #loading: Promise<void> | undefined;
  #jwksUri: string | undefined;

  constructor(options: JwksOptions) {
    // Spec (security_best_practices, SSRF): keys fetched over plain http from another machine could be anyone's.
    if (options.jwksUri !== undefined && !isSecureUrl(options.jwksUri)) throw new Error(`authorization: the jwks_uri ${JSON.stringify(options.jwksUri)} must be https (or http to this machine)`);
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#jwksUri = options.jwksUri;
  }

  /** The key to check a token with `header` against, or TokenRejectedError if the issuer publishes none. */
  async key(header: JwsHeader): Promise<KeyObject> {
    const cooldown = this.#options.cooldownMs ?? DEFAULT_JWKS_COOLDOWN_MS;
    const now = this.#now();
    // No keys to trust (none yet, or too old): fetch, failing closed while the issuer cannot be had.
    if (now - this.#loadedAt > (this.#options.maxAgeMs ?? DEFAULT_JWKS_MAX_AGE_MS)) {
      // The issuer failed us a moment ago: say so again rather than ask it on every request.
      if (this.#lastError !== undefined && now - this.#triedAt < cooldown) throw this.#lastError;
      await this.#load();
    }
    let found = this.#find(header);
    // An unknown kid may be a key the issuer just rotated in; asking again is rate-limited. If
    // that fetch fails, only this token waits for another try: the keys already had stay good.
    if (found === undefined && header.kid !== undefined && this.#now() - this.#triedAt >= cooldown) {
      await this.#load();
      found = this.#find(header);
    }
    if (found === undefined) throw new TokenRejectedError(header.kid === undefined ? "it names no key (kid), and the issuer has no single key for its algorithm" : "its key (kid) is not one the issuer publishes");
    return found.key;
  }

  #find(header: JwsHeader): PublishedKey | undefined {
    const usable = this.#keys.filter((key) => key.alg === undefined || key.alg === header.alg);
    if (header.kid !== undefined) return usable.find((key) => key.kid === header.kid);
    const candidates = usable.filter((key) => key.key.asymmetricKeyType === JWT_ALGORITHMS[header.alg]);
    return candidates.length === 1 ? candidates[0] : undefined;
  }

  #load(): Promise<void> {
    this.#loading ??= this.#fetch().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #fetch(): Promise<void> {
    this.#triedAt = this.#now();
    try {
      this.#keys = await this.#fetchKeys();
      this.#loadedAt = this.#now();
      this.#lastError = undefined;
    } catch (error) {
      this.#lastError = error as Error;
      throw error;
    }
  }

  async #fetchKeys(): Promise<PublishedKey[]> {
    this.#jwksUri ??= await discoverJwksUri(this.#options.issuer, this.#options.fetchOptions);
    const url = this.#jwksUri;
    const answer = await fetchJson("jwks", url, { method: "GET", headers: { accept: "application/json" } }, this.#options.fetchOptions);
    if (answer.status !== 200) throw new JwksError(url, `answered ${answer.status}`);
    if (!isObject(answer.json) || !Array.isArray(answer.json.keys)) throw new JwksError(url, "is not a JWK Set (an object with a \"keys\" array)");
    const maxKeys = this.#options.maxKeys ?? DEFAULT_MAX_KEYS;
    if (answer.json.keys.length > maxKeys) throw new JwksError(url, `has ${answer.json.keys.length} keys, more than the limit of ${maxKeys}`);
    return answer.json.keys.map(publishedKey).filter((key): key is PublishedKey => key !== undefined);
  }
}

/** The issuer's metadata, found as the client finds it (discovery.ts), or an AuthMetadataError. */
export async function discoverAuthorizationServer(issuer: string, fetchOptions: FetchJsonOptions = {}): Promise<AuthorizationServerMetadata> {
  const metadata = await findAuthorizationServer(issuer, fetchOptions);
  if (metadata === undefined) throw new AuthMetadataError(issuer, `publishes no authorization server metadata (at ${metadataUrls(issuer).map(excerpt).join(", ")})`);
  return metadata;
}

async function discoverJwksUri(issuer: string, fetchOptions?: FetchJsonOptions): Promise<string> {
  const metadata = await discoverAuthorizationServer(issuer, fetchOptions);
  if (metadata.jwks_uri === undefined) throw new AuthMetadataError(issuer, "names no jwks_uri in its metadata; this server cannot check the issuer's tokens");
  // Its URL is https or on this machine: readAuthorizationServerMetadata refused the document otherwise
  // (keys fetched over plain http from another machine could be anyone's).
  return metadata.jwks_uri;
}

/** One JWK as a usable verification key, or undefined for a key not for us (skipped, as RFC 7517 section 5 allows). */
function publishedKey(jwk: unknown): PublishedKey | undefined {
  if (!isObject(jwk)) return undefined;
  // Spec (RFC 7517 section 4.2, 4.3): a key marked for encryption only is not a signing key.
  if (jwk.use !== undefined && jwk.use !== "sig") return undefined;
  if (Array.isArray(jwk.key_ops) && !jwk.key_ops.includes("verify")) return undefined;
  if (jwk.kty !== "RSA" && jwk.kty !== "EC" && jwk.kty !== "OKP") return undefined;
  let key: KeyObject;
  try {
    // Only the public members: a JWK Set that (wrongly) holds a private key still yields its public half.
    const { kty, n, e, crv, x, y } = jwk as JsonWebKey;
    key = createPublicKey({ key: { kty, n, e, crv, x, y }, format: "jwk" });
  } catch {
    return undefined;
  }
  // RFC 7518 section 3.3: RSA keys of fewer than 2048 bits are too weak to trust.
  if (key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) return undefined;
  return { kid: typeof jwk.kid === "string" ? jwk.kid : undefined, alg: typeof jwk.alg === "string" ? jwk.alg : undefined, key };
}
