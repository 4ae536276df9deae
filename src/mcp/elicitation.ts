// Elicitation: a server asking the user for input through the client, as a form or at a URL, and
// the error (-32042) by which a server says a request needs a URL elicitation first.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation and
// https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation. Unless marked, the
// same in both generations; in 2026-07-28 the request travels inside an `input_required` result
// (InputRequest in modern.ts) and the user's answer comes back in the client's retry.
// Leaves out the `task` param (2025-11-25 tasks, shown in tasks.ts; mcp-wire offers none; legacy only).

import type { RequestParams, Result } from "./base.js";

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
  /**
   * Identifies this elicitation, unique within the server; opaque to the client. Legacy only
   * (removed in 2026-07-28: the client's retry reports the outcome; a server that must correlate
   * puts its own id in `requestState`). ModernElicitRequestParams in modern.ts leaves it out.
   */
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

/** The result of `elicitation/create`; in 2026-07-28 an InputResponse in the retry, without `resultType`. */
export interface ElicitResult extends Result {
  /** `"accept"`: submitted (URL mode: agreed to open); `"decline"`: said no; `"cancel"`: dismissed. */
  action: "accept" | "decline" | "cancel";
  /** The answers, keyed by field; only for an accepted form. String lists (multi-select) since 2025-11-25. */
  content?: { [key: string]: string | number | boolean | string[] };
}

/**
 * Params of `notifications/elicitation/complete`: a URL-mode elicitation has finished. Since
 * 2025-11-25; legacy only (removed in 2026-07-28: the client learns the outcome by retrying).
 */
export interface ElicitationCompleteNotificationParams {
  /** Which elicitation; a client MUST ignore ids it does not know or already saw finish. */
  elicitationId: string;
}

/**
 * `error.data` of a -32042 error (ErrorCode.URLElicitationRequired), since 2025-11-25: the request
 * cannot be served until the user has completed these elicitations. Spec
 * (client/elicitation#url-elicitation-required-error). Legacy only (removed in 2026-07-28: the
 * server answers `input_required` with a URL-mode elicitation instead; basic/patterns/mrtr).
 */
export interface URLElicitationRequiredErrorData {
  /** What the user must complete first: URL mode only, each with its `elicitationId`. */
  elicitations: ElicitRequestURLParams[];
  /** Anything else the server adds. */
  [key: string]: unknown;
}
