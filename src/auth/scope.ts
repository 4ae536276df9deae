// Which scope the client asks for. Least privilege: what the server says this request needs,
// else what it says it uses, else nothing (the authorization server's default); a step-up adds
// what a 403 names to what was asked before; a refresh token is asked for only where offered.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-selection-strategy
// and #step-up-authorization-flow; 2026-07-28 authorization#refresh-tokens (offline_access, SEP-2207).

import type { BearerChallenge } from "./challenge.js";
import type { Discovery } from "./discovery.js";

export interface ScopeInputs {
  /** The application's own choice (OAuthOptions.scope), which overrides the selection. */
  configured: string | undefined;
  /** What this client asked for last time at this server, and what the tokens it holds were granted. */
  asked: string | undefined;
  granted: string | undefined;
  challenge: BearerChallenge | undefined;
  discovery: Discovery;
}

/**
 * Spec (authorization#scope-selection-strategy): the challenge's scope, else the PRM's
 * scopes_supported, else none. Spec (#step-up-authorization-flow): a step-up asks for what was
 * asked before together with what the 403 names, so earlier operations keep working.
 */
export function chooseScope(inputs: ScopeInputs, stepUp: boolean): string | undefined {
  const chosen = stepUp
    ? union(inputs.asked ?? inputs.granted ?? inputs.configured, inputs.challenge?.scope)
    : inputs.configured ?? inputs.challenge?.scope ?? inputs.discovery.prm?.scopes_supported?.join(" ");
  return chosen === undefined || chosen.trim() === "" ? undefined : chosen;
}

/**
 * Spec (2026-07-28 authorization#refresh-tokens, SEP-2207): offline_access (a refresh token) MAY be
 * asked for, and only when the authorization server lists it. Not added to an omitted scope: omitting it asks for
 * the server's default, which one extra scope would replace.
 */
export function withOfflineAccess(scope: string | undefined, discovery: Discovery): string | undefined {
  if (scope === undefined || !discovery.metadata.scopes_supported?.includes("offline_access")) return scope;
  return union(scope, "offline_access");
}

/** The scopes of both, each once, in order ("a b" and "b c" make "a b c"). */
function union(a: string | undefined, b: string | undefined): string | undefined {
  const scopes = [...new Set(`${a ?? ""} ${b ?? ""}`.split(" ").filter((scope) => scope !== ""))];
  return scopes.length === 0 ? undefined : scopes.join(" ");
}
