// Reading the `WWW-Authenticate` header of a 401 or 403: which scheme the server challenges with,
// and, for Bearer, where its Protected Resource Metadata is, which scope the request needs and
// what went wrong. One header may hold several challenges ("Basic realm=x, Bearer scope=y").
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#protected-resource-metadata-discovery-requirements
// RFC 9110 section 11.6.1 (challenge syntax: auth-params, quoted strings with backslash escapes),
// RFC 6750 section 3 (Bearer's error, error_description, scope), RFC 9728 section 5.1 (resource_metadata).
// Left out: token68 challenges (no Bearer parameter uses one); they are skipped.

/** What a Bearer challenge told us; each field absent if the server did not say. */
export interface BearerChallenge {
  /** RFC 9728 section 5.1: the URL of the server's Protected Resource Metadata. */
  resource_metadata?: string;
  /** Space-separated scopes the request needs (RFC 6750 section 3); authoritative for this request. */
  scope?: string;
  /** RFC 6750 section 3.1: invalid_request, invalid_token or insufficient_scope. */
  error?: string;
  error_description?: string;
}

/** A header longer than this is not read: no server needs 8 KiB to challenge, and a parser must stop somewhere. */
export const MAX_CHALLENGE_BYTES = 8 * 1024;

/**
 * The Bearer challenge in `header` (the scheme is case-insensitive), or undefined if there is none,
 * the header is longer than `maxLength`, or it cannot be parsed. A header we cannot read is treated
 * like a missing one: the client falls back to the well-known URLs, which is what it does without one.
 */
export function readBearerChallenge(header: string | null, maxLength = MAX_CHALLENGE_BYTES): BearerChallenge | undefined {
  if (header === null || header.length > maxLength) return undefined;
  const challenges = parseChallenges(header);
  const bearer = challenges?.find((challenge) => challenge.scheme.toLowerCase() === "bearer");
  if (bearer === undefined) return undefined;
  const result: BearerChallenge = {};
  for (const name of ["resource_metadata", "scope", "error", "error_description"] as const) {
    const value = bearer.params.get(name);
    if (value !== undefined) result[name] = value;
  }
  return result;
}

interface Challenge {
  scheme: string;
  /** Parameter names lowercased (RFC 9110: they are case-insensitive); the first of a repeated name wins. */
  params: Map<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;
const TOKEN68 = /^[A-Za-z0-9._~+/-]+=*/;

/**
 * RFC 9110 section 11.6.1: `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, and a header
 * is a comma-separated list of challenges. The difficulty is that commas separate both challenges
 * and parameters: a token not followed by "=" starts the next challenge. Undefined if malformed.
 */
function parseChallenges(header: string): Challenge[] | undefined {
  const challenges: Challenge[] = [];
  let rest = header;
  const skip = (pattern: RegExp) => (rest = rest.replace(pattern, ""));
  for (;;) {
    skip(/^[\s,]+/);
    if (rest === "") return challenges;
    const scheme = TOKEN.exec(rest)?.[0];
    if (scheme === undefined) return undefined;
    rest = rest.slice(scheme.length);
    const challenge: Challenge = { scheme, params: new Map() };
    challenges.push(challenge);
    // A token68 ("Basic dXNlcg==") follows the scheme after a space and stands alone before the next comma.
    const token68 = /^[ \t]+/.test(rest) ? TOKEN68.exec(rest.trimStart())?.[0] : undefined;
    if (token68 !== undefined && /^[ \t]*(,|$)/.test(rest.trimStart().slice(token68.length))) {
      rest = rest.trimStart().slice(token68.length);
      continue;
    }
    for (;;) {
      skip(/^[\s,]*/);
      const name = TOKEN.exec(rest)?.[0];
      // A token with no "=" after it is the next challenge's scheme.
      if (name === undefined || !/^[ \t]*=/.test(rest.slice(name.length))) break;
      rest = rest.slice(name.length).replace(/^[ \t]*=[ \t]*/, "");
      const value = readValue();
      if (value === undefined) return undefined;
      const key = name.toLowerCase();
      if (!challenge.params.has(key)) challenge.params.set(key, value);
    }
  }

  /** A token or a quoted-string (RFC 9110 section 5.6.4: a backslash escapes the next character). */
  function readValue(): string | undefined {
    if (!rest.startsWith('"')) {
      const token = TOKEN.exec(rest)?.[0];
      if (token === undefined) return undefined;
      rest = rest.slice(token.length);
      return token;
    }
    let value = "";
    for (let at = 1; at < rest.length; at++) {
      const char = rest[at]!;
      if (char === '"') {
        rest = rest.slice(at + 1);
        return value;
      }
      if (char === "\\") at++;
      if (at < rest.length) value += rest[at];
    }
    return undefined;
  }
}
