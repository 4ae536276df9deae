// Argument completion: the client asks for likely values of a prompt argument or a URI-template
// variable while the user types.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion and
// https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/completion.
// The same in both generations (2026-07-28 only adds the request envelope every request carries).
// Servers must declare the `completions` capability (since 2025-03-26) to be asked.

import type { BaseMetadata, RequestParams, Result } from "./base.js";

/** Points at a prompt, by its `name` (plus a `title`, which the reference does not need). */
export interface PromptReference extends BaseMetadata {
  /** Discriminator for the `ref` union. */
  type: "ref/prompt";
}

/** Points at a resource template. Called `ResourceReference` before 2025-06-18; same wire shape. */
export interface ResourceTemplateReference {
  /** Discriminator for the `ref` union. */
  type: "ref/resource";
  /** The URI template (or plain URI) whose variable is being completed. */
  uri: string;
}

/** Params of `completion/complete`. */
export interface CompleteRequestParams extends RequestParams {
  /** The prompt or resource template the argument belongs to. */
  ref: PromptReference | ResourceTemplateReference;
  /** The argument being typed. */
  argument: {
    /** The argument's (or template variable's) name. */
    name: string;
    /** What the user has typed so far; match completions against it. */
    value: string;
  };
  /** Extra context for better suggestions. Since 2025-06-18. */
  context?: {
    /** Values already chosen for the other arguments or variables. */
    arguments?: { [key: string]: string };
  };
}

/** The result of `completion/complete`. */
export interface CompleteResult extends Result {
  /** The suggestions. */
  completion: {
    /** Suggested values, best first; at most 100. */
    values: string[];
    /** How many matches exist in all, which may be more than were sent. */
    total?: number;
    /** More matches exist than were sent, whether or not `total` is known. */
    hasMore?: boolean;
  };
}
