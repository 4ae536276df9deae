// Textbook: Server.#call in src/textbook/server.ts; this adds a full JSON Schema validator, output
//  checked against outputSchema, results fitted to older versions.
// tools/list and tools/call: listing, argument validation, running the handler, checking its
// structured output, and fitting the result to the client's protocol version.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools
// Tool failures are results with isError: true; protocol errors are for calls that cannot start.

import { ErrorCode, isObject, RpcError } from "../../jsonrpc/messages.js";
import { invalidParams } from "../../jsonrpc/field-reader.js";
import type { CallToolResult } from "../../mcp/tools.js";
import { supports } from "../../mcp/versions.js";
import { validate, type JsonSchema, type SchemaIssue } from "../../schema/json-schema.js";
import { callToolResultFor, describedFor, TOOL_FIELDS } from "../compat.js";
import { paginate } from "../pagination.js";
import type { ClientRequestHandlers, ServingConnection } from "../serving.js";

export function toolHandlers(connection: Pick<ServingConnection, "server" | "served" | "handlerContext">): ClientRequestHandlers {
  return {
    "tools/list"(params, context) {
      const version = connection.served(context).protocolVersion;
      const all = connection.server.tools().map(({ tool }) => describedFor({ ...tool }, version, TOOL_FIELDS));
      return paginate("tools", all, params, connection.server.pageSize);
    },
    async "tools/call"({ name, arguments: args = {} }, context) {
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
        // Spec (server/tools#error-handling): failures inside the tool are reported in the result.
        return errorResult(`tools/call ${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      // Checked here, for every version: the newest one sends the blocks on as they are.
      if (!isObject(result) || !Array.isArray(result.content) || result.content.some((block) => !isObject(block) || typeof block.type !== "string")) {
        throw new Error(`tool "${name}" returned no content array of blocks, each with a type`);
      }
      if (tool.outputSchema && !result.isError) checkStructuredContent(name, tool.outputSchema, result);
      return callToolResultFor(result, version);
    },
  };
}

/**
 * Spec (server/tools#output-schema): with an outputSchema, the server MUST return
 * structuredContent that conforms to it. A handler that does not is a bug in the server.
 * What is checked is the value as the client will read it: JSON has no Infinity or NaN (they
 * are written as null) and drops undefined members, so a value can pass in memory and fail on the wire.
 */
function checkStructuredContent(name: string, schema: CallToolResult["structuredContent"], result: CallToolResult): void {
  if (result.structuredContent === undefined) throw new Error(`tool "${name}" has an outputSchema but returned no structuredContent`);
  const issues = validate(schema as JsonSchema, JSON.parse(JSON.stringify(result.structuredContent)));
  if (issues.length > 0) throw new Error(`tool "${name}" returned structuredContent that does not match its outputSchema: ${describeIssues(issues)}`);
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** `a: must be number, got string; b: is required` — short enough for a model to act on. */
export function describeIssues(issues: SchemaIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => (issue.path ? `${issue.path.slice(1).replaceAll("/", ".")}: ${issue.message}` : issue.message));
  return shown.join("; ") + (issues.length > 5 ? `; and ${issues.length - 5} more` : "");
}
