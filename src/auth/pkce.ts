// Proof Key for Code Exchange: the client makes a secret (the verifier) for each authorization,
// sends only its SHA-256 (the challenge) with the authorization request, and the verifier with the
// token request, so a code stolen on its way back through the browser is worth nothing alone.
// Also the random `state` that ties a redirect to the request that caused it.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-code-protection
// RFC 7636 sections 4.1 (verifier: 43-128 unreserved characters) and 4.2 (S256). Left out: the
// "plain" method, which MCP clients must not use when S256 is possible (and it always is here).

import { createHash, randomBytes } from "node:crypto";

export interface Pkce {
  /** Kept by the client until the token request; never sent before it. */
  code_verifier: string;
  /** BASE64URL(SHA256(code_verifier)), sent in the authorization request. */
  code_challenge: string;
  code_challenge_method: "S256";
}

export function createPkce(): Pkce {
  // 32 random bytes are 43 base64url characters: the shortest verifier RFC 7636 allows, with 256 bits in it.
  const code_verifier = randomToken(32);
  const code_challenge = createHash("sha256").update(code_verifier).digest("base64url");
  return { code_verifier, code_challenge, code_challenge_method: "S256" };
}

/** `bytes` random bytes as base64url: for PKCE verifiers and `state`. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
