// The error codes an MCP peer sends: JSON-RPC 2.0's five (jsonrpc/messages.ts) and the ones MCP
// defines in the range JSON-RPC leaves to implementations. In MCP, -32601 also answers a method
// behind a capability the receiver did not declare, and -32602 covers an unknown tool, prompt or
// cursor (https://modelcontextprotocol.io/specification/2026-07-28/schema#errors).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes (which range is
// whose, and which codes of earlier versions are retired). Imports nothing of mcp/.

import { ErrorCode as JSONRPCErrorCode } from "../jsonrpc/messages.js";

export const ErrorCode = {
  ...JSONRPCErrorCode,
  /**
   * `resources/read` of a URI the server does not have; `error.data` is `{ uri }`. Handshake era only
   * (https://modelcontextprotocol.io/specification/2025-11-25/server/resources#error-handling):
   * 2026-07-28 answers -32602 instead, and its clients SHOULD still accept -32002 from older servers.
   */
  ResourceNotFound: -32002,
  /**
   * The request can go ahead only after the user completes the URL-mode elicitations listed in
   * `error.data` (URLElicitationRequiredErrorData in mcp/elicitation.ts); the client may then retry
   * it. 2025-11-25 only
   * (https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error).
   */
  URLElicitationRequired: -32042,
  /**
   * An HTTP header that mirrors the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
   * `Mcp-Param-*`) is missing, malformed or different from it. Sent with HTTP 400. Since 2026-07-28
   * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation).
   */
  HeaderMismatch: -32020,
  /**
   * Serving the request needs a client capability its `_meta` envelope did not declare;
   * `error.data.requiredCapabilities` names it (MissingRequiredClientCapabilityData in
   * mcp/modern.ts). Sent with HTTP 400. Since 2026-07-28
   * (https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes).
   */
  MissingRequiredClientCapability: -32021,
  /**
   * The request's `_meta` names a protocol version the receiver does not speak; `error.data` is
   * `{ supported, requested }` (UnsupportedProtocolVersionData in mcp/modern.ts). Sent with HTTP 400.
   * Since 2026-07-28 (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning).
   */
  UnsupportedProtocolVersion: -32022,
} as const;
