// mcp-wire: a hand-written Model Context Protocol implementation, written to be read.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25 and .../2026-07-28 (dual-era)
// The public API: what this file exports (package.json's "exports" offers it as "mcp-wire").
//
// Reading order, from the wire up: every file of src/, once. README.md lists the same order, and
// its tour follows one tools/call through the files marked *, bytes to bytes. A test keeps the
// three in step with the files.
//   0. The textbook edition, before anything else: the whole protocol in a few short files, that
//      nothing else imports, held to the same golden transcripts as the production edition below
//      textbook/wire.ts           the messages under the spec's names, the error codes, decode, encode
//      textbook/connection.ts     the correlator, the dispatcher, cancellation, either side
//      textbook/server.ts         the lifecycle, the capability gate, the method table, the features
//      textbook/demo.ts           four tools, the notes, a prompt (node dist/textbook/demo.js)
//      textbook/client.ts         spawn, initialize, initialized, list, call, close
//      textbook/modern.ts         2026-07-28 on the same connection
//   1. JSON-RPC, no MCP in it
//      jsonrpc/id.ts              the request id, which every other file here uses
//    * jsonrpc/messages.ts        wire shapes, JSON-RPC's error codes, the codec that classifies one JSON text
//    * jsonrpc/framing.ts         newline-delimited framing: bytes to lines and back
//      jsonrpc/sniff.ts           what the edges of an unreadable message show (its id, request or response)
//      jsonrpc/pending.ts         the correlator: requests we sent, timeouts, late responses
//      jsonrpc/request-clock.ts   the correlator's clock, which stands still while the transport waits on a person
//    * jsonrpc/field-reader.ts    reading untrusted params and results, with errors that name the field
//   2. The MCP base protocol
//      protocol/transport.ts      what a transport is; an in-memory pair
//      protocol/link.ts           what the connection's parts need of it (Connection implements it); the wire policy
//    * protocol/connection.ts     a symmetric connection: the transport wired to the inbox, each input routed
//      protocol/our-requests.ts   our requests in flight: ids, the peer's progress, our cancel when we give up
//    * protocol/inbox.ts          arrival order, and the bound on work in flight
//      protocol/method-table.ts   the types a method table is written in: rows, typed handlers and readers, the request context
//    * protocol/dispatch.ts       the method table's rows, and the peer's requests in flight: one answer each
//      protocol/bad-input.ts      answering what is not a valid message (and never a response)
//      protocol/trace.ts          watching the wire
//   3. The MCP schema: every message's types, each field explained once with its spec section
//      mcp/base.ts                _meta, progress tokens, cursors, names, icons, annotations, resultType, cache hints
//      mcp/errors.ts              the error codes: JSON-RPC's and those MCP defines
//      mcp/resources.ts           resources, templates, subscriptions, and the contents a read returns
//      mcp/content.ts             content blocks
//      mcp/lifecycle.ts           initialize: implementations and capabilities
//      mcp/tools.ts, mcp/prompts.ts, mcp/completion.ts, mcp/logging.ts
//      mcp/utilities.ts           ping, cancellation, progress
//      mcp/client-features.ts     roots and sampling; mcp/elicitation.ts elicitation (and -32042)
//      mcp/tasks.ts               tasks (experimental; types only: mcp-wire offers none)
//      mcp/apps.ts                MCP Apps (io.modelcontextprotocol/ui): a tool's view, the view's
//                                 _meta.ui, the capability; mcp/apps-bridge.ts the view's messages
//      mcp/modern.ts              2026-07-28: the envelope, discover, input rounds, listen
//      mcp/versions.ts            the versions, which feature each one has, and which capability a request needs
//      mcp/methods.ts             the method table: each method's params and result, per direction
//      mcp/read.ts                where untrusted JSON becomes those types, checked, once: it gathers
//    * mcp/read-fields.ts         the field readers, and the one cast
//    * mcp/read-client-requests.ts  what a client asks (params), and the results it reads
//      mcp/read-server-requests.ts  what a server asks, and the results it reads
//      mcp/read-modern.ts         2026-07-28: the envelope, and the retry fields (modern requests only)
//   4. The server role (schema/ is the JSON Schema validator and the RFC 6570 URI templates it
//      relies on: optional reading)
//    * server/definition.ts       a server definition: its catalog, and the many connections it serves
//    * server/catalog.ts          what a server offers (tools, resources, templates, prompts), its bounds
//      server/typed-handlers.ts   its handlers' types, worked out from each schema, prompt and template
//                                 (server/typed-standard-schema.ts: a Standard Schema validator instead)
//    * server/connection.ts       the server's side of one connection: the lifecycle, the gate, what it sends
//    * server/era-dispatcher.ts   where a request enters: its era judged once, by its own _meta
//      server/served.ts           what every part shares of one request: version, client, handler context
//      server/serving.ts          what the features see of the connection that composes them
//    * server/handler-context.ts  what a handler may do: progress, logs, asks of the client (both eras)
//      server/capabilities.ts     what the server declares, refuses, and needs of the client
//      server/features/lifecycle.ts, server/features/tools.ts (*), server/features/resources.ts,
//      server/features/prompts.ts, server/features/completion.ts, server/features/logging.ts
//      server/features/modern.ts  server/discover and subscriptions/listen (2026-07-28)
//      server/pagination.ts       pages behind opaque cursors
//    * server/compat.ts           fitting results to older protocol versions
//      apps/server.ts             MCP Apps: views and tools' _meta.ui checked, the extension negotiated
//      The 2026-07-28 generation, served beside the handshake: server/modern/envelope.ts (*) (the era
//      and checks of one request), server/modern/serve.ts (serving one modern request: results, input rounds),
//      server/modern/results.ts, server/modern/input-rounds.ts (Multi Round-Trip Requests),
//      server/modern/request-state.ts (their signed state), server/modern/replay-memory.ts (its used
//      states, to refuse their replay), server/modern/listen.ts (subscriptions/listen),
//      server/modern/request.ts (one modern request as its handlers see it)
//      schema/json-schema.ts, schema/json-schema-check.ts, schema/json-schema-simple.ts,
//      schema/json-schema-assertions.ts, schema/json-schema-values.ts, schema/json-schema-formats.ts,
//      schema/json-pointer.ts, schema/uri-template.ts, schema/uri-template-syntax.ts, schema/uri-template-match.ts
//      schema/schema-types.ts     the TypeScript type of what a JSON Schema literal accepts (types only)
//   5. The client role
//      client/client.ts           McpClient: the era, request(), the setup calls
//      client/options.ts          what an McpClient is told: timeouts, the generation, bounds, handlers
//      client/era-choice.ts       which generation to speak: pinned, remembered, or probed
//      client/features.ts         one typed method per server feature (tools, resources, prompts, completion)
//      client/notifications.ts    the server's notifications, as events and list-cache invalidations
//      client/handshake.ts        initialize, the version check, notifications/initialized
//      client/capabilities.ts     what the client declares, and what it refuses to send
//      client/handlers.ts         answering the server's requests (roots, sampling, elicitation)
//      client/lists.ts            following cursors, and the cache list changes clear
//      client/session-setup.ts    what to set up again in a session the transport renewed
//      client/errors.ts           the client's local failures
//      The 2026-07-28 generation, spoken beside the handshake: client/modern/probe.ts (which era a
//      server speaks), client/modern/era-cache.ts (remembered per server), client/modern/envelope.ts
//      (the _meta of every request), client/modern/session.ts (requests without a session),
//      client/modern/input-rounds.ts (resultType, Multi Round-Trip Requests), client/modern/listen.ts,
//      client/modern/tool-headers.ts (x-mcp-header)
//      client/restart.ts          restarting a crashed stdio server
//      client/manager.ts          many servers, one tool table for a model (client/tool-names.ts,
//                                 client/llm-tools.ts)
//   6. Transports
//    * transports/stdio.ts        newline-delimited JSON on a pair of byte streams, with backpressure
//      transports/stdio-server.ts serving on our own stdin/stdout; transports/stdout-guard.ts
//      transports/stdio-client.ts spawning a server (transports/windows-command.ts)
//      Streamable HTTP and legacy HTTP+SSE, server side: http/server.ts (one front door),
//      http/streamable-server.ts, http/modern-post.ts (2026-07-28 POSTs), http/streamable-options.ts,
//      http/post-body.ts, http/session-opener.ts, http/session-table.ts, http/session-transport.ts,
//      http/streams.ts, http/sse.ts,
//      http/event-store.ts, http/responses.ts, http/security.ts, http/legacy-sse.ts,
//      http/exchange.ts (the request and answer every handler works on), http/sse-sink.ts,
//      http/web.ts (the Fetch API adapter), http/node-exchange.ts (the node:http adapter),
//      http/node.ts (node:http), http/connections.ts (its limits),
//      http/shared-resume.ts (a fleet: resuming a stream of a session whose process is gone)
//      A fleet behind a load balancer: fleet/stores.ts (what its processes share), fleet/memory-stores.ts,
//      fleet/redis-commands.ts, fleet/redis-state-uses.ts, fleet/redis-change-fanout.ts,
//      fleet/redis-event-log.ts, fleet/request-state-key.ts (the shared key, from a file or the environment)
//      both sides, 2026-07-28: http/mcp-headers.ts (the headers that mirror the body, and their check)
//      client side: http/client.ts (the one to use), http/client-transport.ts,
//      http/client-session.ts, http/client-reconnect.ts, http/client-messages.ts,
//      http/client-modern.ts (2026-07-28: cancel by closing, refusals as answers),
//      http/sse-parser.ts, http/client-fetch.ts, http/legacy-client.ts
//   7. Authorization (OAuth 2.1, over HTTP only)
//      auth/metadata.ts           the discovery documents: Protected Resource Metadata, authorization server metadata
//      auth/fetch-json.ts         fetching them (and token answers) from untrusted servers, with bounds
//      auth/token-endpoint.ts     the token endpoint: every grant's last request, the client's authentication, OAuth errors
//      auth/grant.ts              a grant without a person (client credentials, an identity provider's assertion)
//      auth/credentials.ts        what a client keeps per issuer and resource, and the store it keeps it in
//      auth/user-agent.ts         where a person acts: the browser round trip of the authorization code grant
//      auth/challenge.ts          reading WWW-Authenticate: the Bearer challenge's resource_metadata, scope, error
//      auth/discovery.ts          from a 401 to the authorization server: PRM, then RFC 8414 / OIDC metadata (and 2025-03-26's fallbacks)
//      auth/registration.ts       who the client is: pre-registered, a CIMD URL, or Dynamic Client Registration
//      auth/pkce.ts               PKCE S256 and the random state
//      auth/authorization-code.ts the authorization code grant: the request, the redirect's checks, the code exchange; refresh
//      auth/scope.ts              which scope to ask for: least privilege, step-up, offline_access
//      auth/oauth-client.ts       OAuthOptions, and the client a transport asks for tokens and new authorizations
//                                 (auth/renewal.ts: refreshing, one run at a time, never over newer tokens)
//      http/client-auth.ts        one request with the token: retried after a 401, stepped up after 403 insufficient_scope
//      auth/jwt-sign.ts           signing a JWT (RS256, ES256, EdDSA) for the assertions a client makes
//      auth/grant-client-credentials.ts  the client credentials grant (extension), and how a grant's client authenticates
//      auth/grant-enterprise.ts   enterprise-managed authorization (extension): ID token -> ID-JAG -> access token
//      auth/loopback.ts           the CLI's user agent: the URL printed, a browser opened, the redirect on 127.0.0.1
//                                 (auth/open-browser.ts: the platform's opener, without a shell)
//      auth/file-store.ts         the CLI's credential store: a 0600 JSON file under the config directory
//                                 (auth/file-lock.ts: its lock between processes; auth/credentials-shape.ts: its entries' shape)
//      cli/authorization.ts       the CLI's OAuth options from its flags, and `mcp-wire logout`
//                                 (cli/redact.ts: no token, secret or code in anything it prints)
//      auth/resource-server.ts    the server side: its Protected Resource Metadata, the token check on every request, 401/403 challenges
//      auth/jwt-verify.ts         a JWT access token's signature (RS256, ES256, EdDSA) and claims (iss, aud, exp, scope)
//      auth/jwks.ts               the issuer's signing keys: found through its metadata, kept, fetched again on rotation
//      auth/introspection.ts      opaque tokens, checked by asking the issuer (RFC 7662)
//   8. Programs
//    * demo/server-definition.ts  the demo server's tools, resources and prompts
//      demo/two-way-tools.ts      its tools that ask the client (elicitation, sampling) or change the list
//      demo/notes.ts              PROTOCOL_NOTES.md as a resource
//      demo/apps.ts               its MCP Apps view for add (demo/apps/calculator.html)
//      demo/main.ts               `node dist/server.js`: flags, then stdio or HTTP
//      walkthrough.ts             `npm start`: one session in both generations, side by side
//                                 (walkthrough-steps.ts: the core steps; walkthrough-steps-asks.ts: the server
//                                 asks the client; walkthrough-steps-resources.ts; walkthrough-steps-refusals.ts:
//                                 the 2026-07-28 refusals and a server of the handshake era, which
//                                 walkthrough-handshake-era.ts serves; walkthrough-wire.ts: each connection's
//                                 lines, printed and recorded; walkthrough-notes.ts: a note per message)
//      cli.ts                     `mcp-wire` (cli/arguments.ts, cli/command.ts, cli/usage.ts, cli/session.ts,
//                                 cli/commands.ts, cli/failures.ts, cli/trace.ts, cli/output.ts; cli/vocabulary.ts:
//                                 its commands and flags, one table; cli/host-config.ts: --config FILE;
//                                 cli/completion.ts: shell completion; cli/suggest.ts: "did you mean"; for a
//                                 person at a terminal: cli/progress.ts, cli/elicitation.ts, cli/form-fields.ts,
//                                 cli/colour.ts)
//      cli/inspect.ts             `mcp-wire inspect`: the session on a local web page (cli/inspect-http.ts
//                                 its loopback server behind a token, cli/inspect-session.ts what it keeps,
//                                 bounded, cli/inspect-actions.ts what the page may ask, cli/inspect-apps.ts,
//                                 cli/inspect-views.ts and cli/inspect-sandbox.ts its MCP Apps host, the last
//                                 the sandbox proxy on its own origin; src/inspect/ the page)
//      recordings/recording.ts    recordings of sessions, in every form the recording tools read and write
//                                 (recordings/recording-shape.ts: a recording once read; recordings/printable.ts:
//                                 its text shown to a person; recordings/recording-exchange.ts: the HTTP exchange
//                                 of each line; recordings/recording-arguments.ts: the words of its command lines;
//                                 recordings/recording-write.ts: writing one)
//      recordings/record-cli.ts   `mcp-wire record`, a recording proxy (recordings/record-stdio.ts over stdio,
//                                 recordings/record-http.ts over HTTP with recordings/record-http-body.ts: what it keeps of a
//                                 body, decoded, and recordings/record-http-kept.ts: how much of it all open
//                                 exchanges keep at once; recordings/record-file.ts: what they write)
//      recordings/explain.ts      `mcp-wire explain`: a recording, one line and the walkthrough's note per message
//                                 (recordings/explain-messages.ts: what each line is; recordings/explain-tool.ts: flags, file)
//      recordings/diagram.ts      `mcp-wire diagram`: a recording as a sequence diagram
//                                 (recordings/diagram-mermaid.ts: Mermaid text; recordings/diagram-svg.ts: our own SVG)
//      recordings/replay.ts       `mcp-wire replay`: a recording as a golden test (recordings/compare.ts: each
//                                 difference by JSON pointer; recordings/replay-peer.ts: a stdio server as lines;
//                                 recordings/replay-http.ts: an HTTP one, over Streamable HTTP with its GET stream
//                                 or the legacy HTTP+SSE transport; recordings/replay-cli.ts: its command line;
//                                 recordings/directives.ts: a recording's placeholders and editions;
//                                 recordings/replay-setup.ts: what a replay reads from its recording;
//                                 recordings/replay-open-listens.ts: a 2026-07-28 listen the recording left open;
//                                 recordings/replay-report.ts: its report and verdict, as a person reads them)
//      recordings/check.ts        `mcp-wire check`, the spec linter: one walk over what recordings/check-state.ts keeps;
//                                 the rules in recordings/check-rules-jsonrpc.ts, recordings/check-rules-session.ts,
//                                 recordings/check-rules-results.ts, recordings/check-rules-flow.ts, recordings/check-rules-modern.ts (2026-07-28);
//                                 its command line in recordings/check-cli.ts; a recording's sessions apart in recordings/check-sessions.ts,
//                                 and as they pass (record --check) in recordings/check-live.ts
//      testing.ts                 `mcp-wire/testing`: replay, record and check inside node:test (testing/source.ts:
//                                 a recording's file or text; testing/server-peer.ts: an McpServer in process as
//                                 the replayed server; testing/record-session.ts: a session driven and kept)
//   Every bound against a hostile peer is listed in PROTOCOL_NOTES.md, "Limits".

export * from "./jsonrpc/messages.js";
export { ErrorCode } from "./mcp/errors.js";
export { LineDecoder, LINE_END, DEFAULT_MAX_MESSAGE_BYTES } from "./jsonrpc/framing.js";
export { RequestClock, type ClockTimer } from "./jsonrpc/request-clock.js";
export { PendingRequests, RequestTimeoutError, RequestAbortedError, ConnectionClosedError, MalformedResponseError, DEFAULT_TIMEOUTS, type TimeoutPolicy } from "./jsonrpc/pending.js";
export { FieldReader } from "./jsonrpc/field-reader.js";
/** @deprecated the old name of FieldReader, which reads results as well as params. */
export { FieldReader as Params } from "./jsonrpc/field-reader.js";
export { Dispatcher, requestRows, notificationRows, describeFailure, type DispatcherOptions } from "./protocol/dispatch.js";
export type {
  Row, RequestRow, NotificationRow, RequestTable, RequestHandlers, Written, NotificationHandlers, ParamsReaders, ResultReaders, NotificationReaders, ParamsAndOptions, RequestContext,
} from "./protocol/method-table.js";
export { Connection, DEFAULT_MAX_IN_FLIGHT, type ConnectionOptions } from "./protocol/connection.js";
export type { WirePolicy, PeerLink } from "./protocol/link.js";
export { EndedByPeerError, type ByName, type RequestOptions } from "./protocol/our-requests.js";
export { createMemoryPair, type SendOptions, type Transport, type TransportHandlers, type UnreadableInput } from "./protocol/transport.js";
export * from "./mcp/versions.js";
export { McpServer, text, DEFAULT_MAX_URI_LENGTH, DEFAULT_MAX_SUBSCRIPTIONS, DEFAULT_MAX_LISTENS, type ServerInfo, type ServerOptions, type ToolHandler, type Completer } from "./server/definition.js";
export { ServerConnection, type ServerConnectionOptions } from "./server/connection.js";
/** @deprecated The old name of ServerConnection, which also serves sessionless 2026-07-28 requests. */
export { ServerConnection as ServerSession, type ServerConnectionOptions as ServerSessionOptions } from "./server/connection.js";
export { CapabilityError, ClientRequestError } from "./server/capabilities.js";
export type { HandlerContext, LifecycleState, Served, ModernServed } from "./server/served.js";
export type { ClientRequestHandlers } from "./server/serving.js";
export { StreamTransport, type StreamTransportOptions } from "./transports/stdio.js";
export { StdioClientTransport, ServerExitedError, ServerClosedStdoutError, SpawnError, type StdioServerParameters } from "./transports/stdio-client.js";
export { traceTransport, type TraceListener, type TraceEvent } from "./protocol/trace.js";
export { McpHttpServer, type HttpServerOptions } from "./http/server.js";
export { StreamableHttpHandler, type StreamableHttpOptions } from "./http/streamable-server.js";
export { listen, toNodeListener, originOf, type FetchHandler, type Listening, type ListenOptions } from "./http/node.js";
export { CONNECTION_DEFAULTS, type ConnectionLimits } from "./http/connections.js";
export { LegacySseHandler, type LegacySseOptions } from "./http/legacy-sse.js";
export { LOOPBACK_NAMES, type SecurityOptions } from "./http/security.js";
export { DEFAULT_MAX_BACKLOG_BYTES } from "./http/sse-sink.js";
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_SESSION_IDLE_MS, DEFAULT_KEEP_ALIVE_MS } from "./http/responses.js";
export { DEFAULT_REPLAY_BUDGET, DEFAULT_SESSION_REPLAY } from "./http/event-store.js";
// A fleet behind a load balancer (PROTOCOL_NOTES.md, "Running a fleet"): what its processes share.
export type { SharedStateUses, ChangeFanout, CatalogChange, SharedEventLog, LoggedEvent } from "./fleet/stores.js";
export { MemoryStateUses, MemoryChangeFanout, MemoryEventLog } from "./fleet/memory-stores.js";
export { DEFAULT_REDIS_PREFIX, type RedisCommands, type RedisSetOptions, type RedisSubscriber } from "./fleet/redis-commands.js";
export { RedisStateUses } from "./fleet/redis-state-uses.js";
export { RedisChangeFanout } from "./fleet/redis-change-fanout.js";
export { RedisEventLog, DEFAULT_EVENT_LOG_TTL_MS, DEFAULT_MAX_LOGGED_EVENTS, type RedisEventLogOptions } from "./fleet/redis-event-log.js";
export { readRequestStateKey, RequestStateKeyError, REQUEST_STATE_KEY_VARIABLE } from "./fleet/request-state-key.js";
export { StreamableHttpClientTransport, type StreamableHttpClientOptions } from "./http/client-transport.js";
export { HttpClientTransport } from "./http/client.js";
export { LegacySseClientTransport, type LegacySseClientOptions } from "./http/legacy-client.js";
export type { ReconnectOptions } from "./http/client-reconnect.js";
export { SessionRenewalError } from "./http/client-session.js";
export { SseLimitError } from "./http/sse-parser.js";
export {
  HttpStatusError, HttpNetworkError, HttpProtocolError, ResponseStreamBrokenError, HttpTransportClosedError, SessionEndedError, MessageTooLargeError,
  HttpRedirectError, CrossOriginError, type HttpClientOptions,
} from "./http/client-fetch.js";
export { McpClientManager, ServerStartError, UnknownToolError, type ManagerOptions, type ServerConfig, type AuditEvent, type AuditBase, type ServerFailure } from "./client/manager.js";
export { toExposedName, EXPOSED_NAME_PATTERN, type ExposedTool, type Collision } from "./client/tool-names.js";
export { toOpenAITool, toAnthropicTool, type OpenAIFunctionTool, type AnthropicTool } from "./client/llm-tools.js";
export { McpClient, DEFAULT_PROTOCOL_MODE, DEFAULT_HANDSHAKE_TIMEOUT_MS, type ClientOptions, type CallOptions } from "./client/client.js";
export { serverRequestHandlers, type ClientHandlers, type ServerRequestContext } from "./client/handlers.js";
export {
  HandshakeTimeoutError, VersionRefusedError, ServerCapabilityError, NotConnectedError,
  NoInputHandlerError, InputRoundsExceededError, ModernRefusedError, ProbeEndedError, RemovedMethodError,
  InputRefusedError, InputRequestsExceededError, InputRoundsTimeoutError, ListingTooLargeError,
} from "./client/errors.js";
export { DEFAULT_LISTING_LIMITS, type ListingLimits } from "./client/lists.js";
export { EraCache, sharedEraCache, DEFAULT_ERA_CACHE_SIZE, type RememberedEra } from "./client/modern/era-cache.js";
export { LISTEN_RETRY } from "./client/modern/listen.js";
export { type EraVerdict } from "./client/modern/probe.js";
// The server has its own DEFAULT_MAX_INPUT_ROUNDS (server/modern/input-rounds.ts): the client's is renamed here.
export { DEFAULT_MAX_INPUT_ROUNDS as DEFAULT_CLIENT_MAX_INPUT_ROUNDS, DEFAULT_MAX_INPUT_REQUESTS } from "./client/modern/input-rounds.js";
export { StdioServerConnection, DEFAULT_RESTART, type RestartPolicy, type RestartTimers } from "./client/restart.js";
export { serveStdio, type ServeStdioOptions } from "./transports/stdio-server.js";
export { validate, checkSchema, SchemaError, type JsonSchema, type SchemaIssue } from "./schema/json-schema.js";
export type { FromSchema, SchemaLiteral } from "./schema/schema-types.js";
export type { ToolSchema, JsonSchemaTool, StandardSchemaTool, ToolArguments, ToolResult, PromptArguments, PromptDefinition, TemplateVariables, TemplateDefinition } from "./server/typed-handlers.js";
export { isStandardSchema, type StandardSchemaV1 } from "./server/typed-standard-schema.js";
export type { TemplateReader, PromptRenderer } from "./server/definition.js";
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
export type * from "./mcp/modern.js";
export type * from "./mcp/apps.js";
export type * from "./mcp/apps-bridge.js";
export { UI_EXTENSION_ID, UI_MIME_TYPE } from "./mcp/apps.js";
export { UI_BRIDGE_VERSION, UI_METHODS } from "./mcp/apps-bridge.js";
export { rendersApps } from "./apps/server.js";
export { LIST_METHODS, METHOD_ERA, INPUT_REQUIRED_METHODS, CACHEABLE_METHODS } from "./mcp/methods.js";
export { META } from "./mcp/modern.js";
export { NO_CACHING, type CacheHint } from "./server/modern/results.js";
export { RequestStateCodec, type RequestStateOptions, type SealedRound, type OpenedState, DEFAULT_REQUEST_STATE_TTL_MS, DEFAULT_MAX_REQUEST_STATE_BYTES, DEFAULT_MAX_REMEMBERED_USES, DEFAULT_PRINCIPAL_SHARE } from "./server/modern/request-state.js";
export { DEFAULT_MAX_INPUT_ASKS, DEFAULT_MAX_INPUT_ROUNDS, InputRoundSetAsideError } from "./server/modern/input-rounds.js";
export {
  encodeHeaderValue, decodeHeaderValue, headerParams, mirroredHeaders, headerMismatch, mcpNameOf, DEFAULT_MAX_HEADER_PARAMS,
  type HeaderParam, type HeaderMismatch, type MirroredMessage,
} from "./http/mcp-headers.js";
export { LOGGING_LEVELS } from "./mcp/logging.js";
export {
  readClientRequestParams, readClientRequestResult, readServerRequestParams, readServerRequestResult, readClientNotification, readServerNotification,
} from "./mcp/read.js";
// Authorization (OAuth 2.1): the client side, given to an HTTP client transport as `authorization`.
export { oauthClientFor, OAuthClient, DEFAULT_MAX_STEP_UPS, DEFAULT_REFUSED_COOLDOWN_MS, type OAuthOptions } from "./auth/oauth-client.js";
export { AuthorizationError } from "./auth/authorization-code.js";
export { ClientRegistrationError } from "./auth/registration.js";
export { readBearerChallenge, type BearerChallenge } from "./auth/challenge.js";
export { MemoryCredentialStore, type CredentialStore, type CredentialKey, type StoredCredentials, type ClientRegistration, type TokenSet } from "./auth/credentials.js";
export type { UserAgent } from "./auth/user-agent.js";
export type { TokenGrant, GrantContext } from "./auth/grant.js";
export { clientCredentialsGrant, GrantError, type ClientCredentials } from "./auth/grant-client-credentials.js";
export { enterpriseGrant, type EnterpriseGrantOptions } from "./auth/grant-enterprise.js";
export { OAuthError } from "./auth/token-endpoint.js";
export { AuthFetchError, type FetchJsonOptions } from "./auth/fetch-json.js";
export { AuthMetadataError, type ProtectedResourceMetadata, type AuthorizationServerMetadata } from "./auth/metadata.js";
export { LoopbackUserAgent, LoopbackError, DEFAULT_LOOPBACK_TIMEOUT_MS, DEFAULT_MAX_WRONG_REDIRECTS, type LoopbackOptions } from "./auth/loopback.js";
export { FileCredentialStore, CredentialFileError, defaultCredentialsPath, type FileStoreOptions } from "./auth/file-store.js";
// Authorization: the server side, given to McpHttpServer as `authorization`.
export { ResourceServer, jwtVerifier, defaultVerifier, PRM_WELL_KNOWN, type AuthorizationOptions, type TokenVerifier, type Granted } from "./auth/resource-server.js";
export { TokenRejectedError, DEFAULT_MAX_TOKEN_LENGTH, DEFAULT_CLOCK_SKEW_SECONDS, type VerifiedToken } from "./auth/jwt-verify.js";
export { Jwks, JwksError, DEFAULT_MAX_KEYS, DEFAULT_JWKS_COOLDOWN_MS, DEFAULT_JWKS_MAX_AGE_MS, type JwksOptions } from "./auth/jwks.js";
export { introspectionVerifier, IntrospectionBusyError, DEFAULT_INTROSPECTION_CONCURRENCY, DEFAULT_NEGATIVE_CACHE_MS, DEFAULT_NEGATIVE_CACHE_ENTRIES, type IntrospectionOptions } from "./auth/introspection.js";
