// How a 2026-07-28 request is served: the same handler rows as a handshake session's, wrapped so
// that a request carrying the envelope has it checked (envelope.ts) and reaches its handler as a
// ModernRequest (request.ts), the three methods that may ask the client for input run their handler
// in input rounds (input-rounds.ts), and every answer takes the modern shape (results.ts). A request
// of the handshake session goes straight to its row, at the cost of one `_meta` lookup.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr and basic#results.

import type { Params } from "../../jsonrpc/params.js";
import type { Implementation } from "../../mcp/lifecycle.js";
import { CACHEABLE_METHODS, INPUT_REQUIRED_METHODS, type ClientRequestMethod } from "../../mcp/methods.js";
import { LATEST_MODERN_VERSION } from "../../mcp/versions.js";
import type { RequestRow } from "../../protocol/dispatch.js";
import type { RequestContext } from "../../protocol/connection.js";
import { implementationFor } from "../compat.js";
import type { McpServer } from "../definition.js";
import type { ServerSession } from "../session.js";
import { isModernRequest } from "./envelope.js";
import { ModernRequest } from "./request.js";
import { InputRounds } from "./input-rounds.js";
import { completeResult, modernError, NO_CACHING, type CacheHint } from "./results.js";

type Json = { [key: string]: unknown };

/**
 * The rows of a dual-era session: each serves a 2026-07-28 request the modern way, any other as
 * before. A modern request's envelope is checked here, after the session's gate let it through and
 * before its params are read (the order of SPEC_2026.md §8.1).
 */
export function modernRows(session: ServerSession, rows: RequestRow<RequestContext>[]): RequestRow<RequestContext>[] {
  return rows.map((row) => ({
    method: row.method,
    kind: "request",
    handle(params, context) {
      if (!isModernRequest(row.method, context.meta)) return row.handle(params, context);
      return serveModern(session.server, row, params, new ModernRequest(context, session.checkModern(row.method, context.meta)));
    },
  }));
}

async function serveModern(server: McpServer, row: RequestRow<RequestContext>, params: Params, request: ModernRequest): Promise<Json> {
  const method = row.method;
  try {
    if (!INPUT_REQUIRED_METHODS.includes(method as ClientRequestMethod)) {
      return completeResult(await row.handle(params, request), serverInfoOf(server, method), cacheHint(server, method, params));
    }
    const rounds = new InputRounds(method, params.value, request, server.requestStates, server.maxInputAsks);
    request.rounds = rounds;
    const outcome = await rounds.run(() => row.handle(params, request));
    if (outcome.needsInput) return rounds.inputRequired(outcome.needsInput, serverInfoOf(server, method));
    return completeResult(outcome.result, serverInfoOf(server, method), cacheHint(server, method, params));
  } catch (error) {
    throw modernError(error);
  }
}

/**
 * What a result of `method` says about caching: nothing for most methods; for the cacheable ones the
 * server's settings, or the read resource's own.
 */
function cacheHint(server: McpServer, method: string, params: Params): CacheHint | undefined {
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
const SERVER_INFO = new WeakMap<McpServer, { full: Implementation; brief: Implementation }>();

function serverInfoOf(server: McpServer, method: string): Implementation {
  let info = SERVER_INFO.get(server);
  if (!info) {
    const { instructions: _notIdentity, ...implementation } = server.info;
    const full = implementationFor(implementation, LATEST_MODERN_VERSION);
    info = { full, brief: { name: full.name, version: full.version } };
    SERVER_INFO.set(server, info);
  }
  return method === "server/discover" ? info.full : info.brief;
}
