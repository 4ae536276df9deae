// What every 2026-07-28 result carries besides its content: `resultType`, the server's identity in
// `_meta`, and, on the six cacheable results, how long they may be cached and by whom; and the
// error codes the modern generation renamed. Legacy results get none of this: their shape is 2025's.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic (results, `_meta`),
// https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/caching

import { ErrorCode, RpcError } from "../../jsonrpc/messages.js";
import { CACHEABLE_METHODS, type ClientRequestMethod } from "../../mcp/methods.js";
import { META, type CacheScope } from "../../mcp/modern.js";
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
 * Marks a handler's result complete, in place: every feature handler returns an object of its own
 * (they copy what the definition gave them), so nothing shared is changed. `cache` is asked only
 * for the cacheable methods.
 */
export function completeResult(method: string, result: Json, serverInfo: Implementation, cache: () => CacheHint): Json {
  // Spec (basic#results): every 2026-07-28 result says what it is.
  result.resultType = "complete";
  // Spec (basic/index#meta): servers SHOULD name themselves on every result; a handler's own value wins.
  const meta = result._meta as Json | undefined;
  if (meta === undefined) result._meta = { [META.serverInfo]: serverInfo };
  else if (!Object.hasOwn(meta, META.serverInfo)) result._meta = { ...meta, [META.serverInfo]: serverInfo };
  if (CACHEABLE_METHODS.includes(method as ClientRequestMethod)) {
    // Spec (basic/utilities/caching): both fields MUST be on these results; ttlMs a whole number >= 0.
    const hint = cache();
    result.ttlMs = Math.max(0, Math.floor(hint.ttlMs));
    result.cacheScope = hint.cacheScope;
  }
  return result;
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
