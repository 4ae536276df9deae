// Stage two: 2026-07-28 on the same connection. No handshake: each request carries its own
// envelope in params._meta ([M]/basic/versioning), and the server answers either generation, by
// what each request claims. Production: src/server/modern/ (and input rounds, listen, caching).
import { lookup, type Context, type Route } from "./connection.js";
import { INVALID_PARAMS, isObject, METHOD_NOT_FOUND, RESOURCE_NOT_FOUND, RpcError } from "./wire.js";
import { typeName, type Params } from "./wire.js";
import { invalid, LEVELS, need, VERSION, type Server } from "./server.js";

export const MODERN = "2026-07-28";
const NS = "io.modelcontextprotocol/"; // [M]/basic#meta: the protocol's own _meta keys
const UNSUPPORTED_VERSION = -32022; // [M]/basic/versioning#errors
// [M]/basic/versioning: the handshake era's methods are not methods of 2026-07-28.
const HANDSHAKE_ONLY = ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"];
// [M]/basic/utilities/caching: how long a result may be reused, and by whom.
const FOREVER = { ttlMs: 60_000, cacheScope: "public" };
const STALE = { ttlMs: 0, cacheScope: "public" };
const CACHED: Record<string, Params> = {
  "server/discover": FOREVER, "tools/list": STALE, "prompts/list": STALE, "resources/list": STALE,
  "resources/templates/list": STALE, "resources/read": STALE,
};

/** A route for both generations: a request claiming 2026-07-28 is served here, any other by `server`. */
export function modern(server: Server): Route {
  const { name, version } = server.definition.serverInfo;
  const discover = () => ({ // [M]/server/discover
    supportedVersions: [MODERN], // [M]/basic/versioning: the versions served without a handshake
    capabilities: server.capabilities, // [M]/server/discover: what initialize used to say
    instructions: server.definition.instructions,
    _meta: { [`${NS}serverInfo`]: server.definition.serverInfo }, // [M]/basic#meta: who answers
  });
  return (request, context: Context) => {
    const params = request.params ?? {};
    const meta = params._meta;
    // [M]/basic/versioning: a request without protocolVersion in _meta is the handshake era's.
    if (!isObject(meta) || !(`${NS}protocolVersion` in meta)) return server.route(request, context);
    const envelope = readEnvelope(request.method, meta);
    if (envelope.version !== MODERN) {
      const supported = [MODERN, VERSION]; // newest first
      const requested = envelope.version;
      throw new RpcError(UNSUPPORTED_VERSION, `Unsupported protocol version: ${requested}`, { supported, requested });
    }
    if (HANDSHAKE_ONLY.includes(request.method)) {
      throw new RpcError(METHOD_NOT_FOUND, `${request.method}: not a method of protocol ${MODERN} ` +
        "(it belongs to the handshake era, 2025-11-25 and before)");
    }
    const handler = request.method === "server/discover" ? discover : lookup(server.table, request.method);
    // [M]/server/utilities/logging: a request hears logs only at the level it asks for.
    context.logLevel = envelope.logLevel ?? null;
    const decorate = (result: Params) => ({
      _meta: { [`${NS}serverInfo`]: { name, version } }, // [M]/basic#meta: serverInfo on every result
      ...result,
      resultType: "complete", // [M]/basic#results: complete, or input_required (not in this edition)
      ...CACHED[request.method], // [M]/basic/utilities/caching
    });
    const translate = (error: unknown): never => {
      // [M]/basic#error-codes: an unknown resource is invalid params, with its uri.
      if (!(error instanceof RpcError) || error.code !== RESOURCE_NOT_FOUND) throw error;
      throw new RpcError(INVALID_PARAMS, error.message, error.data);
    };
    try {
      const result = handler(params, context);
      return result instanceof Promise ? result.then(decorate, translate) : decorate(result);
    } catch (error) {
      return translate(error);
    }
  };
}

/** The request's envelope, each field checked ([M]/basic/versioning#request-metadata). */
function readEnvelope(method: string, meta: Params): { version: string; logLevel?: string } {
  const field = (key: string) => `_meta.${NS}${key}`;
  const version = meta[`${NS}protocolVersion`];
  if (typeof version !== "string") {
    throw invalid(method, field("protocolVersion"), `must be a string, got ${typeName(version)}`);
  }
  need(meta, `${NS}clientCapabilities`, method, field("clientCapabilities"), "object");
  const info = meta[`${NS}clientInfo`];
  if (info !== undefined) { // [M]/basic/versioning: clientInfo is optional, whole if given
    const clientInfo = need<Params>(meta, `${NS}clientInfo`, method, field("clientInfo"), "object");
    for (const key of ["name", "version"]) need(clientInfo, key, method, `${field("clientInfo")}.${key}`);
  }
  const logLevel = meta[`${NS}logLevel`];
  if (logLevel !== undefined && !LEVELS.includes(logLevel as string)) {
    throw invalid(method, field("logLevel"), `must be one of ${LEVELS.join(", ")}, got ${JSON.stringify(logLevel)}`);
  }
  return { version, logLevel: logLevel as string | undefined };
}
