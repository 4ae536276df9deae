// The server: the lifecycle, the capability gate, the method table (one screen), the features.
import { Connection, lookup, type Context, type Handler, type Route } from "./connection.js";
import { INVALID_PARAMS, INVALID_REQUEST, isObject, RESOURCE_NOT_FOUND, RpcError } from "./wire.js";
import { typeName, type JSONRPCNotification as Notification, type Params } from "./wire.js";

export const VERSION = "2025-11-25"; // the one handshake version this edition speaks
// [S]/utilities/logging: the levels of RFC 5424, least severe first.
export const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert",
  "emergency"];
export type ToolContext = { signal: AbortSignal; log(level: string, text: string, by: string): void;
  progress(done: number, total: number, message: string): void };
// Each is its wire fields and a function, which JSON.stringify leaves out of a list.
export type Definition = { serverInfo: Params; instructions: string; resources: Params[];
  tools: (Params & { run(args: Params, context: ToolContext): Params | Promise<Params> })[];
  resourceTemplates: (Params & { read(uri: string): Params[] | undefined })[];
  prompts: (Params & { get(args: Params): Params })[] };

export const text = (text: string) => ({ type: "text", text }); // [S]/tools#text-content
export const invalid = (method: string, field: string, problem: string, data?: unknown) =>
  new RpcError(INVALID_PARAMS, `${method}: "${field}" ${problem}`, data); // [J] 5.1
/** A field that must be a string (or, `of` "object", an object); `path` names it. */
export function need<T = string>(params: Params, field: string, method: string, path = field,
  of = "string"): T {
  const value = params[field], wrong = `must be a string, got ${typeName(value)}`;
  if (value === undefined) throw invalid(method, path, "is required");
  if (of === "object" && !isObject(value)) throw invalid(method, path, "must be an object");
  if (of === "string" && typeof value !== "string") throw invalid(method, path, wrong);
  return value as T;
}
function named<T extends Params>(list: T[], kind: string, params: Params, method: string): T {
  const name = need(params, "name", method), found = list.find((item) => item.name === name);
  if (found) return found;
  const none = `names no ${kind} of this server: ${JSON.stringify(name)}`;
  throw invalid(method, "name", none, { name });
}
function argumentsOf(params: Params, method: string): Params { // absent is {}; null is not
  if (params.arguments === undefined || isObject(params.arguments)) return params.arguments ?? {};
  throw invalid(method, "arguments", `must be an object, got ${typeName(params.arguments)}`);
}

export class Server {
  state: "new" | "initializing" | "ready" = "new"; // [B]/lifecycle: the three phases
  level = "info"; // [S]/utilities/logging: what the session hears until logging/setLevel
  // [B]/lifecycle#capability-negotiation: what is declared is served; nothing else is.
  readonly capabilities = { logging: {}, prompts: {}, resources: {}, tools: {} };
  readonly table: Record<string, Handler> = { // every method, and where the spec says what it does
    initialize: (params) => this.#initialize(params), // [B]/lifecycle#initialization
    ping: () => ({}), // [B]/utilities/ping: an empty result, at any time
    "logging/setLevel": (params) => this.#setLevel(params), // [S]/utilities/logging
    "tools/list": () => ({ tools: this.definition.tools }), // [S]/tools#listing-tools
    "tools/call": (params, context) => this.#call(params, context), // [S]/tools#calling-tools
    "resources/list": () => ({ resources: this.definition.resources }), // [S]/resources#listing
    "resources/templates/list": () => ({ resourceTemplates: this.definition.resourceTemplates }),
    "resources/read": (params) => this.#read(params), // [S]/resources#reading-resources
    "prompts/list": () => ({ prompts: this.definition.prompts }), // [S]/prompts#listing-prompts
    "prompts/get": (params) => this.#prompt(params), // [S]/prompts#getting-a-prompt
  };
  constructor(readonly definition: Definition) {}

  /** The handshake generation's route: the method table behind the lifecycle gate. */
  route: Route = ({ method, params = {} }, context) => {
    const handler = lookup(this.table, method);
    // [B]/lifecycle#operation: only ping before initialize; only logging too before initialized.
    const early = this.state === "new" ? "initialize" : "notifications/initialized";
    const allowed = ["ping", "initialize", ...(this.state === "new" ? [] : ["logging/setLevel"])];
    if (this.state === "ready" || allowed.includes(method)) return handler(params, context);
    const why = `the session is not initialized: send ${early} first`;
    throw new RpcError(INVALID_REQUEST, `${method}: ${why}`);
  };
  hear = ({ method }: Notification): void => { // [B]/lifecycle: initialized opens the operation
    if (method === "notifications/initialized" && this.state !== "new") this.state = "ready";
  };

  #initialize(params: Params): Params {
    const again = "initialize: the session is already initialized";
    if (this.state !== "new") throw new RpcError(INVALID_REQUEST, again);
    need(params, "protocolVersion", "initialize");
    need(params, "capabilities", "initialize", "capabilities", "object");
    const info = need<Params>(params, "clientInfo", "initialize", "clientInfo", "object");
    for (const field of ["name", "version"]) need(info, field, "initialize", `clientInfo.${field}`);
    this.state = "initializing";
    return { protocolVersion: VERSION, // [B]/lifecycle#version-negotiation: ours, if not theirs
      capabilities: this.capabilities, // [B]/lifecycle#capability-negotiation
      serverInfo: this.definition.serverInfo, // [B]/lifecycle#initialization: Implementation
      instructions: this.definition.instructions }; // [B]/lifecycle#initialization: for the model
  }

  #setLevel(params: Params): Params {
    const level = need(params, "level", "logging/setLevel");
    const choices = `must be one of ${LEVELS.join(", ")}, got "${level}"`;
    if (!LEVELS.includes(level)) throw invalid("logging/setLevel", "level", choices);
    return (this.level = level), {};
  }

  #call(params: Params, context: Context): Params | Promise<Params> {
    const tool = named(this.definition.tools, "tool", params, "tools/call");
    const args = argumentsOf(params, "tools/call");
    const problems = check(tool.inputSchema as Params, args);
    // [S]/tools#error-handling: arguments the tool refuses are its error (isError), for the model.
    const refused = `tools/call ${tool.name}: invalid arguments: ${problems.join("; ")}`;
    if (problems.length > 0) return { content: [text(refused)], isError: true };
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    const level = () => context.logLevel === undefined ? this.level : context.logLevel ?? "none";
    return tool.run(args, { signal: context.signal,
      log: (at, data, logger) => LEVELS.indexOf(at) >= LEVELS.indexOf(level()) && level() !== "none"
        // [S]/utilities/logging#log-message-notifications: at or above the level asked for.
        && context.notify("notifications/message", { level: at, data, logger }),
      // [B]/utilities/progress: under the request's token, increasing, before its answer.
      progress: (progress, total, message) => ["string", "number"].includes(typeof token) &&
        context.notify("notifications/progress", { progressToken: token, progress, total,
          message }),
    });
  }

  #read(params: Params): Params {
    const uri = need(params, "uri", "resources/read");
    const resource = this.definition.resources.find((resource) => resource.uri === uri);
    const contents = resource ? (resource.read as () => Params[])()
      : this.definition.resourceTemplates.map((template) => template.read(uri)).find(Boolean);
    const unknown = `resources/read: no resource at ${JSON.stringify(uri)}`;
    // [S]/resources#error-handling: an unknown resource is -32002, with its uri.
    if (!contents) throw new RpcError(RESOURCE_NOT_FOUND, unknown, { uri });
    return { contents }; // [S]/resources#reading-resources: each { uri, mimeType, text }
  }

  #prompt(params: Params): Params {
    const prompt = named(this.definition.prompts, "prompt", params, "prompts/get");
    const args = argumentsOf(params, "prompts/get");
    // [S]/prompts#getting-a-prompt: the arguments are strings, and the required ones are there.
    for (const name of Object.keys(args)) need(args, name, "prompts/get", `arguments.${name}`);
    for (const { name, required } of prompt.arguments as { name: string; required: boolean }[]) {
      const by = `is required by prompt ${JSON.stringify(prompt.name)}`, path = `arguments.${name}`;
      if (required && !Object.hasOwn(args, name)) throw invalid("prompts/get", path, by);
    }
    return prompt.get(args); // [S]/prompts#getting-a-prompt: { description, messages }
  }
}

/** The few JSON Schema keywords the demo's tools use; src/schema/ has the rest. */
function check(schema: Params, args: Params): string[] {
  const rules = (schema.properties ?? {}) as Record<string, Params>;
  const problems = ((schema.required ?? []) as string[]).filter((key) => !Object.hasOwn(args, key))
    .map((key) => `missing required property ${JSON.stringify(key)}`);
  for (const [key, value] of Object.entries(args)) {
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined; // never Object.prototype's
    const type = typeName(value) === "integer" ? "number" : typeName(value);
    const { minimum = -Infinity, maximum = Infinity } = (rule ?? {}) as Record<string, number>;
    const n = value as number, integer = rule?.type === "integer" && Number.isInteger(value);
    if (!rule && schema.additionalProperties === false) {
      problems.push(`must NOT have additional property ${JSON.stringify(key)}`);
    } else if (rule && !integer && rule.type !== type) {
      problems.push(`${key}: must be ${rule.type}, got ${type}`);
    } else if (rule && n < minimum) problems.push(`${key}: must be >= ${minimum}, got ${value}`);
    else if (rule && n > maximum) problems.push(`${key}: must be <= ${maximum}, got ${value}`);
  }
  return problems;
}

/** Serves a server on stdin and stdout (or two other streams), with a route of its own or not. */
export const serve = (server: Server, route = server.route, input = process.stdin,
  output: NodeJS.WritableStream = process.stdout) =>
  new Connection(input, output, route, server.hear);
