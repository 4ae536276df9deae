// Tools: functions a server exposes for the model to call, with `tools/list` and `tools/call`.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools and
// https://modelcontextprotocol.io/specification/2026-07-28/server/tools. Unless marked, the same in both generations.
// Leaves out `Tool.execution` and the `task` param of `tools/call` (2025-11-25 tasks, experimental:
// shown in tasks.ts as `ToolExecution` and `TaskMetadata`; mcp-wire offers no tasks). Both are
// legacy only: 2026-07-28 moved them to the `io.modelcontextprotocol/tasks` extension.

import type { BaseMetadata, Icons, Meta, PaginatedResult, RequestParams, Result } from "./base.js";
import type { ContentBlock } from "./content.js";

/**
 * A JSON Schema describing an object, as used by `inputSchema` and `outputSchema`. The spec writes
 * this shape inline; mcp-wire names it. Without a `$schema` key the dialect is JSON Schema 2020-12.
 * Deliberately open: the spec's own advice for a tool without arguments is
 * `{ "type": "object", "additionalProperties": false }`, and that needs keywords beyond these.
 * Since 2026-07-28 the schema spells that openness out (any 2020-12 keyword, `$ref` and `$defs`
 * included) and forbids following a network `$ref` by default (2026-07-28 basic/index#ref-resolution).
 */
export interface JSONSchemaObject {
  /** The JSON Schema dialect, as a URI. Since 2025-11-25. */
  $schema?: string;
  /** The root of the schema MUST describe an object. */
  type: "object";
  /** One sub-schema per property name. */
  properties?: { [key: string]: object };
  /** Property names that must be present. */
  required?: string[];
  [keyword: string]: unknown;
}

/**
 * A tool the server offers. Its `name` (from `BaseMetadata`) is what `tools/call` uses; since
 * 2025-11-25 names SHOULD be 1-128 characters of `A-Z a-z 0-9 _ - .`, case-sensitive and unique
 * within the server.
 */
export interface Tool extends BaseMetadata, Icons {
  /** What the tool does and when to use it; clients pass this to the model as guidance. */
  description?: string;
  /**
   * The arguments the tool takes. MUST be a valid schema, never `null`; for a tool without
   * arguments use `{ "type": "object", "additionalProperties": false }` (or just `type`).
   * Since 2026-07-28 a property's schema may carry `x-mcp-header`, which mirrors that argument
   * into an HTTP header (server/tools#x-mcp-header; http/mcp-headers.ts).
   */
  inputSchema: JSONSchemaObject;
  /**
   * The shape of the tool's `structuredContent`. When present, the server MUST return structured
   * content matching it, and clients SHOULD check. Since 2025-06-18. Since 2026-07-28 any JSON
   * Schema, not only an object one; mcp-wire keeps the object root, which both generations accept,
   * because one definition serves legacy clients too.
   */
  outputSchema?: JSONSchemaObject;
  /** Behaviour hints for the client (see `ToolAnnotations`). Since 2025-03-26. */
  annotations?: ToolAnnotations;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/**
 * Claims a server makes about a tool's behaviour, to help a client decide e.g. whether to ask the
 * user first. They are hints only: a client MUST NOT rely on them unless it trusts the server.
 * Since 2025-03-26.
 */
export interface ToolAnnotations {
  /** A display name; used when `Tool.title` is absent. */
  title?: string;
  /** The tool only reads and changes nothing around it. Default false. */
  readOnlyHint?: boolean;
  /**
   * The tool may delete or overwrite things (true), or only adds (false). Default true.
   * Meaningful only when `readOnlyHint` is false.
   */
  destructiveHint?: boolean;
  /**
   * Calling again with the same arguments has no further effect. Default false.
   * Meaningful only when `readOnlyHint` is false.
   */
  idempotentHint?: boolean;
  /**
   * The tool reaches outside systems whose contents are unbounded (a web search does; a local
   * note store does not). Default true.
   */
  openWorldHint?: boolean;
}

/**
 * The result of `tools/list` (params: `PaginatedRequestParams`). Since 2026-07-28 it is cacheable
 * (`ttlMs`, `cacheScope`) and its order SHOULD be deterministic (server/tools#listing-tools).
 */
export interface ListToolsResult extends PaginatedResult {
  /** One page of the server's tools. */
  tools: Tool[];
}

/**
 * Params of `tools/call`. Put a progress token in `_meta.progressToken` to get progress updates.
 * Since 2026-07-28 a retry after `input_required` adds `inputResponses` and `requestState`
 * (InputResponseFields in modern.ts); the legacy `task` param is gone (tasks extension).
 */
export interface CallToolRequestParams extends RequestParams {
  /** Which tool to run. An unknown name is a protocol error (-32602), not an `isError` result. */
  name: string;
  /** The argument values, which should satisfy the tool's `inputSchema`. */
  arguments?: { [key: string]: unknown };
}

/**
 * The outcome of `tools/call`. A tool that runs and fails (bad input, a failing API) answers with
 * a result whose `isError` is true, so the model can read the failure and try again; JSON-RPC
 * errors are kept for protocol problems such as an unknown tool. Since 2026-07-28 the call may
 * first answer `input_required` instead (InputRequiredResult in modern.ts).
 */
export interface CallToolResult extends Result {
  /** What the tool produced, as content blocks; may be empty. */
  content: ContentBlock[];
  /**
   * The same result as a JSON object, matching `outputSchema` if the tool declares one. A tool
   * that sends this SHOULD also put the serialized JSON in a text block, for older clients.
   * Since 2025-06-18. Since 2026-07-28 any JSON value (array, string, null...). The type stays an
   * object, which legacy clients require of a server; note that mcp-wire's client passes a modern
   * server's non-object value through as received (mcp/read.ts), so there it may hold more.
   */
  structuredContent?: { [key: string]: unknown };
  /** The tool failed; `content` describes how. Absent means false. */
  isError?: boolean;
}
