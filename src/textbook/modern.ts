// Stage two: 2026-07-28 on the same connection. No handshake: each request carries its own
// envelope in params._meta ([M]/basic/versioning), so the server answers either generation, by
// what each request claims. The production edition adds input rounds, listen and caching choices
// (src/server/modern/).
import { lookup, type Route } from "./connection.js";
import { INVALID_PARAMS, isObject, METHOD_NOT_FOUND, RESOURCE_NOT_FOUND } from "./wire.js";
import { RpcError, type Params } from "./wire.js";
import { LEVELS, need, VERSION, type Server } from "./server.js";

export const MODERN = "2026-07-28";
const NS = "io.modelcontextprotocol/"; // [M]/basic#meta: the protocol's own _meta keys
const UNSUPPORTED_VERSION = -32022; // [M]/basic/versioning: with the versions served
// [M]/basic/versioning: the handshake era's own methods are not methods of 2026-07-28.
const HANDSHAKE_ONLY = ["initialize", "ping", "logging/setLevel", "resources/subscribe",
  "resources/unsubscribe"];
// [M]/basic/utilities/caching: how long a result may be reused, and by whom.
const FOREVER = { ttlMs: 60_000, cacheScope: "public" }, STALE = { ttlMs: 0, cacheScope: "public" };
const CACHED: Record<string, Params> = { "server/discover": FOREVER, "tools/list": STALE,
  "prompts/list": STALE, "resources/list": STALE, "resources/templates/list": STALE,
  "resources/read": STALE };

/** A route for both generations: what claims 2026-07-28 is served here, the rest by `server`. */
export function modern(server: Server): Route {
  const { serverInfo } = server.definition;
  const discover = () => ({ // [M]/server/discover
    supportedVersions: [MODERN], // [M]/basic/versioning: the versions served without a handshake
    capabilities: server.capabilities, // what initialize used to say
    _meta: { [`${NS}serverInfo`]: serverInfo } }); // [M]/basic#meta: who answers, in full
  return (request, context) => {
    const { method, params = {} } = request;
    // [M]/basic/versioning: a request without _meta's protocolVersion is the handshake era's.
    if (!isObject(params._meta) || !(`${NS}protocolVersion` in params._meta)) {
      return server.route(request, context);
    }
    // An initialize that is not a whole 2026-07-28 claim is the handshake, as it always was.
    const claim = method === "initialize" ? tryEnvelope(method, params._meta) : undefined;
    if (method === "initialize" && claim?.version !== MODERN) return server.route(request, context);
    const { version, logLevel } = claim ?? envelope(method, params._meta);
    if (version !== MODERN) {
      const why = `Unsupported protocol version: ${version}`, supported = [MODERN, VERSION];
      throw new RpcError(UNSUPPORTED_VERSION, why, { supported, requested: version });
    }
    if (HANDSHAKE_ONLY.includes(method)) {
      const era = "(it belongs to the handshake era, 2025-11-25 and before)";
      throw new RpcError(METHOD_NOT_FOUND, `${method}: not a method of protocol ${MODERN} ${era}`);
    }
    const handler = method === "server/discover" ? discover : lookup(server.table, method);
    context.logLevel = logLevel ?? null; // [M]/server/utilities/logging: the request's own level
    const complete = (result: Params) => ({ ...result,
      _meta: { [`${NS}serverInfo`]: { name: serverInfo.name, version: serverInfo.version } },
      resultType: "complete", // [M]/basic#results: complete (input_required: not this edition)
      ...CACHED[method] }); // [M]/basic/utilities/caching
    const translate = (error: unknown): never => { // [M]/basic#error-codes: no -32002 any more
      if (!(error instanceof RpcError) || error.code !== RESOURCE_NOT_FOUND) throw error;
      throw new RpcError(INVALID_PARAMS, error.message, error.data);
    };
    try {
      const result = handler(params, context);
      return result instanceof Promise ? result.then(complete, translate) : complete(result);
    } catch (error) {
      return translate(error);
    }
  };
}

function tryEnvelope(method: string, meta: Params) {
  try { return envelope(method, meta); } catch { return undefined; }
}

/** The request's envelope in _meta, each field checked ([M]/basic/versioning#request-metadata). */
function envelope(method: string, meta: Params): { version: string; logLevel?: string } {
  const [version, info, logLevel] = [meta[`${NS}protocolVersion`], meta[`${NS}clientInfo`],
    meta[`${NS}logLevel`]];
  need(method, meta, { [`${NS}protocolVersion`]: "string", [`${NS}clientCapabilities`]: "object" });
  if (info !== undefined) { // optional, but whole if there
    need(method, meta, { [`${NS}clientInfo`]: "object" });
    need(method, info as Params, { name: "string", version: "string" });
  }
  if (logLevel !== undefined && !LEVELS.includes(logLevel as string)) {
    const choices = `must be one of ${LEVELS.join(", ")}, got ${JSON.stringify(logLevel)}`;
    throw new RpcError(INVALID_PARAMS, `${method}: "_meta.${NS}logLevel" ${choices}`);
  }
  return { version: version as string, logLevel: logLevel as string | undefined };
}
