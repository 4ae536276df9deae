// mcp-wire: a hand-written Model Context Protocol implementation, written to be read.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25
//
// Reading order, from the wire up (imports point down this list; the one exception: the client
// role's manager and restart helper spawn servers with transports/stdio-client.ts):
//   1. JSON-RPC, no MCP in it
//      jsonrpc/messages.ts    wire shapes, error codes, the codec that classifies one JSON text
//      jsonrpc/framing.ts     newline-delimited framing: bytes to lines and back
//      jsonrpc/sniff.ts       what the edges of an unreadable message show (its id, request or response)
//      jsonrpc/pending.ts     the correlator: requests we sent, timeouts, late responses
//      jsonrpc/params.ts      reading params with -32602 errors that name the field
//   2. The MCP base protocol
//      protocol/transport.ts  what a transport is; an in-memory pair
//      protocol/connection.ts a symmetric connection: requests both ways, batches
//      protocol/bad-input.ts  answering what is not a valid message (and never a response)
//      protocol/inbox.ts      arrival order, and the bound on work in flight
//      protocol/dispatch.ts   the method table's rows, and the peer's requests in flight:
//                             the gate, the handler, cancellation, progress, one answer each
//   3. MCP schema: the types of every message (mcp/*.ts) and the versions (mcp/versions.ts)
//      mcp/methods.ts         the method table: each method's params and result types, per direction
//      mcp/read.ts            where untrusted JSON becomes those types, checked (-32602 naming the field)
//   4. The server role
//      server/definition.ts   what a server offers; server/session.ts one client's session
//                             and the context its handlers get
//      server/capabilities.ts what the server declares, refuses, and needs of the client
//      server/features/*.ts   lifecycle, tools, resources, prompts, completion, logging
//      server/compat.ts       fitting results to older protocol versions
//      schema/*.ts            the JSON Schema validator and RFC 6570 URI templates it relies on
//   5. The client role
//      client/client.ts       McpClient: the handshake, one method per server feature
//      client/handlers.ts     answering the server's requests (roots, sampling, elicitation)
//      client/capabilities.ts what the client declares, and what it refuses to send
//      client/session-setup.ts what to set up again in a session the transport renewed
//      client/lists.ts        following cursors; client/restart.ts restarting a crashed server
//      client/manager.ts      many servers, one tool table for a model (tool-names.ts, llm-tools.ts)
//   6. Transports: transports/stdio.ts (framing on streams), stdio-server.ts (serve on our own
//      stdin/stdout), stdio-client.ts (spawn a server), protocol/trace.ts (watch the wire)
//      http/: Streamable HTTP and legacy HTTP+SSE. Server: streamable-server.ts (the handler) and
//      streamable-options.ts (its bounds), post-body.ts (judging a POST body), session-table.ts
//      (sessions and their slots), session-transport.ts and streams.ts (which message goes on
//      which stream), sse.ts, event-store.ts (the replay store), security.ts, legacy-sse.ts,
//      server.ts (both, one front door), node.ts and connections.ts (node:http and its limits).
//      Client: client-transport.ts, client-session.ts (the session and its renewal),
//      client-reconnect.ts (following and resuming streams), client-messages.ts, sse-parser.ts,
//      client-fetch.ts, legacy-client.ts (fallback).
//   7. Programs: server.ts (the demo server), walkthrough.ts (npm start), cli.ts (mcp-wire)
//   Every bound against a hostile peer is listed in PROTOCOL_NOTES.md, "Limits".

export * from "./jsonrpc/messages.js";
export { LineDecoder, LINE_END, DEFAULT_MAX_MESSAGE_BYTES } from "./jsonrpc/framing.js";
export { PendingRequests, RequestTimeoutError, RequestAbortedError, ConnectionClosedError, MalformedResponseError, DEFAULT_TIMEOUTS, type TimeoutPolicy } from "./jsonrpc/pending.js";
export { Params } from "./jsonrpc/params.js";
export { Dispatcher, type Row, type RequestRow, type NotificationRow } from "./protocol/dispatch.js";
export { Connection, DEFAULT_MAX_IN_FLIGHT, type ConnectionOptions, type RequestContext, type RequestOptions, type WirePolicy } from "./protocol/connection.js";
export { createMemoryPair, type SendOptions, type Transport, type TransportHandlers, type UnreadableInput } from "./protocol/transport.js";
export * from "./mcp/versions.js";
export { McpServer, text, DEFAULT_MAX_URI_LENGTH, DEFAULT_MAX_SUBSCRIPTIONS, type ServerInfo, type ServerOptions, type ToolHandler, type Completer } from "./server/definition.js";
export { ServerSession, type ServerSessionOptions } from "./server/session.js";
export { CapabilityError } from "./server/capabilities.js";
export type { HandlerContext } from "./server/session.js";
export { StreamTransport, type StreamTransportOptions } from "./transports/stdio.js";
export { StdioClientTransport, ServerExitedError, ServerClosedStdoutError, SpawnError, type StdioServerParameters } from "./transports/stdio-client.js";
export { traceTransport, type TraceListener, type TraceEvent } from "./protocol/trace.js";
export { McpHttpServer, type HttpServerOptions } from "./http/server.js";
export { StreamableHttpHandler, type StreamableHttpOptions } from "./http/streamable-server.js";
export { listen, toNodeListener, originOf, type FetchHandler, type Listening, type ListenOptions } from "./http/node.js";
export { CONNECTION_DEFAULTS, type ConnectionLimits } from "./http/connections.js";
export { LegacySseHandler, type LegacySseOptions } from "./http/legacy-sse.js";
export { LOOPBACK_NAMES, type SecurityOptions } from "./http/security.js";
export { DEFAULT_MAX_BACKLOG_BYTES } from "./http/streams.js";
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_SESSION_IDLE_MS, DEFAULT_KEEP_ALIVE_MS } from "./http/responses.js";
export { DEFAULT_REPLAY_BUDGET, DEFAULT_SESSION_REPLAY } from "./http/event-store.js";
export { StreamableHttpClientTransport, type StreamableHttpClientOptions } from "./http/client-transport.js";
export { HttpClientTransport } from "./http/client.js";
export { LegacySseClientTransport, type LegacySseClientOptions } from "./http/legacy-client.js";
export type { ReconnectOptions } from "./http/client-reconnect.js";
export { SessionRenewalError } from "./http/client-session.js";
export { SseLimitError } from "./http/sse-parser.js";
export {
  HttpStatusError, HttpNetworkError, HttpProtocolError, HttpTransportClosedError, SessionEndedError, MessageTooLargeError,
  HttpRedirectError, CrossOriginError, type HttpClientOptions,
} from "./http/client-fetch.js";
export { McpClientManager, ServerStartError, UnknownToolError, type ManagerOptions, type ServerConfig, type AuditEvent, type AuditBase, type ServerFailure } from "./client/manager.js";
export { toExposedName, EXPOSED_NAME_PATTERN, type ExposedTool, type Collision } from "./client/tool-names.js";
export { toOpenAITool, toAnthropicTool, type OpenAIFunctionTool, type AnthropicTool } from "./client/llm-tools.js";
export { McpClient, type ClientOptions, type CallOptions } from "./client/client.js";
export type { ClientHandlers, ServerRequestContext } from "./client/handlers.js";
export { HandshakeTimeoutError, VersionRefusedError, ServerCapabilityError, NotConnectedError } from "./client/errors.js";
export { StdioServerConnection, DEFAULT_RESTART, type RestartPolicy } from "./client/restart.js";
export { serveStdio, type ServeStdioOptions } from "./transports/stdio-server.js";
export { validate, checkSchema, SchemaError, type JsonSchema, type SchemaIssue } from "./schema/json-schema.js";
export type * from "./mcp/base.js";
export type * from "./mcp/content.js";
export type * from "./mcp/lifecycle.js";
export type * from "./mcp/tools.js";
export type * from "./mcp/resources.js";
export type * from "./mcp/prompts.js";
export type * from "./mcp/completion.js";
export type * from "./mcp/logging.js";
export type * from "./mcp/client-features.js";
export type * from "./mcp/elicitation.js";
export type * from "./mcp/utilities.js";
export type * from "./mcp/tasks.js";
export type * from "./mcp/methods.js";
