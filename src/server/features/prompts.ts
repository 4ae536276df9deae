// prompts/list and prompts/get: templated messages a user picks, filled from string arguments.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/prompts

import { invalidParams } from "../../jsonrpc/field-reader.js";
import type { GetPromptResult } from "../../mcp/prompts.js";
import { contentFor, describedFor } from "../compat.js";
import { paginate } from "../pagination.js";
import type { ClientRequestHandlers } from "../serving.js";

export const promptHandlers: ClientRequestHandlers = {
  "prompts/list"(params, context, connection) {
    const version = connection.served(context).protocolVersion;
    const all = connection.server.prompts().map(({ prompt }) => {
      const copy = describedFor({ ...prompt }, version);
      if (prompt.arguments) copy.arguments = prompt.arguments.map((argument) => describedFor({ ...argument }, version));
      return copy;
    });
    return paginate("prompts", all, params, connection.server.pageSize);
  },
  async "prompts/get"({ name, arguments: args = {} }, context, connection) {
    const registered = connection.server.findPrompt(name);
    // Spec (server/prompts#error-handling): an unknown prompt or a missing required argument is -32602.
    if (!registered) throw invalidParams("prompts/get", "name", `names no prompt of this server: ${JSON.stringify(name)}`, { name });
    for (const argument of registered.prompt.arguments ?? []) {
      if (argument.required && args[argument.name] === undefined) {
        throw invalidParams("prompts/get", `arguments.${argument.name}`, `is required by prompt ${JSON.stringify(name)}`);
      }
    }
    const result: GetPromptResult = await registered.render(args, connection.handlerContext(context));
    const version = connection.served(context).protocolVersion;
    const messages = result.messages.map((message) => ({ ...message, content: contentFor(message.content, version) }));
    return { ...result, messages };
  },
};
