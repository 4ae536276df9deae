// Building blocks shared by every MCP message: `_meta`, progress tokens, cursors, names, icons,
// annotations, and the params/result shapes that all requests, notifications and results extend
// (with the result kind and cache hints 2026-07-28 adds to them).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic (general fields) and
// https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination; for 2026-07-28
// https://modelcontextprotocol.io/specification/2026-07-28/basic (section names below are under it)
// and .../2026-07-28/server/utilities/pagination. Unless marked, the same in both generations.
// Request ids are plain `string | number` here; the JSON-RPC layer owns their definition.
// The bottom of mcp/: it imports nothing of it.

/**
 * The `_meta` object: a reserved slot on params, results and many data types where either side may
 * attach extra information without colliding with protocol fields.
 *
 * Key format: an optional prefix followed by a name. A prefix is one or more dot-separated labels
 * and a closing `/`, e.g. `com.example/`; reverse-DNS order is recommended. Each label begins with a
 * letter, ends with a letter or digit, and may hold letters, digits and hyphens in between. A name,
 * unless empty, begins and ends with a letter or digit and may hold `-`, `_` and `.` in between.
 *
 * Reserved for MCP itself: every prefix whose *second* label is `modelcontextprotocol` or `mcp`
 * (`io.modelcontextprotocol/`, `dev.mcp/`; but not `com.example.mcp/`), plus bare names the schema
 * assigns, such as `progressToken`. Code MUST NOT assume anything about values under reserved keys.
 * Since 2026-07-28 the request envelope and other protocol keys live under `io.modelcontextprotocol/`
 * (META in modern.ts), and the bare `traceparent`, `tracestate` and `baggage` are reserved for W3C
 * trace context (basic/index#meta).
 */
export interface Meta {
  [key: string]: unknown;
}

/**
 * A value the requester picks so that `notifications/progress` can point back at its request.
 * It MUST be unique among the requester's requests that are still in flight.
 */
export type ProgressToken = string | number;

/**
 * A server-made bookmark into a paginated list. Opaque: clients MUST NOT parse or change it.
 * Legacy only: nor reuse it in another session (2026-07-28 has no sessions, and drops that rule).
 */
export type Cursor = string;

/** Who speaks in a conversation, or (in `Annotations.audience`) who a piece of data is meant for. */
export type Role = "user" | "assistant";

/**
 * One picture that a UI may show next to a server, tool, prompt or resource. Since 2025-11-25.
 * Consumers must treat icons as untrusted: accept only `https:` and `data:` sources, fetch without
 * credentials, and beware of SVG, which can carry script.
 */
export interface Icon {
  /** Where the image lives: an HTTP(S) URL or a `data:` URI with base64 bytes. */
  src: string;
  /** The image type (e.g. `image/png`), for when the source does not report a useful one. */
  mimeType?: string;
  /** Sizes this image suits, each `WxH` such as `"48x48"`, or `"any"` for scalable formats. Absent: any size. */
  sizes?: string[];
  /** The background the icon was drawn for. Absent: either theme. */
  theme?: "light" | "dark";
}

/** Mixed into every type that may carry icons (mcp-wire keeps the spec's internal name). */
export interface Icons {
  /**
   * Alternative icons for display, at different sizes or themes. Since 2025-11-25. A client that
   * renders icons MUST handle `image/png` and `image/jpeg`, and SHOULD handle SVG and WebP.
   */
  icons?: Icon[];
}

/** Mixed into everything that has a programmatic name and may have a human-facing title. */
export interface BaseMetadata {
  /** The identifier code uses to refer to this thing; also the display fallback when `title` is absent. */
  name: string;
  /**
   * A friendly label for people, free of jargon. Since 2025-06-18. For tools, a client looks at
   * `title`, then `annotations.title`, then `name`.
   */
  title?: string;
}

/**
 * Hints that help a client decide who should see a piece of data and how much it matters.
 * In 2024-11-05 the same object existed without a type name (inside an `Annotated` base).
 */
export interface Annotations {
  /** The intended readers: the user, the model (`"assistant"`), or both. */
  audience?: Role[];
  /** Importance from 0 (optional extra) to 1 (effectively required). */
  priority?: number;
  /** When the underlying data last changed, as an ISO 8601 string. Since 2025-06-18. */
  lastModified?: string;
}

/** The params every request may carry; the method-specific params types extend it. */
export interface RequestParams {
  /**
   * Extension metadata (see `Meta`), with one key the protocol itself defines. Optional in legacy;
   * required since 2026-07-28, where it carries the request envelope (RequestEnvelope in modern.ts;
   * basic/index#meta), so a 2026-07-28 request always has `params`.
   */
  _meta?: {
    /**
     * Ask the receiver for `notifications/progress` about this request, tagged with this token.
     * The receiver may still send none.
     */
    progressToken?: ProgressToken;
    [key: string]: unknown;
  };
}

/** The params every notification may carry; the method-specific params types extend it. */
export interface NotificationParams {
  /**
   * Extension metadata (see `Meta`). Since 2026-07-28 it holds `subscriptionId` on every
   * notification of a `subscriptions/listen` stream (basic/patterns/subscriptions).
   */
  _meta?: Meta;
}

/** Params of the list methods that page (`tools/list`, `prompts/list`, `resources/list`, ...). */
export interface PaginatedRequestParams extends RequestParams {
  /** Continue after this position: the `nextCursor` of the previous page. Absent: first page. */
  cursor?: Cursor;
}

/**
 * The base of every successful response body. Open-ended on purpose: a result may carry fields
 * the reader does not know, and the reader should keep them rather than fail.
 */
export interface Result {
  /**
   * Extension metadata (see `Meta`). Since 2026-07-28 it SHOULD name the server on every result
   * (`serverInfo`, see META in modern.ts).
   */
  _meta?: Meta;
  /**
   * Since 2026-07-28, required there on every result: `"complete"`, or `"input_required"` for an
   * interim answer (InputRequiredResult in modern.ts). Legacy results never carry it, and a client
   * reads its absence as `"complete"` (basic/index#resulttype).
   */
  resultType?: ResultType;
  [key: string]: unknown;
}

/**
 * Since 2026-07-28: what a result is, the final answer or an interim one asking for input first
 * (basic#results).
 * Extensions may add values (tasks adds "task"); a client treats any other as an invalid result.
 */
export type ResultType = "complete" | "input_required";

/**
 * Since 2026-07-28, who may reuse a cached result: `"public"` holds nothing user-specific, so any client or shared
 * cache may; `"private"` only within the same authorisation context. Access control MUST NOT rest
 * on it. Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
 */
export type CacheScope = "public" | "private";

/**
 * Since 2026-07-28: the freshness hint on the complete results of `server/discover`, the four
 * lists and `resources/read` (servers MUST send both fields there). Spec: server/utilities/caching.
 */
export interface CacheableResult {
  /** How long the result stays fresh after it is received, in whole milliseconds; 0: stale at once. */
  ttlMs?: number;
  cacheScope?: CacheScope;
}

/**
 * A result from a list method that pages. The server picks the page size; clients MUST NOT assume one.
 * The cache fields (`ttlMs`, `cacheScope`) are since 2026-07-28, required there on the four lists.
 */
export interface PaginatedResult extends Result, CacheableResult {
  /** Where the next page starts. Absent: this was the last page. */
  nextCursor?: Cursor;
}

/**
 * The answer to requests that succeed without data to return: `{}`. Its legacy users (`ping`,
 * `logging/setLevel`, `resources/(un)subscribe`) are gone in 2026-07-28, where it would be
 * `{ "resultType": "complete" }`.
 */
export type EmptyResult = Result;
