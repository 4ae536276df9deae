// What a replay makes of a 2026-07-28 `subscriptions/listen` that was still open when the recording
// ended (mcp-wire inspect saves a live session; a recording can stop at any time). The end of a
// recording is not the end of the stream: the listen simply had not closed yet. The replay then ends
// the server's input, and the server may end each open listen as a server does at shutdown, or not:
// - Spec (2026-07-28 basic/patterns/subscriptions): the listen's result is sent "only when the server
//   tears the subscription down; an abrupt transport close carries no response";
//   https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
// - Spec (2026-07-28 basic/patterns/cancellation): a server "MUST send notifications/cancelled
//   referencing a subscriptions/listen request ID when it tears down that subscription stream";
//   https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/cancellation
// So either, or nothing, once the input has ended, is no difference; anything else still is.

import { isObject } from "../jsonrpc/messages.js";
import type { WireEntry } from "./recording.js";

/** The ids (as JSON) of the client's listens that the recording leaves open: unanswered, not cancelled. */
export function openListens(entries: readonly WireEntry[]): Set<string> {
  const open = new Set<string>();
  for (const { dir, message } of entries) {
    if (!isObject(message)) continue;
    if (dir === "c2s" && message.method === "subscriptions/listen" && "id" in message) open.add(JSON.stringify(message.id));
    // The client's cancel: the server "MUST NOT send anything more for it" (a late result is a difference).
    else if (message.method === "notifications/cancelled" && isObject(message.params)) open.delete(JSON.stringify(message.params.requestId));
    else if (dir === "s2c" && message.method === undefined && "id" in message) open.delete(JSON.stringify(message.id));
  }
  return open;
}

/**
 * Whether `message`, which came after the server's input ended, is the end of one of the `open`
 * listens (its result, or the server's notifications/cancelled for it); that listen is then closed.
 */
export function endsOpenListen(message: unknown, open: Set<string>): boolean {
  if (!isObject(message)) return false;
  const cancelled = message.method === "notifications/cancelled" && isObject(message.params) && !("id" in message);
  const answered = message.method === undefined && "result" in message && !("error" in message);
  const id = JSON.stringify(cancelled ? (message.params as { requestId?: unknown }).requestId : answered ? message.id : undefined);
  if (id === undefined || !open.has(id)) return false;
  open.delete(id);
  return true;
}
