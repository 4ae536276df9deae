// The textbook edition of mcp-wire: Node built-ins only, judged by fixtures/transcripts/ as the
// production edition is. Read wire.ts, connection.ts, server.ts, demo.ts, client.ts, then modern.ts
// (2026-07-28). Left out, with the production file that has it: versions before 2025-11-25
// (src/mcp/versions.ts); bounds, backpressure, batched writes (src/jsonrpc/framing.ts,
// src/transports/stdio.ts); pagination (src/server/pagination.ts); JSON Schema but the demo's
// keywords (src/schema/); completion, templates, subscriptions (src/server/features/); asking the
// client, input rounds (src/server/handler-context.ts, src/server/modern/); HTTP, listen
// (src/http/); OAuth (src/auth/). [J] https://www.jsonrpc.org/specification; [B], [S], [M]:
// https://modelcontextprotocol.io/specification/ + 2025-11-25/basic, 2025-11-25/server, 2026-07-28
export type Id = string | number; // [B]#requests: never null
export type Params = { [key: string]: unknown };
export type JSONRPCRequest = { jsonrpc: "2.0"; id: Id; method: string; params?: Params };
export type JSONRPCNotification = Omit<JSONRPCRequest, "id">; // [B]#notifications: no id
export type JSONRPCResultResponse = { jsonrpc: "2.0"; id: Id; result: Params }; // [B]#responses
export type JSONRPCErrorResponse =
  { jsonrpc: "2.0"; id?: Id; error: { code: number; message: string; data?: unknown } };
export type JSONRPCMessage =
  JSONRPCRequest | JSONRPCNotification | JSONRPCResultResponse | JSONRPCErrorResponse;
export const PARSE_ERROR = -32700, INVALID_REQUEST = -32600; // [J] 5.1: the error codes
export const METHOD_NOT_FOUND = -32601, INVALID_PARAMS = -32602, INTERNAL_ERROR = -32603;
export const RESOURCE_NOT_FOUND = -32002; // [S]/resources#error-handling
export class RpcError extends Error { // what a handler throws: it becomes one error response
  constructor(readonly code: number, message: string, readonly data?: unknown) { super(message); }
}
export const isObject = (value: unknown): value is Params =>
  typeof value === "object" && value !== null && !Array.isArray(value);
export const typeName = (value: unknown): string => value === null ? "null"
  : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;
const isId = (id: unknown): id is Id => typeof id === "string" || Number.isSafeInteger(id);
/** One line of input: the message it holds, or the error response it gets instead. */
export function decode(line: string): { message: JSONRPCMessage } | { bad: JSONRPCErrorResponse } {
  const reject = (code: number, message: string, id?: unknown) => ({ bad: // [J] 5: its id, if read
    { jsonrpc: "2.0" as const, ...(isId(id) ? { id } : {}), error: { code, message } } });
  const no = (why: string, id?: unknown) => reject(INVALID_REQUEST, `invalid request: ${why}`, id);
  let value: unknown;
  try { value = JSON.parse(line); } catch {
    return reject(PARSE_ERROR, "parse error: the message is not valid JSON");
  }
  // [B]#json-rpc-batching: 2025-06-18 took batches out of the protocol.
  const batches = "JSON-RPC batches are not supported in this protocol version";
  if (!isObject(value)) return no(Array.isArray(value) ? batches : "message must be a JSON object");
  const { jsonrpc, id, method, params } = value;
  if (jsonrpc !== "2.0") return no('"jsonrpc" must be exactly "2.0"', id);
  if ("method" in value) { // [B]#requests: params by name (an object), if any
    if (typeof method !== "string") return no('"method" must be a string', id);
    if ("id" in value && !isId(id)) return no(`${method}: "id" must be a string or an integer`);
    const object = isObject(params) || params === undefined;
    if (!object) return no(`${method}: "params" must be an object`, id);
  } else if (!("result" in value) && !("error" in value)) {
    return no('message has neither "method", "result" nor "error"', id);
  }
  return { message: value as JSONRPCMessage };
}
/** [B]/transports#stdio: one message a line, UTF-8; JSON escapes any newline inside. */
export const encode = (message: JSONRPCMessage): string => JSON.stringify(message) + "\n";
