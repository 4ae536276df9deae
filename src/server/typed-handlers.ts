// The types McpServer.tool, .prompt and .resourceTemplate give their handlers, worked out from
// what is registered: a tool's arguments from its inputSchema and its structuredContent from its
// outputSchema (schema/schema-types.ts), a prompt's arguments from its `arguments`, a template's
// variables from the RFC 6570 template's own text. Types only. A definition the compiler sees
// only through the wide types (a `Tool` variable, a template held in a `string`) gives the wide
// handler types of before, so untyped code keeps compiling.

import type { ContentBlock } from "../mcp/content.js";
import type { Tool, CallToolResult } from "../mcp/tools.js";
import type { Prompt, PromptArgument } from "../mcp/prompts.js";
import type { ResourceTemplate } from "../mcp/resources.js";
import type { FromSchema } from "../schema/schema-types.js";
import type { StandardSchemaV1 } from "./typed-standard-schema.js";

/**
 * An object schema as tool() takes it: JSONSchemaObject (mcp/tools.ts), but with readonly arrays
 * and members allowed, because that is what a `const` type parameter and `as const` produce.
 */
export interface ToolSchema {
  readonly $schema?: string;
  readonly type: "object";
  readonly properties?: { readonly [key: string]: object };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

type ToolMetadata = Omit<Tool, "inputSchema" | "outputSchema">;

/** A tool whose arguments are checked against `inputSchema`, the schema tools/list shows. */
export type JsonSchemaTool<I extends ToolSchema = ToolSchema, O extends ToolSchema = ToolSchema> = ToolMetadata & {
  inputSchema: I;
  outputSchema?: O;
  input?: undefined;
};

/**
 * A tool whose arguments are checked by a Standard Schema validator (`input`; zod, valibot,
 * arktype and others implement it), which also types them. tools/list still needs a JSON Schema:
 * `inputSchema`, or else what the validator's `~standard.jsonSchema` (Standard JSON Schema) makes.
 */
export type StandardSchemaTool<S extends StandardSchemaV1 = StandardSchemaV1, O extends ToolSchema = ToolSchema> = ToolMetadata & {
  input: S;
  inputSchema?: ToolSchema;
  outputSchema?: O;
};

/** The arguments a tool's handler gets: what its validator outputs, or what its inputSchema accepts. */
export type ToolArguments<T> =
  T extends { input: infer S extends StandardSchemaV1 } ? StandardSchemaV1.InferOutput<S>
  : T extends { inputSchema: infer I } ? FromSchema<I>
  : { [key: string]: unknown };

/**
 * What a tool's handler returns: with an outputSchema, structuredContent (when there is one) must
 * fit it. It stays optional in the type, as it is for an `isError` result; a non-error result
 * without it is refused at run time (features/tools.ts, server/tools#output-schema). Without an
 * outputSchema, any object.
 */
export type ToolResult<T = Tool> =
  T extends { outputSchema: infer O extends object } ? ToolResultBase & { structuredContent?: FromSchema<O> } : CallToolResult;

type ToolResultBase = Omit<CallToolResult, "structuredContent" | "content"> & { content: ContentBlock[] };

/**
 * A prompt's arguments as its renderer gets them: those marked `required: true` are strings (the
 * server refuses a prompts/get without them, -32602), the others may be absent. Only declared names
 * can be read, as with a tool's properties. Arguments the compiler sees only as `PromptArgument[]` give
 * the wide `Record<string, string>`.
 */
export type PromptArguments<A> =
  A extends readonly PromptArgument[]
    ? string extends A[number]["name"]
      ? Record<string, string>
      : Simplify<
          { -readonly [E in A[number] as E extends { readonly required: true } ? E["name"] : never]: string } & {
            -readonly [E in A[number] as E extends { readonly required: true } ? never : E["name"]]?: string;
          }
        >
    : {};

/** A prompt as prompt() takes it: `arguments` may be a readonly tuple (`as const`, a `const` type parameter). */
export type PromptDefinition<A extends readonly PromptArgument[] = PromptArgument[]> = Omit<Prompt, "arguments"> & { arguments?: A };

/**
 * A template's variables, from the template's text, as UriTemplate.match (schema/uri-template-match.ts)
 * hands them over. An exploded variable (`{/path*}`, `{?tag*}`) is a list, any other a string.
 * Present for sure: the first variable of a `{var}` or `{+var}` expression, which must match some
 * text. Maybe absent: the others there, and every variable of an expression with an operator
 * character (`{#f}`, `{.ext}`, `{/seg}`, `{;p}`, `{?q}`, `{&q}`), which a URI may leave out whole.
 * A template the compiler sees only as `string` gives the wide `Record<string, string | string[]>`.
 */
export type TemplateVariables<T extends string> =
  string extends T
    ? Record<string, string | string[]>
    : Simplify<
        { -readonly [V in VariablesIn<T> as V["present"] extends true ? V["name"] : never]: V["value"] } & {
          -readonly [V in VariablesIn<T> as V["present"] extends true ? never : V["name"]]?: V["value"];
        }
      >;

/** A resource template as resourceTemplate() takes it, keeping the literal text of `uriTemplate`. */
export type TemplateDefinition<U extends string = string> = ResourceTemplate & { uriTemplate: U };

interface VariableInfo<Name extends string = string, Value = unknown, Present extends boolean = boolean> {
  name: Name;
  value: Value;
  present: Present;
}

/** Every expression of a template: the text between each `{` and the `}` after it. */
type Expressions<T extends string> = T extends `${string}{${infer E}}${infer Rest}` ? E | Expressions<Rest> : never;

type ExpressionVariables<E extends string> =
  E extends `+${infer List}` ? Specs<List, true>
  : E extends `${"#" | "." | "/" | ";" | "?" | "&"}${infer List}` ? Specs<List, false>
  : Specs<E, true>;

type VariablesIn<T extends string> = ExpressionVariables<Expressions<T>>;

/** The comma-separated variables of one expression; only the first may be certain to be present. */
type Specs<List extends string, FirstPresent extends boolean> =
  List extends `${infer Spec},${infer Rest}` ? VarSpec<Spec, FirstPresent> | Specs<Rest, false> : VarSpec<List, FirstPresent>;

/** One variable: `name`, `name:3` (a prefix: still a string) or `name*` (explode: a list). */
type VarSpec<Spec extends string, Present extends boolean> =
  Spec extends `${infer Name}*` ? VariableInfo<Name, string[], Present>
  : Spec extends `${infer Name}:${string}` ? VariableInfo<Name, string, Present>
  : VariableInfo<Spec, string, Present>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
