// Textbook: Server.#call in src/textbook/server.ts; this adds a full JSON Schema validator, output
//  checked against outputSchema, handlers' failures caught, results fitted to older versions.
// tools/list and tools/call: listing, argument validation, running the handler, checking its
// structured output, and fitting the result to the client's protocol version.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools
// Tool failures are results with isError: true; protocol errors are for calls that cannot start.

import { ErrorCode, isObject, RpcError } from "../../jsonrpc/messages.js";
import { invalidParams } from "../../jsonrpc/field-reader.js";
import type { CallToolResult } from "../../mcp/tools.js";
import { supports } from "../../mcp/versions.js";
import { describeIssues, validate, type JsonSchema } from "../../schema/json-schema.js";
import { callToolResultFor, describedFor, TOOL_FIELDS } from "../compat.js";
import { paginate } from "../pagination.js";
import type { ClientRequestHandlers, ServingConnection } from "../serving.js";
import { appOnly, rendersApps, uiMetaFor } from "../../apps/server.js";

export const toolHandlers: ClientRequestHandlers = {
  "tools/list"(params, context, connection) {
    const { protocolVersion: version, clientCapabilities } = connection.served(context);
    const renders = rendersApps(clientCapabilities);
    // A tool only views may call is left out for a client without them (apps/server.ts).
    const all = connection.server.tools().filter(({ tool }) => renders || !appOnly(tool))
      .map(({ tool }) => uiMetaFor(describedFor({ ...tool }, version, TOOL_FIELDS), tool, renders));
    return paginate("tools", all, params, connection.server.pageSize);
  },
  async "tools/call"({ name, arguments: args = {} }, context, connection) {
    const version = connection.served(context).protocolVersion;
    const registered = connection.server.findTool(name);
    // Spec (server/tools#error-handling): an unknown tool is a protocol error, -32602.
    if (!registered) throw invalidParams("tools/call", "name", `names no tool of this server: ${JSON.stringify(name)}`, { name });
    const { tool, handler } = registered;

    const issues = validate(tool.inputSchema, args);
    if (issues.length > 0) {
      const message = `tools/call ${name}: invalid arguments: ${describeIssues(issues)}`;
      // Spec (server/tools#error-handling, 2025-11-25): input validation errors are tool
      // execution errors, returned with isError so the model can correct itself. Earlier
      // versions list invalid arguments among the protocol errors.
      if (!supports(version, "inputErrorsAsToolResults")) throw new RpcError(ErrorCode.InvalidParams, message, { issues });
      return errorResult(message);
    }

    let result: CallToolResult;
    try {
      result = await handler(args, connection.handlerContext(context));
    } catch (error) {
      if (error instanceof RpcError) throw error;
      // Spec (server/tools#error-handling): failures inside the tool are reported in the result, as thrown.
      return errorResult(thrownMessage(error));
    }
    // Checked here, for every version: the newest one sends the blocks on as they are.
    if (!isObject(result) || !Array.isArray(result.content) || result.content.some((block) => !isObject(block) || typeof block.type !== "string")) {
      throw new Error(`tool "${name}" returned no content array of blocks, each with a type`);
    }
    const broken = tool.outputSchema && !result.isError && checkStructuredContent(name, tool.outputSchema, result);
    return broken ? brokenOutput(connection, broken) : callToolResultFor(result, version);
  },
};

/**
 * Spec (server/tools#output-schema): with an outputSchema, the server MUST return
 * structuredContent that conforms to it. A handler that does not is a bug in the server, and the
 * call fails as a tool execution error (server/tools#error-handling) saying what is wrong
 * (brokenOutput): an isError result needs no structuredContent, and a -32603 would say nothing.
 * Checked in every version: before 2025-06-18 the client never sees the schema, but it does see
 * the value, as the JSON text that stands in for structuredContent (compat.ts), so the same bug
 * gets the same answer whoever asks. What is checked is the value as the client will read it:
 * JSON has no Infinity or NaN (they are written as null) and drops undefined members, so a value
 * can pass in memory and fail on the wire. Returns what is wrong, or undefined when nothing is.
 */
function checkStructuredContent(name: string, schema: CallToolResult["structuredContent"], result: CallToolResult): string | undefined {
  if (result.structuredContent === undefined) return `tools/call ${name}: the tool has an outputSchema but returned no structuredContent`;
  const issues = validate(schema as JsonSchema, JSON.parse(JSON.stringify(result.structuredContent)));
  return issues.length > 0 ? `tools/call ${name}: structuredContent does not match the tool's outputSchema: ${describeIssues(issues)}` : undefined;
}

/** A result that breaks the tool's own outputSchema: the server's bug, for its log and, as the tool's error, for the client. */
function brokenOutput(connection: Pick<ServingConnection, "reportProblem">, problem: string): CallToolResult {
  connection.reportProblem(problem);
  return errorResult(problem);
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * What a handler threw, as text: an Error's message (its name if it has none); the message of an
 * error-like object (an Error made in another realm, a worker or a vm, is no instanceof Error);
 * a string as it is; anything else as JSON, or as String() gives it when JSON cannot.
 */
function thrownMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  if (isObject(error) && typeof error.message === "string") return error.message;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error); // a BigInt, or an object with a cycle
  }
}
