// The server's side of capability negotiation: what it declares, which client request it refuses
// with -32601 for want of a declared capability (each request's need is data in mcp/methods.ts,
// its one version rule in mcp/versions.ts), and what the client must have declared before the
// server asks it something (a missing one is a local error: nothing is sent), and the local error
// the client's error answer to such a request becomes.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation,
// client/sampling, client/elicitation and client/roots.

import { ErrorCode, RpcError } from "../jsonrpc/messages.js";
import type { ClientCapabilities, ServerCapabilities } from "../mcp/lifecycle.js";
import { SERVER_CAPABILITY_NEEDED, type ServerRequestMethod, type ServerRequests } from "../mcp/methods.js";
import { FIRST_VERSION_WITH, supports, undeclaredServerCapability, type ProtocolVersion } from "../mcp/versions.js";
import type { Catalog } from "./catalog.js";
import type { LifecycleState } from "./served.js";
import { appsExtension, rendersApps } from "../apps/server.js";

/**
 * What this server offers a client of `version`: each primitive the definition has, with
 * listChanged (the definition may change at run time), plus logging and, where the version has
 * the flag, completions. A `singleRequest` connection has no channel to send anything on its own, so it
 * offers neither list_changed notifications nor resource subscriptions: it could not deliver them.
 * A server with MCP Apps views declares that extension to a `client` that declared it (apps/server.ts):
 * Spec (extensions/overview#negotiation): each side advertises an extension in `capabilities.extensions`,
 * in initialize (SEP-2133) and in server/discover.
 */
export function declaredCapabilities(server: Catalog, version: ProtocolVersion, singleRequest = false, client: ClientCapabilities = {}): ServerCapabilities {
  const capabilities: ServerCapabilities = { logging: {} };
  const hasPrompts = server.offers("prompts");
  const hasResources = server.offers("resources") || server.offers("templates");
  if (hasPrompts || hasResources) {
    // 2024-11-05 has completion/complete but no capability flag for it.
    if (supports(version, "completionsCapability")) capabilities.completions = {};
  }
  const changes = singleRequest ? {} : { listChanged: true };
  if (hasPrompts) capabilities.prompts = { ...changes };
  if (hasResources) capabilities.resources = singleRequest ? {} : { subscribe: true, listChanged: true };
  if (server.offers("tools")) capabilities.tools = { ...changes };
  const extensions = appsExtension(server.resources(), client);
  if (extensions) capabilities.extensions = extensions;
  return capabilities;
}

/** What a server offers a client of one version: its capabilities, and the client requests they refuse. */
export interface Offer {
  readonly capabilities: ServerCapabilities;
  /** Each client request refused for want of a capability, with its -32601 error: one lookup per request. */
  readonly refused: ReadonlyMap<string, RpcError>;
}

/**
 * What an offer depends on is few: the version, whether the connection is for one request, and
 * which kinds the definition has, and whether MCP Apps is declared. So each is worked out once and shared, frozen, by every
 * connection that gets it (with a session per POST, or for a 2026-07-28 request, one per request).
 */
const OFFERS = new Map<ProtocolVersion, Offer[]>();

/** The offer to a client of `version` (declaredCapabilities), and what it refuses, from the shared cache. */
export function offerOf(server: Catalog, version: ProtocolVersion, singleRequest = false, client: ClientCapabilities = {}): Offer {
  // MCP Apps: declared to a client that renders views, by a server that has some (asked in that
  // order, so a client without the extension costs no look at the resources).
  const apps = rendersApps(client) && appsExtension(server.resources(), client) !== undefined;
  // What the offer depends on as five bits: a number to index by, where a string key cost a concatenation per request.
  const kinds = (singleRequest ? 1 : 0) | (server.offers("tools") ? 2 : 0) | (server.offers("resources") || server.offers("templates") ? 4 : 0) | (server.offers("prompts") ? 8 : 0) | (apps ? 16 : 0);
  let byKinds = OFFERS.get(version);
  if (!byKinds) OFFERS.set(version, (byKinds = []));
  let offer = byKinds[kinds];
  if (!offer) {
    const capabilities = deepFreeze(declaredCapabilities(server, version, singleRequest, apps ? client : {}));
    offer = byKinds[kinds] = { capabilities, refused: refusedMethods(version, capabilities) };
  }
  return offer;
}

function refusedMethods(version: ProtocolVersion, declared: ServerCapabilities): Map<string, RpcError> {
  const refused = new Map<string, RpcError>();
  for (const method of Object.keys(SERVER_CAPABILITY_NEEDED)) {
    const capability = undeclaredServerCapability(method, version, declared);
    // Spec (basic/lifecycle#operation): only negotiated capabilities may be used; -32601 otherwise.
    if (capability) refused.set(method, new RpcError(ErrorCode.MethodNotFound, `${method}: this server does not offer ${capability.name}`));
  }
  return refused;
}

/** Shared by every connection offered it, so no one of them may change it for the others. */
function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (typeof inner === "object" && inner !== null) deepFreeze(inner);
  return Object.freeze(value);
}

/** The server tried a request its client cannot take. Local: never sent on the wire. */
export class CapabilityError extends Error {
  constructor(method: string, why: string) {
    super(`${method}: ${why}`);
    this.name = "CapabilityError";
  }
}

/**
 * The client answered one of the server's requests with an error. Local: the code belongs to
 * that request, so it is never sent as the error of the client's request being handled (a tool
 * reports it in an isError result, any other handler's failure is -32603).
 */
export class ClientRequestError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(readonly method: ServerRequestMethod, answer: RpcError) {
    super(`${method}: the client answered ${answer.code} ${answer.message}`, { cause: answer });
    this.name = "ClientRequestError";
    this.code = answer.code;
    this.data = answer.data;
  }
}

/** What requireClientCapability reads of a connection: what its client declared, and where its handshake stands. */
export interface ClientDeclared {
  readonly clientCapabilities: ClientCapabilities;
  /** A connection made for one HTTP request: there is no channel back to the client. */
  readonly singleRequest: boolean;
  readonly state: LifecycleState;
  readonly protocolVersion: ProtocolVersion;
}

/**
 * Throws CapabilityError unless the client declared what `method` (with these params) needs. Only
 * these fields of the session are read, so the spec linter (recordings/check-rules-session.ts) asks too.
 */
export function requireClientCapability(session: ClientDeclared, method: ServerRequestMethod, params: ServerRequests[ServerRequestMethod]["params"] = {}): void {
  const client = session.clientCapabilities;
  if (session.singleRequest) {
    throw new CapabilityError(method, "a server that answers each HTTP request on its own (session per POST, or a 2026-07-28 request) has no channel back to the client; run it with sessions to send requests to the client");
  }
  // Spec (basic/lifecycle#initialization): no requests but ping before notifications/initialized.
  if (session.state !== "operating" && method !== "ping") {
    throw new CapabilityError(method, `the client has not finished initializing (state: ${session.state})`);
  }
  switch (method) {
    case "sampling/createMessage":
      // Spec (client/sampling#capabilities): sampling needs the client's `sampling` capability.
      if (!client.sampling) throw new CapabilityError(method, "the client did not declare the sampling capability");
      // Spec (client/sampling#tools-in-sampling): tools and toolChoice only with `sampling.tools`.
      const offersTools = ("tools" in params && params.tools !== undefined) || ("toolChoice" in params && params.toolChoice !== undefined);
      if (offersTools && !(client.sampling.tools && supports(session.protocolVersion, "samplingTools"))) {
        throw new CapabilityError(method, "the client did not declare sampling.tools, so tools and toolChoice cannot be sent");
      }
      return;
    case "elicitation/create": {
      if (!client.elicitation) throw new CapabilityError(method, "the client did not declare the elicitation capability");
      // A client may declare it to an older version (the Python SDK does): the method is not there to send.
      if (!supports(session.protocolVersion, "elicitation")) {
        throw new CapabilityError(method, `protocol ${session.protocolVersion} has no elicitation (it arrived in ${FIRST_VERSION_WITH.elicitation})`);
      }
      // Spec (client/elicitation#capabilities): an empty elicitation object means form mode only.
      const mode = ("mode" in params ? params.mode : undefined) ?? "form";
      const modes = Object.keys(client.elicitation).length === 0 ? ["form"] : Object.keys(client.elicitation);
      if (mode === "url" && !supports(session.protocolVersion, "urlElicitation")) {
        throw new CapabilityError(method, `protocol ${session.protocolVersion} has no URL-mode elicitation`);
      }
      // Spec (client/elicitation): servers MUST NOT send a mode the client did not declare.
      if (!modes.includes(mode)) throw new CapabilityError(method, `the client did not declare ${mode}-mode elicitation`);
      return;
    }
    case "roots/list":
      if (!client.roots) throw new CapabilityError(method, "the client did not declare the roots capability");
      return;
    default:
      return;
  }
}
