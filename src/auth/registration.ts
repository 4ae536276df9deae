// Who the client is at an authorization server, in the spec's order of preference: credentials
// registered beforehand, a Client ID Metadata Document URL when the server accepts one, or a
// registration made on the spot (Dynamic Client Registration); and how it then authenticates at
// the token endpoint.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#client-registration-approaches
// RFC 7591 sections 2 (client metadata) and 3 (the registration request and answer); 2026-07-28:
// `application_type` ("native" for a loopback redirect URI, as OIDC Registration defines it).
// Left out: hosting the CIMD document (the application publishes it at its https URL).

import type { ClientRegistration } from "./credentials.js";
import { AuthFetchError, fetchJson, type FetchJsonOptions } from "./fetch-json.js";
import type { AuthorizationServerMetadata } from "./metadata.js";
import { isSeconds, MAX_SECONDS, refusal, type ClientAuthentication } from "./token-endpoint.js";
import { isObject } from "../jsonrpc/messages.js";

/**
 * The longest client_id a registration may give us. RFC 7591 sets none; real ones are short, a
 * CIMD URL a few hundred characters at most.
 */
export const MAX_CLIENT_ID_CHARACTERS = 1024;

export interface RegistrationRequest {
  issuer: string;
  metadata: AuthorizationServerMetadata;
  redirectUri: string;
  /** The application's pre-registered credentials, if any: used only at the issuer they name. */
  client?: ClientRegistration;
  /** The application's pre-registered credentials for `issuer`, when it keeps some per issuer. */
  clientFor?: (issuer: string) => ClientRegistration | undefined;
  /** A registration kept from before (the store), reused while it is still good for `redirectUri`. */
  stored?: ClientRegistration;
  /** Our Client ID Metadata Document URL (https, with a path). */
  clientMetadataUrl?: string;
  clientName: string;
  fetchOptions: FetchJsonOptions;
  now?: () => number;
}

/** No way to obtain a client_id at this authorization server. Local: the message says what to configure. */
export class ClientRegistrationError extends Error {
  constructor(issuer: string, problem: string) {
    super(`client registration at ${issuer}: ${problem}`);
    this.name = "ClientRegistrationError";
  }
}

/** The client to use, and whether it is new (a fresh DCR answer, which the caller keeps in the store). */
export async function registerClient(request: RegistrationRequest): Promise<{ client: ClientRegistration; registered: boolean }> {
  const { issuer, metadata, redirectUri, clientMetadataUrl } = request;
  // Spec (authorization#client-registration-approaches): pre-registered first, then CIMD, then DCR.
  const preRegistered = preRegisteredFor(request);
  if (preRegistered !== undefined) return { client: preRegistered, registered: false };
  if (metadata.client_id_metadata_document_supported === true && clientMetadataUrl !== undefined) {
    // Spec (authorization#client-id-metadata-documents): the client_id URL MUST be https and have a path.
    const url = new URL(clientMetadataUrl);
    if (url.protocol !== "https:" || url.pathname === "/") throw new ClientRegistrationError(issuer, `the client metadata URL ${clientMetadataUrl} must be https with a path`);
    return { client: { client_id: clientMetadataUrl, token_endpoint_auth_method: "none" }, registered: false };
  }
  if (request.stored && stillGood(request.stored, redirectUri, (request.now ?? Date.now)())) return { client: request.stored, registered: false };
  if (metadata.registration_endpoint === undefined) {
    throw new ClientRegistrationError(issuer, "the server offers neither dynamic registration nor client ID metadata documents; configure a pre-registered client (client_id, client_secret)");
  }
  return { client: await registerDynamically(request, metadata.registration_endpoint), registered: true };
}

/**
 * The pre-registered credentials for `issuer`: `client` when it names that issuer, else what
 * `clientFor` gives. Credentials are issued by one authorization server for it alone (RFC 6749
 * section 2): any MCP server may name any issuer, so `client` registered elsewhere is refused rather
 * than sent there. The error names both issuers, never the secret.
 */
function preRegisteredFor(request: RegistrationRequest): ClientRegistration | undefined {
  const { issuer, client, clientFor } = request;
  if (client !== undefined && client.issuer === undefined) {
    throw new ClientRegistrationError(issuer, `the pre-registered client ${JSON.stringify(client.client_id)} names no issuer; say which authorization server it is registered at (ClientRegistration.issuer)`);
  }
  if (client !== undefined && client.issuer === issuer) return client;
  const chosen = clientFor?.(issuer);
  if (chosen !== undefined) {
    if (chosen.issuer !== undefined && chosen.issuer !== issuer) {
      throw new ClientRegistrationError(issuer, `clientFor gave a client registered at ${chosen.issuer}; its credentials are not sent to another authorization server`);
    }
    return { ...chosen, issuer };
  }
  if (client !== undefined) {
    throw new ClientRegistrationError(issuer, `the pre-registered client ${JSON.stringify(client.client_id)} is registered at ${client.issuer}, not at ${issuer} (the authorization server this MCP server names); its credentials are not sent there`);
  }
  return undefined;
}

/**
 * A kept registration is reused if its secret has not expired and it was made for this redirect
 * URI, or for a loopback one that differs only in port: the listener takes a free port each time.
 */
function stillGood(client: ClientRegistration, redirectUri: string, now: number): boolean {
  const expires = client.client_secret_expires_at ?? 0;
  if (expires !== 0 && expires * 1000 <= now) return false;
  return client.redirect_uris === undefined || client.redirect_uris.some((registered) => registered === redirectUri || sameButPort(registered, redirectUri));
}

/**
 * RFC 8252 section 7.3: for a loopback IP literal redirect URI the authorization server "MUST allow
 * any port to be specified at the time of the request"; so one registered with another port (or
 * none) is this one. Only the IP literals: "localhost" is not a loopback redirect there (section 8.3).
 */
function sameButPort(registered: string, asked: string): boolean {
  try {
    const [a, b] = [new URL(registered), new URL(asked)];
    const literal = (url: URL) => url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "[::1]");
    return literal(a) && literal(b) && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search && a.hash === b.hash && a.username === "" && b.username === "" && a.password === "" && b.password === "";
  } catch {
    return false;
  }
}

/** RFC 7591 section 3.1: POST our metadata as JSON; 201 with the client information (section 3.2.1). */
async function registerDynamically(request: RegistrationRequest, endpoint: string): Promise<ClientRegistration> {
  const step = "dynamic client registration";
  const method = preferredAuthMethod(request.metadata);
  const body = {
    redirect_uris: [request.redirectUri],
    client_name: request.clientName,
    // Spec (2026-07-28 authorization#refresh-tokens, SEP-2207): a client that wants refresh tokens SHOULD list the grant.
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    ...(method !== undefined && { token_endpoint_auth_method: method }),
    // Spec (2026-07-28 authorization/client-registration#application-type-and-redirect-uri-constraints): MUST send one; native for loopback.
    application_type: isLoopback(request.redirectUri) ? "native" : "web",
  };
  const init = { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) };
  const answer = await fetchJson(step, endpoint, init, request.fetchOptions);
  if (answer.status !== 201 && answer.status !== 200) throw refusal(step, answer.status, answer.json, answer.url);
  const json = answer.json;
  if (!isObject(json) || typeof json.client_id !== "string" || json.client_id === "") throw new AuthFetchError(step, answer.url, 'the answer has no "client_id"');
  // It goes into every authorization URL (which the CLI prints) and into the credentials file.
  if (json.client_id.length > MAX_CLIENT_ID_CHARACTERS) throw new AuthFetchError(step, answer.url, `the "client_id" is longer than ${MAX_CLIENT_ID_CHARACTERS} characters (${json.client_id.length.toLocaleString("en-US")})`);
  const client: ClientRegistration = { client_id: json.client_id, redirect_uris: [request.redirectUri] };
  if (typeof json.client_secret === "string") client.client_secret = json.client_secret;
  if (json.client_secret_expires_at !== undefined) {
    // JSON.parse reads 1e400 as Infinity, which the credentials file could not keep.
    if (!isSeconds(json.client_secret_expires_at)) throw new AuthFetchError(step, answer.url, `"client_secret_expires_at" must be seconds since the epoch from 0 to ${MAX_SECONDS} (0: never)`);
    client.client_secret_expires_at = json.client_secret_expires_at;
  }
  const granted = typeof json.token_endpoint_auth_method === "string" ? json.token_endpoint_auth_method : method;
  if (granted !== undefined) client.token_endpoint_auth_method = granted;
  return client;
}

/**
 * What we ask to register with: "none" when the server takes public clients (we are one: a CLI
 * cannot keep a secret from its user), else a secret sent the way the server prefers.
 * RFC 8414 section 2: an absent list means client_secret_basic only.
 */
function preferredAuthMethod(metadata: AuthorizationServerMetadata): string | undefined {
  const supported = metadata.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  return ["none", "client_secret_basic", "client_secret_post"].find((method) => supported.includes(method));
}

/**
 * How `client` authenticates at the token endpoint: as it registered, else by its secret (basic unless
 * the server supports only post), else as a public client.
 */
export function clientAuthentication(client: ClientRegistration, metadata: AuthorizationServerMetadata): ClientAuthentication {
  const { client_id, client_secret } = client;
  const method = client.token_endpoint_auth_method;
  if (client_secret === undefined || method === "none") return { method: "none", client_id };
  if (method === "client_secret_basic" || method === "client_secret_post") return { method, client_id, client_secret };
  const supported = metadata.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  const chosen = supported.includes("client_secret_basic") || !supported.includes("client_secret_post") ? "client_secret_basic" : "client_secret_post";
  return { method: chosen, client_id, client_secret };
}

/** RFC 8252 section 7.3: a redirect to the loopback interface is a native application's. */
export function isLoopback(uri: string): boolean {
  try {
    const { protocol, hostname } = new URL(uri);
    return protocol === "http:" && (hostname === "127.0.0.1" || hostname === "[::1]" || hostname === "localhost");
  } catch {
    return false;
  }
}
