// Textbook: modern in src/textbook/modern.ts; this adds input rounds (signed requestState), listen,
//  caching hints per item.
// How a 2026-07-28 request is served: the same handler rows as a handshake session's, wrapped so
// that a request carrying the envelope has it checked (envelope.ts) and reaches its handler as a
// ModernRequest (request.ts), the three methods that may ask the client for input run their handler
// in input rounds (input-rounds.ts), and every answer takes the modern shape (results.ts). A request
// of the handshake session goes straight to its row, at the cost of one `_meta` lookup.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr and basic#results.

import { ErrorCode, RpcError } from "../../jsonrpc/messages.js";
import type { Params } from "../../jsonrpc/params.js";
import type { Implementation } from "../../mcp/lifecycle.js";
import { CACHEABLE_METHODS, INPUT_REQUIRED_METHODS, type ClientRequestMethod } from "../../mcp/methods.js";
import { LATEST_MODERN_VERSION } from "../../mcp/versions.js";
import type { RequestRow } from "../../protocol/dispatch.js";
import type { RequestContext } from "../../protocol/connection.js";
import { implementationFor } from "../compat.js";
import type { McpServer } from "../definition.js";
import type { ServerConnection } from "../connection.js";
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
export function modernRows(session: ServerConnection, rows: RequestRow<RequestContext>[]): RequestRow<RequestContext>[] {
  return rows.map((row) => ({
    method: row.method,
    kind: "request",
    handle(params, context) {
      if (!isModernRequest(row.method, context.meta)) return row.handle(params, context);
      // Spec (2026-07-28 basic): no batches. One allowed by the connection's 2025-03-26 handshake
      // (its wire rules) carries no modern request.
      if (context.inBatch) throw new RpcError(ErrorCode.InvalidRequest, `${row.method}: a 2026-07-28 request cannot be part of a JSON-RPC batch`);
      return serveModern(session.server, row, params, new ModernRequest(context, session.checkModern(row.method, context.meta), session.principal));
    },
  }));
}

function serveModern(server: McpServer, row: RequestRow<RequestContext>, params: Params, request: ModernRequest): Promise<Json> {
  return INPUT_REQUIRED_METHODS.includes(row.method as ClientRequestMethod) ? serveAsking(server, row, params, request) : serveComplete(server, row, params, request);
}

async function serveComplete(server: McpServer, row: RequestRow<RequestContext>, params: Params, request: ModernRequest): Promise<Json> {
  try {
    return completeResult(await row.handle(params, request), serverInfoOf(server, row.method), cacheHint(server, row.method, params));
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
function serveAsking(server: McpServer, row: RequestRow<RequestContext>, params: Params, request: ModernRequest): Promise<Json> {
  const method = row.method;
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
      // A forged, expired or used-up requestState is refused before the handler runs.
      if (params.value.requestState !== undefined) request.inputRounds()?.open();
      Promise.resolve(row.handle(params, request)).then((result) => {
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
