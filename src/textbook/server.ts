// The server: the lifecycle, the capability gate, the method table (one screen), the features.
import { lookup, type Context, type Handler, type Route } from "./connection.js";
import { INVALID_PARAMS, INVALID_REQUEST, isObject, RESOURCE_NOT_FOUND, RpcError } from "./wire.js";
import { typeName, type JSONRPCNotification as Notification, type Params } from "./wire.js";
export const VERSION = "2025-11-25"; // the one handshake version this edition speaks
// [S]/utilities/logging: the levels of RFC 5424, least severe first.
export const LEVELS = "debug info notice warning error critical alert emergency".split(" ");
export type ToolContext = { signal: AbortSignal; log(level: string, text: string, by: string): void;
  progress(done: number, total: number, message: string): void };
// The lists' wire fields, and the work behind each: functions, which JSON.stringify leaves out.
export type Definition = { serverInfo: Params; resources: (Params & { read(): string })[];
  tools: (Params & { run(args: Params, context: ToolContext): Params | Promise<Params> })[];
  prompts: (Params & { get(args: Params): Params })[] };
export const text = (text: string) => ({ type: "text", text }); // [S]/tools#text-content
// [S]/tools#error-handling: a tool's own error (isError) is a result, for the model to read.
export const failed = (why: string) => ({ content: [text(why)], isError: true });
/** A tool's arguments against its inputSchema: the keywords the demo's tools use, in the words of
 * the production edition's JSON Schema validator (src/schema/, which knows them all). */
function check(schema: Params, args: Params): string {
  const rules = (schema.properties ?? {}) as Record<string, Params>, quote = JSON.stringify;
  const problems = ((schema.required ?? []) as string[]).filter((key) => !Object.hasOwn(args, key))
    .map((key) => `missing required property ${quote(key)}`);
  for (const [key, value] of Object.entries(args)) { // its own keys, never Object.prototype's
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined;
    const { type, minimum = -Infinity, maximum = Infinity } = rule ?? {}, n = value as number;
    const got = typeName(value) === "integer" && type !== "integer" ? "number" : typeName(value);
    const extra = `must NOT have additional property ${quote(key)}`;
    if (!rule) problems.push(...(schema.additionalProperties === false ? [extra] : []));
    else if (type !== got) problems.push(`${key}: must be ${type}, got ${got}`);
    else if (n < (minimum as number)) problems.push(`${key}: must be >= ${minimum}, got ${n}`);
    else if (n > (maximum as number)) problems.push(`${key}: must be <= ${maximum}, got ${n}`);
  }
  return problems.join("; ");
}
/** Params whose fields must each be there, of its JSON type ("string", "object"): else -32602. */
export function need(method: string, params: Params, types: Record<string, string>): Params {
  for (const [field, type] of Object.entries(types)) { // [J] 5.1: invalid method parameters
    const got = `${method}: "${field}" must be of type ${type}, got ${typeName(params[field])}`;
    if (typeName(params[field]) !== type) throw new RpcError(INVALID_PARAMS, got);
  }
  return params;
}
/** The tool or prompt `params.name` names, and its arguments (absent is {}). */
function named<T extends Params>(list: T[], kind: string, params: Params, method: string) {
  const { name, arguments: args } = need(method, { arguments: {}, ...params },
    { name: "string", arguments: "object" });
  const found = list.find((item) => item.name === name);
  if (!found) throw new RpcError(INVALID_PARAMS, `${method}: no ${kind} named ${name}`, { name });
  return { found, args: args as Params };
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
    "resources/templates/list": () => ({ resourceTemplates: [] }), // [S]/resources: none here
    "resources/read": (params) => this.#read(params), // [S]/resources#reading-resources
    "prompts/list": () => ({ prompts: this.definition.prompts }), // [S]/prompts#listing-prompts
    "prompts/get": (params) => this.#prompt(params), // [S]/prompts#getting-a-prompt
  };
  constructor(readonly definition: Definition) {}
  /** The handshake generation's route: the method table behind the lifecycle gate. */
  route: Route = ({ method, params = {} }, context) => {
    const handler = lookup(this.table, method);
    // [B]/lifecycle#operation: only ping before initialize; only logging too before initialized.
    const allowed = ["ping", "initialize", ...(this.state === "new" ? [] : ["logging/setLevel"])];
    if (this.state === "ready" || allowed.includes(method)) return handler(params, context);
    throw new RpcError(INVALID_REQUEST, `${method}: the session is not initialized`);
  };
  hear = ({ method }: Notification): void => { // [B]/lifecycle: initialized opens the operation
    if (method === "notifications/initialized" && this.state !== "new") this.state = "ready";
  };
  #initialize(params: Params): Params {
    if (this.state !== "new") throw new RpcError(INVALID_REQUEST, "initialize: done already");
    const fields = { protocolVersion: "string", capabilities: "object", clientInfo: "object" };
    const { clientInfo } = need("initialize", params, fields); // [B]/lifecycle#initialization
    need("initialize", clientInfo as Params, { name: "string", version: "string" });
    this.state = "initializing";
    return { protocolVersion: VERSION, // [B]/lifecycle#version-negotiation: ours, if not theirs
      capabilities: this.capabilities, // [B]/lifecycle#capability-negotiation
      serverInfo: this.definition.serverInfo }; // [B]/lifecycle#initialization: Implementation
  }
  #setLevel(params: Params): Params {
    const level = String(need("logging/setLevel", params, { level: "string" }).level);
    if (!LEVELS.includes(level)) throw new RpcError(INVALID_PARAMS, `no log level ${level}`);
    return (this.level = level), {};
  }
  #call(params: Params, { signal, notify, logLevel = this.level }: Context) {
    const { found: tool, args } = named(this.definition.tools, "tool", params, "tools/call");
    const problems = check(tool.inputSchema as Params, args); // the model may do better: isError
    if (problems) return failed(`tools/call ${tool.name}: invalid arguments: ${problems}`);
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    const least = logLevel === null ? Infinity : LEVELS.indexOf(logLevel); // null: none (modern)
    return tool.run(args, { signal, // [S]/utilities/logging: at or above the level asked for
      log: (level, data, logger) => LEVELS.indexOf(level) >= least
        && notify("notifications/message", { level, data, logger }), // [S]/utilities/logging
      // [B]/utilities/progress: under the request's token, increasing, before its answer.
      progress: (progress, total, message) => ["string", "number"].includes(typeof token)
        && notify("notifications/progress", { progressToken: token, progress, total, message }),
    });
  }
  #read(params: Params): Params {
    const { uri } = need("resources/read", params, { uri: "string" });
    const found = this.definition.resources.find((resource) => resource.uri === uri);
    // [S]/resources#error-handling: an unknown resource is -32002, with its uri.
    if (!found) throw new RpcError(RESOURCE_NOT_FOUND, `no resource at ${uri}`, { uri });
    return { contents: [{ uri, mimeType: found.mimeType, text: found.read() }] }; // [S]/resources
  }
  #prompt(params: Params): Params {
    const { found: prompt, args } = named(this.definition.prompts, "prompt", params, "prompts/get");
    // [S]/prompts#getting-a-prompt: the arguments are strings, and the required ones are there.
    const required = (prompt.arguments as Params[]).filter((argument) => argument.required);
    const names = [...required.map(({ name }) => String(name)), ...Object.keys(args)];
    const strings = Object.fromEntries(names.map((name) => [name, "string"]));
    return prompt.get(need("prompts/get", args, strings)); // [S]/prompts: description, messages
  }
}
