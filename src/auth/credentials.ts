// What an OAuth client keeps between runs, and where: the client's registration at an
// authorization server and the tokens it obtained there for one resource (MCP server).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
// (store tokens securely) and 2026-07-28 (credentials are keyed by the issuer, so a token or a
// client_id from one authorization server is never presented to another).
// The store is an interface: in memory here; the CLI keeps a file (auth/file-store.ts).

/** Which credentials: the issuer that granted them and the resource they are for. */
export interface CredentialKey {
  /** The authorization server's issuer identifier, exactly as its metadata names it. */
  issuer: string;
  /** The MCP server's canonical URL (the RFC 8707 `resource`). */
  resource: string;
}

/** Our registration at an issuer: pre-registered, a CIMD URL, or the answer of Dynamic Client Registration. */
export interface ClientRegistration {
  /**
   * The issuer this registration belongs to. Credentials are issued by one authorization server
   * for that server only (RFC 6749 section 2; 2026-07-28: keyed by issuer): a client never presents
   * them to another, whatever issuer an MCP server names. Required for pre-registered credentials.
   */
  issuer?: string;
  client_id: string;
  client_secret?: string;
  /** Seconds since the epoch; 0 or absent: it does not expire (RFC 7591 section 3.2.1). */
  client_secret_expires_at?: number;
  /** How we authenticate at the token endpoint: client_secret_basic, client_secret_post or none. */
  token_endpoint_auth_method?: string;
  /** The redirect URI registered with it, if any. */
  redirect_uris?: string[];
}

/** Tokens for one resource, with when the access token stops working. */
export interface TokenSet {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  /** The granted scope, space-separated, as the token endpoint said (or as asked, if it did not). */
  scope?: string;
  /** Milliseconds since the epoch, from `expires_in` at the time of receipt; absent if not said. */
  expires_at?: number;
  /** Milliseconds since the epoch: when the OAuth client received it (its lifetime sets how early it is refreshed). */
  issued_at?: number;
}

export interface StoredCredentials extends CredentialKey {
  client?: ClientRegistration;
  tokens?: TokenSet;
}

/** Where credentials live. Implementations must keep secrets from other users (the file store: mode 0600). */
export interface CredentialStore {
  load(key: CredentialKey): Promise<StoredCredentials | undefined>;
  save(credentials: StoredCredentials): Promise<void>;
  remove(key: CredentialKey): Promise<void>;
  /**
   * Changes one entry in one step: `edit` gets the entry as stored now and returns what to keep
   * (undefined: nothing), so that a change made meanwhile by another run is seen, not overwritten.
   * Resolves with what was kept. Optional: without it the OAuth client loads, then saves.
   */
  update?(key: CredentialKey, edit: (current: StoredCredentials | undefined) => StoredCredentials | undefined): Promise<StoredCredentials | undefined>;
  /**
   * Runs `work` while no other run (of this process or another sharing the store) runs one for
   * the same key: the OAuth client refreshes under it, so that a refresh token is spent once.
   * Optional: without it, only the refreshes of one OAuthClient are one at a time.
   */
  exclusive?<T>(key: CredentialKey, work: () => Promise<T>): Promise<T>;
}

/** The default: kept for the life of the process only. */
export class MemoryCredentialStore implements CredentialStore {
  readonly #entries = new Map<string, StoredCredentials>();
  /** Per key: the end of the last exclusive() work queued. */
  readonly #exclusive = new Map<string, Promise<void>>();

  async load(key: CredentialKey): Promise<StoredCredentials | undefined> {
    const found = this.#entries.get(storeKey(key));
    return found === undefined ? undefined : structuredClone(found);
  }

  async save(credentials: StoredCredentials): Promise<void> {
    this.#entries.set(storeKey(credentials), structuredClone(credentials));
  }

  async remove(key: CredentialKey): Promise<void> {
    this.#entries.delete(storeKey(key));
  }

  async update(key: CredentialKey, edit: (current: StoredCredentials | undefined) => StoredCredentials | undefined): Promise<StoredCredentials | undefined> {
    const kept = edit(await this.load(key));
    if (kept === undefined) this.#entries.delete(storeKey(key));
    else this.#entries.set(storeKey(key), structuredClone(kept));
    return structuredClone(kept);
  }

  exclusive<T>(key: CredentialKey, work: () => Promise<T>): Promise<T> {
    const name = storeKey(key);
    const result = (this.#exclusive.get(name) ?? Promise.resolve()).then(work);
    const settled = result.then(() => {}, () => {});
    this.#exclusive.set(name, settled);
    void settled.then(() => {
      if (this.#exclusive.get(name) === settled) this.#exclusive.delete(name);
    });
    return result;
  }
}

/** One string per (issuer, resource): JSON keeps the two apart whatever characters they hold. */
export function storeKey(key: CredentialKey): string {
  return JSON.stringify([key.issuer, key.resource]);
}
