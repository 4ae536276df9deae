// A grant that needs no person: the client credentials grant, or an assertion obtained elsewhere
// (an enterprise identity provider's ID-JAG). Given the authorization server the discovery found,
// it returns tokens for the resource. The OAuth client runs it instead of the authorization code
// grant when the application configures one.
// Spec: https://modelcontextprotocol.io/extensions/auth/oauth-client-credentials and
// https://modelcontextprotocol.io/extensions/auth/enterprise-managed-authorization (extensions).

import type { TokenSet } from "./credentials.js";
import type { FetchJsonOptions } from "./fetch-json.js";
import type { AuthorizationServerMetadata } from "./metadata.js";

export interface GrantContext {
  /** The MCP server's canonical URL: the RFC 8707 `resource` of every token request. */
  resource: string;
  /** The authorization server, as its metadata (already checked to name `issuer`) describes it. */
  issuer: string;
  metadata: AuthorizationServerMetadata;
  /** The scope to ask for (space-separated), if any: from the challenge, else the resource's scopes_supported. */
  scope?: string;
  /** Bounds and the fetch to use for every request the grant makes. */
  fetchOptions: FetchJsonOptions;
}

export type TokenGrant = (context: GrantContext) => Promise<TokenSet>;
