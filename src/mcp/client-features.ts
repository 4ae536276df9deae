// Features a client offers a server, asked for by server-to-client requests: roots and sampling
// (elicitation is in elicitation.ts). Both are deprecated in 2026-07-28, where they remain usable
// but travel inside an `input_required` result (InputRequest in modern.ts) and the answer comes
// back in the client's retry (InputResponse, without `resultType`).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/roots
// https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
// https://modelcontextprotocol.io/specification/2026-07-28/client/roots
// https://modelcontextprotocol.io/specification/2026-07-28/client/sampling
// Unless marked, the same in both generations.
// Leaves out the `task` param of sampling (2025-11-25 tasks, shown in tasks.ts; mcp-wire offers none; legacy only).

import type { Meta, RequestParams, Result, Role } from "./base.js";
import type { AudioContent, ContentBlock, ImageContent, TextContent } from "./content.js";
import type { Tool } from "./tools.js";

/**
 * A directory or file the client lets the server work in. Deprecated in 2026-07-28 with roots: pass
 * paths as tool arguments, resource URIs or server configuration instead (https://modelcontextprotocol.io/specification/2026-07-28/deprecated).
 */
export interface Root {
  /** Where the root is; MUST be a `file://` URI for now. */
  uri: string;
  /** A display name for the root. */
  name?: string;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/**
 * The result of `roots/list` (params: only `_meta`). A client without `roots` answers -32601.
 * 2026-07-28: the server learns of changes only by asking again (no roots list_changed notification).
 */
export interface ListRootsResult extends Result {
  /** The current roots. */
  roots: Root[];
}

/** The model asking to run a tool (since 2025-11-25); the next user message MUST answer its `id`. */
export interface ToolUseContent {
  /** Discriminator for `SamplingMessageContentBlock`. */
  type: "tool_use";
  /** Unique id of this call, echoed by the matching `ToolResultContent.toolUseId`. */
  id: string;
  /** Which of the request's `tools` to run. */
  name: string;
  /** The arguments, meant to fit that tool's `inputSchema`. */
  input: { [key: string]: unknown };
  /** Extension metadata (see `Meta`); clients SHOULD keep it when replaying the turn, for caching. */
  _meta?: Meta;
}

/** A tool's answer, in a user message that MUST hold only tool results. Since 2025-11-25. */
export interface ToolResultContent {
  /** Discriminator for `SamplingMessageContentBlock`. */
  type: "tool_result";
  /** The `id` of the tool use this answers; MUST match one. */
  toolUseId: string;
  /** The tool's output, shaped like `CallToolResult.content`. */
  content: ContentBlock[];
  /**
   * The output as JSON, which SHOULD fit the tool's `outputSchema` if it has one. Since 2026-07-28
   * any JSON value; kept an object here, the shape both generations accept.
   */
  structuredContent?: { [key: string]: unknown };
  /** The tool failed. Absent means false. */
  isError?: boolean;
  /** Extension metadata (see `Meta`); clients SHOULD keep it when replaying the turn, for caching. */
  _meta?: Meta;
}

/** Block types a sampling message may hold. 2024-11-05: text, image; 2025-03-26: + audio; 2025-11-25: + tools. */
export type SamplingMessageContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ToolUseContent
  | ToolResultContent;

/** One turn of the conversation sent to (or returned by) the client's model. */
export interface SamplingMessage {
  /** Who says it. */
  role: Role;
  /** One block, or (since 2025-11-25) an array of blocks. */
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  /** Extension metadata (see `Meta`). Since 2025-11-25. */
  _meta?: Meta;
}

/** How to weigh models, each priority from 0 (irrelevant) to 1 (decisive). Advice the client MAY ignore. */
export interface ModelPreferences {
  /** Model name hints; the client MUST try them in order, and SHOULD let them outrank the priorities. */
  hints?: ModelHint[];
  /** How much a cheap model matters. */
  costPriority?: number;
  /** How much a fast model matters. */
  speedPriority?: number;
  /** How much a capable model matters. */
  intelligencePriority?: number;
}

/** A suggestion of which model to use. */
export interface ModelHint {
  /** Part of a model name (`"sonnet"` fits any Sonnet); the client may map it to a similar model. */
  name?: string;
}

/** How the model may use the offered tools. Since 2025-11-25. */
export interface ToolChoice {
  /** `"auto"` (default): model decides; `"required"`: it MUST call one; `"none"`: it MUST NOT. */
  mode?: "auto" | "required" | "none";
}

/**
 * Params of `sampling/createMessage`: the server asks the client's model for a reply (a human should
 * review it). Deprecated in 2026-07-28 with sampling: call an LLM provider directly (https://modelcontextprotocol.io/specification/2026-07-28/deprecated).
 */
export interface CreateMessageRequestParams extends RequestParams {
  /** The conversation so far. */
  messages: SamplingMessage[];
  /** Which kind of model the server would like. */
  modelPreferences?: ModelPreferences;
  /** A system prompt; the client MAY change or drop it. */
  systemPrompt?: string;
  /**
   * Context to add; default `"none"`. The others only with `sampling.context`. They are deprecated
   * since 2025-11-25; 2026-07-28 puts them under its removal policy, to go no later than sampling
   * (https://modelcontextprotocol.io/specification/2026-07-28/client/sampling#capabilities).
   */
  includeContext?: "none" | "thisServer" | "allServers";
  /** Sampling temperature. */
  temperature?: number;
  /** Upper bound on tokens to generate; the client may generate fewer. */
  maxTokens: number;
  /** Strings that end generation. */
  stopSequences?: string[];
  /** Provider-specific options, passed through. */
  metadata?: object;
  /** Tools the model may call. Since 2025-11-25; MUST NOT be sent unless the client declared `sampling.tools`. */
  tools?: Tool[];
  /** How the model may use `tools`. Since 2025-11-25; same capability rule as `tools`. */
  toolChoice?: ToolChoice;
}

/** The result of `sampling/createMessage`: the model's message plus how it was made. */
export interface CreateMessageResult extends Result, SamplingMessage {
  /** The model that actually answered. */
  model: string;
  /** Why generation stopped. `"toolUse"` is since 2025-11-25; providers may report other strings. */
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | string;
}
