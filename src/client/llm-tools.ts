// MCP tools in the shapes LLM APIs take as tool definitions, so an agent can hand a manager's
// tools to a model and route the model's calls back through McpClientManager.callTool.
// Not MCP: these are the OpenAI Chat Completions "function" tool and the Anthropic Messages tool.
// The input schema is passed unchanged (no conversion to OpenAI's strict mode); outputSchema,
// annotations and icons have no place in either shape and are left out.

import type { JSONSchemaObject } from "../mcp/tools.js";
import type { ExposedTool } from "./tool-names.js";

/** OpenAI: `tools: [{ type: "function", function: { name, description, parameters } }]`. */
export interface OpenAIFunctionTool {
  type: "function";
  function: { name: string; description?: string; parameters: JSONSchemaObject };
}

/** Anthropic: `tools: [{ name, description, input_schema }]`. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JSONSchemaObject;
}

export function toOpenAITool({ name, tool }: ExposedTool): OpenAIFunctionTool {
  const description = describe(tool);
  return { type: "function", function: { name, ...(description === undefined ? {} : { description }), parameters: tool.inputSchema } };
}

export function toAnthropicTool({ name, tool }: ExposedTool): AnthropicTool {
  const description = describe(tool);
  return { name, ...(description === undefined ? {} : { description }), input_schema: tool.inputSchema };
}

/** The description is what the model goes by; a tool without one still has its title, if any. */
function describe(tool: ExposedTool["tool"]): string | undefined {
  return tool.description ?? tool.title ?? tool.annotations?.title;
}

/** Arguments as a model may send them: an object, or its JSON text (OpenAI's `function.arguments`). */
export function parseToolArguments(exposedName: string, args: { [key: string]: unknown } | string | undefined): { [key: string]: unknown } | undefined {
  if (typeof args !== "string") return args;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch (error) {
    throw new Error(`callTool ${exposedName}: arguments are not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`callTool ${exposedName}: arguments must be a JSON object`);
  return parsed as { [key: string]: unknown };
}
