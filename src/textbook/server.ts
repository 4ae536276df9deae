// The server: the session's lifecycle, the capability gate, and the method table (one screen).
import type { Readable, Writable } from "node:stream";
import { Connection, lookup, type Context, type Handler, type Route } from "./connection.js";
import { INVALID_PARAMS, INVALID_REQUEST, isObject, METHOD_NOT_FOUND, RESOURCE_NOT_FOUND } from "./wire.js";
import { RpcError, typeName, type JSONRPCNotification, type Params } from "./wire.js";

export const VERSION = "2025-11-25"; // the one handshake version this edition speaks
export const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
type Schema = { type: "object"; properties?: Record<string, Params>; required?: string[]; additionalProperties?: false };
export interface ToolContext {
  signal: AbortSignal;
  log(level: string, data: string, logger: string): void;
  progress(progress: number, total: number, message: string): void;
}
// Each definition is its wire fields plus one function, which JSON.stringify leaves out of lists.
export type Tool = Params & { name: string; inputSchema: Schema; run(args: Params, context: ToolContext):
  Params | Promise<Params> };
export type Resource = Params & { uri: string; read(): Params[] };
export type Template = Params & { read(uri: string): Params[] | undefined };
export type Prompt = Params & { name: string; arguments: { name: string; required: boolean }[];
  get(args: Record<string, string>): Params };
export interface Definition {
  serverInfo: Params; instructions: string;
  tools: Tool[]; resources: Resource[]; resourceTemplates: Template[]; prompts: Prompt[];
}
export type Logged = Context & { logLevel?: string | null }; // null: this request hears no logs

export const text = (text: string) => ({ type: "text", text }); // [S]/tools#text-content
export const invalid = (method: string, field: string, problem: string, data?: unknown) =>
  new RpcError(INVALID_PARAMS, `${method}: "${field}" ${problem}`, data);
export function string(params: Params, field: string, method: string, path = field): string {
  const value = params[field];
  if (value === undefined) throw invalid(method, path, "is required");
  if (typeof value !== "string") throw invalid(method, path, `must be a string, got ${typeName(value)}`);
  return value;
}
export function object(params: Params, field: string, method: string, path = field): Params {
  if (params[field] === undefined) throw invalid(method, path, "is required");
  if (!isObject(params[field])) throw invalid(method, path, "must be an object");
  return params[field];
}

export class Server {
  state: "new" | "initializing" | "ready" = "new"; // [B]/lifecycle: the three phases
  level = "info"; // [S]/utilities/logging: what the session hears until logging/setLevel
  readonly capabilities: Params; // [B]/lifecycle#capability-negotiation
  readonly features: Record<string, Handler>; // what either generation serves
  readonly table: Record<string, Handler>;

  constructor(readonly definition: Definition) {
    const { tools, resources, resourceTemplates, prompts } = definition;
    this.capabilities = { logging: {}, prompts: {}, resources: {}, tools: {} };
    this.features = {
      "tools/list": () => ({ tools }), // [S]/tools#listing-tools
      "tools/call": (params, context) => this.#call(params, context), // [S]/tools#calling-tools
      "resources/list": () => ({ resources }), // [S]/resources#listing-resources
      "resources/templates/list": () => ({ resourceTemplates }), // [S]/resources#resource-templates
      "resources/read": (params) => this.#read(params), // [S]/resources#reading-resources
      "prompts/list": () => ({ prompts }), // [S]/prompts#listing-prompts
      "prompts/get": (params) => this.#prompt(params), // [S]/prompts#getting-a-prompt
    };
    this.table = {
      initialize: (params) => this.#initialize(params), // [B]/lifecycle#initialization
      ping: () => ({}), // [B]/utilities/ping: an empty result
      "logging/setLevel": (params) => { // [S]/utilities/logging#setting-log-level
        const level = string(params, "level", "logging/setLevel");
        if (!LEVELS.includes(level)) throw invalid("logging/setLevel", "level", `must be one of ${LEVELS.join(", ")}, got "${level}"`);
        this.level = level;
        return {};
      },
      ...this.features,
    };
  }

  /** The handshake generation's route: the method table behind the lifecycle and capability gates. */
  route: Route = (request, context) => {
    const handler = lookup(this.table, request.method);
    const method = request.method;
    // The capability gate: a method of a capability this server did not declare does not exist.
    if (!isObject(this.capabilities[method.split("/")[0]!]) && method.includes("/")) {
      throw new RpcError(METHOD_NOT_FOUND, `method not found: ${method}`);
    }
    // [B]/lifecycle#operation: only ping before initialize; only ping and logging before initialized.
    const early = this.state === "new" ? "initialize" : "notifications/initialized";
    if (method !== "ping" && method !== "initialize" && this.state !== "ready" &&
      !(this.state === "initializing" && method === "logging/setLevel")) {
      throw new RpcError(INVALID_REQUEST, `${method}: the session is not initialized: send ${early} first`);
    }
    return handler(request.params ?? {}, context);
  };

  hear = (notification: JSONRPCNotification): void => {
    // [B]/lifecycle#initialization: the client's initialized opens the operation phase.
    if (notification.method === "notifications/initialized" && this.state === "initializing") this.state = "ready";
  };

  #initialize(params: Params): Params {
    if (this.state !== "new") throw new RpcError(INVALID_REQUEST, "initialize: the session is already initialized");
    string(params, "protocolVersion", "initialize");
    object(params, "capabilities", "initialize");
    const clientInfo = object(params, "clientInfo", "initialize");
    for (const field of ["name", "version"]) string(clientInfo, field, "initialize", `clientInfo.${field}`);
    this.state = "initializing";
    return {
      // [B]/lifecycle#version-negotiation: the client's version if spoken, else our newest.
      protocolVersion: VERSION,
      capabilities: this.capabilities, // [B]/lifecycle#capability-negotiation
      serverInfo: this.definition.serverInfo, // [B]/lifecycle#initialization: Implementation
      instructions: this.definition.instructions, // [B]/lifecycle#initialization: for the model
    };
  }

  #call(params: Params, context: Logged): Params | Promise<Params> {
    const name = string(params, "name", "tools/call");
    const tool = this.definition.tools.find((tool) => tool.name === name);
    if (!tool) throw invalid("tools/call", "name", `names no tool of this server: ${JSON.stringify(name)}`, { name });
    const args = params.arguments ?? {};
    if (!isObject(args)) throw invalid("tools/call", "arguments", `must be an object, got ${typeName(args)}`);
    const problems = check(tool.inputSchema, args);
    // [S]/tools#error-handling: arguments the tool refuses are its error (isError), for the model.
    const refused = `tools/call ${name}: invalid arguments: ${problems.join("; ")}`;
    if (problems.length > 0) return { content: [text(refused)], isError: true };
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    return tool.run(args, {
      signal: context.signal,
      log: (level, data, logger) => {
        const floor = context.logLevel === undefined ? this.level : context.logLevel;
        if (floor === null || LEVELS.indexOf(level) < LEVELS.indexOf(floor)) return;
        context.notify("notifications/message", { level, data, logger }); // [S]/utilities/logging
      },
      progress: (progress, total, message) => {
        if (typeof token !== "string" && typeof token !== "number") return;
        // [B]/utilities/progress: under the request's token, increasing, before the answer.
        context.notify("notifications/progress", { progressToken: token, progress, total, message });
      },
    });
  }

  #read(params: Params): Params {
    const uri = string(params, "uri", "resources/read");
    const contents = this.definition.resources.find((resource) => resource.uri === uri)?.read()
      ?? this.definition.resourceTemplates.map((template) => template.read(uri)).find(Boolean);
    // [S]/resources#error-handling: an unknown resource is -32002, with its uri.
    if (!contents) throw new RpcError(RESOURCE_NOT_FOUND, `resources/read: no resource at ${JSON.stringify(uri)}`, { uri });
    return { contents }; // [S]/resources#reading-resources: each { uri, mimeType, text }
  }

  #prompt(params: Params): Params {
    const name = string(params, "name", "prompts/get");
    const prompt = this.definition.prompts.find((prompt) => prompt.name === name);
    if (!prompt) throw invalid("prompts/get", "name", `names no prompt of this server: ${JSON.stringify(name)}`, { name });
    const args = params.arguments ?? {};
    if (!isObject(args)) throw invalid("prompts/get", "arguments", `must be an object, got ${typeName(args)}`);
    for (const { name: arg, required } of prompt.arguments) { // [S]/prompts#getting-a-prompt
      if (args[arg] === undefined && required) throw invalid("prompts/get", `arguments.${arg}`, `is required by prompt ${JSON.stringify(name)}`);
      if (args[arg] !== undefined) string(args, arg, "prompts/get", `arguments.${arg}`);
    }
    return prompt.get(args as Record<string, string>); // { description, messages: [{ role, content }] }
  }
}

/** The few JSON Schema keywords the demo's tools use; src/schema/ has the rest. */
function check(schema: Schema, args: Params): string[] {
  const problems = (schema.required ?? []).filter((key) => !(key in args))
    .map((key) => `missing required property ${JSON.stringify(key)}`);
  for (const [key, value] of Object.entries(args)) {
    const rule = schema.properties?.[key];
    if (!rule) {
      if (schema.additionalProperties === false) problems.push(`must NOT have additional property ${JSON.stringify(key)}`);
      continue;
    }
    const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    if (rule.type === "integer" ? !Number.isInteger(value) : rule.type !== type) {
      problems.push(`${key}: must be ${rule.type}, got ${type}`);
    } else if (typeof rule.minimum === "number" && (value as number) < rule.minimum) {
      problems.push(`${key}: must be >= ${rule.minimum}, got ${value}`);
    } else if (typeof rule.maximum === "number" && (value as number) > rule.maximum) {
      problems.push(`${key}: must be <= ${rule.maximum}, got ${value}`);
    }
  }
  return problems;
}

/** Serves a server over a pair of streams (stdin and stdout unless told). */
export function serve(server: Server, route: Route = server.route,
  input: Readable = process.stdin, output: Writable = process.stdout): Connection {
  return new Connection(input, output, route, server.hear);
}
