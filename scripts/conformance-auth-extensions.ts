// The official conformance suite's three authorization extension scenarios, as
// scripts/conformance-client.ts plays them: each builds, from the scenario's context
// (MCP_CONFORMANCE_CONTEXT: pre-registered client, private key, the IdP's ID token), a grant that
// needs no person, as OAuthOptions { grant } (the Scenario shape of conformance-client-auth.ts),
// for the OAuth client to run after discovery instead of the authorization code grant.
// Extensions: https://modelcontextprotocol.io/extensions/auth/oauth-client-credentials and
// .../enterprise-managed-authorization. Scenarios: modelcontextprotocol/conformance,
// src/scenarios/client/auth/client-credentials.ts and cross-app-access.ts.

import { clientCredentialsGrant } from "../src/auth/grant-client-credentials.js";
import { enterpriseGrant } from "../src/auth/grant-enterprise.js";
import type { TokenGrant } from "../src/auth/grant.js";
import { useTools, type ConformanceContext, type Scenario } from "./conformance-client-auth.js";


/** A context field the scenario must have given. */
function field(context: ConformanceContext, name: string): string {
  const value = context[name];
  if (typeof value !== "string" || value === "") throw new Error(`conformance context: "${name}" is missing (the scenario did not send it)`);
  return value;
}

/**
 * The grant `make` builds for the issuer discovery found. The suite's context gives credentials
 * without naming the authorization server they belong to; the harness runs that server itself and
 * is trusted here, so the grant is made for whatever issuer its MCP server names. An application
 * names the issuer of its credentials instead, and the grant refuses any other.
 */
function forDiscoveredIssuer(make: (issuer: string) => TokenGrant): TokenGrant {
  return (grantContext) => make(grantContext.issuer)(grantContext);
}

export const authExtensionScenarios: Record<string, Scenario> = {
  // private_key_jwt with the ES256 key the suite generated; its server checks aud = its issuer.
  "auth/client-credentials-jwt": {
    authorization: (context) => ({
      grant: forDiscoveredIssuer((issuer) => clientCredentialsGrant({ issuer, client_id: field(context, "client_id"), private_key: field(context, "private_key_pem"), algorithm: field(context, "signing_algorithm") })),
    }),
    run: useTools,
  },
  // The server's metadata lists client_secret_basic only, so that is how the secret goes.
  "auth/client-credentials-basic": {
    authorization: (context) => ({
      grant: forDiscoveredIssuer((issuer) => clientCredentialsGrant({ issuer, client_id: field(context, "client_id"), client_secret: field(context, "client_secret") })),
    }),
    run: useTools,
  },
  // The suite's IdP does not authenticate the exchange: the client names itself by its IdP client_id;
  // its authorization server wants client_secret_basic for the jwt-bearer grant.
  "auth/cross-app-access-complete-flow": {
    authorization: (context) => ({
      grant: forDiscoveredIssuer((issuer) => enterpriseGrant({
        idpTokenEndpoint: field(context, "idp_token_endpoint"),
        subjectToken: field(context, "idp_id_token"),
        idpClient: { client_id: field(context, "idp_client_id") },
        client: { issuer, client_id: field(context, "client_id"), client_secret: field(context, "client_secret") },
      })),
    }),
    run: useTools,
  },
};

/** The names, for scripts/conformance.ts's list of client scenarios. */
export const AUTH_EXTENSION_SCENARIO_NAMES = Object.keys(authExtensionScenarios);
