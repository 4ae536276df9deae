// Streamable HTTP for 2026-07-28, beside the handshake era on the same endpoint: which generation a
// POST body belongs to (by its own `_meta`: basic/versioning#backward-compatibility-with-initialization-based-versions),
// and the serving of a modern one:
// no session (none minted, none read), its checks each with its status, then a one-request
// ServerConnection answered with JSON or, when it sends a notification first, an SSE stream that
// ends with the response. Closing the response is the request's cancellation.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
// Left out: resumability and GET streams (the revision has neither), and client notifications,
// which it does not define over HTTP: they are accepted (202) and dropped.

import { isObject, RpcError, type JSONRPCMessage, type JSONRPCResponse, type RequestId } from "../jsonrpc/messages.js";
import { ErrorCode } from "../mcp/errors.js";
import { METHOD_ERA, type ClientRequestMethod } from "../mcp/methods.js";
import { META } from "../mcp/modern.js";
import { isModernVersion, LATEST_MODERN_VERSION } from "../mcp/versions.js";
import { offerOf } from "../server/capabilities.js";
import type { McpServer } from "../server/definition.js";
import { checkModernRequest, claimsModern, validModernClaim, type CheckedEnvelope, type CheckedRequest } from "../server/modern/envelope.js";
import type { ServerConnection } from "../server/connection.js";
import { headerMismatch, headerParams, type HeaderParam } from "./mcp-headers.js";
import type { PostBody } from "./post-body.js";
import { emptyAnswer, errorAnswer, HttpAnswer, jsonAnswer, streamAnswer, type HttpRequest } from "./exchange.js";
import type { HttpSessionTransport } from "./session-transport.js";
import { SSE_HEADERS } from "./sse.js";
import { SseSink, type SseSinkOptions } from "./sse-sink.js";

type Json = { [key: string]: unknown };

/** What the Streamable HTTP handler lends the modern path: its bounds and a way to open a one-request session. */
export interface ModernHost {
  server: McpServer;
  /** The bounds of every SSE response: its own backlog, and the handler's BacklogBudget. */
  sinkOptions: SseSinkOptions;
  /** The refusal if one more request would pass the handler's in-flight bounds. */
  overloaded(): HttpAnswer | undefined;
  /**
   * A fresh session for `request` alone, outside the session table, speaking for whom its access
   * token does (so that requestState binds to that principal); closing it ends the request.
   * `checked` is its message's envelope as judge() read it, so that the session does not read it again.
   */
  open(request: HttpRequest, checked: CheckedRequest): { session: ServerConnection; transport: HttpSessionTransport };
}

/**
 * The generation of a judged POST body: "modern", "legacy", or the refusal of a body that mixes
 * them. `versionHeader` is MCP-Protocol-Version; the body decides, the header only mirrors it.
 */
export function eraOf(body: PostBody, versionHeader: string | null): "modern" | "legacy" | HttpAnswer {
  const modernHeader = isModernVersion(versionHeader);
  if (body.isBatch) {
    // Spec (2026-07-28 streamable-http): one message per POST; a batch belongs to the handshake era.
    if (modernHeader || body.items.some((item) => claimsModern(metaOf(item)))) return errorAnswer(400, "invalid request: a 2026-07-28 message cannot be sent in a JSON-RPC batch", {}, ErrorCode.InvalidRequest);
    return "legacy";
  }
  const message = body.items[0];
  if (!isObject(message) || typeof message.method !== "string") {
    // 2026-07-28 clients send requests and notifications only (a posted response is legacy).
    return modernHeader ? errorAnswer(400, "invalid request: a 2026-07-28 client sends only requests and notifications", {}, ErrorCode.InvalidRequest) : "legacy";
  }
  const meta = metaOf(message);
  // Spec (basic/versioning#backward-compatibility-with-initialization-based-versions):
  // initialize without a valid modern claim opens a handshake session.
  if (message.method === "initialize" && !(claimsModern(meta) && validModernClaim("initialize", meta))) {
    if (!modernHeader) return "legacy";
    return errorAnswer(400, `Header mismatch: MCP-Protocol-Version header value '${versionHeader}' names a version without initialize; the body opens a handshake session`, {}, ErrorCode.HeaderMismatch);
  }
  if (claimsModern(meta)) return "modern";
  if (!modernHeader) return "legacy";
  // The SDK v2 client cancels a listen with a bare notifications/cancelled: a notification needs no envelope.
  if (body.requestIds.length === 0) return "modern";
  const missing = [META.protocolVersion, META.clientCapabilities].filter((key) => !Object.hasOwn(meta ?? {}, key));
  // Spec (basic#meta): a body without the envelope's required keys is invalid params, 400 on HTTP.
  return errorAnswer(400, `invalid params: MCP-Protocol-Version is ${versionHeader}, but params._meta lacks ${missing.map((key) => JSON.stringify(key)).join(" and ")}`, {}, ErrorCode.InvalidParams);
}

/** Serves one POST whose body eraOf judged modern: its answer at once (a refusal), or once its handler answered. */
export function serveModernPost(host: ModernHost, request: HttpRequest, body: PostBody): HttpAnswer | Promise<HttpAnswer> {
  const message = body.items[0] as { id?: RequestId; method: string; params?: unknown };
  if (body.requestIds.length === 0) {
    // Spec (streamable-http#sending-messages) defines no header for a notification; ours: one it carries must agree.
    const mismatch = headerMismatch((name) => request.header(name), message, [], "notification");
    // Spec (streamable-http#sending-messages): a notification the server accepts gets 202 and no body.
    return mismatch ? errorAnswer(400, mismatch.message, {}, ErrorCode.HeaderMismatch) : emptyAnswer(202);
  }
  const judged = judge(host.server, message, request);
  if ("status" in judged) return refusalAnswer(judged.status, message.id!, judged.error);
  return host.overloaded() ?? answer(host, request, body.requestIds[0]!, body, { method: message.method, meta: metaOf(message)!, envelope: judged });
}

/**
 * The checks before the handler runs, in our order (PROTOCOL_NOTES.md, "The era of each message"):
 * the first that fails, with its status; else the envelope, read once, here, for the session too.
 */
function judge(server: McpServer, message: { method: string; params?: unknown }, request: HttpRequest): CheckedEnvelope | { status: number; error: RpcError } {
  const meta = metaOf(message)!;
  let error: RpcError | undefined;
  let envelope: CheckedEnvelope | undefined;
  try {
    envelope = checkModernRequest(message.method, meta, offerOf(server, LATEST_MODERN_VERSION).refused);
  } catch (caught) {
    if (!(caught instanceof RpcError)) throw caught;
    error = caught;
  }
  // Spec (streamable-http#protocol-version-header, basic/versioning): an unsupported version (-32022) and a malformed envelope (-32602) are 400.
  if (error && error.code !== ErrorCode.MethodNotFound) return { status: 400, error };
  const mismatch = headerMismatch((name) => request.header(name), message, paramsOfTool(server, message));
  // Spec (streamable-http#server-validation): a missing or disagreeing header is 400 with -32020.
  if (mismatch) return { status: 400, error: new RpcError(ErrorCode.HeaderMismatch, mismatch.message) };
  if (!error && !Object.hasOwn(METHOD_ERA, message.method)) error = new RpcError(ErrorCode.MethodNotFound, `method not found: ${message.method}`);
  // Spec (streamable-http#protocol-version-header): a method the server does not implement (removed, or not offered) is 404 with -32601.
  // Without an error, checkModernRequest returned: the envelope is set.
  return error ? { status: 404, error } : envelope!;
}

/** The `x-mcp-header` arguments of the tool a tools/call names (none for an unknown tool or an invalid schema). */
function paramsOfTool(server: McpServer, message: { method: string; params?: unknown }): readonly HeaderParam[] {
  if (message.method !== "tools/call" || !isObject(message.params) || typeof message.params.name !== "string") return [];
  const schema = server.findTool(message.params.name)?.tool.inputSchema;
  if (schema === undefined) return [];
  let params = HEADER_PARAMS.get(schema);
  if (params === undefined) {
    // A tool with an invalid declaration is one clients drop from their list: nothing to mirror.
    const declared = headerParams(schema);
    params = declared.ok ? declared.params : [];
    HEADER_PARAMS.set(schema, params);
  }
  return params;
}

/** Each tool's `x-mcp-header` declarations, read once per schema rather than per call. */
const HEADER_PARAMS = new WeakMap<object, readonly HeaderParam[]>();

/**
 * Runs the request in its own session and answers with what its first message calls for: the
 * response alone is one JSON body with the status that fits it; anything else first (a progress,
 * a log, a listen's acknowledgement) opens an SSE stream, which ends with the response. The HTTP
 * response is held until then: a status sent before the handler ran could not fit its answer.
 */
function answer(host: ModernHost, request: HttpRequest, id: RequestId, body: PostBody, checked: CheckedRequest): Promise<HttpAnswer> {
  const { session, transport } = host.open(request, checked);
  const close = () => void session.close();
  // Spec (streamable-http#cancellation): the client closing the response stream cancels the request:
  // the session ends, which aborts its handler's signal, and nothing more is sent for it. The
  // adapter tells of a client gone before its whole answer was written, whether JSON or a stream.
  request.onClientGone(close);
  return new Promise<HttpAnswer>((resolve) => {
    transport.openPost([id], {
      batch: false,
      replayable: false,
      // The sink ends with the response (then the session closes), or when the client goes away.
      orSse: () => {
        const sink = new SseSink(close, host.sinkOptions);
        resolve(streamAnswer(sink, SSE_HEADERS));
        return sink;
      },
      json: (response) => {
        close();
        // Only a cancelled request goes unanswered, and over HTTP none is cancelled in-band (a
        // closed stream closes the session, which answers it): 202 keeps this total all the same.
        resolve(response === undefined ? emptyAnswer(202) : jsonAnswer(statusOf(response as JSONRPCMessage), response));
      },
    });
    transport.receive(body);
  });
}

/**
 * The HTTP status of an answer sent alone as JSON. Spec (basic#meta, streamable-http#protocol-version-header):
 * -32021 is 400 and -32601 is 404; the spec fixes no status for other errors, which are answers
 * like any result (200, as SDK v2 does), so a client reads them as it reads a result. (An answer
 * after a notification ends an SSE stream, whose 200 went out with that notification.)
 */
function statusOf(response: JSONRPCMessage): number {
  const code = "error" in response ? response.error.code : undefined;
  if (code === ErrorCode.MissingRequiredClientCapability) return 400;
  if (code === ErrorCode.MethodNotFound) return 404;
  return 200;
}

/** A refusal of request `id` before it ran: the status and a JSON-RPC error response to it. */
function refusalAnswer(status: number, id: RequestId, error: RpcError): HttpAnswer {
  const response: JSONRPCResponse = { jsonrpc: "2.0", id, error: error.toErrorObject() };
  return jsonAnswer(status, response);
}

function metaOf(message: unknown): Json | undefined {
  const params = isObject(message) ? message.params : undefined;
  return isObject(params) && isObject(params._meta) ? params._meta : undefined;
}
