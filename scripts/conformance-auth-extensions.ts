// The official conformance suite's three authorization extension scenarios, as
// scripts/conformance-client.ts plays them: each builds a grant that needs no person from the
// scenario's context (MCP_CONFORMANCE_CONTEXT: pre-registered client, private key, the IdP's ID
// token), for the OAuth client to run after discovery instead of the authorization code grant.
// Extensions: https://modelcontextprotocol.io/extensions/auth/oauth-client-credentials and
// .../enterprise-managed-authorization. Scenarios: modelcontextprotocol/conformance,
// src/scenarios/client/auth/client-credentials.ts and cross-app-access.ts.

import type { McpClient } from "../src/client/client.js";
import type { TokenGrant } from "../src/auth/grant.js";
import { clientCredentialsGrant } from "../src/auth/grant-client-credentials.js";
import { enterpriseGrant } from "../src/auth/grant-enterprise.js";

/** The scenario's context, as the suite passes it (JSON in MCP_CONFORMANCE_CONTEXT). */
type ConformanceContext = { [field: string]: unknown };

/** An entry of conformance-client.ts's scenario table; `authorization` is an OAuthOptions with only `grant`. */
export interface ExtensionScenario {
  authorization(context: ConformanceContext): { grant: TokenGrant };
  run(client: McpClient): Promise<void>;
}

/** A context field the scenario must have given. */
function field(context: ConformanceContext, name: string): string {
  const value = context[name];
  if (typeof value !== "string" || value === "") throw new Error(`conformance context: "${name}" is missing (the scenario did not send it)`);
  return value;
}

/** What the scenario's MCP server guards: listing the tools and calling its test-tool. */
async function useTools(client: McpClient): Promise<void> {
  await client.listAllTools();
  const result = await client.callTool("test-tool", {});
  if (result.isError) throw new Error(`tools/call test-tool: the tool failed: ${JSON.stringify(result.content)}`);
}

export const authExtensionScenarios: Record<string, ExtensionScenario> = {
  // private_key_jwt with the ES256 key the suite generated; its server checks aud = its issuer.
  "auth/client-credentials-jwt": {
    authorization: (context) => ({
      grant: clientCredentialsGrant({ client_id: field(context, "client_id"), private_key: field(context, "private_key_pem"), algorithm: field(context, "signing_algorithm") }),
    }),
    run: useTools,
  },
  // The server's metadata lists client_secret_basic only, so that is how the secret goes.
  "auth/client-credentials-basic": {
    authorization: (context) => ({
      grant: clientCredentialsGrant({ client_id: field(context, "client_id"), client_secret: field(context, "client_secret") }),
    }),
    run: useTools,
  },
  // The suite's IdP does not authenticate the exchange: the client names itself by its IdP client_id;
  // its authorization server wants client_secret_basic for the jwt-bearer grant.
  "auth/cross-app-access-complete-flow": {
    authorization: (context) => ({
      grant: enterpriseGrant({
        idpTokenEndpoint: field(context, "idp_token_endpoint"),
        subjectToken: field(context, "idp_id_token"),
        idpClient: { client_id: field(context, "idp_client_id") },
        client: { client_id: field(context, "client_id"), client_secret: field(context, "client_secret") },
      }),
    }),
    run: useTools,
  },
};

/** The names, for scripts/conformance.ts's list of client scenarios. */
export const AUTH_EXTENSION_SCENARIO_NAMES = Object.keys(authExtensionScenarios);
