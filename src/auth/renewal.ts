// Keeping a server's tokens fresh across runs that share one credential store: a refresh token is
// spent once (under the store's exclusive()), tokens another run renewed meanwhile are used rather
// than refreshed again, and nothing newer is ever written over with something older.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#refresh-tokens
// and OAuth 2.1 section 4.3.1 (an authorization server may rotate refresh tokens: each works once).

import { refreshTokens } from "./authorization-code.js";
import type { CredentialKey, CredentialStore, StoredCredentials, TokenSet } from "./credentials.js";
import type { Discovery } from "./discovery.js";
import type { FetchJsonOptions } from "./fetch-json.js";
import { OAuthError } from "./token-endpoint.js";

/**
 * A token this close to its expiry is refreshed first, if it can be: it could expire on its way to
 * the server. At most half its lifetime, or a short-lived token would be refreshed before every request.
 */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Newer tokens in place of `stale` (ones that expire, or that the server refused): those another
 * run stored meanwhile, else the refresh grant's. False if neither gives `usable` ones. Under the
 * store's exclusive() (every run sharing the file, one at a time), so that a refresh token is spent
 * once: an authorization server that rotates refresh tokens refuses the second use (invalid_grant).
 */
export async function renewTokens(store: CredentialStore, discovery: Discovery, fetchOptions: FetchJsonOptions, stale: TokenSet, usable: (tokens: TokenSet) => boolean): Promise<boolean> {
  const renew = () => renewExclusively(store, discovery, fetchOptions, stale, usable);
  return store.exclusive === undefined ? renew() : store.exclusive({ issuer: discovery.issuer, resource: discovery.resource }, renew);
}

async function renewExclusively(store: CredentialStore, discovery: Discovery, fetchOptions: FetchJsonOptions, stale: TokenSet, usable: (tokens: TokenSet) => boolean): Promise<boolean> {
  const key = { issuer: discovery.issuer, resource: discovery.resource };
  const newer = (tokens: TokenSet | undefined): boolean => tokens !== undefined && tokens.access_token !== stale.access_token && usable(tokens);
  // Read again here: the run that held exclusive() before may have refreshed them.
  const stored = await store.load(key);
  if (newer(stored?.tokens)) return true;
  const tokens = stored?.tokens;
  if (tokens?.refresh_token === undefined || stored?.client === undefined) return false;
  let fresh: TokenSet;
  try {
    fresh = issuedNow(await refreshTokens(discovery, stored.client, tokens, fetchOptions));
  } catch (error) {
    // invalid_grant and its kind: the refresh token is spent. Anything else (the network) is the caller's to see.
    if (!(error instanceof OAuthError)) throw error;
    // Forgotten only if still the one stored: a run outside exclusive() (another program) may have renewed them first.
    const kept = await changeEntry(store, key, (current) => {
      if (current?.tokens === undefined || current.tokens.refresh_token !== tokens.refresh_token) return current;
      const { refresh_token: _spent, ...rest } = current.tokens;
      return { ...current, tokens: rest };
    });
    return newer(kept?.tokens);
  }
  await changeEntry(store, key, (current) => ({ ...(current ?? stored), tokens: fresh }));
  return true;
}

/** Changes the stored entry in one step where the store can (update), else by load and save. */
export async function changeEntry(store: CredentialStore, key: CredentialKey, edit: (current: StoredCredentials | undefined) => StoredCredentials | undefined): Promise<StoredCredentials | undefined> {
  if (store.update !== undefined) return store.update(key, edit);
  const kept = edit(await store.load(key));
  if (kept === undefined) await store.remove(key);
  else await store.save(kept);
  return kept;
}

export function expired(tokens: TokenSet, now = Date.now()): boolean {
  return tokens.expires_at !== undefined && tokens.expires_at <= now;
}

export function expiresSoon(tokens: TokenSet, now = Date.now()): boolean {
  if (tokens.expires_at === undefined) return false;
  const margin = tokens.issued_at === undefined ? EXPIRY_MARGIN_MS : Math.min(EXPIRY_MARGIN_MS, (tokens.expires_at - tokens.issued_at) / 2);
  return tokens.expires_at - margin <= now;
}

/** `tokens` stamped with the time they were received, which the early-refresh margin is reckoned from. */
export function issuedNow(tokens: TokenSet): TokenSet {
  return { ...tokens, issued_at: Date.now() };
}
