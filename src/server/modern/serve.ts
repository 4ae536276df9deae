// Textbook: modern in src/textbook/modern.ts; this adds input rounds (signed requestState), listen,
//  caching hints per item.
// How a 2026-07-28 request is served, once the server judged its era (server/era-dispatcher.ts):
// its envelope checked (envelope.ts), then its handler run with a ModernRequest (request.ts) as its
// context and its params read with the retry fields (mcp/read-modern.ts); the three methods that
// may ask the client for input run their handler in input rounds (input-rounds.ts), and every
// answer takes the modern shape (results.ts). A handshake-era request never comes here.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr and basic#results.

import { ErrorCode, RpcError, type JSONRPCRequest } from "../../jsonrpc/messages.js";
import { FieldReader } from "../../jsonrpc/field-reader.js";
import type { Implementation } from "../../mcp/lifecycle.js";
import { CACHEABLE_METHODS, INPUT_REQUIRED_METHODS, type ClientRequestMethod } from "../../mcp/methods.js";
import { readModernRequestParams } from "../../mcp/read-modern.js";
import { LATEST_MODERN_VERSION } from "../../mcp/versions.js";
import type { RequestContext } from "../../protocol/method-table.js";
import type { Catalog } from "../catalog.js";
import { implementationFor } from "../compat.js";
import type { ClientRequestHandlers, ServingConnection } from "../serving.js";
import { envelopeRefusal, type CheckedEnvelope } from "./envelope.js";
import { InputRounds } from "./input-rounds.js";
import { ModernRequest } from "./request.js";
import { completeResult, modernError, NO_CACHING, type CacheHint } from "./results.js";

type Json = { [key: string]: unknown };

/** What serving a 2026-07-28 request takes of its connection (ServerConnection is one). */
export interface ModernServing {
  readonly server: Catalog;
  /** Whom the connection's requests speak for, if the transport authenticated them. */
  readonly principal: string | undefined;
  /** The request's envelope, checked against what the server offers; throws the RpcError to answer with. */
  checkModern(method: string, meta: { [key: string]: unknown }): CheckedEnvelope;
}

/**
 * Serves one request judged 2026-07-28 by its `meta` (the envelope's claim), with `handlers` (every
 * method of either era: a handshake-only one is refused by checkModern). Throws a refusal at once;
 * the checks come in the order of the handshake era's dispatch: the method first, then the batch,
 * then the envelope, before the params are read (our order, PROTOCOL_NOTES.md, "The era of each
 * message"; the spec fixes none).
 */
export function serveModernRequest(connection: ModernServing & ServingConnection, handlers: ClientRequestHandlers, request: JSONRPCRequest, context: RequestContext, meta: Json): Promise<Json> {
  const method = request.method;
  // Spec (basic#responses): an unknown method is -32601; its envelope (-32602) and version (-32022)
  // are judged first, as on HTTP.
  if (!Object.hasOwn(handlers, method)) throw envelopeRefusal(method, meta) ?? new RpcError(ErrorCode.MethodNotFound, `method not found: ${method}`);
  const params = new FieldReader(method, request.params);
  // Spec (2026-07-28 basic): no batches. One allowed by the connection's 2025-03-26 handshake
  // (its wire rules) carries no modern request.
  if (context.inBatch) throw new RpcError(ErrorCode.InvalidRequest, `${method}: a 2026-07-28 request cannot be part of a JSON-RPC batch`);
  const served = new ModernRequest(context, connection.checkModern(method, meta), connection.principal);
  const known = method as ClientRequestMethod;
  const serve = INPUT_REQUIRED_METHODS.includes(known) ? serveAsking : serveComplete;
  return serve(connection, handlers, known, params, served);
}

/** The method's handler on its params, read as a 2026-07-28 request's. */
function run<M extends ClientRequestMethod>(connection: ServingConnection, handlers: ClientRequestHandlers, method: M, params: FieldReader, request: ModernRequest): Promise<Json> | Json {
  return handlers[method]!(readModernRequestParams[method](params), request, connection);
}

async function serveComplete(connection: ServingConnection, handlers: ClientRequestHandlers, method: ClientRequestMethod, params: FieldReader, request: ModernRequest): Promise<Json> {
  const server = connection.server;
  try {
    return completeResult(await run(connection, handlers, method, params, request), serverInfoOf(server, method), cacheHint(server, method, params));
  } catch (error) {
    throw modernError(error);
  }
}

/**
 * A method whose handler may ask the client for input: settled by whichever comes first, the
 * handler's result or its asks. Its InputRounds (input-rounds.ts) are made only once needed: at
 * once for a retry that carries a requestState, otherwise at the handler's first ask or look at its
 * signal. Most calls do neither and cost one promise, not the rounds' state (`npm run bench`).
 */
function serveAsking(connection: ServingConnection, handlers: ClientRequestHandlers, method: ClientRequestMethod, params: FieldReader, request: ModernRequest): Promise<Json> {
  const server = connection.server;
  return new Promise<Json>((resolve, reject) => {
    const fail = (error: unknown): void => reject(modernError(error));
    request.roundsWhenNeeded(() => {
      const rounds = new InputRounds(method, params.value, request, server.requestStates, server.maxInputAsks, server.maxInputRounds);
      rounds.settleWith((needsInput) => {
        try {
          resolve(rounds.inputRequired(needsInput, serverInfoOf(server, method)));
        } catch (error) {
          fail(error);
        }
      }, fail);
      return rounds;
    });
    try {
      const serve = () => run(connection, handlers, method, params, request);
      Promise.resolve(params.value.requestState === undefined ? serve() : runRetry(request, serve)).then((result) => {
        try {
          const rounds = request.rounds;
          if (rounds && !rounds.answers()) return;
          resolve(completeResult(result, serverInfoOf(server, method), cacheHint(server, method, params)));
        } catch (error) {
          fail(error);
        }
      }, fail);
    } catch (error) {
      fail(error);
    }
  });
}

/**
 * Runs a retry's handler once its requestState is opened and, in a fleet (RequestStateOptions.sharedUses),
 * claimed in the store every process shares: a forged, expired or used-up one is refused (thrown)
 * before the handler runs, and so is one claimed first elsewhere. A run that fails releases the
 * claim (InputRounds.settled), so the client may retry.
 */
function runRetry<T>(request: ModernRequest, handler: () => T | Promise<T>): T | Promise<T> {
  const rounds = request.inputRounds();
  rounds?.open();
  const claimed = rounds?.claimShared();
  if (!claimed) return handler();
  return claimed.then(handler).catch((error: unknown) => {
    request.rounds?.settled();
    throw error;
  });
}

/**
 * What a result of `method` says about caching: nothing for most methods; for the cacheable ones the
 * server's settings, or the read resource's own.
 */
function cacheHint(server: Catalog, method: string, params: FieldReader): CacheHint | undefined {
  if (!CACHEABLE_METHODS.includes(method as ClientRequestMethod)) return undefined;
  if (method === "server/discover") return server.cache.discover;
  if (method !== "resources/read") return server.cache.lists;
  // A template's resources say nothing of themselves: they are not cached.
  return server.findResource(String(params.value.uri))?.cache ?? NO_CACHING;
}

/**
 * serverInfo in every result's `_meta`, made once per server definition, not per result. Every result
 * names the server by name and version, enough to tell servers and their versions apart;
 * server/discover, the one a client asks to learn about the server, names it in full (title,
 * description, icons, website). The whole Implementation on every result made a modern tools/call
 * cost about 1.2x more CPU (`npm run bench`).
 */
const SERVER_INFO = new WeakMap<Catalog, { full: Implementation; brief: Implementation }>();

function serverInfoOf(server: Catalog, method: string): Implementation {
  let info = SERVER_INFO.get(server);
  if (!info) {
    const { instructions: _notIdentity, ...implementation } = server.info;
    const full = implementationFor(implementation, LATEST_MODERN_VERSION);
    info = { full, brief: { name: full.name, version: full.version } };
    SERVER_INFO.set(server, info);
  }
  return method === "server/discover" ? info.full : info.brief;
}
