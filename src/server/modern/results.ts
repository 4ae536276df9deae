// Textbook: modern (its complete and translate) in src/textbook/modern.ts; this adds the server's
//  own cache hints, and one shared `_meta` naming the server on all its results.
// What every 2026-07-28 result carries besides its content: `resultType`, the server's identity in
// `_meta`, and, on the six cacheable results, how long they may be cached and by whom; and the
// error codes the modern generation renamed. Legacy results get none of this: their shape is 2025's.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic (results, `_meta`),
// https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching

import { RpcError } from "../../jsonrpc/messages.js";
import { ErrorCode } from "../../mcp/errors.js";
import type { CacheScope } from "../../mcp/base.js";
import { META } from "../../mcp/modern.js";
import type { Implementation } from "../../mcp/lifecycle.js";

/** How long a cacheable result stays fresh (whole milliseconds, 0: stale at once), and who may reuse it. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: CacheScope;
}

/**
 * The default: stale at once, for this client only. True of any server, so it is the one default
 * that cannot mislead a cache; a server whose lists or resources do not change says so (ServerOptions.cache).
 */
export const NO_CACHING: CacheHint = { ttlMs: 0, cacheScope: "private" };

type Json = { [key: string]: unknown };

/**
 * A handler's result marked complete. Cacheable methods (CACHEABLE_METHODS in mcp/methods.ts), and
 * only they, give their `cache` hint.
 */
export function completeResult(result: Json, serverInfo: Implementation, cache: CacheHint | undefined): Json {
  // A copy, extended: many results are built by object spread (server/compat.ts), and V8 (node 20)
  // makes adding a property to such an object cost about a microsecond; Object.assign's copy does
  // not (`npm run bench`, the modern tools/call row).
  const complete: Json = Object.assign({}, result);
  // Spec (basic#results): every 2026-07-28 result says what it is.
  complete.resultType = "complete";
  // Spec (basic/index#meta): servers SHOULD name themselves on every result; a handler's own value wins.
  const meta = result._meta as Json | undefined;
  if (meta === undefined) complete._meta = serverMeta(serverInfo);
  else if (!Object.hasOwn(meta, META.serverInfo)) complete._meta = Object.assign({}, meta, serverMeta(serverInfo));
  if (cache !== undefined) {
    // Spec (server/utilities/caching): both fields MUST be on the cacheable results; ttlMs a whole number >= 0.
    complete.ttlMs = Math.max(0, Math.floor(cache.ttlMs));
    complete.cacheScope = cache.cacheScope;
  }
  return complete;
}

/** `_meta` holding only serverInfo: one frozen object per server, shared by its results (they are only serialised). */
const SERVER_META = new WeakMap<Implementation, Readonly<Json>>();

function serverMeta(serverInfo: Implementation): Readonly<Json> {
  let meta = SERVER_META.get(serverInfo);
  if (!meta) SERVER_META.set(serverInfo, (meta = Object.freeze({ [META.serverInfo]: serverInfo })));
  return meta;
}

/**
 * An error as a 2026-07-28 client must get it. Spec (basic#error-codes): modern implementations
 * MUST NOT send -32002 (an unknown resource is -32602 now, with the same `data.uri`).
 */
export function modernError(error: unknown): unknown {
  if (error instanceof RpcError && error.code === ErrorCode.ResourceNotFound) {
    return new RpcError(ErrorCode.InvalidParams, error.message, error.data);
  }
  return error;
}
