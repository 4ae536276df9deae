// resources/list, resources/templates/list, resources/read, resources/subscribe, resources/unsubscribe.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/resources
// A read looks for a fixed resource first, then for the first template whose RFC 6570 pattern
// matches the URI. A subscription is for a URI that a read would find, within the server's bounds.

import type { Row } from "../../jsonrpc/dispatcher.js";
import { ErrorCode, isObject, RpcError } from "../../jsonrpc/messages.js";
import type { Params } from "../../jsonrpc/params.js";
import type { RequestContext } from "../../protocol/connection.js";
import type { ResourceContents } from "../../mcp/content.js";
import { describedFor } from "../compat.js";
import { handlerContext, type HandlerContext } from "../context.js";
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
        const uri = uriParam(server, params);
        const contents = await read(server, params.method, uri, handlerContext(session, context));
        return { contents: contents.map((item) => describedFor({ ...item }, session.protocolVersion)) };
      },
    },
    {
      method: "resources/subscribe",
      kind: "request",
      async handle(params, context) {
        const uri = uriParam(server, params);
        // Spec (server/resources#error-handling): a resource that does not exist is -32002, here
        // as for resources/read. A template matches URIs of resources that may not exist, so only
        // reading tells; what the read answers is what the subscription answers.
        await read(server, params.method, uri, handlerContext(session, context)).catch((error: unknown) => {
          throw error instanceof RpcError && error.code === ErrorCode.ResourceNotFound ? notFound(params.method, uri) : error;
        });
        const limit = server.maxSubscriptions;
        if (!session.subscriptions.has(uri) && session.subscriptions.size >= limit) {
          throw new RpcError(ErrorCode.InvalidParams, `resources/subscribe: this session already has ${limit} subscriptions, the most it may have: unsubscribe from one first`, { limit });
        }
        session.subscriptions.add(uri);
        return {};
      },
    },
    {
      method: "resources/unsubscribe",
      kind: "request",
      handle(params) {
        session.subscriptions.delete(uriParam(server, params));
        return {};
      },
    },
  ];
}

/**
 * The request's uri, within the server's bound on its length. The spec sets none; ours keeps a
 * hostile URI from costing a template match, an echo in the not-found error, and a subscription.
 */
function uriParam(server: McpServer, params: Params): string {
  const uri = params.string("uri");
  const limit = server.maxUriLength;
  if (uri.length > limit) throw params.error("uri", `is ${uri.length} characters long, over the limit of ${limit}`, { limit });
  return uri;
}

/** The contents at `uri`: a fixed resource first, then the first template that matches. */
async function read(server: McpServer, method: string, uri: string, context: HandlerContext): Promise<ResourceContents[]> {
  let contents: ResourceContents[] | undefined;
  const fixed = server.findResource(uri);
  if (fixed) contents = await fixed.read(uri, context);
  else {
    for (const template of server.templates()) {
      const variables = template.matcher.match(uri);
      if (variables) {
        contents = await template.read(uri, variables, context);
        break;
      }
    }
  }
  if (!contents) throw notFound(method, uri);
  for (const item of contents) checkContents(uri, item);
  return contents;
}

/** Spec (server/resources#error-handling): an unknown resource SHOULD get -32002 with the uri in data. */
function notFound(method: string, uri: string): RpcError {
  return new RpcError(ErrorCode.ResourceNotFound, `${method}: no resource at ${JSON.stringify(uri)}`, { uri });
}

/** Spec (server/resources#resource-contents): each item has a uri and either text or a base64 blob. */
function checkContents(uri: string, item: ResourceContents): void {
  const ok = isObject(item) && typeof item.uri === "string" &&
    (typeof (item as { text?: unknown }).text === "string") !== (typeof (item as { blob?: unknown }).blob === "string");
  if (!ok) throw new Error(`resource ${uri} returned contents without a uri and exactly one of text or blob`);
}
