// Verifying a JWT access token (a compact JWS) as a resource server must: the signature with one
// of the issuer's public keys, then the claims that say the token is for us, now. node:crypto does
// the signatures (RS256, ES256, EdDSA); nothing else is accepted, so neither `alg: none` nor an
// HMAC "signed" with a public key as the secret can pass.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
// (OAuth 2.1 section 5.2; RFC 8707 audience; RFC 7515 JWS; RFC 7519 claims; RFC 9068 JWT access tokens).
// Every failure is a TokenRejectedError whose reason never contains the token or a claim's value.
// Left out: encrypted tokens (JWE), x5c certificate chains, the JWS JSON serializations.

import { verify, type KeyObject } from "node:crypto";
import { isObject } from "../jsonrpc/messages.js";
import { sameResource } from "./metadata.js";

/** The signature algorithms accepted, and the kind of key each needs. */
export const JWT_ALGORITHMS = { RS256: "rsa", ES256: "ec", EdDSA: "ed25519" } as const;
export type JwtAlgorithm = keyof typeof JWT_ALGORITHMS;

/** The largest token looked at, in characters (default); a bigger one is refused unread. */
export const DEFAULT_MAX_TOKEN_LENGTH = 8 * 1024;
/** How far the issuer's clock and ours may disagree, in seconds (default). */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;

/** A token refused: `reason` is safe to send back as an error_description (no token, no claim values). */
export class TokenRejectedError extends Error {
  constructor(readonly reason: string) {
    super(`access token refused: ${reason}`);
    this.name = "TokenRejectedError";
  }
}

/** The parts of a verified token a server uses. */
export interface VerifiedToken {
  /** The scopes granted (RFC 9068 `scope`, or an `scp` array). */
  scopes: string[];
  /** `sub`: whom the token speaks for, if it says. */
  subject?: string;
  /** `client_id`: the client it was issued to, if it says. */
  clientId?: string;
  /** `exp`, in seconds since the epoch. */
  expiresAt?: number;
  /** Every claim, as the issuer wrote them. */
  claims: { [claim: string]: unknown };
}

/** What a token must say, and the bounds on looking at it. */
export interface JwtExpectations {
  /** `iss` must be exactly this. */
  issuer: string;
  /** `aud` (a string or an array) must name this resource (RFC 8707). */
  audience: string;
  /** Default DEFAULT_MAX_TOKEN_LENGTH. */
  maxTokenLength?: number;
  /** Default DEFAULT_CLOCK_SKEW_SECONDS. */
  clockSkewSeconds?: number;
  /** The claims are an introspection answer's (RFC 7662), where `exp` and `sub` are optional; a JWT's must have both (RFC 9068). */
  introspected?: boolean;
  /** The time, in ms since the epoch (default Date.now); for tests. */
  now?: () => number;
}

/** The header of a JWS, as far as picking a key goes. */
export interface JwsHeader {
  alg: JwtAlgorithm;
  kid?: string;
}

/** A token split and decoded, its signature not yet checked. */
export interface DecodedJws {
  header: JwsHeader;
  payload: { [claim: string]: unknown };
  signingInput: Buffer;
  signature: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Splits a compact JWS and reads its header and payload; nothing is trusted yet. */
export function decodeJws(token: string, maxTokenLength = DEFAULT_MAX_TOKEN_LENGTH): DecodedJws {
  if (token.length > maxTokenLength) throw new TokenRejectedError(`it is longer than ${maxTokenLength} characters`);
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) throw new TokenRejectedError("it is not a compact JWS (three base64url parts)");
  const header = jsonPart(parts[0]!, "header");
  const payload = jsonPart(parts[1]!, "payload");
  const alg = header.alg;
  // Spec (RFC 8725 section 3.1): only the algorithms we expect; "none" and HS* never.
  if (typeof alg !== "string" || !Object.hasOwn(JWT_ALGORITHMS, alg)) throw new TokenRejectedError(`its algorithm ${safeName(alg)} is not accepted (RS256, ES256, EdDSA)`);
  // Spec (RFC 7515 section 4.1.11): a `crit` extension we do not understand makes the token invalid.
  if (header.crit !== undefined) throw new TokenRejectedError("its header names critical extensions we do not support");
  if (header.kid !== undefined && typeof header.kid !== "string") throw new TokenRejectedError("its kid is not a string");
  // RFC 9068 says "at+jwt"; many issuers write "JWT" or nothing. Another type is another kind of token (an ID token's, say).
  // A typ that is not a string (an object, say) is no type at all: refused, never stringified.
  if (header.typ !== undefined && typeof header.typ !== "string") throw new TokenRejectedError("its type (typ) is not a string");
  if (header.typ !== undefined && !["at+jwt", "application/at+jwt", "jwt"].includes(header.typ.toLowerCase())) {
    throw new TokenRejectedError(`its type ${safeName(header.typ)} is not an access token's`);
  }
  const signature = Buffer.from(parts[2]!, "base64url");
  return { header: { alg: alg as JwtAlgorithm, kid: header.kid as string | undefined }, payload, signingInput: Buffer.from(`${parts[0]}.${parts[1]}`), signature };
}

/** Checks the signature with `key` (already chosen for the header's kid and alg). */
export function checkSignature(jws: DecodedJws, key: KeyObject): void {
  const { alg } = jws.header;
  // Spec (RFC 8725 section 3.1): the key's type must be the algorithm's, or a key could be used
  // with an algorithm it was never meant for.
  if (keyKind(key) !== JWT_ALGORITHMS[alg]) throw new TokenRejectedError(`its algorithm ${alg} does not match the type of its key`);
  let valid: boolean;
  try {
    if (alg === "EdDSA") valid = verify(null, jws.signingInput, key, jws.signature);
    // JWS carries ES256 signatures as r || s (64 bytes), not DER.
    else if (alg === "ES256") valid = jws.signature.length === 64 && verify("sha256", jws.signingInput, { key, dsaEncoding: "ieee-p1363" }, jws.signature);
    else valid = verify("sha256", jws.signingInput, key, jws.signature);
  } catch {
    valid = false;
  }
  if (!valid) throw new TokenRejectedError("its signature is not valid");
}

/** Checks the claims of a token whose signature passed; what the server needs of them. */
export function checkClaims(payload: { [claim: string]: unknown }, expected: JwtExpectations): VerifiedToken {
  const now = (expected.now ?? Date.now)() / 1000;
  const skew = expected.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  // Spec (OAuth 2.1 section 5.2, RFC 9068 section 4): the issuer must be the one we trust.
  if (payload.iss !== expected.issuer) throw new TokenRejectedError("it was not issued by this server's authorization server");
  // Spec (authorization#token-handling, RFC 8707): the token must be issued for this server.
  const audiences = typeof payload.aud === "string" ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (!audiences.some((aud) => typeof aud === "string" && sameResource(aud, expected.audience))) {
    throw new TokenRejectedError("its audience is not this server");
  }
  // Spec (RFC 9068 section 2.2): exp is required; an access token without an end is refused.
  if (payload.exp === undefined ? expected.introspected !== true : typeof payload.exp !== "number") throw new TokenRejectedError("it has no expiry (exp)");
  // Spec (RFC 9068 section 2.2): sub is required (a client's own id for client credentials); without
  // it the token would speak for no one, and sessions could not be bound to whom it speaks for.
  if (payload.sub === undefined ? expected.introspected !== true : typeof payload.sub !== "string") throw new TokenRejectedError("it has no subject (sub)");
  if (typeof payload.exp === "number" && now > payload.exp + skew) throw new TokenRejectedError("it has expired");
  if (payload.nbf !== undefined && (typeof payload.nbf !== "number" || now < payload.nbf - skew)) throw new TokenRejectedError("it is not valid yet (nbf)");
  return {
    scopes: scopesOf(payload),
    subject: typeof payload.sub === "string" ? payload.sub : undefined,
    clientId: typeof payload.client_id === "string" ? payload.client_id : undefined,
    expiresAt: typeof payload.exp === "number" ? payload.exp : undefined,
    claims: payload,
  };
}

/** The scopes a token grants: RFC 9068's space-separated `scope`, or the `scp` array some issuers write. */
export function scopesOf(claims: { [claim: string]: unknown }): string[] {
  if (typeof claims.scope === "string") return claims.scope.split(" ").filter((scope) => scope !== "");
  if (Array.isArray(claims.scp)) return claims.scp.filter((scope): scope is string => typeof scope === "string");
  return [];
}

/** The kind of a public key, in JWT_ALGORITHMS's terms. */
function keyKind(key: KeyObject): string | undefined {
  const type = key.asymmetricKeyType;
  if (type === "ec") return key.asymmetricKeyDetails?.namedCurve === "prime256v1" ? "ec" : undefined;
  return type === "rsa" || type === "ed25519" ? type : undefined;
}

function jsonPart(part: string, name: string): { [key: string]: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    throw new TokenRejectedError(`its ${name} is not JSON`);
  }
  if (!isObject(value)) throw new TokenRejectedError(`its ${name} is not a JSON object`);
  return value;
}

/** A short, quote-free rendering of a header value for a reason (it goes into a quoted header parameter). */
function safeName(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "nothing";
  return text.replace(/[^\w+.-]/g, "?").slice(0, 20);
}
