// The method table of both generations: one map per direction from each method name to its params
// and result types, taken from the spec's ClientRequest/ServerResult unions (schema/2025-11-25 and
// schema/2026-07-28/schema.ts). These maps are the contract: the dispatcher's handlers, the readers
// (mcp/read.ts) and the typed requests of both roles are written over them. Which generation has
// which method is METHOD_ERA below. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic
// and https://modelcontextprotocol.io/specification/2026-07-28/basic
// Leaves out the 2025-11-25 `tasks/*` methods and `notifications/tasks/status`: their shapes are in
// tasks.ts, and mcp-wire offers no tasks (they get -32601).

import type { EmptyResult, NotificationParams, PaginatedRequestParams, RequestParams } from "./base.js";
import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from "./client-features.js";
import type { CompleteRequestParams, CompleteResult } from "./completion.js";
import type { ElicitationCompleteNotificationParams, ElicitRequestParams, ElicitResult } from "./elicitation.js";
import type { InitializeRequestParams, InitializeResult } from "./lifecycle.js";
import type { LoggingMessageNotificationParams, SetLevelRequestParams } from "./logging.js";
import type { GetPromptRequestParams, GetPromptResult, ListPromptsResult } from "./prompts.js";
import type {
  ListResourcesResult, ListResourceTemplatesResult, ReadResourceRequestParams, ReadResourceResult,
  ResourceUpdatedNotificationParams, SubscribeRequestParams, UnsubscribeRequestParams,
} from "./resources.js";
import type { CallToolRequestParams, CallToolResult, ListToolsResult } from "./tools.js";
import type { CancelledNotificationParams, PingRequestParams, ProgressNotificationParams } from "./utilities.js";
import type { DiscoverResult, InputResponseFields, SubscriptionsAcknowledgedNotificationParams, SubscriptionsListenRequestParams, SubscriptionsListenResult } from "./modern.js";

/** Requests a client sends to a server. */
export type ClientRequests = {
  /** Liveness check; answered with {}. Legacy only. */
  ping: { params: PingRequestParams; result: EmptyResult };
  /** First message: exchange versions, capabilities and identities. Legacy only. */
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  /** Learn the server's versions, capabilities and instructions, without a session. Since 2026-07-28. */
  "server/discover": { params: RequestParams; result: DiscoverResult };
  /** Open a stream of change notifications, held until either side ends it. Since 2026-07-28. */
  "subscriptions/listen": { params: SubscriptionsListenRequestParams; result: SubscriptionsListenResult };
  /** Suggest values for a prompt argument or template variable. */
  "completion/complete": { params: CompleteRequestParams; result: CompleteResult };
  /** Set the lowest log severity the client wants. Legacy only (2026-07-28: `_meta` logLevel per request). */
  "logging/setLevel": { params: SetLevelRequestParams; result: EmptyResult };
  /** List prompts, paginated. */
  "prompts/list": { params: PaginatedRequestParams; result: ListPromptsResult };
  /** Expand one prompt with arguments (2026-07-28: may answer input_required, see modern.ts). */
  "prompts/get": { params: GetPromptRequestParams & InputResponseFields; result: GetPromptResult };
  /** List concrete resources, paginated. */
  "resources/list": { params: PaginatedRequestParams; result: ListResourcesResult };
  /** List resource templates, paginated. */
  "resources/templates/list": { params: PaginatedRequestParams; result: ListResourceTemplatesResult };
  /** Fetch the contents at a URI (2026-07-28: may answer input_required). */
  "resources/read": { params: ReadResourceRequestParams & InputResponseFields; result: ReadResourceResult };
  /** Ask to hear when a resource changes. Legacy only (2026-07-28: subscriptions/listen). */
  "resources/subscribe": { params: SubscribeRequestParams; result: EmptyResult };
  /** Stop hearing about a resource. Legacy only. */
  "resources/unsubscribe": { params: UnsubscribeRequestParams; result: EmptyResult };
  /** List tools, paginated. */
  "tools/list": { params: PaginatedRequestParams; result: ListToolsResult };
  /** Run one tool (2026-07-28: may answer input_required). */
  "tools/call": { params: CallToolRequestParams & InputResponseFields; result: CallToolResult };
};

/**
 * Requests a server sends to a client; each needs the matching client capability (server/capabilities.ts).
 * Legacy only as requests: in 2026-07-28 the last three travel inside input_required results
 * (InputRequest in modern.ts), and ping is gone.
 */
export type ServerRequests = {
  /** Liveness check; answered with {}. */
  ping: { params: PingRequestParams; result: EmptyResult };
  /** Ask the client's model for a completion. */
  "sampling/createMessage": { params: CreateMessageRequestParams; result: CreateMessageResult };
  /** Ask which directories or files the server may work in. */
  "roots/list": { params: RequestParams; result: ListRootsResult };
  /** Ask the user for input (since 2025-06-18). */
  "elicitation/create": { params: ElicitRequestParams; result: ElicitResult };
};

/**
 * Notifications a client sends to a server: method -> params. The first two belong to the base
 * protocol, so the connection reads them for both roles (protocol/connection.ts); the roles' readers
 * and handlers cover the rest (RoleNotifications).
 */
export type ClientNotifications = {
  /** The sender gave up on one of its own requests. */
  "notifications/cancelled": CancelledNotificationParams;
  /** Progress on a request that carried a progress token. */
  "notifications/progress": ProgressNotificationParams;
  /** Handshake finished; normal operation may start. */
  "notifications/initialized": NotificationParams;
  /** The client's roots changed; ask again with roots/list. */
  "notifications/roots/list_changed": NotificationParams;
};

/** Notifications a server sends to a client: method -> params (the first two read by the connection, as above). */
export type ServerNotifications = {
  /** The sender gave up on one of its own requests. */
  "notifications/cancelled": CancelledNotificationParams;
  /** Progress on a request that carried a progress token. */
  "notifications/progress": ProgressNotificationParams;
  /** One log record. */
  "notifications/message": LoggingMessageNotificationParams;
  /** A subscribed resource changed. */
  "notifications/resources/updated": ResourceUpdatedNotificationParams;
  /** The set of resources changed. */
  "notifications/resources/list_changed": NotificationParams;
  /** The set of tools changed. */
  "notifications/tools/list_changed": NotificationParams;
  /** The set of prompts changed. */
  "notifications/prompts/list_changed": NotificationParams;
  /** A URL-mode elicitation finished (2025-11-25 only). */
  "notifications/elicitation/complete": ElicitationCompleteNotificationParams;
  /** The first message of a listen stream: what the server will send on it. Since 2026-07-28. */
  "notifications/subscriptions/acknowledged": SubscriptionsAcknowledgedNotificationParams;
};

/**
 * The notifications the connection reads itself, for every role and leniently (a malformed one is
 * ignored, as the spec allows for cancellations): it has to, since only it knows the requests they
 * name. So no role reads or handles them.
 */
export type ProtocolNotificationMethod = "notifications/cancelled" | "notifications/progress";
/** The notifications of `T` that are the role's to read and handle. */
export type RoleNotifications<T> = Omit<T, ProtocolNotificationMethod>;

export type ClientRequestMethod = keyof ClientRequests;

/**
 * The four paginated lists, each named by the key that holds it in its result (one vocabulary for
 * both roles: the server's pages, the client's cache), with the method that lists it.
 */
export const LIST_METHODS = {
  tools: "tools/list",
  resources: "resources/list",
  resourceTemplates: "resources/templates/list",
  prompts: "prompts/list",
} as const satisfies { [list: string]: ClientRequestMethod };
export type ListName = keyof typeof LIST_METHODS;
/** The lists a list_changed notification is about (a template change is a change of `resources`). */
export type ChangingList = Exclude<ListName, "resourceTemplates">;
export type ServerRequestMethod = keyof ServerRequests;
export type ClientNotificationMethod = keyof ClientNotifications;
export type ServerNotificationMethod = keyof ServerNotifications;

/**
 * A server capability a client request needs: its name for messages, and the flag in
 * ServerCapabilities that declares it. Data only: whether a server declared it, at which
 * version, is mcp/versions.ts's undeclaredServerCapability.
 */
export interface CapabilityNeed {
  name: string;
  /** The flag; `resources.subscribe` is the one nested in another. */
  flag: "tools" | "prompts" | "resources" | "resources.subscribe" | "completions" | "logging";
}

const TOOLS: CapabilityNeed = { name: "tools", flag: "tools" };
const PROMPTS: CapabilityNeed = { name: "prompts", flag: "prompts" };
const RESOURCES: CapabilityNeed = { name: "resources", flag: "resources" };
const SUBSCRIPTIONS: CapabilityNeed = { name: "resource subscriptions", flag: "resources.subscribe" };

/**
 * Which server capability each client request needs (null: none). Both roles use it: the server
 * answers -32601 for a capability it did not declare, and the client refuses to send such a request.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export const SERVER_CAPABILITY_NEEDED = {
  ping: null,
  initialize: null,
  "server/discover": null,
  // Always accepted: its acknowledgement says which of the asked-for notifications the server has.
  "subscriptions/listen": null,
  "completion/complete": { name: "completions", flag: "completions" },
  "logging/setLevel": { name: "logging", flag: "logging" },
  "prompts/list": PROMPTS,
  "prompts/get": PROMPTS,
  "resources/list": RESOURCES,
  "resources/templates/list": RESOURCES,
  "resources/read": RESOURCES,
  "resources/subscribe": SUBSCRIPTIONS,
  "resources/unsubscribe": SUBSCRIPTIONS,
  "tools/list": TOOLS,
  "tools/call": TOOLS,
} as const satisfies { [M in ClientRequestMethod]: CapabilityNeed | null };

/**
 * Which generation has each client request: `legacy` methods exist only in a handshake session,
 * `modern` ones only for requests carrying the 2026-07-28 envelope; `both` are shared, with the
 * differences of their shapes noted in the table above. A request outside its generation is -32601.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/changelog (removed methods).
 */
export const METHOD_ERA = {
  ping: "legacy",
  initialize: "legacy",
  "logging/setLevel": "legacy",
  "resources/subscribe": "legacy",
  "resources/unsubscribe": "legacy",
  "server/discover": "modern",
  "subscriptions/listen": "modern",
  "completion/complete": "both",
  "prompts/list": "both",
  "prompts/get": "both",
  "resources/list": "both",
  "resources/templates/list": "both",
  "resources/read": "both",
  "tools/list": "both",
  "tools/call": "both",
} as const satisfies { [M in ClientRequestMethod]: "legacy" | "modern" | "both" };

/** The requests that may answer `input_required` (2026-07-28, basic/patterns/mrtr): no others may. */
export const INPUT_REQUIRED_METHODS: readonly ClientRequestMethod[] = ["tools/call", "prompts/get", "resources/read"];

/** The requests whose complete results carry ttlMs and cacheScope (2026-07-28, server/utilities/caching). */
export const CACHEABLE_METHODS: readonly ClientRequestMethod[] = [
  "server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read",
];
