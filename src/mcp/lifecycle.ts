// Who each side is and what it can do, and the `initialize` handshake that exchanged them until
// 2026-07-28, which replaced it with a per-request envelope in `_meta` and `server/discover`.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
// https://modelcontextprotocol.io/specification/2026-07-28/server/discover (section names below are
// under .../2026-07-28/). Unless marked, a type or field is the same in both generations.
// Leaves out the `tasks` capabilities (experimental in 2025-11-25): their shapes are in tasks.ts,
// and mcp-wire declares neither, since it offers no tasks.
// `notifications/initialized` has no params of its own, only `NotificationParams`.

import type { BaseMetadata, Icons, RequestParams, Result } from "./base.js";

/**
 * Identifies a client or server program. `name` and `version` have been required since 2024-11-05;
 * `title` arrived in 2025-06-18, and `icons`, `description` and `websiteUrl` in 2025-11-25.
 * 2026-07-28: it travels in `_meta` (clientInfo per request, serverInfo per result; META in modern.ts).
 */
export interface Implementation extends BaseMetadata, Icons {
  /** The program's version, free-form (e.g. `"1.4.0"`). */
  version: string;
  /** A sentence or two on what the program is for. Since 2025-11-25. */
  description?: string;
  /** The program's home page, as a URL. Since 2025-11-25. */
  websiteUrl?: string;
}

/**
 * What a client offers the server. Each key is present only if the client supports the feature; an
 * empty object `{}` means "yes, with no options". Peers may add keys beyond these. Since 2025-06-18
 * each side MUST use only features the other declared (earlier versions said SHOULD).
 * Legacy: sent once, in `initialize`. 2026-07-28: sent in every request's `_meta`, valid for that
 * request only, never remembered from an earlier one (basic/index#meta).
 */
export interface ClientCapabilities {
  /** Non-standard features, keyed by a name the peers agree on. */
  experimental?: { [key: string]: object };
  /**
   * The client can answer `roots/list`. Deprecated in 2026-07-28: pass paths as tool arguments,
   * resource URIs or configuration instead (https://modelcontextprotocol.io/specification/2026-07-28/client/roots).
   */
  roots?: {
    /**
     * The client will send `notifications/roots/list_changed` when its roots change. Legacy only
     * (removed in 2026-07-28 with that notification: there `roots` is just `{}`).
     */
    listChanged?: boolean;
  };
  /**
   * The client can answer `sampling/createMessage`. Before 2025-11-25 it has no sub-keys.
   * Deprecated in 2026-07-28: call an LLM provider directly instead
   * (https://modelcontextprotocol.io/specification/2026-07-28/client/sampling).
   */
  sampling?: {
    /**
     * The client honours `includeContext` values other than `"none"`. Without it, servers SHOULD
     * send only `"none"` or leave the field out. Since 2025-11-25. The values it unlocks are
     * deprecated (see `includeContext`; client/sampling#capabilities).
     */
    context?: object;
    /** The client accepts `tools` and `toolChoice` in sampling requests. Since 2025-11-25. */
    tools?: object;
  };
  /**
   * The client can answer `elicitation/create`. Since 2025-06-18. An empty object means form mode
   * only; a client that declares this MUST support at least one mode.
   */
  elicitation?: {
    /** Form mode: the client renders a schema-driven form. Since 2025-11-25 (implied before). */
    form?: object;
    /** URL mode: the client sends the user to a web page. Since 2025-11-25. */
    url?: object;
  };
  /**
   * Since 2026-07-28: the extensions the client supports, as extension id -> settings (`{}`: no
   * settings). Ids follow the `_meta` key rules with a prefix required, e.g.
   * `io.modelcontextprotocol/tasks`. If only one side supports an extension, that side MUST fall
   * back to core behaviour or refuse the request (basic/versioning#extension-negotiation).
   */
  extensions?: { [id: string]: object };
}

/**
 * What a server offers the client, with the same presence rules as `ClientCapabilities`.
 * The spec's 2025-11-25 `tasks` key (experimental task-augmented requests; its shape is
 * `ServerTasksCapability` in tasks.ts) is left out on purpose: mcp-wire offers no tasks; 2026-07-28
 * dropped it for the `io.modelcontextprotocol/tasks` extension.
 * Legacy: in `InitializeResult`. 2026-07-28: in `DiscoverResult` (modern.ts).
 */
export interface ServerCapabilities {
  /** Non-standard features, keyed by a name the peers agree on. */
  experimental?: { [key: string]: object };
  /**
   * The server may send `notifications/message`; legacy clients set the level with `logging/setLevel`,
   * 2026-07-28 ones per request in `_meta`. Deprecated in 2026-07-28: log to stderr or use
   * OpenTelemetry instead (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging).
   */
  logging?: object;
  /** The server answers `completion/complete`. Since 2025-03-26 (2024-11-05 had no flag for it). */
  completions?: object;
  /** The server offers prompts (`prompts/list`, `prompts/get`). */
  prompts?: {
    /** The server will send `notifications/prompts/list_changed` (2026-07-28: only on a listen stream that asks). */
    listChanged?: boolean;
  };
  /** The server offers resources (`resources/list`, `resources/read`, templates). */
  resources?: {
    /**
     * The server sends `notifications/resources/updated` for resources the client watches: legacy,
     * after `resources/subscribe`; 2026-07-28, for the `resourceSubscriptions` of a
     * `subscriptions/listen` (server/resources#subscriptions).
     */
    subscribe?: boolean;
    /** The server will send `notifications/resources/list_changed` (2026-07-28: only on a listen stream that asks). */
    listChanged?: boolean;
  };
  /** The server offers tools (`tools/list`, `tools/call`). A server with tools MUST declare this. */
  tools?: {
    /** The server will send `notifications/tools/list_changed` (2026-07-28: only on a listen stream that asks). */
    listChanged?: boolean;
  };
  /** Since 2026-07-28: the extensions the server supports; same rules as `ClientCapabilities.extensions`. */
  extensions?: { [id: string]: object };
}

/**
 * Params of `initialize`, the client's first request. It MUST NOT be cancelled. Legacy only
 * (removed in 2026-07-28: each request carries version, capabilities and clientInfo in `_meta`).
 */
export interface InitializeRequestParams extends RequestParams {
  /** The protocol version the client would like; it SHOULD be the newest one it supports. */
  protocolVersion: string;
  /** What the client can do. */
  capabilities: ClientCapabilities;
  /** Who the client is. */
  clientInfo: Implementation;
}

/**
 * The server's answer to `initialize`. The client then sends `notifications/initialized`. Legacy only
 * (removed in 2026-07-28: `server/discover` answers with versions, capabilities and instructions,
 * and every result's `_meta` names the server).
 */
export interface InitializeResult extends Result {
  /**
   * The version the session will use. If the server supports the client's version it MUST echo
   * it; otherwise it offers another version it supports (SHOULD be its newest). A client that
   * cannot speak the answer should disconnect.
   */
  protocolVersion: string;
  /** What the server can do. */
  capabilities: ServerCapabilities;
  /** Who the server is. */
  serverInfo: Implementation;
  /** Advice on using this server well; a client MAY hand it to the model, e.g. in the system prompt. */
  instructions?: string;
}
