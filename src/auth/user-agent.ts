// Where a person must act in the authorization code grant: a browser opens the authorization
// server's page, the person approves, and the browser is sent back to our redirect URI with a code.
// The OAuth client does not know how that happens; the application supplies this interface. The
// CLI's implementation (auth/loopback.ts) prints the URL, tries to open a browser, and receives the
// redirect on a loopback listener (RFC 8252 section 7.3); a test or the conformance client follows
// the redirect headlessly.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-code-protection
// (redirect URIs are localhost or https).

export interface UserAgent {
  /**
   * The redirect URI to register and to send in the authorization request. Called before
   * registration; a loopback implementation starts listening here, to learn its port.
   */
  redirectUri(): Promise<string>;
  /**
   * Sends the person to `authorizationUrl` and resolves with the URL the authorization server
   * redirected back to (its query holds `code` and `state`, or `error`). Rejects if the person
   * never comes back within the implementation's timeout.
   */
  authorize(authorizationUrl: URL): Promise<URL>;
  /** Frees what redirectUri() took (a listening socket); called once the flow ends either way. */
  close?(): Promise<void>;
}
