// The auth scenarios of the official conformance suite, as scripts/conformance-client.ts plays them,
// and the shape every scenario of that client has. The suite's authorization server approves at
// once, so a headless user agent follows its redirect instead of a person; the scenario's context
// (pre-registered credentials) arrives in MCP_CONFORMANCE_CONTEXT. Each scenario connects, lists the
// tools and calls the server's test-tool, the requests its mock server guards.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
// Scenarios: modelcontextprotocol/conformance, src/scenarios/client/auth/.

import type { McpClient, ClientOptions } from "../src/client/client.js";
import type { OAuthOptions } from "../src/auth/oauth-client.js";
import type { UserAgent } from "../src/auth/user-agent.js";
import { isObject } from "../src/jsonrpc/messages.js";

/** The scenario's context, as the suite passes it (JSON in MCP_CONFORMANCE_CONTEXT); empty when there is none. */
export type ConformanceContext = { [field: string]: unknown };

export interface Scenario {
  /** The client's handlers: what it declares and how it answers the server. */
  options?: ClientOptions;
  /** The HTTP transport's OAuth options, made from the scenario's context. */
  authorization?: (context: ConformanceContext) => OAuthOptions;
  /** What to do once connected (the connection is closed afterwards). */
  run(client: McpClient): Promise<void>;
}

/** The CIMD URL the suite expects as client_id (auth/basic-cimd); its server never fetches it. */
export const CIMD_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** Never fetched: the headless user agent reads the redirect's Location instead of following it. */
const REDIRECT_URI = "http://localhost:3000/callback";
const AUTHORIZE_TIMEOUT_MS = 10_000;

/** A user agent without a person: GET the authorization URL, and take the redirect it answers with. */
export function headlessUserAgent(): UserAgent {
  return {
    redirectUri: async () => REDIRECT_URI,
    async authorize(authorizationUrl) {
      const response = await fetch(authorizationUrl, { redirect: "manual", signal: AbortSignal.timeout(AUTHORIZE_TIMEOUT_MS) });
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (location === null) throw new Error(`authorization: ${authorizationUrl.origin}${authorizationUrl.pathname} answered ${response.status}, not a redirect`);
      return new URL(location, authorizationUrl);
    },
  };
}

/** The suite's context, read from MCP_CONFORMANCE_CONTEXT (absent or not an object: empty). */
export function conformanceContext(env = process.env): ConformanceContext {
  try {
    const json: unknown = JSON.parse(env.MCP_CONFORMANCE_CONTEXT ?? "{}");
    return isObject(json) ? json : {};
  } catch {
    return {};
  }
}

/** The authorization code grant, headless: pre-registered credentials when the context has them, else CIMD or DCR. */
function authorizationCode(context: ConformanceContext): OAuthOptions {
  const { client_id, client_secret } = context;
  return {
    userAgent: headlessUserAgent(),
    clientMetadataUrl: CIMD_CLIENT_METADATA_URL,
    clientName: "mcp-wire-conformance-client",
    // The suite's context gives credentials without naming the authorization server they belong to;
    // the harness runs that server itself and is trusted here, so they go to whichever issuer discovery
    // finds. An application names the issuer (OAuthOptions.client.issuer) instead.
    ...(typeof client_id === "string" && { clientFor: () => ({ client_id, ...(typeof client_secret === "string" && { client_secret }) }) }),
  };
}

/** What every auth scenario's server guards: tools/list, and tools/call of test-tool (where step-up scenarios ask for more scope). */
export async function useTools(client: McpClient): Promise<void> {
  await client.listAllTools();
  const result = await client.callTool("test-tool", {});
  if (result.isError) throw new Error(`tools/call test-tool: the tool failed: ${JSON.stringify(result.content)}`);
}

const NAMES = [
  "metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd",
  "scope-from-www-authenticate", "scope-from-scopes-supported", "scope-omitted-when-undefined", "scope-step-up", "scope-retry-limit",
  "token-endpoint-auth-basic", "token-endpoint-auth-post", "token-endpoint-auth-none", "pre-registration",
  "2025-03-26-oauth-metadata-backcompat", "2025-03-26-oauth-endpoint-fallback",
  "resource-mismatch", "offline-access-scope", "offline-access-not-supported",
];

/**
 * The 19 authorization code scenarios. In auth/resource-mismatch and auth/scope-retry-limit the
 * client is meant to fail (refusing the PRM, giving up on step-ups); the suite allows its error.
 */
export const authScenarios: Record<string, Scenario> = Object.fromEntries(NAMES.map((name) => [`auth/${name}`, { authorization: authorizationCode, run: useTools }]));

/** The names, for scripts/conformance.ts. */
export const AUTH_SCENARIO_NAMES = Object.keys(authScenarios);
