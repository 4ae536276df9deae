// The client credentials grant: a client acting for itself, with no person, gets a token for the
// MCP server by proving who it is at the token endpoint, with a signed JWT (RFC 7523, the
// extension's recommended way) or a client secret. Also how any grant here authenticates the client.
// Spec: https://modelcontextprotocol.io/extensions/auth/oauth-client-credentials (extension),
// OAuth 2.1 section 4.2, RFC 7523 sections 2.2 and 3, RFC 8707 (resource).
// Left out on purpose: registering the client (the extension says credentials are pre-registered).

import { randomUUID } from "node:crypto";
import type { JsonWebKey, KeyObject } from "node:crypto";
import type { GrantContext, TokenGrant } from "./grant.js";
import type { AuthorizationServerMetadata } from "./metadata.js";
import { signingKey, signJwt, type SigningKey } from "./jwt-sign.js";
import { requestToken, type ClientAuthentication } from "./token-endpoint.js";

/**
 * A pre-registered client: the issuer it is registered at, its id, and either a secret or a private
 * key whose public half the server knows. The grant refuses to present it to any other issuer.
 */
export type ClientCredentials =
  | {
    issuer: string;
    client_id: string;
    client_secret: string;
    /** Default: client_secret_basic, unless the server's metadata lists only client_secret_post. */
    method?: "client_secret_basic" | "client_secret_post";
  }
  | {
    issuer: string;
    client_id: string;
    /** PEM, a private JWK, or a KeyObject: RSA (RS256), EC P-256 (ES256) or Ed25519 (EdDSA). */
    private_key: string | JsonWebKey | KeyObject;
    /** The JWS algorithm; default: the one the key implies. */
    algorithm?: string;
    kid?: string;
    /** How long each assertion is valid, in seconds (default 60). */
    assertion_lifetime_s?: number;
  };

/** The grant could not be made as configured, before anything was sent. */
export class GrantError extends Error {
  constructor(readonly step: string, problem: string) {
    super(`${step}: ${problem}`);
    this.name = "GrantError";
  }
}

export const DEFAULT_ASSERTION_LIFETIME_S = 60;

/**
 * The client credentials grant for `credentials`. A private key is read here, once, so a bad
 * key is a JwtSignError when the grant is configured, not at the first 401.
 */
export function clientCredentialsGrant(credentials: ClientCredentials, options: { now?: () => number } = {}): TokenGrant {
  const authenticate = clientAuthenticator(credentials, options);
  return async (context: GrantContext) => {
    const step = "client credentials grant";
    return requestToken(step, tokenEndpoint(step, context.metadata), {
      grant_type: "client_credentials",
      // Spec (basic/authorization#resource-parameter-implementation): the resource is named in every token request.
      resource: context.resource,
      scope: context.scope,
    }, authenticate(step, context), { ...context.fetchOptions, requestedScope: context.scope, now: options.now });
  };
}

/**
 * How `credentials` authenticate at the authorization server `context` describes: the secret in
 * the way its metadata accepts, or a fresh private_key_jwt assertion per request; only at the
 * issuer they are registered at.
 */
export function clientAuthenticator(credentials: ClientCredentials, options: { now?: () => number } = {}): (step: string, context: GrantContext) => ClientAuthentication {
  const authenticate = authenticatorFor(credentials, options);
  return (step, context) => {
    // Credentials belong to one authorization server (RFC 6749 section 2), and the MCP server names
    // the issuer: one registered elsewhere is not presented, whichever server asks.
    if (context.issuer !== credentials.issuer) {
      throw new GrantError(step, `the client ${JSON.stringify(credentials.client_id)} is registered at ${credentials.issuer}, not at ${context.issuer} (the authorization server this MCP server names); its credentials are not sent there`);
    }
    return authenticate(step, context);
  };
}

function authenticatorFor(credentials: ClientCredentials, options: { now?: () => number }): (step: string, context: GrantContext) => ClientAuthentication {
  if ("client_secret" in credentials) {
    const { client_id, client_secret, method } = credentials;
    return (step, context) => ({ method: method ?? secretMethod(step, context.metadata), client_id, client_secret });
  }
  const signer = signingKey(credentials.private_key, { alg: credentials.algorithm, kid: credentials.kid });
  const lifetime = credentials.assertion_lifetime_s ?? DEFAULT_ASSERTION_LIFETIME_S;
  if (!Number.isInteger(lifetime) || lifetime <= 0) throw new GrantError("client assertion", `assertion_lifetime_s must be a positive whole number of seconds, not ${lifetime}`);
  return (step, context) => {
    accepts(step, context.metadata, "private_key_jwt");
    const algorithms = context.metadata.token_endpoint_auth_signing_alg_values_supported;
    if (algorithms !== undefined && !algorithms.includes(signer.alg)) {
      throw new GrantError(step, `the authorization server accepts assertions signed with ${algorithms.join(", ")}, not ${signer.alg}`);
    }
    return { method: "private_key_jwt", client_id: credentials.client_id, assertion: () => clientAssertion(credentials.client_id, context.issuer, signer, lifetime, options.now) };
  };
}

/**
 * RFC 7523 section 3: iss and sub are the client, aud is the authorization server, exp is soon,
 * jti never repeats (the server may keep the ones it saw until they expire, to refuse replays).
 */
export function clientAssertion(clientId: string, issuer: string, signer: SigningKey, lifetimeS: number, now: () => number = Date.now): string {
  const iat = Math.floor(now() / 1000);
  // Spec (draft-ietf-oauth-rfc7523bis): the audience is the authorization server's issuer identifier alone, not its token endpoint.
  return signJwt({ iss: clientId, sub: clientId, aud: issuer, iat, exp: iat + lifetimeS, jti: randomUUID() }, signer, { typ: "JWT" });
}

/** The token endpoint the metadata names; the grants need nothing else from discovery. */
export function tokenEndpoint(step: string, metadata: AuthorizationServerMetadata): string {
  if (metadata.token_endpoint === undefined) throw new GrantError(step, `the authorization server ${metadata.issuer} names no token_endpoint`);
  return metadata.token_endpoint;
}

function secretMethod(step: string, metadata: AuthorizationServerMetadata): "client_secret_basic" | "client_secret_post" {
  const supported = metadata.token_endpoint_auth_methods_supported;
  // RFC 8414 section 2: an absent list means client_secret_basic.
  if (supported === undefined || supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  throw new GrantError(step, `the authorization server accepts ${supported.join(", ")}; a client secret cannot be sent in any of them`);
}

function accepts(step: string, metadata: AuthorizationServerMetadata, method: string): void {
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (supported !== undefined && !supported.includes(method)) throw new GrantError(step, `the authorization server accepts ${supported.join(", ")}, not ${method}`);
}
