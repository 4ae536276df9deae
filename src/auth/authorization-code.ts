// The authorization code grant, as MCP profiles it: PKCE S256, a random `state`, the `resource`
// (RFC 8707) on both requests, the browser round trip left to the application's UserAgent, and the
// redirect checked (state, RFC 9207 `iss`, an error or a missing code) before the code is exchanged.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-flow-steps
// and #resource-parameter-implementation; RFC 9207 (2026-07-28 requires checking `iss`).
// Also the refresh token grant (OAuth 2.1 section 4.3), which needs no person.

import type { ClientRegistration, TokenSet } from "./credentials.js";
import type { FetchJsonOptions } from "./fetch-json.js";
import type { Discovery } from "./discovery.js";
import { createPkce, randomToken } from "./pkce.js";
import { clientAuthentication } from "./registration.js";
import { requestToken } from "./token-endpoint.js";
import type { UserAgent } from "./user-agent.js";

/** The authorization step failed before a token was asked for. Local; the message holds no secret. */
export class AuthorizationError extends Error {
  constructor(readonly step: string, problem: string, options?: ErrorOptions) {
    super(`${step}: ${problem}`, options);
    this.name = "AuthorizationError";
  }
}

export interface AuthorizationCodeRequest {
  discovery: Discovery;
  client: ClientRegistration;
  /** Space-separated; omitted from the request when undefined. */
  scope?: string;
  userAgent: UserAgent;
  redirectUri: string;
  fetchOptions: FetchJsonOptions;
}

/** Sends the person to the authorization server and exchanges the code the redirect brings back. */
export async function authorizationCodeGrant(request: AuthorizationCodeRequest): Promise<TokenSet> {
  const { discovery, client, scope, redirectUri } = request;
  const { metadata, issuer, resource } = discovery;
  const step = "authorization request";
  if (metadata.authorization_endpoint === undefined || metadata.token_endpoint === undefined) {
    throw new AuthorizationError(step, `${issuer} names no authorization_endpoint or token_endpoint`);
  }
  // Spec (authorization#authorization-code-protection): without S256 in the metadata the client MUST refuse to proceed.
  if (!metadata.code_challenge_methods_supported?.includes("S256")) {
    throw new AuthorizationError(step, `${issuer} does not list S256 in code_challenge_methods_supported; PKCE cannot be used, so the client does not proceed`);
  }
  const pkce = createPkce();
  const state = randomToken();
  const url = new URL(metadata.authorization_endpoint);
  const query: Record<string, string | undefined> = {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirectUri,
    state,
    code_challenge: pkce.code_challenge,
    code_challenge_method: pkce.code_challenge_method,
    // Spec (authorization#resource-parameter-implementation): `resource` in the authorization request and the token request.
    resource,
    scope,
  };
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  const code = readRedirect(await request.userAgent.authorize(url), state, discovery);
  return requestToken("token request (authorization code)", metadata.token_endpoint, {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    code_verifier: pkce.code_verifier,
    resource,
  }, clientAuthentication(client, metadata), { ...request.fetchOptions, requestedScope: scope });
}

/** The code from the redirect, once the redirect is shown to answer our request at our issuer. */
export function readRedirect(redirect: URL, state: string, discovery: Pick<Discovery, "issuer" | "metadata">): string {
  const step = "authorization redirect";
  const params = redirect.searchParams;
  // Spec (2026-07-28 authorization#authorization-response-validation, RFC 9207 section 2.4): a present `iss` MUST be
  // our issuer, by simple string comparison; absent is refused only if the metadata promised it. Checked before `error` is believed.
  const iss = params.get("iss");
  if (iss === null && discovery.metadata.authorization_response_iss_parameter_supported === true) {
    throw new AuthorizationError(step, `no "iss" parameter, though ${discovery.issuer} says it sends one (RFC 9207); not used`);
  }
  if (iss !== null && iss !== discovery.issuer) throw new AuthorizationError(step, `"iss" is ${JSON.stringify(iss)}, not ${JSON.stringify(discovery.issuer)} (a mix-up attack?); not used`);
  // Spec (OAuth 2.1 section 4.1.2.1 / 7.12): `state` MUST match, or the redirect is not ours (CSRF).
  if (params.get("state") !== state) throw new AuthorizationError(step, "the state does not match the request's; not used");
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description");
    throw new AuthorizationError(step, `the authorization server answered ${error}${description === null ? "" : `: ${description}`}`);
  }
  const code = params.get("code");
  if (code === null || code === "") throw new AuthorizationError(step, "no authorization code in the redirect");
  return code;
}

/** OAuth 2.1 section 4.3: a new access token (and perhaps a new refresh token) without the person. */
export async function refreshTokens(discovery: Discovery, client: ClientRegistration, tokens: TokenSet, fetchOptions: FetchJsonOptions): Promise<TokenSet> {
  const { metadata, resource } = discovery;
  if (metadata.token_endpoint === undefined || tokens.refresh_token === undefined) throw new AuthorizationError("token refresh", "nothing to refresh with");
  const fresh = await requestToken("token request (refresh)", metadata.token_endpoint, {
    grant_type: "refresh_token",
    refresh_token: tokens.refresh_token,
    resource,
  }, clientAuthentication(client, metadata), { ...fetchOptions, requestedScope: tokens.scope });
  // OAuth 2.1 section 4.3.3: a server that does not rotate the refresh token lets us keep the old one.
  return fresh.refresh_token === undefined ? { ...fresh, refresh_token: tokens.refresh_token } : fresh;
}
