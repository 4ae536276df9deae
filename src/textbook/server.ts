// The server: the lifecycle, the capability gate, the method table (one screen), the features.
import { Connection, lookup, type Context, type Handler, type Route } from "./connection.js";
import { INVALID_PARAMS, INVALID_REQUEST, isObject, RESOURCE_NOT_FOUND, RpcError } from "./wire.js";
import { typeName, type JSONRPCNotification, type Params } from "./wire.js";

export const VERSION = "2025-11-25"; // the one handshake version this edition speaks
export const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
export type ToolContext = { signal: AbortSignal; log(level: string, data: string, logger: string): void;
  progress(progress: number, total: number, message: string): void };
type Tool = Params & { run(args: Params, context: ToolContext): Params | Promise<Params> };
// A definition is its wire fields and a function, which JSON.stringify leaves out of a list.
export type Definition = { serverInfo: Params; instructions: string; tools: Tool[]; resources: Params[];
  resourceTemplates: (Params & { read(uri: string): Params[] | undefined })[];
  prompts: (Params & { get(args: Params): Params })[] };

export const text = (text: string) => ({ type: "text", text }); // [S]/tools#text-content
export const invalid = (method: string, field: string, problem: string, data?: unknown) =>
  new RpcError(INVALID_PARAMS, `${method}: "${field}" ${problem}`, data); // [J] 5.1
/** A field that must be there as a string (or, `of` "object", an object), named `path`. */
export function need<T = string>(params: Params, field: string, method: string, path = field,
  of = "string"): T {
  const value = params[field], got = typeName(value);
  if (value === undefined) throw invalid(method, path, "is required");
  if (of === "object" && !isObject(value)) throw invalid(method, path, "must be an object");
  if (of === "string" && got !== "string") throw invalid(method, path, `must be a string, got ${got}`);
  return value as T;
}

export class Server {
  state: "new" | "initializing" | "ready" = "new"; // [B]/lifecycle: the three phases
  level = "info"; // [S]/utilities/logging: what the session hears until logging/setLevel
  // [B]/lifecycle#capability-negotiation: declared, so served; what is not declared is not served.
  readonly capabilities = { logging: {}, prompts: {}, resources: {}, tools: {} };
  readonly table: Record<string, Handler>;

  constructor(readonly definition: Definition) {
    const { tools, resources, resourceTemplates, prompts } = definition;
    this.table = { // the method table: every method this server answers, and where the spec says so
      initialize: (params) => this.#initialize(params), // [B]/lifecycle#initialization
      ping: () => ({}), // [B]/utilities/ping: an empty result, at any time
      "logging/setLevel": (params) => this.#setLevel(params), // [S]/utilities/logging
      "tools/list": () => ({ tools }), // [S]/tools#listing-tools
      "tools/call": (params, context) => this.#call(params, context), // [S]/tools#calling-tools
      "resources/list": () => ({ resources }), // [S]/resources#listing-resources
      "resources/templates/list": () => ({ resourceTemplates }), // [S]/resources#resource-templates
      "resources/read": (params) => this.#read(params), // [S]/resources#reading-resources
      "prompts/list": () => ({ prompts }), // [S]/prompts#listing-prompts
      "prompts/get": (params) => this.#prompt(params), // [S]/prompts#getting-a-prompt
    };
  }

  /** The handshake generation's route: the method table behind the lifecycle gate. */
  route: Route = ({ method, params = {} }, context) => {
    const handler = lookup(this.table, method);
    // [B]/lifecycle#operation: only ping before initialize; only logging too before initialized.
    const early = this.state === "new" ? "initialize" : "notifications/initialized";
    const allowed = ["ping", "initialize", ...(this.state === "new" ? [] : ["logging/setLevel"])];
    if (this.state !== "ready" && !allowed.includes(method)) {
      throw new RpcError(INVALID_REQUEST, `${method}: the session is not initialized: send ${early} first`);
    }
    return handler(params, context);
  };

  hear = ({ method }: JSONRPCNotification): void => { // [B]/lifecycle: initialized opens operation
    if (method === "notifications/initialized" && this.state === "initializing") this.state = "ready";
  };

  #initialize(params: Params): Params {
    const again = "initialize: the session is already initialized";
    if (this.state !== "new") throw new RpcError(INVALID_REQUEST, again);
    need(params, "protocolVersion", "initialize");
    need(params, "capabilities", "initialize", "capabilities", "object");
    const clientInfo = need<Params>(params, "clientInfo", "initialize", "clientInfo", "object");
    for (const field of ["name", "version"]) need(clientInfo, field, "initialize", `clientInfo.${field}`);
    this.state = "initializing";
    return { protocolVersion: VERSION, // [B]/lifecycle#version-negotiation: ours, if not theirs
      capabilities: this.capabilities, // [B]/lifecycle#capability-negotiation
      serverInfo: this.definition.serverInfo, // [B]/lifecycle#initialization: Implementation
      instructions: this.definition.instructions }; // [B]/lifecycle#initialization: for the model
  }

  #setLevel(params: Params): Params {
    const level = need<string>(params, "level", "logging/setLevel");
    const choices = `must be one of ${LEVELS.join(", ")}, got "${level}"`;
    if (!LEVELS.includes(level)) throw invalid("logging/setLevel", "level", choices);
    this.level = level;
    return {};
  }

  #call(params: Params, context: Context): Params | Promise<Params> {
    const name = need<string>(params, "name", "tools/call");
    const tool = this.definition.tools.find((tool) => tool.name === name);
    const none = `names no tool of this server: ${JSON.stringify(name)}`;
    if (!tool) throw invalid("tools/call", "name", none, { name });
    const args = arguments_(params, "tools/call");
    // [S]/tools#error-handling: arguments the tool refuses are its error (isError), for the model.
    const problems = check(tool.inputSchema as Params, args);
    const refused = `tools/call ${name}: invalid arguments: ${problems.join("; ")}`;
    if (problems.length > 0) return { content: [text(refused)], isError: true };
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    const floor = () => context.logLevel === undefined ? this.level : context.logLevel;
    return tool.run(args, { signal: context.signal,
      log: (level, data, logger) => LEVELS.indexOf(level) >= LEVELS.indexOf(floor() ?? "off") &&
        context.notify("notifications/message", { level, data, logger }), // [S]/utilities/logging
      progress: (progress, total, message) => (typeof token === "string" || typeof token === "number") &&
        // [B]/utilities/progress: under the request's token, increasing, before its answer.
        context.notify("notifications/progress", { progressToken: token, progress, total, message }) });
  }

  #read(params: Params): Params {
    const uri = need<string>(params, "uri", "resources/read");
    const resource = this.definition.resources.find((resource) => resource.uri === uri);
    const contents = resource ? (resource.read as () => Params[])()
      : this.definition.resourceTemplates.map((template) => template.read(uri)).find(Boolean);
    const unknown = `resources/read: no resource at ${JSON.stringify(uri)}`; // [S]/resources#errors
    if (!contents) throw new RpcError(RESOURCE_NOT_FOUND, unknown, { uri });
    return { contents }; // [S]/resources#reading-resources: each { uri, mimeType, text }
  }

  #prompt(params: Params): Params {
    const name = need<string>(params, "name", "prompts/get");
    const prompt = this.definition.prompts.find((prompt) => prompt.name === name);
    const none = `names no prompt of this server: ${JSON.stringify(name)}`;
    if (!prompt) throw invalid("prompts/get", "name", none, { name });
    const args = arguments_(params, "prompts/get");
    for (const { name: arg, required } of prompt.arguments as Params[]) { // [S]/prompts
      const by = `is required by prompt ${JSON.stringify(name)}`, path = `arguments.${arg}`;
      if (args[arg as string] !== undefined) need(args, arg as string, "prompts/get", path);
      else if (required) throw invalid("prompts/get", path, by);
    }
    return prompt.get(args); // [S]/prompts#getting-a-prompt: { description, messages }
  }
}

function arguments_(params: Params, method: string): Params {
  const args = params.arguments ?? {};
  if (isObject(args)) return args;
  throw invalid(method, "arguments", `must be an object, got ${typeName(args)}`);
}

/** The few JSON Schema keywords the demo's tools use; src/schema/ has the rest. */
function check(schema: Params, args: Params): string[] {
  const rules = (schema.properties ?? {}) as Record<string, Params>;
  const problems = ((schema.required ?? []) as string[]).filter((key) => !(key in args))
    .map((key) => `missing required property ${JSON.stringify(key)}`);
  for (const [key, value] of Object.entries(args)) {
    const rule = rules[key], type = typeName(value) === "integer" ? "number" : typeName(value);
    const { minimum = -Infinity, maximum = Infinity } = (rule ?? {}) as Record<string, number>;
    if (!rule && schema.additionalProperties === false) {
      problems.push(`must NOT have additional property ${JSON.stringify(key)}`);
    } else if (rule && (rule.type === "integer" ? !Number.isInteger(value) : rule.type !== type)) {
      problems.push(`${key}: must be ${rule.type}, got ${type}`);
    } else if (rule && (value as number) < minimum) problems.push(`${key}: must be >= ${minimum}, got ${value}`);
    else if (rule && (value as number) > maximum) problems.push(`${key}: must be <= ${maximum}, got ${value}`);
  }
  return problems;
}

/** Serves a server on stdin and stdout (or two other streams), with a route of its own or not. */
export const serve = (server: Server, route = server.route, input = process.stdin,
  output: NodeJS.WritableStream = process.stdout) => new Connection(input, output, route, server.hear);
