// Checking an opaque access token by asking its issuer (RFC 7662 token introspection): the
// resource server POSTs the token with its own client credentials and reads whether it is active,
// whom it is for, until when, and with which scopes; then applies the same rules as to a JWT's
// claims. Used for tokens that are not JWTs when `authorization.introspection` is set.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
// (OAuth 2.1 section 5.2 allows either way of validating). Left out: caching answers (each MCP
// request asks again, so a revoked token stops working at once), JWT-secured answers (RFC 9701).

import { isObject } from "../jsonrpc/messages.js";
import { fetchJson, type FetchJsonOptions } from "./fetch-json.js";
import { discoverAuthorizationServer } from "./jwks.js";
import { checkClaims, DEFAULT_MAX_TOKEN_LENGTH, TokenRejectedError, type VerifiedToken } from "./jwt-verify.js";
import { AuthMetadataError } from "./metadata.js";
import { basicAuthorization, refusal } from "./token-endpoint.js";

export interface IntrospectionOptions {
  /** The resource server's own client credentials at the authorization server (client_secret_basic). */
  clientId: string;
  clientSecret: string;
  /** The introspection endpoint (default: the issuer's metadata's introspection_endpoint). */
  endpoint?: string;
  /** Bounds for each introspection request (default: fetch-json's), and the fetch to use. */
  fetchOptions?: FetchJsonOptions;
}

export interface IntrospectionContext {
  issuer: string;
  maxTokenLength?: number;
  clockSkewSeconds?: number;
  now?: () => number;
}

/** A TokenVerifier (resource-server.ts) that asks the issuer about each token. */
export function introspectionVerifier(options: IntrospectionOptions, context: IntrospectionContext): (token: string, resource: string) => Promise<VerifiedToken> {
  let endpoint: Promise<string> | undefined = options.endpoint === undefined ? undefined : Promise.resolve(options.endpoint);
  return async (token, resource) => {
    const maxTokenLength = context.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH;
    // The same bound as a JWT's: an absurd token is not sent on to the issuer either.
    if (token.length > maxTokenLength) throw new TokenRejectedError(`it is longer than ${maxTokenLength} characters`);
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
    // Spec (RFC 7662 section 2.2): an inactive token says nothing more, and is refused.
    if (!answer.json.active) throw new TokenRejectedError("it is not active (expired, revoked, or unknown to the issuer)");
    // The answer's iss may be left out (RFC 7662 makes it optional): then the issuer asked is the one vouching.
    return checkClaims({ ...answer.json, iss: answer.json.iss ?? context.issuer }, {
      issuer: context.issuer,
      // Spec (authorization#token-handling): the audience must name us; an answer without aud is refused.
      audience: resource,
      clockSkewSeconds: context.clockSkewSeconds,
      now: context.now,
      requireExpiry: false,
    });
  };
}

async function introspectionEndpoint(issuer: string, fetchOptions?: FetchJsonOptions): Promise<string> {
  const metadata = await discoverAuthorizationServer(issuer, fetchOptions);
  if (metadata.introspection_endpoint === undefined) throw new AuthMetadataError(issuer, "names no introspection_endpoint in its metadata; opaque tokens cannot be checked");
  return metadata.introspection_endpoint;
}
