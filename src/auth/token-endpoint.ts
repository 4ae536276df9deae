// The token endpoint, where every grant ends: an authorization code, a refresh token, client
// credentials or an assertion become an access token. One form POST, the client authenticating
// the way it registered, and the answer read into a TokenSet or an OAuthError.
// Spec: RFC 6749 sections 2.3.1 (client_secret_basic, client_secret_post), 5.1 (the answer) and
// 5.2 (errors); RFC 7523 (private_key_jwt); OAuth 2.1 section 3.2.
// https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling

import type { TokenSet } from "./credentials.js";
import { AuthFetchError, excerpt, fetchJson, type FetchJsonOptions, type JsonAnswer } from "./fetch-json.js";
import { isObject } from "../jsonrpc/messages.js";

/** How the client proves who it is at the token endpoint. */
export type ClientAuthentication =
  | { method: "none"; client_id: string }
  | { method: "client_secret_basic" | "client_secret_post"; client_id: string; client_secret: string }
  /** RFC 7523 section 2.2: a signed JWT, made fresh for each request (its `jti` must not repeat). */
  | { method: "private_key_jwt"; client_id: string; assertion: () => Promise<string> | string };

/**
 * The authorization server refused (RFC 6749 section 5.2): `error` is its code, e.g. invalid_grant.
 * Both are kept whole on the error; the message shows them in part, as every server string is shown.
 */
export class OAuthError extends Error {
  constructor(readonly step: string, readonly status: number, readonly error: string, readonly description: string | undefined) {
    super(`${step}: the authorization server answered ${status} ${excerpt(error)}${description === undefined ? "" : `: ${excerpt(description)}`}`);
    this.name = "OAuthError";
  }
}

/**
 * POSTs `form` (the grant's own fields, e.g. grant_type and code) to `endpoint` with the client's
 * authentication, and reads the answer. `requestedScope` is what the TokenSet says when the answer
 * names no scope (RFC 6749 section 5.1: then the granted scope is the one requested).
 */
export async function requestToken(
  step: string,
  endpoint: string,
  form: Record<string, string | undefined>,
  client: ClientAuthentication,
  options: FetchJsonOptions & { requestedScope?: string; now?: () => number } = {},
): Promise<TokenSet> {
  const answer = await postTokenRequest(step, endpoint, form, client, options);
  return readTokenAnswer(step, answer.json, answer.url, options.requestedScope, (options.now ?? Date.now)());
}

/**
 * The request half of requestToken: the form POST with the client's authentication, a 200 answer
 * returned as it came and any other status thrown as a refusal. A grant whose answer is not an
 * access token (RFC 8693 token exchange: token_type "N_A") reads the answer itself.
 */
export async function postTokenRequest(
  step: string,
  endpoint: string,
  form: Record<string, string | undefined>,
  client: ClientAuthentication,
  options: FetchJsonOptions = {},
): Promise<JsonAnswer> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) if (value !== undefined) body.set(name, value);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  switch (client.method) {
    case "client_secret_basic":
      headers.authorization = basicAuthorization(client.client_id, client.client_secret);
      break;
    case "client_secret_post":
      body.set("client_id", client.client_id);
      body.set("client_secret", client.client_secret);
      break;
    case "private_key_jwt":
      body.set("client_id", client.client_id);
      body.set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
      body.set("client_assertion", await client.assertion());
      break;
    case "none":
      body.set("client_id", client.client_id);
      break;
  }
  const answer = await fetchJson(step, endpoint, { method: "POST", headers, body: body.toString() }, options);
  if (answer.status !== 200) throw refusal(step, answer.status, answer.json, answer.url);
  return answer;
}

/** RFC 6750 section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=". */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The largest count of seconds (a lifetime, or a time since the epoch) taken from an authorization
 * server: about 317 years. A larger one, Infinity (1e400 in JSON) or a negative one is refused.
 */
export const MAX_SECONDS = 10_000_000_000;

/** A finite number of seconds from 0 to MAX_SECONDS. */
export function isSeconds(value: unknown): value is number {
  return typeof value === "number" && value >= 0 && value <= MAX_SECONDS;
}

/** RFC 6749 section 5.1: access_token and token_type are required; the rest is optional. */
export function readTokenAnswer(step: string, json: unknown, url: string, requestedScope: string | undefined, now: number): TokenSet {
  if (!isObject(json)) throw new AuthFetchError(step, url, "the token answer is not a JSON object");
  const { access_token, token_type, expires_in, refresh_token, scope } = json;
  if (typeof access_token !== "string" || access_token === "") throw new AuthFetchError(step, url, 'the token answer has no "access_token"');
  // Spec (RFC 6750 section 2.1): a bearer token is a b64token; anything else could not be sent in a header as is (CR, LF). Not quoted: it is a secret.
  if (!B64TOKEN.test(access_token)) throw new AuthFetchError(step, url, '"access_token" is not a bearer token (RFC 6750 b64token characters only)');
  if (typeof token_type !== "string") throw new AuthFetchError(step, url, 'the token answer has no "token_type"');
  // Spec (basic/authorization, token handling): MCP presents tokens as Bearer; the type is case-insensitive (RFC 6749 section 5.1).
  if (token_type.toLowerCase() !== "bearer") throw new AuthFetchError(step, url, `the token type is ${JSON.stringify(token_type)}, not Bearer`);
  // JSON.parse reads 1e400 as Infinity: refused, as an answer we cannot keep (the credentials file would hold null).
  if (expires_in !== undefined && !isSeconds(expires_in)) throw new AuthFetchError(step, url, `"expires_in" must be a number of seconds from 0 to ${MAX_SECONDS}`);
  if (refresh_token !== undefined && (typeof refresh_token !== "string" || !B64TOKEN.test(refresh_token))) {
    throw new AuthFetchError(step, url, '"refresh_token" must be a string of RFC 6750 b64token characters');
  }
  if (scope !== undefined && typeof scope !== "string") throw new AuthFetchError(step, url, '"scope" must be a string');
  const tokens: TokenSet = { access_token, token_type: "Bearer" };
  if (typeof expires_in === "number") tokens.expires_at = now + expires_in * 1000;
  if (typeof refresh_token === "string") tokens.refresh_token = refresh_token;
  const granted = typeof scope === "string" ? scope : requestedScope;
  if (granted !== undefined) tokens.scope = granted;
  return tokens;
}

/** An error answer as an OAuthError when it says which error (RFC 6749 section 5.2), else a plain failure. */
export function refusal(step: string, status: number, json: unknown, url: string): Error {
  if (isObject(json) && typeof json.error === "string") {
    return new OAuthError(step, status, json.error, typeof json.error_description === "string" ? json.error_description : undefined);
  }
  return new AuthFetchError(step, url, `answered HTTP ${status} without an OAuth error`);
}

/** The Authorization header of client_secret_basic (also how a resource server authenticates for introspection, RFC 7662 section 2.1). */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  // Spec (RFC 6749 section 2.3.1): id and secret are form-encoded before they are joined and base64-encoded.
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString("base64")}`;
}

/** application/x-www-form-urlencoded for one value (spaces as "+"), as RFC 6749 appendix B asks. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
