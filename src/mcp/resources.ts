// Resources: data a server makes readable by URI, listed directly or described by URI templates,
// plus subscriptions to changes. Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/resources
// and https://modelcontextprotocol.io/specification/2026-07-28/server/resources. Unless marked, the
// same in both generations.
// The contents `resources/read` returns are here too (content blocks embed them, content.ts);
// `notifications/resources/list_changed` has only `NotificationParams` (2026-07-28: only on a
// `subscriptions/listen` stream that asked for it).

import type {
  Annotations,
  BaseMetadata,
  CacheableResult,
  Icons,
  Meta,
  NotificationParams,
  PaginatedResult,
  RequestParams,
  Result,
} from "./base.js";

/** A resource the server can read, as listed by `resources/list`. */
export interface Resource extends BaseMetadata, Icons {
  /**
   * The resource's address. Any scheme the server understands (`file://`, `https://`, a custom
   * one following RFC 3986); the server MUST validate URIs it is given.
   */
  uri: string;
  /** What the resource holds; clients may show it to the model as a hint. */
  description?: string;
  /** The media type of the contents, when known. */
  mimeType?: string;
  /** Hints on audience, importance and freshness (see `Annotations`). */
  annotations?: Annotations;
  /** Size of the raw contents in bytes (before base64), when known; helps hosts budget context. */
  size?: number;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/** A family of resources whose URIs follow a pattern, as listed by `resources/templates/list`. */
export interface ResourceTemplate extends BaseMetadata, Icons {
  /** An RFC 6570 URI template, e.g. `file:///logs/{date}.txt`; fill it in and read the result. */
  uriTemplate: string;
  /** What resources made from this template hold. */
  description?: string;
  /** The media type shared by every matching resource; give it only if they all have the same one. */
  mimeType?: string;
  /** Hints on audience, importance and freshness (see `Annotations`). */
  annotations?: Annotations;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/** The result of `resources/list` (params: `PaginatedRequestParams`). */
export interface ListResourcesResult extends PaginatedResult {
  /** One page of concrete resources. */
  resources: Resource[];
}

/** The result of `resources/templates/list` (params: `PaginatedRequestParams`). */
export interface ListResourceTemplatesResult extends PaginatedResult {
  /** One page of templates. */
  resourceTemplates: ResourceTemplate[];
}

/** What every piece of resource contents has, whether text or binary. */
export interface ResourceContents {
  /** The URI these contents belong to (may be a sub-resource of the one requested). */
  uri: string;
  /** The media type of the contents, when known. */
  mimeType?: string;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/** Resource contents that are text. */
export interface TextResourceContents extends ResourceContents {
  /** The text. Use this only for data that really is text; binary data goes in a blob. */
  text: string;
}

/** Resource contents that are binary. */
export interface BlobResourceContents extends ResourceContents {
  /** The bytes; MUST be base64-encoded. */
  blob: string;
}

/** Params shared by the requests that name one resource (the spec's internal base type). */
export interface ResourceRequestParams extends RequestParams {
  /** The resource's URI; how to interpret it is the server's business. */
  uri: string;
}

/**
 * Params of `resources/read`. An unknown URI gets an error with `data: { uri }`: legacy, -32002
 * (SHOULD); since 2026-07-28, -32602 (MUST), and clients SHOULD accept either
 * (2026-07-28 server/resources#error-handling). Since 2026-07-28 a retry after `input_required`
 * adds `inputResponses` and `requestState` (InputResponseFields in modern.ts).
 */
export interface ReadResourceRequestParams extends ResourceRequestParams {}

/**
 * The result of `resources/read`. Since 2026-07-28 it is cacheable (`ttlMs`, `cacheScope`), and the
 * read may first answer `input_required` instead (InputRequiredResult in modern.ts).
 */
export interface ReadResourceResult extends Result, CacheableResult {
  /** The contents; several entries when one URI stands for many (e.g. a directory). */
  contents: (TextResourceContents | BlobResourceContents)[];
}

/**
 * Params of `resources/subscribe`; only valid if the server declared `resources.subscribe`. Result: `{}`.
 * Legacy only (removed in 2026-07-28: list the URI in `resourceSubscriptions` of a `subscriptions/listen`).
 */
export interface SubscribeRequestParams extends ResourceRequestParams {}

/**
 * Params of `resources/unsubscribe`, undoing an earlier subscribe. Result: `{}`. Legacy only
 * (removed in 2026-07-28: cancel or close the `subscriptions/listen` stream instead).
 */
export interface UnsubscribeRequestParams extends ResourceRequestParams {}

/**
 * Params of `notifications/resources/updated`, sent only to clients that subscribed: legacy, with
 * `resources/subscribe`; since 2026-07-28, on a `subscriptions/listen` stream whose
 * `resourceSubscriptions` names the URI, tagged with its `subscriptionId` (server/resources#subscriptions).
 */
export interface ResourceUpdatedNotificationParams extends NotificationParams {
  /** The URI that changed; possibly a sub-resource of the one subscribed to. Read it again to see how. */
  uri: string;
}
