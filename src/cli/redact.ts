// Keeping secrets out of what the CLI prints: every line it writes on stderr (--trace, errors,
// problems, the server's log) passes through one Redactor. It replaces the secrets it has been told
// of (the client secret, the values of credential headers, every token the credential store has
// seen) and whatever looks like one (an Authorization value, a token field of an OAuth answer).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-theft
// (tokens cached or logged can be used by whoever finds them). Results on stdout are the server's answers and are not redacted.
// (Control characters are another matter, of stdout and stderr alike: cli/output.ts terminalSafe.)

import type { CredentialKey, CredentialStore, StoredCredentials } from "../auth/credentials.js";

export const REDACTED = "[redacted]";

/** Header names whose values are credentials, and are never printed. */
const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|cookie|set-cookie)$|token|secret|api-?key|password/i;

/**
 * A bearer token after its scheme (RFC 6750 section 2.1: b64token), anywhere: a server may quote
 * our header back in an error. Eight characters at least, one of them not a letter, so that prose
 * ("Bearer authentication") is kept; a token we hold is replaced whatever it looks like. Not an
 * auth-param (`Bearer resource_metadata="..."`, a challenge): a name followed by "=" and a value.
 */
const BEARER_VALUE = /\b(Bearer|DPoP)(\s+)(?=[A-Za-z]*[0-9\-._~+/])[A-Za-z0-9\-._~+/]{8,}(?![A-Za-z0-9\-._~+/]|=+[A-Za-z0-9\-._~+/]|=+"[^\s",;)])=*/gi;

/** Another scheme's value where it follows the header's name (Basic carries base64 of id:secret). */
const AUTHORIZATION_VALUE = /(authorization["']?\s*[:=]\s*["']?(?:Basic|Digest|Negotiate|NTLM|Token)\s+)[^\s"',;)]+/gi;

/** The fields of OAuth requests and answers that carry secrets (RFC 6749, 7523, 7636, 8693). */
const SECRET_FIELD = /("(?:access_token|refresh_token|id_token|client_secret|code_verifier|client_assertion|subject_token|actor_token|registration_access_token)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/** The same names, and the authorization code, as URL query or form parameters. */
const SECRET_PARAMETER = /([?&](?:access_token|refresh_token|id_token|client_secret|code_verifier|client_assertion|subject_token|code)=)[^&#\s"]*/g;

/** Below this length a "secret" is too likely to occur in ordinary text to be replaced everywhere. */
const MIN_SECRET_LENGTH = 6;

export class Redactor {
  readonly #secrets = new Set<string>();

  /** Replaces `secret` wherever it appears from now on. */
  add(secret: string | undefined): void {
    if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) this.#secrets.add(secret);
  }

  /** A header the user gave: a credential header's value becomes a secret (after its scheme, if it has one). */
  addHeader(name: string, value: string): void {
    if (!CREDENTIAL_HEADER.test(name)) return;
    const schemed = /^[A-Za-z0-9-]+\s+(\S.*)$/.exec(value);
    this.add(schemed ? schemed[1] : value);
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so that a secret containing another is replaced whole.
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join(REDACTED);
    return out
      .replace(BEARER_VALUE, `$1$2${REDACTED}`)
      .replace(AUTHORIZATION_VALUE, `$1${REDACTED}`)
      .replace(SECRET_FIELD, `$1"${REDACTED}"`);
  }

  /** A URL for a trace line: redact(), and the values of secret query parameters (an authorization code). */
  redactUrl(url: string): string {
    return this.redact(url).replace(SECRET_PARAMETER, `$1${REDACTED}`);
  }

  /** `name: value` for a header in a trace line; a credential's value is reduced to its scheme. */
  header(name: string, value: string): string {
    if (!CREDENTIAL_HEADER.test(name)) return `${name}: ${this.redact(value)}`;
    const scheme = /^(\S+)\s+\S/.exec(value);
    return `${name}: ${scheme ? `${scheme[1]} ` : ""}${REDACTED}`;
  }

  /** `store`, learning every secret that passes through it, so that no later line can show one. */
  watch(store: CredentialStore): CredentialStore {
    const learn = (credentials: StoredCredentials | undefined): void => {
      this.add(credentials?.client?.client_secret);
      this.add(credentials?.tokens?.access_token);
      this.add(credentials?.tokens?.refresh_token);
    };
    const watched: CredentialStore = {
      load: async (key: CredentialKey) => {
        const found = await store.load(key);
        learn(found);
        return found;
      },
      save: async (credentials: StoredCredentials) => {
        learn(credentials);
        await store.save(credentials);
      },
      remove: (key: CredentialKey) => store.remove(key),
    };
    // The optional parts, only where the store has them (the OAuth client checks for them).
    const { update, exclusive } = store;
    if (update !== undefined) {
      watched.update = (key, edit) => update.call(store, key, (current) => {
        learn(current);
        const kept = edit(current);
        learn(kept);
        return kept;
      });
    }
    if (exclusive !== undefined) watched.exclusive = <T>(key: CredentialKey, work: () => Promise<T>) => exclusive.call<CredentialStore, [CredentialKey, () => Promise<T>], Promise<T>>(store, key, work);
    return watched;
  }
}
