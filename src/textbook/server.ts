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
export const invalid = (method: string, field: string, problem: string, data?: unknown) =>
  new RpcError(INVALID_PARAMS, `${method}: "${field}" ${problem}`, data); // [J] 5.1
/** A field that must be a string (or, `of` "object", an object); `path` names it. */
export function need<T = string>(params: Params, field: string, method: string, path = field,
  of = "string"): T {
  const value = params[field], object = of === "object";
  if (value === undefined) throw invalid(method, path, "is required");
  const wrong = object ? "must be an object" : `must be a ${of}, got ${typeName(value)}`;
  if (object ? !isObject(value) : typeof value !== of) throw invalid(method, path, wrong);
  return value as T;
}
/** The tool or prompt `params.name` names, and its arguments (absent is {}; null is not). */
function named<T extends Params>(list: T[], kind: string, params: Params, method: string) {
  const name = need(params, "name", method), found = list.find((item) => item.name === name);
  const none = `names no ${kind} of this server: ${JSON.stringify(name)}`;
  if (!found) throw invalid(method, "name", none, { name });
  const { arguments: args = {} } = params, wrong = `must be an object, got ${typeName(args)}`;
  if (!isObject(args)) throw invalid(method, "arguments", wrong);
  return { found, args };
}
/** A tool's arguments against its inputSchema: the keywords the demo's tools use, in the words of
 * the production edition's JSON Schema validator (src/schema/, which knows them all). */
function check(schema: Params, args: Params): string {
  const rules = (schema.properties ?? {}) as Record<string, Params>, quote = JSON.stringify;
  const problems = ((schema.required ?? []) as string[]).filter((key) => !Object.hasOwn(args, key))
    .map((key) => `missing required property ${quote(key)}`);
  for (const [key, value] of Object.entries(args)) {
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined; // never Object.prototype's
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
    const early = `send ${this.state === "new" ? "initialize" : "notifications/initialized"} first`;
    const allowed = ["ping", "initialize", ...(this.state === "new" ? [] : ["logging/setLevel"])];
    if (this.state === "ready" || allowed.includes(method)) return handler(params, context);
    throw new RpcError(INVALID_REQUEST, `${method}: the session is not initialized: ${early}`);
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
      serverInfo: this.definition.serverInfo }; // [B]/lifecycle#initialization: Implementation
  }
  #setLevel(params: Params): Params {
    const level = need(params, "level", "logging/setLevel");
    const choices = `must be one of ${LEVELS.join(", ")}, got "${level}"`;
    if (!LEVELS.includes(level)) throw invalid("logging/setLevel", "level", choices);
    return (this.level = level), {};
  }
  #call(params: Params, context: Context): Params | Promise<Params> {
    const { found: tool, args } = named(this.definition.tools, "tool", params, "tools/call");
    // [S]/tools#error-handling: arguments the tool refuses are its error (isError), for the model.
    const problems = check(tool.inputSchema as Params, args);
    const refused = `tools/call ${tool.name}: invalid arguments: ${problems}`;
    if (problems) return { content: [text(refused)], isError: true };
    const { signal, notify, logLevel } = context; // logLevel null: no logs (modern.ts)
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    return tool.run(args, { signal, // [S]/utilities/logging: at or above the level asked for
      log: (level, data, logger) => logLevel !== null && LEVELS.indexOf(level)
        >= LEVELS.indexOf(logLevel ?? this.level) && notify("notifications/message",
        { level, data, logger }), // [S]/utilities/logging#log-message-notifications
      // [B]/utilities/progress: under the request's token, increasing, before its answer.
      progress: (progress, total, message) => ["string", "number"].includes(typeof token)
        && notify("notifications/progress", { progressToken: token, progress, total, message }),
    });
  }
  #read(params: Params): Params {
    const uri = need(params, "uri", "resources/read");
    const found = this.definition.resources.find((resource) => resource.uri === uri);
    // [S]/resources#error-handling: an unknown resource is -32002, with its uri.
    const unknown = `resources/read: no resource at ${JSON.stringify(uri)}`;
    if (!found) throw new RpcError(RESOURCE_NOT_FOUND, unknown, { uri });
    return { contents: [{ uri, mimeType: found.mimeType, text: found.read() }] }; // [S]/resources
  }
  #prompt(params: Params): Params {
    const { found: prompt, args } = named(this.definition.prompts, "prompt", params, "prompts/get");
    // [S]/prompts#getting-a-prompt: the arguments are strings, and the required ones are there.
    for (const name of Object.keys(args)) need(args, name, "prompts/get", `arguments.${name}`);
    for (const { name, required } of prompt.arguments as { name: string; required: boolean }[]) {
      const by = `is required by prompt ${JSON.stringify(prompt.name)}`, path = `arguments.${name}`;
      if (required && !Object.hasOwn(args, name)) throw invalid("prompts/get", path, by);
    }
    return prompt.get(args); // [S]/prompts#getting-a-prompt: { description, messages }
  }
}
