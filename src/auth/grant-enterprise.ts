// Enterprise-managed authorization: the person signed in to the application through the
// enterprise's identity provider (IdP); the application trades that ID token at the IdP for an
// ID-JAG (Identity Assertion JWT Authorization Grant, RFC 8693 token exchange), then trades the
// ID-JAG at the MCP server's authorization server for an access token (RFC 7523 jwt-bearer grant).
// No browser: the IdP's policy decides. Spec:
// https://modelcontextprotocol.io/extensions/auth/enterprise-managed-authorization (extension),
// draft-ietf-oauth-identity-assertion-authz-grant, RFC 8693 section 2, RFC 7523 section 2.1.
// Left out on purpose: the single sign-on that produced the ID token (the application's own), the
// IdP's metadata (the application knows its token endpoint), and a private key at the IdP.

import type { GrantContext, TokenGrant } from "./grant.js";
import { AuthFetchError, quoted, type FetchJsonOptions } from "./fetch-json.js";
import { isObject } from "../jsonrpc/messages.js";
import { clientAuthenticator, GrantError, tokenEndpoint, type ClientCredentials } from "./grant-client-credentials.js";
import { isSecureUrl } from "./metadata.js";
import { postTokenRequest, requestToken, type ClientAuthentication } from "./token-endpoint.js";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const EXCHANGE_STEP = "token exchange at the identity provider";
export const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
export const SAML2_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:saml2";

export interface EnterpriseGrantOptions {
  /** The IdP's token endpoint, where the ID token becomes an ID-JAG. */
  idpTokenEndpoint: string;
  /**
   * The identity assertion from the person's sign-in (an OpenID Connect ID token, usually). A
   * function is asked at each grant, so the application can hand over a fresh one.
   */
  subjectToken: string | (() => string | Promise<string>);
  /** Default: an ID token. */
  subjectTokenType?: typeof ID_TOKEN_TYPE | typeof SAML2_TOKEN_TYPE;
  /**
   * Our registration at the IdP (the one the ID token's `aud` names). With a secret it
   * authenticates (client_secret_basic unless `method` says post); without, it only names itself.
   */
  idpClient: { client_id: string; client_secret?: string; method?: "client_secret_basic" | "client_secret_post" };
  /** Our registration at the MCP server's authorization server (used there alone); the ID-JAG is issued to it. */
  client: ClientCredentials;
  /** Bounds for the IdP request (default: the GrantContext's). */
  idpFetchOptions?: FetchJsonOptions;
  now?: () => number;
}

/** The two-step grant. Keys and the endpoint are read here, once: a bad one is an error when the grant is configured. */
export function enterpriseGrant(options: EnterpriseGrantOptions): TokenGrant {
  if (!isSecureUrl(options.idpTokenEndpoint)) throw new GrantError(EXCHANGE_STEP, `the IdP token endpoint ${JSON.stringify(options.idpTokenEndpoint)} is not https (or http to this machine)`);
  const atAuthorizationServer = clientAuthenticator(options.client, options);
  const { client_id, client_secret, method } = options.idpClient;
  const atIdp: ClientAuthentication = client_secret === undefined
    ? { method: "none", client_id }
    : { method: method ?? "client_secret_basic", client_id, client_secret };
  return async (context: GrantContext) => {
    const step = "jwt bearer grant";
    // First: a client registered at another issuer ends the grant before the IdP is asked for an ID-JAG for this one.
    const authentication = atAuthorizationServer(step, context);
    const idJag = await exchangeForIdJag(options, context, atIdp);
    return requestToken(step, tokenEndpoint(step, context.metadata), {
      grant_type: JWT_BEARER,
      assertion: idJag,
      // Spec (basic/authorization#resource-parameter-implementation): the resource is named in every token request.
      resource: context.resource,
      scope: context.scope,
    }, authentication, { ...context.fetchOptions, requestedScope: context.scope, now: options.now });
  };
}

/** RFC 8693 section 2.1, with the fields the extension requires (its section 4). */
async function exchangeForIdJag(options: EnterpriseGrantOptions, context: GrantContext, client: ClientAuthentication): Promise<string> {
  const subjectToken = typeof options.subjectToken === "string" ? options.subjectToken : await options.subjectToken();
  const answer = await postTokenRequest(EXCHANGE_STEP, options.idpTokenEndpoint, {
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: ID_JAG,
    // Spec (enterprise-managed-authorization section 4): audience is the authorization server's issuer, resource the MCP server.
    audience: context.issuer,
    resource: context.resource,
    scope: context.scope,
    subject_token: subjectToken,
    subject_token_type: options.subjectTokenType ?? ID_TOKEN_TYPE,
  }, client, options.idpFetchOptions ?? context.fetchOptions);
  const { json, url } = answer;
  if (!isObject(json)) throw new AuthFetchError(EXCHANGE_STEP, url, "the answer is not a JSON object");
  // Spec (RFC 8693 section 2.2.1): the issued token is in access_token "for historical reasons"; its type says what it is.
  if (typeof json.access_token !== "string" || json.access_token === "") throw new AuthFetchError(EXCHANGE_STEP, url, 'the answer has no "access_token" (the ID-JAG)');
  if (json.issued_token_type !== ID_JAG) throw new AuthFetchError(EXCHANGE_STEP, url, `the issued token type is ${quoted(json.issued_token_type)}, not ${ID_JAG}`);
  return json.access_token;
}
