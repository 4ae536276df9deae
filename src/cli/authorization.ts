// What the CLI gives the OAuth client for a server reached over HTTP: the person's side of the
// authorization code grant (a loopback listener and the browser), where tokens are kept (a file,
// or memory with --no-store), and the client identity and scope the flags name.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization (the
// client's flow; auth/oauth-client.ts runs it) and RFC 8252 (native apps).
// `mcp-wire logout` is here too: it is the one other use of the credentials file.

import { MemoryCredentialStore } from "../auth/credentials.js";
import { AuthFetchError } from "../auth/fetch-json.js";
import { CredentialFileError, FileCredentialStore } from "../auth/file-store.js";
import { LoopbackError, LoopbackUserAgent } from "../auth/loopback.js";
import { AuthMetadataError } from "../auth/metadata.js";
import type { OAuthOptions } from "../auth/oauth-client.js";
import { ClientRegistrationError } from "../auth/registration.js";
import { HandshakeTimeoutError } from "../client/errors.js";
import type { AuthFlags } from "./arguments.js";
import { findCause } from "./failures.js";
import { ExitCode, printError, terminalSafe } from "./output.js";
import type { Redactor } from "./redact.js";

/** The environment variable the client secret is read from when --client-secret is not given. */
export const CLIENT_SECRET_VARIABLE = "MCP_WIRE_CLIENT_SECRET";

/** OAuthOptions as the CLI fills them: always a user agent and a store. */
export type CliAuthorization = OAuthOptions & Required<Pick<OAuthOptions, "userAgent" | "store">>;

export interface CliAuthorizationContext {
  /** Where the person is told what to do (stderr, through the redactor). */
  print: (line: string) => void;
  /** Learns the secrets: the client secret, and every token the store sees. */
  redactor: Redactor;
  env?: NodeJS.ProcessEnv;
  /** The credentials file (default: defaultCredentialsPath()). */
  storePath?: string;
}

/** The OAuth options for one run, and the loopback listener to close at its end. */
export function cliAuthorization(flags: AuthFlags, context: CliAuthorizationContext): { authorization: CliAuthorization; close(): Promise<void> } {
  const userAgent = new LoopbackUserAgent({ timeoutMs: flags.timeoutMs, print: context.print, openBrowser: flags.noBrowser ? false : undefined });
  const store = flags.noStore ? new MemoryCredentialStore() : new FileCredentialStore({ path: context.storePath, onWarning: (message) => context.print(`mcp-wire: ${message}`) });
  const authorization: CliAuthorization = { userAgent, store: context.redactor.watch(store) };
  // The parser gives a client ID with its issuer only: the OAuth client presents it to that issuer alone.
  if (flags.clientId !== undefined) {
    const secret = flags.clientSecret ?? nonEmpty((context.env ?? process.env)[CLIENT_SECRET_VARIABLE]);
    context.redactor.add(secret);
    authorization.client = { issuer: flags.clientIssuer, client_id: flags.clientId };
    if (secret !== undefined) authorization.client.client_secret = secret;
  }
  if (flags.scope !== undefined) authorization.scope = flags.scope;
  return { authorization, close: () => userAgent.close() };
}

/**
 * What to add to the message of a run whose authorization failed: a wait for the browser that
 * timed out, or a server whose authorization server could not be found or used (discovery,
 * metadata, registration), which may be one that takes a fixed token rather than OAuth.
 */
export function authorizationHint(error: unknown, signingIn = false): string {
  if (findCause(error, LoopbackError)?.timedOut) return "\n(--auth-timeout SECONDS waits longer)";
  // The person's wait stops the handshake's clock; the flow's own requests do not (they have no other bound in all).
  if (signingIn && findCause(error, HandshakeTimeoutError)) {
    return "\n(the time ran out while signing in: the authorization server's requests count against --handshake-timeout; give it more, e.g. --handshake-timeout 30000)";
  }
  const noOAuth = [AuthFetchError, AuthMetadataError, ClientRegistrationError].some((type) => findCause(error, type) !== undefined);
  return noOAuth ? '\n(the server asked for authorization, and OAuth with it failed as above; a server that takes a fixed token gets it with --header "Authorization: Bearer TOKEN")' : "";
}

/** `mcp-wire logout URL`: forgets what the credentials file holds for that server, whichever issuer granted it. */
export async function logout(url: string, storePath?: string): Promise<number> {
  const store = new FileCredentialStore({ path: storePath });
  try {
    const removed = await store.removeResource(url);
    // Local only: the authorization server still honours the tokens until they expire (we do not revoke them).
    // The issuers come from the file, where authorization servers' metadata put them.
    printError(terminalSafe(removed.length === 0
      ? `mcp-wire: no credentials stored for ${url} (in ${store.path})`
      : `mcp-wire: forgot the credentials for ${url} from ${removed.map((key) => key.issuer).join(", ")} (in ${store.path})`));
    return ExitCode.ok;
  } catch (error) {
    if (!(error instanceof CredentialFileError)) throw error;
    printError(`mcp-wire: logout failed: ${error.message}`);
    return ExitCode.failed;
  }
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === "" ? undefined : text;
}

/** The OAuth client's fetch, counted: whether one of the sign-in's requests is under way now. */
export function countedFetch(inner: typeof fetch): { fetch: typeof fetch; busy(): boolean } {
  let underWay = 0;
  const counted = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    underWay++;
    try {
      return await inner(input, init);
    } finally {
      underWay--;
    }
  };
  return { fetch: counted, busy: () => underWay > 0 };
}
