// The two discovery documents of MCP authorization, and where untrusted JSON becomes them: the
// Protected Resource Metadata an MCP server publishes about itself (RFC 9728), and the metadata of
// the authorization server that issues its tokens (RFC 8414, or OpenID Connect Discovery 1.0).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-discovery
// Both readers keep unknown fields (the documents are open-ended) and check what our code reads:
// each named field's JSON type, and that the document names what we asked for.
// Left out: signed metadata (RFC 9728 section 2.2, RFC 8414 section 2.1); nothing here needs it.

import { isObject } from "../jsonrpc/messages.js";
import { excerpt, quoted } from "./fetch-json.js";

/** RFC 9728 section 2: what a protected resource (here, an MCP server) says about itself. */
export interface ProtectedResourceMetadata {
  /** The resource's identifier: an https (or loopback http) URL, no fragment. MUST equal the URL it was fetched for. */
  resource: string;
  /** Issuer identifiers of the authorization servers whose tokens it accepts. MCP: at least one. */
  authorization_servers?: string[];
  /** Scopes the resource uses in authorization requests (a client's fallback when a 401 names none). */
  scopes_supported?: string[];
  /** How a token may be presented: "header" is the only one MCP allows. */
  bearer_methods_supported?: string[];
  /** A person-readable name for consent screens. */
  resource_name?: string;
  [field: string]: unknown;
}

/** RFC 8414 section 2 (and OIDC Discovery's same-named fields): how to talk to an authorization server. */
export interface AuthorizationServerMetadata {
  /** The issuer identifier; MUST equal the issuer the document was fetched for (RFC 8414 section 3.3). */
  issuer: string;
  /** Where the person is sent for the authorization code grant. */
  authorization_endpoint?: string;
  /** Where codes, refresh tokens and other grants become access tokens. */
  token_endpoint?: string;
  /** RFC 7591 Dynamic Client Registration, if offered. */
  registration_endpoint?: string;
  /** The keys that sign its tokens (a JWK Set). */
  jwks_uri?: string;
  scopes_supported?: string[];
  response_types_supported?: string[];
  grant_types_supported?: string[];
  /** client_secret_basic (the default when absent), client_secret_post, none, private_key_jwt... */
  token_endpoint_auth_methods_supported?: string[];
  /** The JWS algorithms it accepts for private_key_jwt assertions (RS256, ES256...). */
  token_endpoint_auth_signing_alg_values_supported?: string[];
  /** MCP: a client MUST refuse to go on unless "S256" is listed (PKCE). */
  code_challenge_methods_supported?: string[];
  /** RFC 7662 token introspection, for opaque tokens. */
  introspection_endpoint?: string;
  /** RFC 9207: the authorization response carries `iss`, which the client then MUST check. */
  authorization_response_iss_parameter_supported?: boolean;
  /** MCP 2025-11-25: the server accepts an https URL as client_id (a Client ID Metadata Document). */
  client_id_metadata_document_supported?: boolean;
  [field: string]: unknown;
}

/** A discovery document that is missing, malformed, or names something other than what was asked. */
export class AuthMetadataError extends Error {
  constructor(readonly url: string, problem: string) {
    super(`${excerpt(url)}: ${problem}`);
    this.name = "AuthMetadataError";
  }
}

/**
 * Reads a Protected Resource Metadata document fetched from `url`. `expectedResource`, when given,
 * is the MCP server's canonical URL: RFC 9728 section 3.3 says a `resource` that differs MUST NOT be used.
 */
export function readProtectedResourceMetadata(json: unknown, url: string, expectedResource?: string): ProtectedResourceMetadata {
  const doc = fields(json, url);
  const resource = requiredString(doc, "resource", url);
  optionalStrings(doc, url, "authorization_servers", "scopes_supported", "bearer_methods_supported");
  optionalType(doc, url, "string", "resource_name");
  // Spec (RFC 9728 section 3.3): the resource named MUST be the one the metadata was asked for.
  if (expectedResource !== undefined && !sameResource(resource, expectedResource)) {
    throw new AuthMetadataError(url, `names the resource ${quoted(resource)}, not ${quoted(expectedResource)}`);
  }
  return doc as ProtectedResourceMetadata;
}

/** Reads authorization server metadata fetched from `url` for the issuer `expectedIssuer`. */
export function readAuthorizationServerMetadata(json: unknown, url: string, expectedIssuer: string): AuthorizationServerMetadata {
  const doc = fields(json, url);
  const issuer = requiredString(doc, "issuer", url);
  // Spec (RFC 8414 section 3.3): the issuer in the document MUST be identical to the one asked for.
  if (issuer !== expectedIssuer) throw new AuthMetadataError(url, `names the issuer ${quoted(issuer)}, not ${quoted(expectedIssuer)}`);
  optionalType(doc, url, "string", "authorization_endpoint", "token_endpoint", "registration_endpoint", "jwks_uri", "introspection_endpoint");
  optionalStrings(doc, url, "scopes_supported", "response_types_supported", "grant_types_supported", "token_endpoint_auth_methods_supported", "token_endpoint_auth_signing_alg_values_supported", "code_challenge_methods_supported");
  optionalType(doc, url, "boolean", "authorization_response_iss_parameter_supported", "client_id_metadata_document_supported");
  // Spec (authorization#communication-security): every authorization server endpoint MUST be https.
  // Checked here, where every endpoint the client or the resource server later uses is read.
  for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint", "jwks_uri", "introspection_endpoint"]) {
    if (doc[field] !== undefined && !isSecureUrl(doc[field] as string)) {
      throw new AuthMetadataError(url, `"${field}" must be an http(s) URL, and https unless it is on this machine (${quoted(doc[field])}); not used`);
    }
  }
  return doc as AuthorizationServerMetadata;
}

/**
 * RFC 8707 / RFC 9728: two resource identifiers are the same if they are equal after the URL
 * parser's normalisation (scheme and host lowercased, default port dropped), with or without one
 * trailing slash on an empty path: "https://a.example" and "https://a.example/" name one resource.
 */
export function sameResource(a: string, b: string): boolean {
  const canonical = (value: string) => {
    try {
      const url = new URL(value);
      url.hash = "";
      // The parser writes an empty path as "/": only that slash is dropped. "/mcp/" and "/mcp" are two paths.
      return url.pathname === "/" && url.search === "" ? url.href.slice(0, -1) : url.href;
    } catch {
      return value;
    }
  };
  return canonical(a) === canonical(b);
}

/**
 * https, or http to this machine only (127.0.0.0/8, ::1, localhost): what MCP allows for every
 * authorization endpoint and document. Spec (basic/authorization#communication-security): all
 * authorization server endpoints MUST be served over HTTPS; loopback is how development and tests
 * run (RFC 8252 section 8.3 treats it alike for redirects).
 */
export function isSecureUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === "https:") return true;
  if (url.protocol !== "http:") return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function isHttpUrl(value: string): boolean {
  try {
    const protocol = new URL(value).protocol;
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

function fields(json: unknown, url: string): { [key: string]: unknown } {
  if (!isObject(json)) throw new AuthMetadataError(url, "is not a JSON object");
  return json;
}

function requiredString(doc: { [key: string]: unknown }, field: string, url: string): string {
  const value = doc[field];
  if (typeof value !== "string" || value === "") throw new AuthMetadataError(url, `"${field}" must be a non-empty string`);
  return value;
}

function optionalType(doc: { [key: string]: unknown }, url: string, type: "string" | "boolean", ...names: string[]): void {
  for (const name of names) {
    if (doc[name] !== undefined && typeof doc[name] !== type) throw new AuthMetadataError(url, `"${name}" must be a ${type}`);
  }
}

function optionalStrings(doc: { [key: string]: unknown }, url: string, ...names: string[]): void {
  for (const name of names) {
    const value = doc[name];
    if (value !== undefined && !(Array.isArray(value) && value.every((item) => typeof item === "string"))) {
      throw new AuthMetadataError(url, `"${name}" must be an array of strings`);
    }
  }
}
