// Features a client offers a server, asked for by server-to-client requests: roots, sampling, elicitation.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/roots
// https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
// https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
// Leaves out the `task` param of sampling and elicitation (2025-11-25 tasks; mcp-wire has none).

import type { Meta, RequestParams, Result, Role } from "./base.js";
import type { AudioContent, ContentBlock, ImageContent, TextContent } from "./content.js";
import type { Tool } from "./tools.js";

/** A directory or file the client lets the server work in. */
export interface Root {
  /** Where the root is; MUST be a `file://` URI for now. */
  uri: string;
  /** A display name for the root. */
  name?: string;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/** The result of `roots/list` (params: only `_meta`). A client without `roots` answers -32601. */
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
  /** The output as JSON, which SHOULD fit the tool's `outputSchema` if it has one. */
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

/** Params of `sampling/createMessage`: the server asks the client's model for a reply (a human should review it). */
export interface CreateMessageRequestParams extends RequestParams {
  /** The conversation so far. */
  messages: SamplingMessage[];
  /** Which kind of model the server would like. */
  modelPreferences?: ModelPreferences;
  /** A system prompt; the client MAY change or drop it. */
  systemPrompt?: string;
  /** Context to add; default `"none"`. The others are soft-deprecated: only with `sampling.context`. */
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

/** Params of `elicitation/create` in form mode: ask the user to fill in a small form. Since 2025-06-18. */
export interface ElicitRequestFormParams extends RequestParams {
  /** Form mode; absent means the same. 2025-06-18 has no `mode`, so leave it out for such peers. */
  mode?: "form";
  /** Tells the user what is being asked and why. */
  message: string;
  /** The form: a flat object schema. Servers MUST NOT ask for secrets such as passwords or API keys here. */
  requestedSchema: {
    /** The JSON Schema dialect, as a URI. Since 2025-11-25. */
    $schema?: string;
    /** Always an object at the root. */
    type: "object";
    /** One primitive field per property; no nesting. */
    properties: { [key: string]: PrimitiveSchemaDefinition };
    /** Fields the user must fill in. */
    required?: string[];
  };
}

/** Params of `elicitation/create` in URL mode: send the user to a web page. Since 2025-11-25. */
export interface ElicitRequestURLParams extends RequestParams {
  /** Selects URL mode; the client must have declared `elicitation.url`. */
  mode: "url";
  /** Tells the user why they should visit the page. */
  message: string;
  /** Identifies this elicitation, unique within the server; opaque to the client. */
  elicitationId: string;
  /** The page to open, only with consent. MUST NOT embed credentials or personal data. */
  url: string;
}

/** Params of `elicitation/create`; switch on `mode` (absent means `"form"`). */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/** A form field: a flat, primitive JSON Schema. */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/** Labels every form field may have. mcp-wire's own base; the spec repeats them per variant. */
export interface PrimitiveSchemaLabels {
  /** The field's label. */
  title?: string;
  /** Help text for the field. */
  description?: string;
}

/** A free-text field. */
export interface StringSchema extends PrimitiveSchemaLabels {
  /** Marks a string field. */
  type: "string";
  /** Shortest allowed answer. */
  minLength?: number;
  /** Longest allowed answer. */
  maxLength?: number;
  /** A well-known string format to check. */
  format?: "email" | "uri" | "date" | "date-time";
  /** Pre-filled answer. Since 2025-11-25. */
  default?: string;
}

/** A numeric field. */
export interface NumberSchema extends PrimitiveSchemaLabels {
  /** Any number, or whole numbers only. */
  type: "number" | "integer";
  /** Smallest allowed value. */
  minimum?: number;
  /** Largest allowed value. */
  maximum?: number;
  /** Pre-filled answer. Since 2025-11-25. */
  default?: number;
}

/** A yes/no field. */
export interface BooleanSchema extends PrimitiveSchemaLabels {
  /** Marks a boolean field. */
  type: "boolean";
  /** Pre-filled answer. */
  default?: boolean;
}

/** Pick one of plain values. Since 2025-11-25; a 2025-06-18 `EnumSchema` without `enumNames` fits it. */
export interface UntitledSingleSelectEnumSchema extends PrimitiveSchemaLabels {
  /** The answer is one string. */
  type: "string";
  /** The allowed values, shown as they are. */
  enum: string[];
  /** Pre-selected value. */
  default?: string;
}

/** Pick one of values that each have a display label. Since 2025-11-25. */
export interface TitledSingleSelectEnumSchema extends PrimitiveSchemaLabels {
  /** The answer is one string. */
  type: "string";
  /** The options: `const` is sent back, `title` is shown. */
  oneOf: { const: string; title: string }[];
  /** Pre-selected value. */
  default?: string;
}

/** Either single-select form. */
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;

/** Pick several of plain values. Since 2025-11-25. */
export interface UntitledMultiSelectEnumSchema extends PrimitiveSchemaLabels {
  /** The answer is a list of strings. */
  type: "array";
  /** Fewest choices allowed. */
  minItems?: number;
  /** Most choices allowed. */
  maxItems?: number;
  /** The allowed values. */
  items: { type: "string"; enum: string[] };
  /** Pre-selected values. */
  default?: string[];
}

/** Pick several of values that each have a display label. Since 2025-11-25. */
export interface TitledMultiSelectEnumSchema extends PrimitiveSchemaLabels {
  /** The answer is a list of strings. */
  type: "array";
  /** Fewest choices allowed. */
  minItems?: number;
  /** Most choices allowed. */
  maxItems?: number;
  /** The options: `const` is sent back, `title` is shown. */
  items: { anyOf: { const: string; title: string }[] };
  /** Pre-selected values. */
  default?: string[];
}

/** Either multi-select form. */
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;

/** The 2025-06-18 enum field, labels in a parallel `enumNames`. Deprecated: use `TitledSingleSelectEnumSchema`. */
export interface LegacyTitledEnumSchema extends PrimitiveSchemaLabels {
  /** The answer is one string. */
  type: "string";
  /** The allowed values. */
  enum: string[];
  /** Labels for `enum`, position by position (not standard JSON Schema). */
  enumNames?: string[];
  /** Pre-selected value. Since 2025-11-25. */
  default?: string;
}

/** Any choice field. In 2025-06-18 `EnumSchema` was one interface, the shape now called legacy. */
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;

/** The result of `elicitation/create`. */
export interface ElicitResult extends Result {
  /** `"accept"`: submitted (URL mode: agreed to open); `"decline"`: said no; `"cancel"`: dismissed. */
  action: "accept" | "decline" | "cancel";
  /** The answers, keyed by field; only for an accepted form. String lists (multi-select) since 2025-11-25. */
  content?: { [key: string]: string | number | boolean | string[] };
}

/** Params of `notifications/elicitation/complete`: a URL-mode elicitation has finished. Since 2025-11-25. */
export interface ElicitationCompleteNotificationParams {
  /** Which elicitation; a client MUST ignore ids it does not know or already saw finish. */
  elicitationId: string;
}
