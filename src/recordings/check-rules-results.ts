// The checker's result rules: each answer has the fields its method's result requires (the
// project's own readers, mcp/read.ts), no field the negotiated version does not have yet, a tool's
// structuredContent that honours its outputSchema (the project's validator, schema/), and tool
// failures reported as the version says (isError results, not protocol errors).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema and server/tools
// Leaves out the fields of params (the receiver answers those with -32602 itself) and content
// blocks' inner shapes, as the readers do.

import { isObject } from "../jsonrpc/messages.js";
import { readClientResult, readServerResult } from "../mcp/read.js";
import { supports, type ProtocolVersion } from "../mcp/versions.js";
import { validate, checkSchema } from "../schema/json-schema.js";
import type { Rule } from "./check-state.js";

const SPEC = "https://modelcontextprotocol.io/specification/2025-11-25";

/** The list results whose items may carry `title` (since 2025-06-18), by the key of their items. */
const TITLED_ITEMS = ["tools", "prompts", "resources", "resourceTemplates"];

export const RESULT_RULES: Rule[] = [
  {
    name: "result-fields",
    spec: `${SPEC}/schema`,
    check(event, dir, _state, report) {
      if (event.kind !== "response" || !event.request || !event.result) return;
      // A 2026-07-28 input_required round is not the method's result: it asks for more first.
      if (event.result.resultType !== undefined && event.result.resultType !== "complete") return;
      const method = event.request.method;
      const readers: { [method: string]: (result: { [key: string]: unknown }) => unknown } = dir === "s2c" ? readClientResult : readServerResult;
      if (!Object.hasOwn(readers, method)) return;
      try {
        // Spec (schema): each result has the fields its type requires, of their types.
        readers[method]!(structuredClone(event.result));
      } catch (error) {
        report(error instanceof Error ? error.message : String(error));
      }
    },
  },
  {
    name: "version-fields",
    spec: "https://modelcontextprotocol.io/specification/2025-06-18/changelog",
    check(event, _dir, _state, report) {
      const message = event.kind === "request" ? { method: event.method, params: event.params, version: event.request.version }
        : event.kind === "response" && event.request && event.result ? { method: event.request.method, result: event.result, version: event.request.version }
        : undefined;
      if (!message?.version) return;
      for (const field of fieldsTooNew(message, message.version)) report(`${field} does not exist in ${message.version}`);
    },
  },
  {
    name: "output-schema",
    spec: `${SPEC}/server/tools#output-schema`,
    check(event, dir, state, report) {
      if (dir !== "s2c" || event.kind !== "response" || event.request?.method !== "tools/call" || !event.result || event.result.isError === true) return;
      const name = event.request.params.name;
      const schema = typeof name === "string" ? state.outputSchemas.get(name) : undefined;
      if (schema === undefined) return;
      // Spec (server/tools#output-schema): with an outputSchema, a result MUST carry
      // structuredContent that conforms to it.
      if (event.result.structuredContent === undefined) return report(`${name} has an outputSchema, but its result has no structuredContent`);
      try {
        checkSchema(schema);
      } catch {
        return report(`${name}'s outputSchema is not a schema the validator can apply`);
      }
      for (const issue of validate(schema, event.result.structuredContent).slice(0, 3)) report(`structuredContent${issue.path}: ${issue.message}`);
    },
  },
  {
    name: "is-error",
    spec: `${SPEC}/server/tools#error-handling`,
    check(event, dir, state, report) {
      if (dir !== "s2c" || event.kind !== "response" || event.request?.method !== "tools/call") return;
      const { name, arguments: args } = event.request.params;
      if (typeof name !== "string") return;
      // Spec (server/tools#error-handling): an unknown tool is a protocol error (-32602), not an
      // isError result. Known only when the whole list came and did not change since.
      if (event.result?.isError === true && state.toolsComplete && !state.tools.has(name)) {
        report(`tools/call of ${JSON.stringify(name)}, a tool the server did not list, answered with an isError result: an unknown tool is a -32602 error`);
      }
      const version = event.request.version;
      if (event.error?.code !== -32602 || version === undefined || !supports(version, "inputErrorsAsToolResults")) return;
      // Spec (server/tools#error-handling, since 2025-11-25): arguments a listed tool cannot use are
      // a tool execution error (an isError result), not a protocol error; an unknown tool or a
      // malformed request stays -32602.
      if (state.tools.has(name) && (args === undefined || isObject(args))) {
        report(`tools/call of the listed tool ${JSON.stringify(name)} answered -32602: input errors are isError results in ${version}`);
      }
    },
  },
];

/** The fields of a message that its version does not have yet, as paths. */
function fieldsTooNew(message: { method: string; params?: { [key: string]: unknown }; result?: { [key: string]: unknown } } | undefined, version: ProtocolVersion): string[] {
  if (!message) return [];
  const found: string[] = [];
  const titles = !supports(version, "titles");
  const structured = !supports(version, "structuredContent");
  const { method, params, result } = message;
  // Spec (2025-06-18 changelog): title, outputSchema and structuredContent are new in 2025-06-18.
  if (titles && method === "initialize" && params && isObject(params.clientInfo) && "title" in params.clientInfo) found.push("clientInfo.title");
  if (titles && method === "initialize" && result && isObject(result.serverInfo) && "title" in result.serverInfo) found.push("serverInfo.title");
  for (const key of result ? TITLED_ITEMS : []) {
    const items = result![key];
    if (!Array.isArray(items)) continue;
    items.forEach((item, i) => {
      if (titles && isObject(item) && "title" in item) found.push(`${key}[${i}].title`);
      if (structured && key === "tools" && isObject(item) && "outputSchema" in item) found.push(`tools[${i}].outputSchema`);
    });
  }
  if (structured && method === "tools/call" && result && "structuredContent" in result) found.push("structuredContent");
  return found;
}
