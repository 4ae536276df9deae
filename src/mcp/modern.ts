// What the 2026-07-28 revision adds to the shapes the handshake era had: the request envelope in
// `_meta`, `server/discover`, Multi Round-Trip Requests (`input_required`), and
// `subscriptions/listen`. Everything in this file is "Since 2026-07-28"; the shapes both
// generations share stay in their own files, and so do the fields it adds to every result
// (`resultType`, and the cache fields `ttlMs` and `cacheScope`: ResultType and CacheableResult in base.ts).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic (schema/2026-07-28/schema.ts),
// and per section below.

import type { CacheableResult, Meta, RequestParams, Result } from "./base.js";
import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from "./client-features.js";
import type { ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult } from "./elicitation.js";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "./lifecycle.js";
import type { LoggingLevel } from "./logging.js";

/**
 * The reserved `_meta` keys of 2026-07-28 (basic/index#meta). The first three make the request
 * envelope: what a handshake once said for a whole session, each request now says for itself.
 */
export const META = {
  /** Request: the version this request speaks (required). Over HTTP it equals `MCP-Protocol-Version`. */
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  /** Request: what the client can do for *this* request (required; `{}` means nothing optional). */
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  /** Request: who the client says it is (SHOULD). For display and logs only, never for decisions. */
  clientInfo: "io.modelcontextprotocol/clientInfo",
  /** Request: the lowest log level to send for this request; absent means no log messages at all. */
  logLevel: "io.modelcontextprotocol/logLevel",
  /** Result: who the server is (SHOULD, on every result). */
  serverInfo: "io.modelcontextprotocol/serverInfo",
  /** Notification on a listen stream, and the listen's result: the listen request's id, verbatim. */
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** The envelope every 2026-07-28 request carries in `params._meta` (basic/index#request-metadata). */
export interface RequestEnvelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
}

/** The answer to `server/discover`: what `initialize` once told, without opening anything. */
export interface DiscoverResult extends Result, CacheableResult {
  /** The modern versions the server speaks (handshake versions are learned by `initialize`). */
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

/**
 * One question a server embeds in an `input_required` result, for the client to put to its user,
 * its model or its filesystem: what was a server-to-client request in the handshake era, now
 * without `jsonrpc` and `id`. Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
export type InputRequest =
  | { method: "elicitation/create"; params: ModernElicitRequestParams }
  | { method: "sampling/createMessage"; params: CreateMessageRequestParams }
  | { method: "roots/list"; params?: RequestParams };

/** Elicitation params in 2026-07-28: a URL-mode one has no elicitationId (the retry tells the outcome). */
export type ModernElicitRequestParams = ElicitRequestFormParams | Omit<ElicitRequestURLParams, "elicitationId">;

/** The client's answer to one InputRequest: the bare result, without `resultType`. */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/**
 * An interim answer from `tools/call`, `prompts/get` or `resources/read` (the only methods that may
 * send one): "ask these, then send the request again". At least one of the two fields is present.
 */
export interface InputRequiredResult extends Result {
  resultType: "input_required";
  /** The questions, under keys the server chose; the retry answers under the same keys. */
  inputRequests?: { [key: string]: InputRequest };
  /** Opaque to the client: sent back byte for byte in the retry, never reused elsewhere. */
  requestState?: string;
}

/** The fields a retry adds to the original params of `tools/call`, `prompts/get` or `resources/read`. */
export interface InputResponseFields {
  /** The answers, under the keys of the `inputRequests` they answer. */
  inputResponses?: { [key: string]: InputResponse };
  /** The `requestState` of the `input_required` result, exactly as received. */
  requestState?: string;
}

/** Which notifications a `subscriptions/listen` stream should carry (schema: SubscriptionFilter). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  /** URIs whose `notifications/resources/updated` the client wants (needs `resources.subscribe`). */
  resourceSubscriptions?: string[];
}

/** Params of `subscriptions/listen`: open a stream of change notifications. */
export interface SubscriptionsListenRequestParams extends RequestParams {
  notifications: SubscriptionFilter;
}

/** The listen's result, sent only when the server ends the stream itself. */
export interface SubscriptionsListenResult extends Result {
  _meta: Meta;
}

/** The first message of a listen stream: the part of the filter the server will honour. */
export interface SubscriptionsAcknowledgedNotificationParams {
  notifications: SubscriptionFilter;
  _meta?: Meta;
}

/** `error.data` of -32022 UnsupportedProtocolVersion. */
export interface UnsupportedProtocolVersionData {
  supported: string[];
  requested: string;
}

/** `error.data` of -32021 MissingRequiredClientCapability. */
export interface MissingRequiredClientCapabilityData {
  requiredCapabilities: ClientCapabilities;
}
