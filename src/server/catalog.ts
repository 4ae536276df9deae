// Textbook: Definition in src/textbook/server.ts; this adds registration with checks, list
//  changes, templates by RFC 6570, completion, pagination.
// What a server offers, and on which terms: who it is, its tools, resources, templates and prompts
// (registered with checks, found by name or URI), and the bounds it serves them within. Every
// connection reads it (definition.ts's McpServer is a Catalog that connects); changes at run time
// are announced to each live one, which sends its list_changed notifications.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server (the three primitives).

import type { ContentBlock } from "../mcp/content.js";
import type { Implementation } from "../mcp/lifecycle.js";
import type { ChangingList } from "../mcp/methods.js";
import type { GetPromptResult, Prompt, PromptArgument } from "../mcp/prompts.js";
import type { Resource, ResourceContents, ResourceTemplate } from "../mcp/resources.js";
import type { CallToolResult, Tool } from "../mcp/tools.js";
import { checkSchema } from "../schema/json-schema.js";
import { UriTemplate } from "../schema/uri-template.js";
import type { HandlerContext } from "./served.js";
import { DEFAULT_PAGE_SIZE } from "./pagination.js";
import { NO_CACHING, type CacheHint } from "./modern/results.js";
import { RequestStateCodec, type RequestStateOptions } from "./modern/request-state.js";
import { DEFAULT_MAX_INPUT_ASKS, DEFAULT_MAX_INPUT_ROUNDS } from "./modern/input-rounds.js";
import type { JsonSchemaTool, PromptArguments, PromptDefinition, StandardSchemaTool, TemplateDefinition, TemplateVariables, ToolArguments, ToolResult } from "./typed-handlers.js";
import { toolRegistration } from "./typed-standard-schema.js";
import type { CatalogChange, ChangeFanout } from "../fleet/stores.js";
import { checkToolUi, checkViewMeta, checkViewResource, toolUi } from "../apps/server.js";
import { UI_MIME_TYPE, type McpUiResourceMeta } from "../mcp/apps.js";

/**
 * Runs a tool. Throwing (anything but an RpcError) makes an `isError` result for the model. The
 * arguments and result are typed from the tool's schemas by tool() (server/typed-handlers.ts).
 */
export type ToolHandler<Args = { [key: string]: unknown }, Returned = CallToolResult> = (args: Args, context: HandlerContext) => Returned | Promise<Returned>;
/** Reads a fixed resource; returns its contents (usually one item). */
export type ResourceReader = (uri: string, context: HandlerContext) => ResourceContents[] | Promise<ResourceContents[]>;
/** Reads a resource matched by a template, given the template's variables (typed from its text by resourceTemplate()). */
export type TemplateReader<Variables = Record<string, string | string[]>> = (uri: string, variables: Variables, context: HandlerContext) => ResourceContents[] | Promise<ResourceContents[]>;
/** Renders a prompt from its (already checked) arguments (typed from its `arguments` by prompt()). */
export type PromptRenderer<Args = Record<string, string>> = (args: Args, context: HandlerContext) => GetPromptResult | Promise<GetPromptResult>;
/** Suggests values for one argument or template variable, given what the user typed so far. */
export type Completer = (value: string, resolved: Record<string, string>) => string[] | Promise<string[]>;

export interface ServerInfo extends Implementation {
  /** How to use this server, for the client to pass on to its model (InitializeResult.instructions). */
  instructions?: string;
}

export interface ServerOptions {
  /** Items per page of tools/list, resources/list, resources/templates/list and prompts/list. */
  pageSize?: number;
  /** The longest uri resources/read, subscribe and unsubscribe accept (default DEFAULT_MAX_URI_LENGTH). */
  maxUriLength?: number;
  /** The most resources one session may subscribe to, or one listen may name (default DEFAULT_MAX_SUBSCRIPTIONS). */
  maxSubscriptions?: number;
  /** The most 2026-07-28 listens open at once, over every connection (default DEFAULT_MAX_LISTENS). */
  maxListens?: number;
  /**
   * What 2026-07-28 results say about caching (default NO_CACHING, true of any server): for
   * `server/discover` and the four lists. Say more only when it is true: a server whose tools may
   * change at run time must keep `ttlMs` at 0. Each resource may say its own (`resource()`).
   */
  cache?: { discover?: CacheHint; lists?: CacheHint };
  /**
   * How 2026-07-28 input rounds seal their requestState (server/modern/request-state.ts): give
   * every process behind one load balancer the same `key`, or a retry that lands on another
   * process is refused as forged.
   */
  requestState?: RequestStateOptions;
  /**
   * Carries the changes this catalog announces to the other processes of a fleet, and theirs to this
   * one's connections (fleet/stores.ts; RedisChangeFanout for a fleet): a listen or GET stream on
   * any process hears a change made on any. Only the notices travel: each process's definition is
   * its own to bring up to date.
   */
  changes?: ChangeFanout;
  /** The most asks of the client one 2026-07-28 request may make over all its rounds (default DEFAULT_MAX_INPUT_ASKS). */
  maxInputAsks?: number;
  /**
   * The most input_required answers one 2026-07-28 request may get (default DEFAULT_MAX_INPUT_ROUNDS);
   * past it the handler's ask fails. A handler whose asks follow from its params and earlier answers
   * needs one round per turn of asks; one whose asks change from run to run would never end.
   */
  maxInputRounds?: number;
}

/** Characters: the long-standing practical limit for a URL. Longer ones get -32602. */
export const DEFAULT_MAX_URI_LENGTH = 2048;
/** Per session: subscriptions are held until the session ends, so a session gets a budget. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 100;
/** Over all connections: each open listen is a held request, and on HTTP an open stream. */
export const DEFAULT_MAX_LISTENS = 64;

export interface RegisteredTool { tool: Tool; handler: ToolHandler }
export interface RegisteredResource { resource: Resource; read: ResourceReader; cache: CacheHint }
export interface RegisteredTemplate { template: ResourceTemplate; matcher: UriTemplate; read: TemplateReader; complete: Record<string, Completer> }
export interface RegisteredPrompt { prompt: Prompt; render: PromptRenderer; complete: Record<string, Completer> }

/** What a live connection hears of the catalog: the changes it announces to its client. */
export interface CatalogListener {
  listChanged(kind: ChangingList): void;
  resourceUpdated(uri: string): void;
}

export class Catalog {
  readonly info: ServerInfo;
  readonly pageSize: number;
  readonly maxUriLength: number;
  readonly maxSubscriptions: number;
  readonly maxListens: number;
  readonly cache: { discover: CacheHint; lists: CacheHint };
  readonly requestStates: RequestStateCodec;
  readonly maxInputAsks: number;
  readonly maxInputRounds: number;
  #listens = 0;
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #resources = new Map<string, RegisteredResource>();
  readonly #templates = new Map<string, RegisteredTemplate>();
  readonly #prompts = new Map<string, RegisteredPrompt>();
  readonly #listeners = new Set<CatalogListener>();
  readonly #fanout: ChangeFanout | undefined;
  /** Names this catalog on the fanout, so that its own changes coming back are not announced twice. */
  readonly #origin: string = "";

  constructor(info: ServerInfo, options: ServerOptions = {}) {
    this.info = info;
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!(this.pageSize >= 1)) throw new Error("server: pageSize must be at least 1");
    this.maxUriLength = options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH;
    this.maxSubscriptions = options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS;
    this.maxListens = options.maxListens ?? DEFAULT_MAX_LISTENS;
    this.requestStates = new RequestStateCodec(options.requestState);
    this.maxInputAsks = options.maxInputAsks ?? DEFAULT_MAX_INPUT_ASKS;
    this.maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    this.cache = { discover: options.cache?.discover ?? NO_CACHING, lists: options.cache?.lists ?? NO_CACHING };
    this.#fanout = options.changes;
    if (this.#fanout) {
      this.#origin = globalThis.crypto.randomUUID();
      this.#fanout.subscribe((origin, change) => {
        if (origin !== this.#origin) this.#announce(change);
      });
    }
  }

  /** A live connection hears of every change until it closes (McpServer.connect; ServerConnection.listens). */
  listen(connection: CatalogListener & { onClose(listener: () => void): void }): void {
    this.#listeners.add(connection);
    connection.onClose(() => this.#listeners.delete(connection));
  }

  /** The handler's arguments and result are typed from the literal schemas (or the validator `input`) of `tool`. */
  tool<const T extends JsonSchemaTool | StandardSchemaTool>(tool: T, handler: ToolHandler<ToolArguments<T>, ToolResult<T>>): this;
  tool(definition: JsonSchemaTool | StandardSchemaTool, typed: ToolHandler): this {
    const { tool, handler } = toolRegistration(definition, typed);
    // Spec (server/tools#tool-names): names SHOULD be 1-128 characters of A-Z a-z 0-9 _ - . and unique.
    if (!/^[A-Za-z0-9_.-]{1,128}$/.test(tool.name)) throw new Error(`server: tool name "${tool.name}" must be 1-128 characters of A-Z a-z 0-9 _ - .`);
    // Spec (server/tools#tool): inputSchema MUST be an object schema, never null.
    if (tool.inputSchema?.type !== "object") throw new Error(`server: tool "${tool.name}" needs an inputSchema of type "object"`);
    checkSchema(tool.inputSchema);
    if (tool.outputSchema) checkSchema(tool.outputSchema);
    checkToolUi(tool, (uri) => this.#resources.get(uri)?.resource);
    this.#tools.set(tool.name, { tool, handler });
    return this.#changed("tools");
  }

  /** `cache`: what 2026-07-28 reads of it say about caching (default NO_CACHING). */
  resource(resource: Resource, read: ResourceReader, cache: CacheHint = NO_CACHING): this {
    checkViewResource(resource);
    this.#resources.set(resource.uri, { resource, read, cache });
    return this.#changed("resources");
  }

  /**
   * An MCP Apps view (apps/server.ts): a `ui://` resource of type text/html;profile=mcp-app whose
   * reads carry `ui` (its CSP origins, permissions, border) as `_meta.ui`. Register it before the
   * tools that name it in their `_meta.ui.resourceUri`.
   */
  view(view: Omit<Resource, "mimeType"> & { ui?: McpUiResourceMeta }, html: (context: HandlerContext) => string | Promise<string>, cache: CacheHint = NO_CACHING): this {
    const { ui, ...resource } = view;
    if (ui !== undefined) checkViewMeta(view.uri, ui);
    const _meta = ui === undefined ? {} : { _meta: { ui } };
    return this.resource({ ...resource, mimeType: UI_MIME_TYPE }, async (uri, context) => [{ uri, mimeType: UI_MIME_TYPE, text: await html(context), ..._meta }], cache);
  }

  /** The reader's variables are typed from the text of `template.uriTemplate`. */
  resourceTemplate<U extends string>(template: TemplateDefinition<U>, read: TemplateReader<TemplateVariables<U>>, complete?: { [K in keyof TemplateVariables<U>]?: Completer }): this;
  resourceTemplate(template: ResourceTemplate, read: TemplateReader, complete: Record<string, Completer> = {}): this {
    const matcher = new UriTemplate(template.uriTemplate);
    this.#templates.set(template.uriTemplate, { template, matcher, read, complete });
    return this.#changed("resources");
  }

  /** The renderer's arguments are typed from `prompt.arguments`: `required: true` ones are strings, the others may be absent. */
  prompt<const A extends readonly PromptArgument[] = []>(prompt: PromptDefinition<A>, render: PromptRenderer<PromptArguments<A>>, complete?: { [K in keyof PromptArguments<A>]?: Completer }): this;
  prompt(prompt: Prompt, render: PromptRenderer, complete: Record<string, Completer> = {}): this {
    this.#prompts.set(prompt.name, { prompt, render, complete });
    return this.#changed("prompts");
  }

  removeTool(name: string): boolean {
    return this.#tools.delete(name) && !!this.#changed("tools");
  }

  removeResource(uri: string): boolean {
    const user = this.tools().find(({ tool }) => toolUi(tool)?.resourceUri === uri);
    // Spec (MCP Apps, Resource Discovery): the view a tool names MUST exist on the server.
    if (user) throw new Error(`server: view ${uri} is named by tool "${user.tool.name}": remove the tool first`);
    return this.#resources.delete(uri) && !!this.#changed("resources");
  }

  removePrompt(name: string): boolean {
    return this.#prompts.delete(name) && !!this.#changed("prompts");
  }

  /** A resource's content changed: subscribed sessions get notifications/resources/updated. */
  resourceUpdated(uri: string): void {
    this.#announce({ resourceUpdated: uri });
    this.#fanout?.publish(this.#origin, { resourceUpdated: uri });
  }

  /** Lists in registration order, so that pages and cursors stay stable. */
  tools(): RegisteredTool[] { return [...this.#tools.values()]; }
  resources(): RegisteredResource[] { return [...this.#resources.values()]; }
  templates(): RegisteredTemplate[] { return [...this.#templates.values()]; }
  prompts(): RegisteredPrompt[] { return [...this.#prompts.values()]; }
  /** Whether the server has any of `kind`, without copying the list (capabilities are declared per connection). */
  offers(kind: "tools" | "resources" | "templates" | "prompts"): boolean {
    switch (kind) {
      case "tools": return this.#tools.size > 0;
      case "resources": return this.#resources.size > 0;
      case "templates": return this.#templates.size > 0;
      case "prompts": return this.#prompts.size > 0;
    }
  }
  findTool(name: string): RegisteredTool | undefined { return this.#tools.get(name); }
  findResource(uri: string): RegisteredResource | undefined { return this.#resources.get(uri); }
  findTemplate(uriTemplate: string): RegisteredTemplate | undefined { return this.#templates.get(uriTemplate); }
  findPrompt(name: string): RegisteredPrompt | undefined { return this.#prompts.get(name); }
  /** The live connections (each handshake session, each 2026-07-28 request's one-request connection on HTTP). */
  get sessionCount(): number { return this.#listeners.size; }

  /** Takes one of the maxListens slots; false when none is free. */
  claimListen(): boolean {
    if (this.#listens >= this.maxListens) return false;
    this.#listens++;
    return true;
  }

  releaseListen(): void {
    this.#listens--;
  }

  #changed(kind: ChangingList): this {
    this.#announce({ list: kind });
    this.#fanout?.publish(this.#origin, { list: kind });
    return this;
  }

  /** Tells every live connection of this process. */
  #announce(change: CatalogChange): void {
    if ("list" in change) for (const listener of this.#listeners) listener.listChanged(change.list);
    else for (const listener of this.#listeners) listener.resourceUpdated(change.resourceUpdated);
  }
}
