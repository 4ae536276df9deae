// Discovery: from an MCP server that answered 401 to the authorization server that can issue a
// token for it. First the server's Protected Resource Metadata (RFC 9728), from the URL its challenge
// named or else the well-known URLs, checked to describe this server; then the metadata of the
// first authorization server it names (RFC 8414, or OpenID Connect Discovery), checked to name that issuer.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-discovery
// Back-compat: a server without PRM is a 2025-03-26 server, whose own origin is the authorization
// server, with metadata at its root or else the default endpoints /authorize, /token and /register.
// https://modelcontextprotocol.io/specification/2025-03-26/basic/authorization#server-metadata-discovery
// Every URL here comes from a server: only https (or http on this machine) is fetched, through
// fetchJson's bounds; the MCP server's own URL is checked the same way before discovery starts
// (oauth-client.ts), so the well-known URLs and the 2025-03-26 defaults derived from it are too.

import { isObject } from "../jsonrpc/messages.js";
import type { BearerChallenge } from "./challenge.js";
import { excerpt, fetchJson, quoted, type FetchJsonOptions, type JsonAnswer } from "./fetch-json.js";
import {
  AuthMetadataError, isHttpUrl, isSecureUrl, readAuthorizationServerMetadata, readProtectedResourceMetadata,
  type AuthorizationServerMetadata, type ProtectedResourceMetadata,
} from "./metadata.js";

/** Where to get a token for one MCP server, and for which resource. */
export interface Discovery {
  /** The RFC 8707 `resource`: the PRM's `resource`, or the server's URL when it has no PRM. */
  resource: string;
  /** Absent for a 2025-03-26 server. */
  prm?: ProtectedResourceMetadata;
  issuer: string;
  metadata: AuthorizationServerMetadata;
}

const ACCEPT_JSON = { headers: { accept: "application/json" } };

/** Runs the discovery chain for `server` (the MCP endpoint's URL), given the 401's challenge. */
export async function discover(server: URL, challenge: BearerChallenge | undefined, options: FetchJsonOptions): Promise<Discovery> {
  const prm = await findProtectedResource(server, challenge, options);
  if (prm === undefined) return discoverLegacy(server, options);
  // Spec (authorization#authorization-server-location): the PRM MUST name at least one authorization server.
  const issuer = prm.document.authorization_servers?.[0];
  if (issuer === undefined) throw new AuthMetadataError(prm.url, 'names no authorization server ("authorization_servers")');
  // Spec (authorization#communication-security): authorization servers are reached over https only (or on this machine).
  if (!isSecureUrl(issuer)) throw new AuthMetadataError(prm.url, `names the authorization server ${quoted(issuer)}, which is not https (nor http on this machine); not used`);
  const metadata = await findAuthorizationServer(issuer, options);
  if (metadata === undefined) throw new AuthMetadataError(issuer, `no authorization server metadata at ${metadataUrls(issuer).map(excerpt).join(", ")}`);
  return { resource: prm.document.resource, prm: prm.document, issuer, metadata };
}

/**
 * Spec (authorization#protected-resource-metadata-discovery-requirements): the URL from the
 * challenge when there is one, else the path-aware well-known URL, then the root one.
 * A document that is not there (any status but 200) sends us to the next URL; one that is there but
 * wrong (not JSON, malformed, another resource) stops the discovery: it is the server's answer, and wrong.
 */
async function findProtectedResource(server: URL, challenge: BearerChallenge | undefined, options: FetchJsonOptions): Promise<{ document: ProtectedResourceMetadata; url: string } | undefined> {
  const pathAware = server.pathname === "/" ? [] : [new URL(`/.well-known/oauth-protected-resource${server.pathname.replace(/\/$/, "")}`, server).href];
  const named = challenge?.resource_metadata === undefined ? [] : [challenge.resource_metadata];
  // Spec (authorization#communication-security): a URL the server names is fetched over https only (or on this machine).
  if (named[0] !== undefined && !isSecureUrl(named[0])) {
    throw new AuthMetadataError(named[0], "named by the server's challenge (resource_metadata), is not https (nor http on this machine); not fetched");
  }
  for (const url of [...named, ...pathAware, new URL("/.well-known/oauth-protected-resource", server).href]) {
    const answer = await fetchJson("protected resource metadata", url, ACCEPT_JSON, options);
    if (!found(answer)) continue;
    const document = readProtectedResourceMetadata(answer.json, url);
    // Spec (RFC 9728 section 3.3): a PRM whose resource is not this server MUST NOT be used.
    if (!resourceCovers(document.resource, server)) {
      throw new AuthMetadataError(url, `names the resource ${quoted(document.resource)}, which is not ${server.origin}${server.pathname}; not used`);
    }
    return { document, url };
  }
  return undefined;
}

/**
 * RFC 9728 section 3.3, as MCP servers use it: the resource is the server's URL, or (metadata at the
 * root well-known URL) its origin. So a resource covers the server when the origins are equal and the
 * resource's path is the server's path or a whole-segment prefix of it.
 */
export function resourceCovers(resource: string, server: URL): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  if (named.origin !== server.origin || named.hash !== "" || named.search !== "") return false;
  const prefix = named.pathname.replace(/\/$/, "");
  const path = server.pathname.replace(/\/$/, "");
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Spec (authorization#authorization-server-metadata-discovery): for an issuer with a path, RFC 8414
 * path insertion, OIDC path insertion, OIDC path appending; without one, RFC 8414 then OIDC.
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  if (path === "") return [new URL("/.well-known/oauth-authorization-server", url).href, new URL("/.well-known/openid-configuration", url).href];
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url).href,
    new URL(`/.well-known/openid-configuration${path}`, url).href,
    new URL(`${path}/.well-known/openid-configuration`, url).href,
  ];
}

/** The issuer's metadata at the first of its well-known URLs that has it; undefined if none does. The resource server uses it too (jwks.ts). */
export async function findAuthorizationServer(issuer: string, options: FetchJsonOptions): Promise<AuthorizationServerMetadata | undefined> {
  for (const url of metadataUrls(issuer)) {
    const answer = await fetchJson("authorization server metadata", url, ACCEPT_JSON, options);
    if (found(answer)) return readAuthorizationServerMetadata(answer.json, url, issuer);
  }
  return undefined;
}

/**
 * Spec (2025-03-26 authorization#server-metadata-discovery): the authorization base URL is the MCP
 * server's URL without its path; its RFC 8414 metadata, else the default endpoints there.
 */
async function discoverLegacy(server: URL, options: FetchJsonOptions): Promise<Discovery> {
  const resource = `${server.origin}${server.pathname}`;
  const url = new URL("/.well-known/oauth-authorization-server", server).href;
  const answer = await fetchJson("authorization server metadata (2025-03-26)", url, ACCEPT_JSON, options);
  if (found(answer)) {
    // Leniency: such servers often name an issuer with a path (e.g. /oauth) while serving the
    // document at the root, which RFC 8414 did not allow; the same origin is what we insist on.
    const named = isObject(answer.json) ? answer.json.issuer : undefined;
    const issuer = typeof named === "string" && isHttpUrl(named) && new URL(named).origin === server.origin ? named : server.origin;
    return { resource, issuer, metadata: readAuthorizationServerMetadata(answer.json, url, issuer) };
  }
  const metadata: AuthorizationServerMetadata = {
    issuer: server.origin,
    authorization_endpoint: new URL("/authorize", server).href,
    token_endpoint: new URL("/token", server).href,
    registration_endpoint: new URL("/register", server).href,
    // 2025-03-26 required PKCE of every client and server; there is no document to say S256, so we do.
    code_challenge_methods_supported: ["S256"],
  };
  return { resource, issuer: server.origin, metadata };
}

/** A document is there: a 200 (whose body the reader then checks: not JSON is an error, not a miss). */
function found(answer: JsonAnswer): boolean {
  return answer.status === 200;
}
