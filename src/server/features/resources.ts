// resources/list, resources/templates/list, resources/read, resources/subscribe, resources/unsubscribe.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/resources
// A read looks for a fixed resource first, then for the first template whose RFC 6570 pattern
// matches the URI. A subscription is for a URI that a read would find, within the server's bounds.

import { isObject, RpcError } from "../../jsonrpc/messages.js";
import { ErrorCode } from "../../mcp/errors.js";
import { invalidParams } from "../../jsonrpc/field-reader.js";
import type { BlobResourceContents, ResourceContents, TextResourceContents } from "../../mcp/resources.js";
import { describedFor } from "../compat.js";
import { paginate } from "../pagination.js";
import type { HandlerContext } from "../served.js";
import type { ClientRequestHandlers } from "../serving.js";
import type { Catalog } from "../catalog.js";
import { rendersApps, uiMetaFor } from "../../apps/server.js";
import { UI_MIME_TYPE, UI_SCHEME } from "../../mcp/apps.js";

export const resourceHandlers: ClientRequestHandlers = {
  "resources/list"(params, context, connection) {
    const server = connection.server;
    const { protocolVersion: version, clientCapabilities } = connection.served(context);
    const renders = rendersApps(clientCapabilities);
    // Spec (MCP Apps, Resource Discovery): servers MAY leave views out of resources/list; ours
    // does for a client that does not render them (apps/server.ts).
    const all = server.resources().filter(({ resource }) => renders || !resource.uri.startsWith(UI_SCHEME))
      .map(({ resource }) => uiMetaFor(describedFor({ ...resource }, version), resource, renders));
    return paginate("resources", all, params, server.pageSize);
  },
  "resources/templates/list"(params, context, connection) {
    const server = connection.server;
    const version = connection.served(context).protocolVersion;
    const all = server.templates().map(({ template }) => describedFor({ ...template }, version));
    return paginate("resourceTemplates", all, params, server.pageSize);
  },
  async "resources/read"({ uri }, context, connection) {
    const server = connection.server;
    checkUri(server, "resources/read", uri);
    const contents = await read(server, "resources/read", uri, connection.handlerContext(context));
    const { protocolVersion: version, clientCapabilities } = connection.served(context);
    const renders = rendersApps(clientCapabilities);
    return { contents: contents.map((item) => uiMetaFor(describedFor({ ...item }, version), item, renders)) };
  },
  async "resources/subscribe"({ uri }, context, connection) {
    const server = connection.server;
    checkUri(server, "resources/subscribe", uri);
    // Spec (server/resources#error-handling): a resource that does not exist is -32002, here
    // as for resources/read. A template matches URIs of resources that may not exist, so only
    // reading tells; what the read answers is what the subscription answers.
    await read(server, "resources/subscribe", uri, connection.handlerContext(context)).catch((error: unknown) => {
      throw error instanceof RpcError && error.code === ErrorCode.ResourceNotFound ? notFound("resources/subscribe", uri) : error;
    });
    const limit = server.maxSubscriptions;
    if (!connection.subscriptions.has(uri) && connection.subscriptions.size >= limit) {
      throw new RpcError(ErrorCode.InvalidParams, `resources/subscribe: this session already has ${limit} subscriptions, the most it may have: unsubscribe from one first`, { limit });
    }
    connection.subscriptions.add(uri);
    return {};
  },
  "resources/unsubscribe"({ uri }, _context, connection) {
    const server = connection.server;
    checkUri(server, "resources/unsubscribe", uri);
    connection.subscriptions.delete(uri);
    return {};
  },
};

/**
 * The server's bound on a request's uri. The spec sets none; ours keeps a hostile URI from
 * costing a template match, an echo in the not-found error, and a subscription.
 */
function checkUri(server: Catalog, method: string, uri: string): void {
  const limit = server.maxUriLength;
  if (uri.length > limit) throw invalidParams(method, "uri", `is ${uri.length} characters long, over the limit of ${limit}`, { limit });
}

/** The contents at `uri`: a fixed resource first, then the first template that matches. */
async function read(server: Catalog, method: string, uri: string, context: HandlerContext): Promise<(TextResourceContents | BlobResourceContents)[]> {
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
  return contents.map((item) => checkView(checkContents(uri, item)));
}

/** Spec (MCP Apps, Content Requirements): a ui:// view's contents MUST have mimeType text/html;profile=mcp-app. */
function checkView<T extends ResourceContents>(item: T): T {
  if (item.uri.startsWith(UI_SCHEME) && item.mimeType !== UI_MIME_TYPE) throw new Error(`view ${item.uri} returned contents whose mimeType is not "${UI_MIME_TYPE}"`);
  return item;
}

/** Spec (server/resources#error-handling): an unknown resource SHOULD get -32002 with the uri in data. */
function notFound(method: string, uri: string): RpcError {
  return new RpcError(ErrorCode.ResourceNotFound, `${method}: no resource at ${JSON.stringify(uri)}`, { uri });
}

/** Spec (server/resources#resource-contents): each item has a uri and either text or a base64 blob. */
function checkContents(uri: string, item: ResourceContents & { text?: unknown; blob?: unknown }): TextResourceContents | BlobResourceContents {
  if (isObject(item) && typeof item.uri === "string") {
    if (typeof item.text === "string" && item.blob === undefined) return { ...item, text: item.text };
    if (typeof item.blob === "string" && item.text === undefined) return { ...item, blob: item.blob };
  }
  throw new Error(`resource ${uri} returned contents without a uri and exactly one of text or blob`);
}
