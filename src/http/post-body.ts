// An HTTP POST body, read and judged before any session sees it: the size limit, UTF-8, JSON, the
// batch bounds, and which items are requests (on Streamable HTTP they are owed an answer on this
// POST). The legacy HTTP+SSE handler judges its bodies here too, so both refuse a body alike.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
// and https://www.jsonrpc.org/specification#batch. Version rules (batches at all) need the session,
// so the handlers apply them.

import { batchRefusal, classify, ErrorCode, errorResponseTo, isObject, RpcError, type Incoming, type JSONRPCResponse, type RequestId } from "../jsonrpc/messages.js";
import { errorAnswer, HttpAnswer, jsonAnswer } from "./exchange.js";

/** A body that holds JSON-RPC: one message, or a batch whose invalid items are set apart. */
export interface PostBody {
  isBatch: boolean;
  /** The valid items, in order (a single message is a list of one). */
  items: unknown[];
  /** The ids of the valid requests: the POST owes one answer for each. */
  requestIds: RequestId[];
  isInitialize: boolean;
  /**
   * The batch items that are not JSON-RPC, with their errors. JSON-RPC answers each one inside
   * the batch answer, so they cost a batch none of its valid items.
   */
  invalid: { error: RpcError; id?: RequestId }[];
  /** The body's text while it still holds exactly `items`, so that it is handed on without a new JSON.stringify. */
  text: string | undefined;
  /** A body of one message: that message as classified here, so that its session does not classify it again. */
  single: Incoming | undefined;
}

/**
 * Judges a POST body's text: a 400 answer when the whole body is refused (not JSON, one message
 * that is not JSON-RPC, a batch past its bounds), else its items. Both HTTP transports use it, so
 * a body is refused by one rule. `omitUnreadableId` is the session's version rule when a session
 * is known; without one, the newest rule applies: an unreadable id is left out.
 */
export function judgePostText(text: string, limits: { maxBatchItems: number; omitUnreadableId?: boolean }): PostBody | HttpAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return errorAnswer(400, "parse error: the body is not valid JSON", {}, -32700);
  }
  if (!Array.isArray(parsed)) {
    // One message that is not JSON-RPC gets 400 with the reason, as it would on stdio.
    const checked = classify(parsed);
    // A broken response is never answered: the session drops it and fails the call it was for.
    if (checked.kind === "invalid" && checked.looksLike !== "response") return jsonAnswer(400, errorResponseTo(checked.id, checked.error, limits.omitUnreadableId ?? true));
    // The id list made whole at once: a push to an empty array would give it room for 17.
    const request = checked.kind === "request" ? checked.message : undefined;
    return { isBatch: false, items: [parsed], requestIds: request ? [request.id] : [], isInitialize: request?.method === "initialize", invalid: [], text, single: checked };
  }
  // Refused before any item runs, so a large batch costs nothing but its parse.
  const refusal = batchRefusal(parsed.length, limits.maxBatchItems);
  if (refusal) return jsonAnswer(400, { jsonrpc: "2.0", error: refusal.toErrorObject() });
  return judgedBatch(parsed, text);
}

function judgedBatch(all: unknown[], text: string): PostBody {
  const body: PostBody = { isBatch: true, items: [], requestIds: [], isInitialize: false, invalid: [], text, single: undefined };
  for (const item of all) {
    const checked = classify(item);
    if (checked.kind === "invalid" && checked.looksLike !== "response") {
      body.invalid.push({ error: checked.error, id: checked.id });
      body.text = undefined;
      continue;
    }
    body.items.push(item);
    if (checked.kind !== "request") continue;
    body.requestIds.push(checked.message.id);
    if (checked.message.method === "initialize") body.isInitialize = true;
  }
  return body;
}

/** The JSON text of the body's valid items: as received while nothing was set apart. */
export function itemsText(body: PostBody): string {
  return body.text ?? JSON.stringify(body.isBatch ? body.items : body.items[0]);
}

/**
 * Sets apart the requests whose id is still in use by a request of the session in progress: they
 * are answered here, so that the request that holds the id keeps its stream and its answer.
 */
export function refuseReusedIds(body: PostBody, inUse: (id: RequestId) => boolean): void {
  if (!body.requestIds.some(inUse)) return;
  body.text = undefined;
  body.single = undefined;
  body.items = body.items.filter((item) => {
    const reused = isObject(item) && "method" in item && (typeof item.id === "string" || typeof item.id === "number") && inUse(item.id);
    // Spec (basic#requests): a sender MUST NOT reuse an id within a session.
    if (reused) body.invalid.push({ id: item.id as RequestId, error: new RpcError(ErrorCode.InvalidRequest, `invalid request: id ${JSON.stringify(item.id)} is already in use by a request in progress`) });
    return !reused;
  });
  body.requestIds = body.requestIds.filter((id) => !inUse(id));
}

/** The error responses for items answered here rather than by the session, by the session's version. */
export function localAnswers(items: { error: RpcError; id?: RequestId }[], omitUnreadableId: boolean): JSONRPCResponse[] {
  return items.map(({ error, id }) => errorResponseTo(id, error, omitUnreadableId));
}
