// Every method name of the handshake-era protocol (2024-11-05 to 2025-11-25), grouped by who sends
// it and whether it expects a reply. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic
// Leaves out the 2025-11-25 `tasks/*` methods and `notifications/tasks/status` (mcp-wire has no tasks).
// Methods both sides may send are listed once, in the `Common*` types.

/** Requests either side may send. */
export type CommonRequestMethod =
  | "ping"; // liveness check; answered with {}

/** Notifications either side may send. */
export type CommonNotificationMethod =
  | "notifications/cancelled" // the sender gave up on one of its own requests
  | "notifications/progress"; // progress on a request that carried a progress token

/** Requests a client sends to a server. */
export type ClientRequestMethod =
  | CommonRequestMethod
  | "initialize" // first message: exchange versions, capabilities and identities
  | "completion/complete" // suggest values for a prompt argument or template variable
  | "logging/setLevel" // set the lowest log severity the client wants
  | "prompts/list" // list prompts, paginated
  | "prompts/get" // expand one prompt with arguments
  | "resources/list" // list concrete resources, paginated
  | "resources/templates/list" // list resource templates, paginated
  | "resources/read" // fetch the contents at a URI
  | "resources/subscribe" // ask to hear when a resource changes
  | "resources/unsubscribe" // stop hearing about a resource
  | "tools/list" // list tools, paginated
  | "tools/call"; // run one tool

/** Notifications a client sends to a server. */
export type ClientNotificationMethod =
  | CommonNotificationMethod
  | "notifications/initialized" // handshake finished; normal operation may start
  | "notifications/roots/list_changed"; // the client's roots changed; ask again with roots/list

/** Requests a server sends to a client; each needs the matching client capability. */
export type ServerRequestMethod =
  | CommonRequestMethod
  | "sampling/createMessage" // ask the client's model for a completion
  | "roots/list" // ask which directories or files the server may work in
  | "elicitation/create"; // ask the user for input (since 2025-06-18)

/** Notifications a server sends to a client. */
export type ServerNotificationMethod =
  | CommonNotificationMethod
  | "notifications/message" // one log record
  | "notifications/resources/updated" // a subscribed resource changed
  | "notifications/resources/list_changed" // the set of resources changed
  | "notifications/tools/list_changed" // the set of tools changed
  | "notifications/prompts/list_changed" // the set of prompts changed
  | "notifications/elicitation/complete"; // a URL-mode elicitation finished (since 2025-11-25)
