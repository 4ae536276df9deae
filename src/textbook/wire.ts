// The textbook edition of mcp-wire: MCP in five short files, read in this order: wire.ts (the
// messages), connection.ts (who answers what), server.ts (the session and the method table),
// demo.ts (what `node dist/textbook/demo.js` serves), client.ts; then modern.ts, 2026-07-28 on the
// same connection. Node built-ins only; the goldens in fixtures/transcripts/ judge it and the
// production edition alike. What it leaves out, and the production file that adds it:
// protocol versions before 2025-11-25 (src/mcp/versions.ts), message and line-length limits,
// backpressure and write batching (src/jsonrpc/framing.ts, src/protocol/inbox.ts), batches
// (src/protocol/bad-input.ts), pagination (src/server/pagination.ts), a full JSON Schema validator
// (src/schema/), completion, subscriptions and list-changed (src/server/features/), asking the
// client: sampling, elicitation, roots, input rounds (src/server/handler-context.ts,
// src/server/modern/), HTTP and listen (src/http/), OAuth (src/auth/).
// Spec sections in comments: [J] https://www.jsonrpc.org/specification, [B] and [S]
// https://modelcontextprotocol.io/specification/2025-11-25/basic and .../server, [M] the same
// under /specification/2026-07-28/.

export type Id = string | number;
export type Params = { [key: string]: unknown };
export interface JSONRPCRequest { jsonrpc: "2.0"; id: Id; method: string; params?: Params }
export interface JSONRPCNotification { jsonrpc: "2.0"; method: string; params?: Params }
export interface JSONRPCResultResponse { jsonrpc: "2.0"; id: Id; result: Params }
export interface JSONRPCErrorResponse {
  jsonrpc: "2.0"; id?: Id; error: { code: number; message: string; data?: unknown };
}
export type JSONRPCMessage =
  | JSONRPCRequest | JSONRPCNotification | JSONRPCResultResponse | JSONRPCErrorResponse;

export const PARSE_ERROR = -32700; // [J] 5.1: not JSON
export const INVALID_REQUEST = -32600; // [J] 5.1: JSON, but not a request
export const METHOD_NOT_FOUND = -32601; // [J] 5.1
export const INVALID_PARAMS = -32602; // [J] 5.1
export const INTERNAL_ERROR = -32603; // [J] 5.1
export const RESOURCE_NOT_FOUND = -32002; // [S]/resources#error-handling

/** An error that becomes one error response. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) { super(message); }
}

export const isObject = (value: unknown): value is Params =>
  typeof value === "object" && value !== null && !Array.isArray(value);
export const typeName = (value: unknown): string => value === null ? "null"
  : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;
// [B]#requests: an id is a string or an integer, never null.
const isId = (id: unknown) => typeof id === "string" || Number.isSafeInteger(id);

/** One line of input: the message it holds, or the error response it gets instead. */
export function decode(line: string): { message: JSONRPCMessage } | { bad: JSONRPCErrorResponse } {
  let value: unknown;
  try { value = JSON.parse(line); } catch {
    return reject(undefined, PARSE_ERROR, "parse error: the message is not valid JSON");
  }
  const invalid = (why: string, id?: unknown) =>
    reject(isId(id) ? id as Id : undefined, INVALID_REQUEST, `invalid request: ${why}`);
  // [B]#json-rpc-batching: 2025-06-18 removed batches.
  if (Array.isArray(value)) return invalid("JSON-RPC batches are not supported in this protocol version");
  if (!isObject(value)) return invalid("message must be a JSON object");
  if (value.jsonrpc !== "2.0") return invalid('"jsonrpc" must be exactly "2.0"', value.id);
  if ("method" in value) {
    if (typeof value.method !== "string") return invalid('"method" must be a string', value.id);
    if ("id" in value && !isId(value.id)) return invalid(`${value.method}: "id" must be a string or an integer`);
    if (value.params !== undefined && !isObject(value.params)) { // [B]#requests: params is an object
      return invalid(`${value.method}: "params" must be an object`, value.id);
    }
  } else if (!("result" in value) && !("error" in value)) {
    return invalid('message has neither "method", "result" nor "error"', value.id);
  }
  return { message: value as unknown as JSONRPCMessage };
}

function reject(id: Id | undefined, code: number, message: string) {
  // [J] 5: an error response whose request's id could not be read has no id (2025-11-25: omitted).
  return { bad: { jsonrpc: "2.0" as const, ...(id === undefined ? {} : { id }), error: { code, message } } };
}

/** [B]/transports#stdio: one message per line, UTF-8, no embedded newline (JSON escapes them). */
export const encode = (message: JSONRPCMessage): string => JSON.stringify(message) + "\n";
