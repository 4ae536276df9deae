// One HTTP request to a server that wants OAuth: sent with the current access token; on 401 the
// OAuth client obtains tokens and the request is sent once more; on 403 insufficient_scope it asks
// for more scope and sends it again, a bounded number of times. Both client transports go through
// here (client-fetch.ts fetchStep) when HttpClientOptions.authorization is set. Whatever makes the
// authorization fail ends the request as an AuthorizationError naming its step, never as something
// the client could take for the server's answer (an OAuthError's HTTP 400 is the authorization
// server's, not a refusal of the request: client/modern/probe.ts reads those as "a legacy server").
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#access-token-usage
// and #scope-challenge-handling.

import { AuthorizationError } from "../auth/authorization-code.js";
import { readBearerChallenge } from "../auth/challenge.js";
import { oauthClientFor, type OAuthClient, type OAuthOptions } from "../auth/oauth-client.js";

/**
 * Sends `init` to `url` through `send` with the bearer token. `mayAuthorize` false (the DELETE that
 * ends a session) sends the token it has but starts no authorization: nobody should be asked to
 * sign in so that a session can be closed.
 */
export async function authorizedFetch(oauth: OAuthClient, step: string, url: URL, init: RequestInit, send: (init: RequestInit) => Promise<Response>, mayAuthorize = true): Promise<Response> {
  let authorized = false;
  /** Whether stored tokens were tried already (the once a first request, sent with none, is refused). */
  let triedStored = false;
  let stepUps = 0;
  for (;;) {
    const token = await oauth.accessToken(url);
    const headers = new Headers(init.headers);
    // Spec (authorization#token-requirements): the token goes in the Authorization header of every request, never in the URL.
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    const response = await send({ ...init, headers });
    if (!mayAuthorize || (response.status !== 401 && response.status !== 403)) return response;
    const challenge = readBearerChallenge(response.headers.get("www-authenticate"));
    if (response.status === 401) {
      void response.body?.cancel().catch(() => {});
      // One authorization per request: a server that refuses fresh tokens will refuse the next ones
      // too, so the next requests' 401s fail at once for a while (OAuthOptions.refusedCooldownMs).
      if (authorized) {
        oauth.refusedFreshTokens(url);
        throw new AuthorizationError(step, `the server answered 401 again after a new authorization${describe(challenge?.error_description)}`);
      }
      // Tokens kept from before are tried once like fresh ones; if they are refused too, they are renewed.
      const fresh = await authorizeFor(step, () => oauth.authorize(url, challenge, token, false));
      if (fresh || triedStored) authorized = true;
      triedStored = true;
      continue;
    }
    // Spec (authorization#runtime-insufficient-scope-errors): 403 with error="insufficient_scope" asks for a step-up.
    if (challenge?.error !== "insufficient_scope" || token === undefined) return response;
    void response.body?.cancel().catch(() => {});
    // Spec (authorization#step-up-authorization-flow): clients SHOULD limit scope upgrade attempts, or they could loop forever.
    if (stepUps === oauth.maxStepUps) {
      throw new AuthorizationError(step, `the server still answers 403 insufficient_scope${challenge.scope === undefined ? "" : ` (scope "${challenge.scope}")`} after ${stepUps} step-up authorization${stepUps === 1 ? "" : "s"} (maxStepUps)`);
    }
    stepUps++;
    await authorizeFor(step, () => oauth.authorize(url, challenge, token, true));
  }
}

/**
 * Runs the authorization for the request `step`: a failure is an AuthorizationError naming the
 * request, then what failed in the flow (the cause's own message names its step: "token request ...").
 */
async function authorizeFor<T>(step: string, authorize: () => Promise<T>): Promise<T> {
  try {
    return await authorize();
  } catch (error) {
    if (error instanceof AuthorizationError) throw error;
    throw new AuthorizationError(step, error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/**
 * Transport.onHold for an HTTP transport: the OAuth client's waits on a person (OAuthClient.onPersonWait),
 * none without `authorization`. Returns what stops listening, for the transport's close().
 */
export function holdWhilePersonWaits(authorization: OAuthOptions | undefined, listener: (held: boolean) => void): () => void {
  return authorization === undefined ? () => {} : oauthClientFor(authorization).onPersonWait(listener);
}

function describe(text: string | undefined): string {
  return text === undefined ? "" : ` (${text.length > 200 ? `${text.slice(0, 200)}...` : text})`;
}
