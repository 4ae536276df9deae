// prompts/list and prompts/get: templated messages a user picks, filled from string arguments.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/prompts

import type { Row } from "../../jsonrpc/dispatcher.js";
import type { RequestContext } from "../../protocol/connection.js";
import type { GetPromptResult } from "../../mcp/prompts.js";
import { contentFor, describedFor } from "../compat.js";
import { handlerContext } from "../context.js";
import { paginate } from "../pagination.js";
import type { ServerSession } from "../session.js";

export function promptRows(session: ServerSession): Row<RequestContext>[] {
  return [
    {
      method: "prompts/list",
      kind: "request",
      handle(params) {
        const version = session.protocolVersion;
        const all = session.server.prompts().map(({ prompt }) => {
          const copy = describedFor({ ...prompt }, version);
          if (prompt.arguments) copy.arguments = prompt.arguments.map((argument) => describedFor({ ...argument }, version));
          return copy;
        });
        return paginate("prompts", all, params, session.server.pageSize);
      },
    },
    {
      method: "prompts/get",
      kind: "request",
      async handle(params, context) {
        const name = params.string("name");
        const args = params.optionalStringRecord("arguments") ?? {};
        const registered = session.server.findPrompt(name);
        // Spec (server/prompts#error-handling): an unknown prompt or a missing required argument is -32602.
        if (!registered) throw params.error("name", `names no prompt of this server: ${JSON.stringify(name)}`, { name });
        for (const argument of registered.prompt.arguments ?? []) {
          if (argument.required && args[argument.name] === undefined) {
            throw params.error(`arguments.${argument.name}`, `is required by prompt ${JSON.stringify(name)}`);
          }
        }
        const result: GetPromptResult = await registered.render(args, handlerContext(session, context));
        const messages = result.messages.map((message) => ({ ...message, content: contentFor(message.content, session.protocolVersion) }));
        return { ...result, messages } as unknown as { [key: string]: unknown };
      },
    },
  ];
}
