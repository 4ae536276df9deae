// Prompts: message templates a server offers for the user to pick (e.g. as slash commands),
// with `prompts/list` and `prompts/get`.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/prompts and
// https://modelcontextprotocol.io/specification/2026-07-28/server/prompts. Unless marked, the same in both generations.
// `notifications/prompts/list_changed` has no params of its own, only `NotificationParams`
// (2026-07-28: only on a `subscriptions/listen` stream that asked for it).

import type { BaseMetadata, Icons, Meta, PaginatedResult, RequestParams, Result, Role } from "./base.js";
import type { ContentBlock } from "./content.js";

/** A prompt or prompt template, as listed by `prompts/list`. */
export interface Prompt extends BaseMetadata, Icons {
  /** What the prompt is for. */
  description?: string;
  /** The values the template can be filled with. */
  arguments?: PromptArgument[];
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/** One named input of a prompt template. Its `title` (from `BaseMetadata`) is since 2025-06-18. */
export interface PromptArgument extends BaseMetadata {
  /** What the argument means, for the user filling it in. */
  description?: string;
  /** The argument must be supplied to `prompts/get`; leaving it out is error -32602. */
  required?: boolean;
}

/**
 * One turn of a prompt. Unlike a `SamplingMessage` it holds exactly one block, and that block may
 * be a resource. Image and audio data MUST be base64 with a valid `mimeType`.
 */
export interface PromptMessage {
  /** Who says it. */
  role: Role;
  /** What is said. */
  content: ContentBlock;
}

/** The result of `prompts/list` (params: `PaginatedRequestParams`). Cacheable since 2026-07-28 (`ttlMs`, `cacheScope`). */
export interface ListPromptsResult extends PaginatedResult {
  /** One page of the server's prompts. */
  prompts: Prompt[];
}

/**
 * Params of `prompts/get`. An unknown name is error -32602. Since 2026-07-28 a retry after
 * `input_required` adds `inputResponses` and `requestState` (InputResponseFields in modern.ts).
 */
export interface GetPromptRequestParams extends RequestParams {
  /** Which prompt to expand. */
  name: string;
  /** Values for the template's arguments; always strings. */
  arguments?: { [key: string]: string };
}

/** The result of `prompts/get`: the prompt, filled in. Since 2026-07-28 it may be preceded by `input_required`. */
export interface GetPromptResult extends Result {
  /** A description of this expanded prompt. */
  description?: string;
  /** The conversation the prompt expands to. */
  messages: PromptMessage[];
}
