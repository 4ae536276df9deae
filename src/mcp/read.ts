// Textbook: need in src/textbook/server.ts; this adds a checked reader for every method's params
//  and result, in both directions.
// Where untrusted JSON becomes a typed MCP value: one reader per method of the table in
// methods.ts, for the params a receiver gets and for the result a requester gets. The only place
// allowed to say `as` from JSON to an MCP type is `checked` (read-fields.ts): each reader first
// checks what the type claims.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema (the types) and
// https://www.jsonrpc.org/specification#error_object (-32602, naming the method and the field).
//
// How deep: every field the type declares at the top level, with its JSON type (required ones
// must be there); nested objects as deep as mcp-wire's own code reads them (clientInfo, ref,
// argument, list items' names, content blocks' `type`, ...). Deeper shapes (a tool's inputSchema,
// a sampling message's content) belong to the application that reads them. A reader returns the
// same object it was given, checked: unknown fields are kept, since params and results are open-ended.
//
// The readers live by who sends what: read-client-requests.ts (what a client asks, and the results
// it reads), read-server-requests.ts (what a server asks), read-modern.ts (what 2026-07-28 adds),
// each made of the field readers in read-fields.ts. This file gathers them for their users.

export { resultReaders } from "./read-fields.js";
export { readClientNotification, readClientRequestParams, readClientRequestResult, readClientResult } from "./read-client-requests.js";
export { readServerNotification, readServerRequestParams, readServerRequestResult, readServerResult } from "./read-server-requests.js";
export { readInputRequest, readModernRequestParams, readRequestEnvelope } from "./read-modern.js";
