// The OAuth client an HTTP transport consults: the access token to send to a server (refreshed
// when it has expired), and, when the server refuses (401, or 403 insufficient_scope), new tokens:
// discovery, a client identity, then the authorization code grant (or the application's own grant).
// Tokens and registrations live in a CredentialStore keyed by issuer and resource.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-flow-steps
// and #step-up-authorization-flow; 2026-07-28 #refresh-tokens. Which scope to ask for: auth/scope.ts; refreshing, one run at a time: auth/renewal.ts.
// Left out: revoking tokens (RFC 7009) and DPoP; the retry loop itself is the transport's (http/client-auth.ts).

import { authorizationCodeGrant, AuthorizationError } from "./authorization-code.js";
import type { BearerChallenge } from "./challenge.js";
import { MemoryCredentialStore, type ClientRegistration, type CredentialStore, type StoredCredentials, type TokenSet } from "./credentials.js";
import { discover, type Discovery } from "./discovery.js";
import type { FetchJsonOptions } from "./fetch-json.js";
import { isSecureUrl } from "./metadata.js";
import type { TokenGrant } from "./grant.js";
import { registerClient } from "./registration.js";
import { changeEntry, expired, expiresSoon, issuedNow, renewTokens } from "./renewal.js";
import { chooseScope, withOfflineAccess } from "./scope.js";
import type { UserAgent } from "./user-agent.js";

export interface OAuthOptions {
  /** Needed for the authorization code grant; without it (and without `grant`) a 401 fails with a clear error. */
  userAgent?: UserAgent;
  /** Default: a MemoryCredentialStore. */
  store?: CredentialStore;
  /**
   * Pre-registered credentials (first in the spec's order of preference), with the issuer they are
   * registered at (required): used only when discovery finds that issuer, refused otherwise.
   */
  client?: ClientRegistration;
  /**
   * Pre-registered credentials per issuer, for an application that has several: asked with the
   * discovered issuer; undefined goes on to a Client ID Metadata Document or Dynamic Client Registration.
   */
  clientFor?: (issuer: string) => ClientRegistration | undefined;
  /** Our Client ID Metadata Document URL (https), used when the AS metadata says client_id_metadata_document_supported. */
  clientMetadataUrl?: string;
  /** client_name for Dynamic Client Registration (default "mcp-wire"). */
  clientName?: string;
  /** Overrides the scope selection (challenge scope, else PRM scopes_supported, else none). */
  scope?: string;
  /** A grant without a person, used instead of the authorization code grant. */
  grant?: TokenGrant;
  /** Step-up re-authorizations after 403 insufficient_scope, per request (default 2). */
  maxStepUps?: number;
  /**
   * After a server refuses a token obtained for it a moment before (401 right after a new
   * authorization), how long a further 401 from it fails at once instead of asking the person
   * again (default 30 s; 0: ask again at once).
   */
  refusedCooldownMs?: number;
  /** Bounds for every OAuth request (default: fetch-json's defaults), and the fetch to use. */
  fetchOptions?: FetchJsonOptions;
}

export const DEFAULT_MAX_STEP_UPS = 2;
export const DEFAULT_REFUSED_COOLDOWN_MS = 30_000;

/** What one OAuthOptions object knows, shared by every transport given it (the same application). */
const clients = new WeakMap<OAuthOptions, OAuthClient>();

/** The OAuth client for `options`: one per options object, so that transports sharing it share tokens. */
export function oauthClientFor(options: OAuthOptions): OAuthClient {
  let client = clients.get(options);
  if (client === undefined) clients.set(options, (client = new OAuthClient(options)));
  return client;
}

export class OAuthClient {
  readonly #options: OAuthOptions;
  readonly #store: CredentialStore;
  /** Per server (origin and path of its endpoint): where its tokens come from, once a 401 has told us. */
  readonly #servers = new Map<string, { discovery: Discovery; scope?: string }>();
  /** Another endpoint of a known server (the HTTP+SSE POST endpoint) -> that server's key. */
  readonly #aliases = new Map<string, string>();
  /** One authorization or refresh at a time per server: concurrent 401s wait for the same one. */
  readonly #running = new Map<string, Promise<unknown>>();
  /** Told when the person is asked (true) and when that wait ends (false); see onPersonWait. */
  readonly #personWatchers = new Set<(waiting: boolean) => void>();
  /** Per server: until when (ms since the epoch) no authorization is started, after it refused fresh tokens. */
  readonly #refusedUntil = new Map<string, number>();
  /** Authorizations waiting on the person now (one per server at most). */
  #personWaits = 0;

  constructor(options: OAuthOptions) {
    this.#options = options;
    this.#store = options.store ?? new MemoryCredentialStore();
  }

  get maxStepUps(): number {
    return this.#options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
  }

  /**
   * Calls `listener(true)` when a person is asked to authorize (UserAgent.authorize) and
   * `listener(false)` when that wait ends, however it ends; at once with true if one is under way.
   * Only that wait: the flow's network requests have their own bounds (fetch-json.ts). Every
   * transport given these options listens, whichever server the person signs in to, since its
   * requests may wait for that authorization (a shared token, one sign-in per server). Returns
   * what stops listening.
   */
  onPersonWait(listener: (waiting: boolean) => void): () => void {
    this.#personWatchers.add(listener);
    if (this.#personWaits > 0) listener(true);
    return () => this.#personWatchers.delete(listener);
  }

  /** Requests to `endpoint` are for the server at `server` (its tokens, its authorization). */
  alias(endpoint: URL, server: URL): void {
    this.#aliases.set(keyOf(endpoint), keyOf(server));
  }

  /** The token to send to `server` now, if we have one; one about to expire is refreshed first, an expired one dropped. */
  async accessToken(server: URL): Promise<string | undefined> {
    const key = this.#keyFor(server);
    await this.#running.get(key);
    const known = this.#servers.get(key);
    if (known === undefined) return undefined;
    const stored = await this.#store.load(storeKeyOf(known.discovery));
    if (stored?.tokens === undefined || !expiresSoon(stored.tokens)) return stored?.tokens?.access_token;
    await this.#once(key, () => this.#refreshOrDrop(known.discovery));
    return (await this.#store.load(storeKeyOf(known.discovery)))?.tokens?.access_token;
  }

  /**
   * After a 401 (`stepUp` false) or a 403 insufficient_scope (`stepUp` true) to a request that carried
   * `rejected` (or no token): obtains tokens worth retrying with, or throws saying which step failed.
   * Resolves false when those are tokens stored before, not yet tried (a new run's first request
   * carries none): if the server refuses them too, the next authorize() renews them.
   */
  async authorize(server: URL, challenge: BearerChallenge | undefined, rejected: string | undefined, stepUp: boolean): Promise<boolean> {
    const key = this.#keyFor(server);
    const until = this.#refusedUntil.get(key);
    if (until !== undefined && until > Date.now()) {
      throw new AuthorizationError("authorization", `${server.origin}${server.pathname} refused the token it was just authorized for; no new authorization for ${Math.ceil((until - Date.now()) / 1000)} s (OAuthOptions.refusedCooldownMs)`);
    }
    this.#refusedUntil.delete(key);
    return this.#once(key, () => this.#authorize(server, key, challenge, rejected, stepUp));
  }

  /**
   * `server` answered 401 to the token a new authorization just gave: authorizing again would get
   * the same answer, so for refusedCooldownMs its 401s fail at once rather than open a browser per request.
   */
  refusedFreshTokens(server: URL): void {
    this.#refusedUntil.set(this.#keyFor(server), Date.now() + (this.#options.refusedCooldownMs ?? DEFAULT_REFUSED_COOLDOWN_MS));
  }

  async #authorize(server: URL, key: string, challenge: BearerChallenge | undefined, rejected: string | undefined, stepUp: boolean): Promise<boolean> {
    // Spec (authorization#communication-security): the whole flow, MCP server included, is https (loopback aside):
    // over plain http to another machine a token (and the discovery it starts from) could be read or changed on the way.
    if (!isSecureUrl(server.href)) {
      throw new AuthorizationError("authorization", `${server.origin}${server.pathname} asks for authorization over plain http to another machine; MCP authorization requires https, so no authorization is started`);
    }
    let known = this.#servers.get(key);
    if (known === undefined) this.#servers.set(key, (known = { discovery: await discover(server, challenge, this.#fetchOptions) }));
    const { discovery } = known;
    const stored: StoredCredentials = (await this.#store.load(storeKeyOf(discovery))) ?? storeKeyOf(discovery);
    if (!stepUp && stored.tokens !== undefined) {
      // Kept from before, or got by another request while this one was refused: they are worth a try.
      if (stored.tokens.access_token !== rejected && !expired(stored.tokens)) return false;
      // Spec (authorization#token-handling, OAuth 2.1 section 4.3): a refresh token before the person is asked again.
      if (await renewTokens(this.#store, discovery, this.#fetchOptions, stored.tokens, (tokens) => !expired(tokens))) return true;
    }
    const scope = chooseScope({ configured: this.#options.scope, asked: known.scope, granted: stored.tokens?.scope, challenge, discovery }, stepUp);
    let tokens: TokenSet;
    if (this.#options.grant !== undefined) {
      tokens = await this.#options.grant({ resource: discovery.resource, issuer: discovery.issuer, metadata: discovery.metadata, scope, fetchOptions: this.#fetchOptions });
    } else {
      tokens = await this.#authorizationCode(server, discovery, stored, withOfflineAccess(scope, discovery));
    }
    known.scope = scope;
    const fresh = issuedNow(tokens);
    // The registration these tokens were granted to (a refresh must present it), over one another run kept meanwhile.
    await changeEntry(this.#store, storeKeyOf(discovery), (current) => ({ ...(current ?? storeKeyOf(discovery)), client: stored.client ?? current?.client, tokens: fresh }));
    return true;
  }

  async #authorizationCode(server: URL, discovery: Discovery, stored: StoredCredentials, scope: string | undefined): Promise<TokenSet> {
    const { userAgent } = this.#options;
    if (userAgent === undefined) {
      throw new AuthorizationError("authorization", `${server.origin}${server.pathname} requires authorization by ${discovery.issuer}; no user agent (OAuthOptions.userAgent) or grant is configured`);
    }
    const redirectUri = await userAgent.redirectUri();
    try {
      const { client } = await registerClient({
        issuer: discovery.issuer,
        metadata: discovery.metadata,
        redirectUri,
        client: this.#options.client,
        clientFor: this.#options.clientFor,
        stored: stored.client,
        clientMetadataUrl: this.#options.clientMetadataUrl,
        clientName: this.#options.clientName ?? "mcp-wire",
        fetchOptions: this.#fetchOptions,
      });
      // Kept at once: a registration is worth reusing even if the person never comes back. The
      // tokens stored now stay: another run may have renewed them since `stored` was read.
      stored.client = client;
      await changeEntry(this.#store, storeKeyOf(discovery), (current) => ({ ...(current ?? storeKeyOf(discovery)), client }));
      const watched: UserAgent = { redirectUri: () => userAgent.redirectUri(), authorize: (url) => this.#askPerson(userAgent, url) };
      return await authorizationCodeGrant({ discovery, client, scope, userAgent: watched, redirectUri, fetchOptions: this.#fetchOptions });
    } finally {
      await userAgent.close?.();
    }
  }

  /**
   * The person's part of the grant, told to onPersonWait's listeners. Its bound is the user agent's
   * own timeout (loopback.ts: 5 min); the finally releases the listeners also when it fails.
   */
  async #askPerson(userAgent: UserAgent, url: URL): Promise<URL> {
    if (this.#personWaits++ === 0) this.#tellWatchers(true);
    try {
      return await userAgent.authorize(url);
    } finally {
      if (--this.#personWaits === 0) this.#tellWatchers(false);
    }
  }

  #tellWatchers(waiting: boolean): void {
    for (const listener of this.#personWatchers) listener(waiting);
  }

  async #refreshOrDrop(discovery: Discovery): Promise<void> {
    const stored = await this.#store.load(storeKeyOf(discovery));
    if (stored?.tokens === undefined || !expiresSoon(stored.tokens)) return;
    if (await renewTokens(this.#store, discovery, this.#fetchOptions, stored.tokens, (tokens) => !expiresSoon(tokens))) return;
    // A token not yet expired is still sent; an expired one is not: the 401 that follows starts a new authorization.
    await changeEntry(this.#store, storeKeyOf(discovery), (current) => {
      if (current?.tokens === undefined || !expired(current.tokens)) return current;
      const { tokens: _expired, ...rest } = current;
      return rest;
    });
  }

  /** Runs `work` unless one is under way for `key`, in which case that one is waited for instead. */
  async #once<T>(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.#running.get(key) as Promise<T> | undefined;
    if (running !== undefined) return running;
    const promise = work().finally(() => this.#running.delete(key));
    this.#running.set(key, promise);
    return promise;
  }

  #keyFor(server: URL): string {
    const key = keyOf(server);
    return this.#aliases.get(key) ?? key;
  }

  get #fetchOptions(): FetchJsonOptions {
    return this.#options.fetchOptions ?? {};
  }
}

function keyOf(url: URL): string {
  return url.origin + url.pathname;
}

function storeKeyOf(discovery: Discovery): { issuer: string; resource: string } {
  return { issuer: discovery.issuer, resource: discovery.resource };
}
