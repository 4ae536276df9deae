// The CLI's commands, each run against a connected client: which methods it sends, what it prints,
// and the exit code its result means.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server (tools, resources, prompts,
// utilities/completion), basic/utilities/ping, and 2026-07-28/server/discover. A command gets a
// client, never a process, so it runs the same over any transport and in either era.

import type { CallOptions, McpClient } from "../client/client.js";
import { isObject, RpcError } from "../jsonrpc/messages.js";
import type { Command, GivenArguments } from "./arguments.js";
import { step, StepFailure } from "./failures.js";
import { ExitCode } from "./output.js";
import { meant } from "./suggest.js";

export interface CommandOutcome {
  /** Printed as JSON on stdout. */
  result: unknown;
  exitCode: number;
  /** The step that produced the result. */
  step: string;
  /** Said on stderr beside the result: what the result is, when it is not what was asked for. */
  note?: string;
}

/**
 * @param onProgress receives the server's progress on tools/call, and asking for it puts a
 *   progressToken on that request alone (basic/utilities/progress): a list or a read is quick.
 */
export async function runCommand(
  client: McpClient, command: Command, options: CallOptions = {}, onProgress?: CallOptions["onProgress"],
): Promise<CommandOutcome> {
  const run = async (name: string, call: () => Promise<unknown>): Promise<CommandOutcome> =>
    ({ result: await step(name, call), exitCode: ExitCode.ok, step: name });
  switch (command.name) {
    case "discover":
      return discover(client, options);
    case "tools":
      return run("tools/list", async () => ({ tools: await client.listAllTools(options) }));
    case "call": {
      const args = await toolArguments(client, command.tool, command.args, options);
      const callOptions = onProgress === undefined ? options : { ...options, onProgress };
      const result = await step("tools/call", () => client.callTool(command.tool, args, callOptions))
        .catch((error: unknown) => failWithNearestTools(client, command.tool, error, options));
      // Spec (server/tools#error-handling): a tool's own failure is a result with isError, not a protocol error.
      return { result, exitCode: result.isError === true ? ExitCode.toolError : ExitCode.ok, step: "tools/call" };
    }
    case "resources":
      return run("resources/list", async () => ({ resources: await client.listAllResources(options) }));
    case "read":
      return run("resources/read", () => client.readResource(command.uri, options));
    case "templates":
      return run("resources/templates/list", async () => ({ resourceTemplates: await client.listAllResourceTemplates(options) }));
    case "prompts":
      return run("prompts/list", async () => ({ prompts: await client.listAllPrompts(options) }));
    case "get": {
      const args = Object.keys(command.args).length > 0 ? command.args : undefined;
      return run("prompts/get", () => client.getPrompt(command.prompt, args, options));
    }
    case "complete": {
      const params = { ref: command.ref, argument: { name: command.argument, value: command.value } };
      return run("completion/complete", () => client.complete(params, options));
    }
    case "ping":
      return run("ping", async () => (await client.ping(options), {}));
    case "request":
      return run(command.method, () => client.request(command.method, command.params, options));
  }
}

/**
 * A 2026-07-28 server is asked server/discover again (the probe's answer stays inside the client),
 * so the result printed is the server's own. A server of the handshake era has no discover: what
 * initialize told is the nearest thing, printed with a note rather than failed, since under
 * "auto" finding that out is an answer. A pinned 2026-07-28 never gets here: connect failed.
 */
async function discover(client: McpClient, options: CallOptions): Promise<CommandOutcome> {
  if (client.era === "modern") {
    return { result: await step("server/discover", () => client.request("server/discover", undefined, options)), exitCode: ExitCode.ok, step: "server/discover" };
  }
  const result = { protocolVersion: client.protocolVersion, capabilities: client.serverCapabilities, serverInfo: client.serverInfo, instructions: client.instructions };
  return {
    result, exitCode: ExitCode.ok, step: "initialize",
    note: `discover: not a 2026-07-28 session (${client.eraReason ?? "no reason given"}); printed is what initialize told instead`,
  };
}

/** The result as printed. One too deeply nested for JSON.stringify fails its step, not the program. */
export function renderResult(outcome: CommandOutcome): string {
  try {
    return JSON.stringify(outcome.result, null, 2);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new StepFailure(outcome.step, new Error("the result is nested too deeply to print"));
  }
}

/**
 * A call the server answered with a JSON-RPC error (an unknown tool is -32602, server/tools#error-handling):
 * when it has no tool of that name, the failure says which of its tools are nearest.
 */
async function failWithNearestTools(client: McpClient, tool: string, error: unknown, options: CallOptions): Promise<never> {
  if (!(error instanceof StepFailure && error.cause instanceof RpcError)) throw error;
  // Asked only now, on the failure: a call that works never pays for the list.
  const names = (await client.listAllTools(options).catch(() => [])).map((t) => t.name);
  const question = names.includes(tool) ? "" : meant(tool, names);
  if (question === "") throw error;
  throw new StepFailure(error.step, error.cause, `the server has no tool ${JSON.stringify(tool)}: ${question}`);
}

/** The arguments object for tools/call; key=value pairs need the tool's inputSchema, so tools/list comes first. */
async function toolArguments(
  client: McpClient, tool: string, given: GivenArguments, options: CallOptions,
): Promise<{ [key: string]: unknown } | undefined> {
  if (given.kind === "none") return undefined;
  if (given.kind === "json") return given.value;
  const tools = await step("tools/list", () => client.listAllTools(options));
  // An unknown tool keeps its arguments as strings: the server's answer to the call says more than we could.
  return coerceArguments(tools.find((t) => t.name === tool)?.inputSchema, given.pairs);
}

/**
 * Types each value by its property in the schema, as the MCP Inspector's CLI does: number and
 * integer, boolean, JSON for object and array, text otherwise. Text that does not fit its type
 * stays text, so the server's own validation reports the mistake (as an isError result).
 */
export function coerceArguments(inputSchema: unknown, pairs: readonly [string, string][]): { [key: string]: unknown } {
  const properties = isObject(inputSchema) && isObject(inputSchema.properties) ? inputSchema.properties : {};
  return Object.fromEntries(pairs.map(([key, text]) => [key, coerce(text, typesOf(properties[key]))]));
}

function typesOf(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const type = schema.type;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}

function coerce(text: string, types: string[]): unknown {
  // A property that accepts a string takes the text as it is: "007" stays "007".
  if (types.includes("string")) return text;
  for (const type of types) {
    if ((type === "number" || type === "integer") && text.trim() !== "") {
      const value = Number(text);
      if (Number.isFinite(value) && (type === "number" || Number.isInteger(value))) return value;
    }
    if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
    if (type === "null" && text === "null") return null;
    if (type === "object" || type === "array") {
      const value = parseJson(text);
      if (type === "array" ? Array.isArray(value) : isObject(value)) return value;
    }
  }
  return text;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
