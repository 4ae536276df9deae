// resources/list, resources/templates/list, resources/read, resources/subscribe, resources/unsubscribe.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/resources
// A read looks for a fixed resource first, then for the first template whose RFC 6570 pattern
// matches the URI.

import type { Row } from "../../jsonrpc/dispatcher.js";
import { ErrorCode, isObject, RpcError } from "../../jsonrpc/messages.js";
import type { Params } from "../../jsonrpc/params.js";
import type { RequestContext } from "../../protocol/connection.js";
import type { ResourceContents } from "../../mcp/content.js";
import { describedFor } from "../compat.js";
import { handlerContext } from "../context.js";
import { paginate } from "../pagination.js";
import type { ServerSession } from "../session.js";
import type { McpServer } from "../definition.js";

export function resourceRows(session: ServerSession): Row<RequestContext>[] {
  const server = session.server;
  return [
    {
      method: "resources/list",
      kind: "request",
      handle(params) {
        const all = server.resources().map(({ resource }) => describedFor({ ...resource }, session.protocolVersion));
        return paginate("resources", all, params, server.pageSize);
      },
    },
    {
      method: "resources/templates/list",
      kind: "request",
      handle(params) {
        const all = server.templates().map(({ template }) => describedFor({ ...template }, session.protocolVersion));
        return paginate("resourceTemplates", all, params, server.pageSize);
      },
    },
    {
      method: "resources/read",
      kind: "request",
      async handle(params, context) {
        const uri = params.string("uri");
        const handlerContextValue = handlerContext(session, context);
        let contents: ResourceContents[] | undefined;
        const fixed = server.findResource(uri);
        if (fixed) contents = await fixed.read(uri, handlerContextValue);
        else {
          for (const template of server.templates()) {
            const variables = template.matcher.match(uri);
            if (variables) {
              contents = await template.read(uri, variables, handlerContextValue);
              break;
            }
          }
        }
        if (!contents) throw notFound(uri);
        for (const item of contents) checkContents(uri, item);
        return { contents: contents.map((item) => describedFor({ ...item }, session.protocolVersion)) };
      },
    },
    {
      method: "resources/subscribe",
      kind: "request",
      handle(params) {
        const uri = knownUri(server, params);
        session.subscriptions.add(uri);
        return {};
      },
    },
    {
      method: "resources/unsubscribe",
      kind: "request",
      handle(params) {
        session.subscriptions.delete(params.string("uri"));
        return {};
      },
    },
  ];
}

/** Spec (server/resources#error-handling): an unknown resource SHOULD get -32002 with the uri in data. */
function notFound(uri: string): RpcError {
  return new RpcError(ErrorCode.ResourceNotFound, `resources/read: no resource at ${JSON.stringify(uri)}`, { uri });
}

/** Subscriptions are for resources that exist, as a fixed resource or through a template. */
function knownUri(server: McpServer, params: Params): string {
  const uri = params.string("uri");
  const known = server.findResource(uri) !== undefined || server.templates().some((t) => t.matcher.match(uri) !== undefined);
  if (!known) throw new RpcError(ErrorCode.ResourceNotFound, `${params.method}: no resource at ${JSON.stringify(uri)}`, { uri });
  return uri;
}

/** Spec (server/resources#resource-contents): each item has a uri and either text or a base64 blob. */
function checkContents(uri: string, item: ResourceContents): void {
  const ok = isObject(item) && typeof item.uri === "string" &&
    (typeof (item as { text?: unknown }).text === "string") !== (typeof (item as { blob?: unknown }).blob === "string");
  if (!ok) throw new Error(`resource ${uri} returned contents without a uri and exactly one of text or blob`);
}
