// The client's typed method per server feature (tools, resources, prompts, completion), made of
// McpClient.request alone, so they read the same in both eras: the era, the envelope and the
// capability checks are McpClient's. The listAll* methods follow nextCursor, within bounds on the
// whole listing, and keep the whole list until the server says it changed (lists.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools, server/resources,
// server/prompts, server/utilities/completion (2026-07-28 keeps each request, with the envelope).

import { EventEmitter } from "node:events";
import type { ParamsAndOptions } from "../protocol/method-table.js";
import type { RequestOptions } from "../protocol/connection.js";
import type { ClientRequestMethod, ClientRequests } from "../mcp/methods.js";
import type { CompleteRequestParams, CompleteResult } from "../mcp/completion.js";
import type { GetPromptResult, ListPromptsResult, Prompt } from "../mcp/prompts.js";
import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult, Resource, ResourceTemplate } from "../mcp/resources.js";
import type { CallToolResult, ListToolsResult, Tool } from "../mcp/tools.js";
import { collectPages, Lists, type ListingLimits } from "./lists.js";

/** Options for one call. */
export type CallOptions = RequestOptions;

export abstract class ClientFeatures extends EventEmitter {
  /** The whole lists, cleared by McpClient on connect and on each list_changed. */
  protected readonly lists = new Lists();

  /** What one listAll* may add up to (ClientOptions.listLimits; the rest from DEFAULT_LISTING_LIMITS). */
  protected abstract get listLimits(): Partial<ListingLimits> | undefined;

  /** See McpClient.request. */
  abstract request<M extends ClientRequestMethod>(method: M, ...args: ParamsAndOptions<ClientRequests[M]["params"], CallOptions>): Promise<ClientRequests[M]["result"]>;

  listTools(cursor?: string, options?: CallOptions): Promise<ListToolsResult> {
    return this.request("tools/list", cursor === undefined ? undefined : { cursor }, options);
  }

  /** Every page of tools/list, cached until the server says the list changed. */
  async listAllTools(options?: CallOptions): Promise<Tool[]> {
    return this.lists.cached("tools", () => collectPages((cursor) => this.request("tools/list", cursor, options), "tools", this.listLimits));
  }

  callTool(name: string, args?: { [key: string]: unknown }, options?: CallOptions): Promise<CallToolResult> {
    return this.request("tools/call", args === undefined ? { name } : { name, arguments: args }, options);
  }

  listResources(cursor?: string, options?: CallOptions): Promise<ListResourcesResult> {
    return this.request("resources/list", cursor === undefined ? undefined : { cursor }, options);
  }

  async listAllResources(options?: CallOptions): Promise<Resource[]> {
    return this.lists.cached("resources", () => collectPages((cursor) => this.request("resources/list", cursor, options), "resources", this.listLimits));
  }

  listResourceTemplates(cursor?: string, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    return this.request("resources/templates/list", cursor === undefined ? undefined : { cursor }, options);
  }

  async listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.lists.cached("resourceTemplates", () =>
      collectPages((cursor) => this.request("resources/templates/list", cursor, options), "resourceTemplates", this.listLimits));
  }

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.request("resources/read", { uri }, options);
  }

  listPrompts(cursor?: string, options?: CallOptions): Promise<ListPromptsResult> {
    return this.request("prompts/list", cursor === undefined ? undefined : { cursor }, options);
  }

  async listAllPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.lists.cached("prompts", () => collectPages((cursor) => this.request("prompts/list", cursor, options), "prompts", this.listLimits));
  }

  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return this.request("prompts/get", args === undefined ? { name } : { name, arguments: args }, options);
  }

  complete(params: CompleteRequestParams, options?: CallOptions): Promise<CompleteResult> {
    return this.request("completion/complete", params, options);
  }
}
