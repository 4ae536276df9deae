// What the CLI gives the OAuth client for a server reached over HTTP: the person's side of the
// authorization code grant (a loopback listener and the browser), where tokens are kept (a file,
// or memory with --no-store), and the client identity and scope the flags name.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization (the
// client's flow; auth/oauth-client.ts runs it) and RFC 8252 (native apps).
// `mcp-wire logout` is here too: it is the one other use of the credentials file.

import type { ClientRegistration, CredentialStore } from "../auth/credentials.js";
import { MemoryCredentialStore } from "../auth/credentials.js";
import type { FetchJsonOptions } from "../auth/fetch-json.js";
import { CredentialFileError, FileCredentialStore } from "../auth/file-store.js";
import { LoopbackError, LoopbackUserAgent } from "../auth/loopback.js";
import type { UserAgent } from "../auth/user-agent.js";
import type { AuthFlags } from "./arguments.js";
import { findCause } from "./failures.js";
import { ExitCode, printError } from "./output.js";
import type { Redactor } from "./redact.js";

/** The environment variable the client secret is read from when --client-secret is not given. */
export const CLIENT_SECRET_VARIABLE = "MCP_WIRE_CLIENT_SECRET";

/**
 * The fields of OAuthOptions (auth/oauth-client.ts, HttpClientOptions.authorization) the CLI sets,
 * named and typed as there: the CLI needs nothing else of it.
 */
export interface CliAuthorization {
  userAgent: UserAgent;
  store: CredentialStore;
  client?: ClientRegistration;
  scope?: string;
  /** Set with --trace, so that the OAuth requests are traced (redacted) too. */
  fetchOptions?: FetchJsonOptions;
}

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
  const store = flags.noStore ? new MemoryCredentialStore() : new FileCredentialStore({ path: context.storePath });
  const authorization: CliAuthorization = { userAgent, store: context.redactor.watch(store) };
  if (flags.clientId !== undefined) {
    const secret = flags.clientSecret ?? nonEmpty((context.env ?? process.env)[CLIENT_SECRET_VARIABLE]);
    context.redactor.add(secret);
    authorization.client = secret === undefined ? { client_id: flags.clientId } : { client_id: flags.clientId, client_secret: secret };
  }
  if (flags.scope !== undefined) authorization.scope = flags.scope;
  return { authorization, close: () => userAgent.close() };
}

/** What to add to the message of a run that failed for want of the browser's redirect. */
export function authorizationHint(error: unknown): string {
  return findCause(error, LoopbackError)?.timedOut ? "\n(--auth-timeout SECONDS waits longer)" : "";
}

/** `mcp-wire logout URL`: forgets what the credentials file holds for that server, whichever issuer granted it. */
export async function logout(url: string, storePath?: string): Promise<number> {
  const store = new FileCredentialStore({ path: storePath });
  try {
    const removed = await store.removeResource(url);
    // Local only: the authorization server still honours the tokens until they expire (we do not revoke them).
    printError(removed.length === 0
      ? `mcp-wire: no credentials stored for ${url} (in ${store.path})`
      : `mcp-wire: forgot the credentials for ${url} from ${removed.map((key) => key.issuer).join(", ")} (in ${store.path})`);
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
