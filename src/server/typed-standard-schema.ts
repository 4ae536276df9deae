// Standard Schema (https://standardschema.dev, v1): the `~standard` interface that zod, valibot,
// arktype and others implement, so a tool can take the validator its author already has, with no
// dependency on any of them. The interface is written out here from the spec; a validator checks
// a tool's arguments at call time and types them (its `types.output`). If it also implements
// Standard JSON Schema (https://standardschema.dev/json-schema), `~standard.jsonSchema.input()`
// can make the inputSchema tools/list shows; otherwise the tool gives one itself. The arguments
// meet that inputSchema first, as every tool's do (features/tools.ts), then the validator.

import { ErrorCode, isObject, RpcError } from "../jsonrpc/messages.js";
import type { CallToolResult, Tool } from "../mcp/tools.js";
import { supports } from "../mcp/versions.js";
import { describeIssues, type SchemaIssue } from "../schema/json-schema.js";
import type { HandlerContext } from "./served.js";

/** A validator in the Standard Schema v1 shape: everything lives under one `~standard` key. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    /** The version of the standard: 1. */
    readonly version: 1;
    /** The library that made the validator ("zod", "valibot", "arktype"...). */
    readonly vendor: string;
    /** Checks a value: its (possibly transformed) value, or what is wrong with it. */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** Types only, never present at run time: what the validator takes and what it gives. */
    readonly types?: Types<Input, Output> | undefined;
    /** Standard JSON Schema: the validator's types as JSON Schema (not part of Standard Schema itself). */
    readonly jsonSchema?: JsonSchemaConverter | undefined;
  }
  type Result<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<Issue> };
  interface Issue {
    readonly message: string;
    /** Where in the value: keys and indexes, bare or as `{ key }`. */
    readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  /** Standard JSON Schema's converter. Either method may throw for a type it cannot express. */
  interface JsonSchemaConverter {
    readonly input: (options: JsonSchemaOptions) => Record<string, unknown>;
    readonly output: (options: JsonSchemaOptions) => Record<string, unknown>;
  }
  /** `target`: "draft-2020-12", "draft-07", "openapi-3.0" or another; a library throws for one it cannot write. */
  interface JsonSchemaOptions {
    readonly target: string;
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];
}

/** Whether `value` is a Standard Schema v1 validator (arktype's are functions, so not only objects). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props: unknown = (value as { "~standard"?: unknown })["~standard"];
  return isObject(props) && props.version === 1 && typeof props.validate === "function";
}

/** What toolRegistration reads of a definition (typed-handlers.ts has the exact types). */
type Definition = Omit<Tool, "inputSchema" | "outputSchema"> & { inputSchema?: object; outputSchema?: object; input?: unknown };
/**
 * A tool handler as McpServer.tool stores it: catalog.ts's ToolHandler with its default types,
 * written out here because importing it from catalog.ts, which imports this file, would make a circle.
 */
type Handler = (args: { [key: string]: unknown }, context: HandlerContext) => CallToolResult | Promise<CallToolResult>;

/**
 * What McpServer.tool stores for a definition: the Tool as tools/list shows it (without `input`,
 * with an inputSchema) and the handler, which for a validator checks the arguments with it first.
 */
export function toolRegistration(definition: Definition, handler: Handler): { tool: Tool; handler: Handler } {
  if (definition.input === undefined) return { tool: definition as Tool, handler };
  const { input, ...rest } = definition;
  if (!isStandardSchema(input)) throw new Error(`server: tool "${definition.name}": input is not a Standard Schema v1 validator (no "~standard" with version 1 and validate)`);
  const tool = { ...rest, inputSchema: definition.inputSchema ?? jsonSchemaOf(definition.name, input) } as Tool;
  return { tool, handler: checkedBy(definition.name, input, handler) };
}

function jsonSchemaOf(name: string, input: StandardSchemaV1): object {
  const converter = input["~standard"].jsonSchema;
  if (!converter) throw new Error(`server: tool "${name}" needs an inputSchema for tools/list: its validator (${input["~standard"].vendor}) offers no ~standard.jsonSchema`);
  try {
    return converter.input({ target: "draft-2020-12" });
  } catch (error) {
    throw new Error(`server: tool "${name}": its validator (${input["~standard"].vendor}) could not write its input as JSON Schema, so give an inputSchema: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The handler, run on what the validator makes of the arguments. Refused arguments get the answer
 * features/tools.ts gives its own schema's issues, in the same words (describeIssues).
 */
function checkedBy(name: string, input: StandardSchemaV1, handler: Handler): Handler {
  return async (args, context) => {
    const result = await input["~standard"].validate(args);
    if (result.issues === undefined) {
      // Spec (server/tools#calling-tools): a tool's arguments are an object; a validator that
      // turns them into anything else is the tool's fault, answered as its failure (isError).
      if (!isObject(result.value)) throw new Error(`tools/call ${name}: its validator (${input["~standard"].vendor}) did not make the arguments an object (it made ${result.value === null ? "null" : Array.isArray(result.value) ? "an array" : `a ${typeof result.value}`})`);
      return handler(result.value, context);
    }
    const issues = result.issues.map(toSchemaIssue);
    const message = `tools/call ${name}: invalid arguments: ${describeIssues(issues)}`;
    // Spec (server/tools#error-handling, 2025-11-25): a tool execution error, with isError; -32602 before.
    if (!supports(context.protocolVersion, "inputErrorsAsToolResults")) throw new RpcError(ErrorCode.InvalidParams, message, { issues });
    return { content: [{ type: "text", text: message }], isError: true };
  };
}

/** A Standard Schema issue in our validator's form: its path as a JSON Pointer. */
function toSchemaIssue(issue: StandardSchemaV1.Issue): SchemaIssue {
  const keys = (issue.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment));
  return { path: keys.map((key) => "/" + key.replaceAll("~", "~0").replaceAll("/", "~1")).join(""), message: issue.message };
}
