// The shape of what the credentials file holds (auth/file-store.ts), checked when it is read and
// before it is written: each entry names its issuer and resource, under the key they make, and
// its client and tokens have the types credentials.ts gives them. An entry the OAuth client would
// trip over (a token that is an object, an expiry that is text or Infinity) is not used.

import { isObject } from "../jsonrpc/messages.js";
import { storeKey, type ClientRegistration, type StoredCredentials, type TokenSet } from "./credentials.js";

/** Whether `entry`, found under `key`, is one the OAuth client can use as it is. */
export function isStoredEntry(key: string, entry: unknown): entry is StoredCredentials {
  return isObject(entry) && typeof entry.issuer === "string" && typeof entry.resource === "string" && key === storeKey({ issuer: entry.issuer, resource: entry.resource }) &&
    (entry.client === undefined || isClientRegistration(entry.client)) && (entry.tokens === undefined || isTokenSet(entry.tokens));
}

function isClientRegistration(value: unknown): value is ClientRegistration {
  return isObject(value) && typeof value.client_id === "string" && optional(value.issuer, "string") && optional(value.client_secret, "string") &&
    optional(value.client_secret_expires_at, "number") && optional(value.token_endpoint_auth_method, "string") &&
    (value.redirect_uris === undefined || (Array.isArray(value.redirect_uris) && value.redirect_uris.every((uri) => typeof uri === "string")));
}

function isTokenSet(value: unknown): value is TokenSet {
  return isObject(value) && typeof value.access_token === "string" && typeof value.token_type === "string" &&
    optional(value.refresh_token, "string") && optional(value.scope, "string") && optional(value.expires_at, "number") && optional(value.issued_at, "number");
}

/**
 * Absent, or of that JSON type; a number also finite. JSON.parse reads 1e400 as Infinity, and
 * JSON.stringify writes Infinity as null: neither may pass from one run to the next.
 */
function optional(value: unknown, type: "string" | "number"): boolean {
  return value === undefined || (typeof value === type && (type !== "number" || Number.isFinite(value)));
}
