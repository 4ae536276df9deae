// Textbook: need in src/textbook/server.ts; this adds a checked reader for every method's params
//  and result, in both directions.
// Where untrusted JSON becomes a typed MCP value: one reader per method of the table in
// methods.ts, for the params a receiver gets and for the result a requester gets. The only file
// allowed to say `as` from JSON to an MCP type: each reader first checks what the type claims.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema (the types) and
// https://www.jsonrpc.org/specification#error_object (-32602, naming the method and the field).
//
// How deep: every field the type declares at the top level, with its JSON type (required ones
// must be there); nested objects as deep as mcp-wire's own code reads them (clientInfo, ref,
// argument, list items' names, content blocks' `type`, ...). Deeper shapes (a tool's inputSchema,
// a sampling message's content) belong to the application that reads them. A reader returns the
// same object it was given, checked: unknown fields are kept, since params and results are open-ended.

import type { NotificationReaders, ParamsReaders, ResultReaders } from "../protocol/method-table.js";
import { isObject } from "../jsonrpc/messages.js";
import { Params } from "../jsonrpc/params.js";
import { LOGGING_LEVELS, type LoggingLevel } from "./logging.js";
import type { ClientNotifications, ClientRequests, RoleNotifications, ServerNotifications, ServerRequests } from "./methods.js";
import type { ClientCapabilities, Implementation } from "./lifecycle.js";
import { META, type InputRequest, type RequestEnvelope, type SubscriptionFilter } from "./modern.js";

/**
 * The readers of `readers` as functions of a raw result, made once per method rather than per
 * call: a client may make many calls a second. Errors name the field ("result: \"content\" ...");
 * OurRequests.request (protocol/our-requests.ts) turns them into a MalformedResponseError naming the method, since a result we
 * cannot read is our failure, not an error the peer answered.
 */
export function resultReaders<T extends { [method: string]: { params: object; result: { [key: string]: unknown } } }>(
  readers: ResultReaders<T>,
): { [M in keyof T]: (result: { [key: string]: unknown }) => T[M]["result"] } {
  const made: { [method: string]: (result: { [key: string]: unknown }) => unknown } = {};
  for (const method of Object.keys(readers)) {
    const read = readers[method]!;
    made[method] = (result) => read(new Params("result", result));
  }
  return made as { [M in keyof T]: (result: { [key: string]: unknown }) => T[M]["result"] };
}

/** The one cast: `p` has been checked for every field the type declares, as deep as we read it. */
function checked<T>(p: Params): T {
  return p.value as T;
}

/**
 * Reads `_meta`, which any params or result may carry, as an object. Leniency: a null `_meta`
 * reads as absent (and is deleted, so the value matches its type): peers send it, and a ping
 * carrying it must still be answered, as it was before the readers.
 */
function meta(p: Params): Params {
  if (p.value._meta === null) delete p.value._meta;
  p.optionalObject("_meta");
  return p;
}

/**
 * Leniency, for results only: an optional field sent as null reads as absent. The spec allows no
 * null there, but real servers send `"nextCursor": null` and the like, and a client that refused
 * them could not list their tools. The result is ours (freshly parsed), so the field is deleted:
 * the value then matches its type. Params stay strict.
 */
function nullAsAbsent(p: Params, ...fields: string[]): Params {
  for (const field of fields) if (p.value[field] === null) delete p.value[field];
  return p;
}

function nothing<T>(p: Params): T {
  return checked<T>(meta(p));
}

function paginated<T>(p: Params): T {
  p.optionalString("cursor");
  return checked<T>(meta(p));
}

/** A list result: its items' array, each item an object with these string fields, and nextCursor. */
function page<T>(key: string, names: string[]): (p: Params) => T {
  return (p) => {
    p.objectsWith(key, names);
    nullAsAbsent(p, "nextCursor").optionalString("nextCursor");
    return checked<T>(meta(p));
  };
}

function implementation(p: Params): void {
  p.string("name");
  p.string("version");
}

/** Content blocks are switched on `type`, so each must have one. */
const TYPE = ["type"];

function uri<T>(p: Params): T {
  p.string("uri");
  return checked<T>(meta(p));
}

/**
 * The fields a 2026-07-28 retry adds (InputResponseFields in modern.ts). Each answer's shape is read
 * by the server, against the question it answers (server/modern/input-rounds.ts).
 */
function inputResponseFields(p: Params): void {
  p.optionalRecord("inputResponses");
  p.optionalString("requestState");
}

/** A SubscriptionFilter: every field optional, each of its type (strings for the URIs). */
function subscriptionFilter(p: Params): SubscriptionFilter {
  for (const flag of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"]) p.optionalBoolean(flag);
  p.optionalArray("resourceSubscriptions")?.forEach((uri, i) => {
    if (typeof uri !== "string") throw p.error(`resourceSubscriptions[${i}]`, "must be a string");
  });
  return checked(p);
}

/**
 * The capabilities a server reads in a 2026-07-28 envelope, each with the members of it that it
 * reads: it decides what it may ask on them, request by request, so each must be an object when
 * present (`{"elicitation": null}` or `false` is not a declaration). Keys it does not know are kept.
 */
const ENVELOPE_CAPABILITIES: readonly (readonly [string, readonly string[]])[] = [
  ["experimental", []], ["roots", []], ["extensions", []], ["sampling", ["context", "tools"]], ["elicitation", ["form", "url"]],
];

function clientCapabilities(p: Params): ClientCapabilities {
  for (const [key, members] of ENVELOPE_CAPABILITIES) {
    const capability = p.optionalObject(key);
    for (const member of members) capability?.optionalObject(member);
  }
  return checked(p);
}

/**
 * The 2026-07-28 envelope in a request's `_meta` (basic/index#request-metadata), read once the
 * request claims the modern era by carrying a protocolVersion there. Throws -32602 naming the key:
 * Spec (basic/versioning): a request missing a required key is -32602; an unknown logLevel SHOULD be.
 */
export function readRequestEnvelope(method: string, meta: { [key: string]: unknown }): RequestEnvelope {
  return validEnvelope(meta) ?? envelopeWithErrors(method, meta);
}

/**
 * The envelope read by the rules of envelopeWithErrors, without its objects, or undefined when it
 * breaks one; that function then words the -32602. Every modern request carries an envelope, and
 * reading it through Params was about a tenth of a modern tools/call's cost (`npm run bench`).
 */
function validEnvelope(meta: { [key: string]: unknown }): RequestEnvelope | undefined {
  const protocolVersion = meta[META.protocolVersion];
  const clientCapabilities = meta[META.clientCapabilities];
  const clientInfo = meta[META.clientInfo];
  const logLevel = meta[META.logLevel];
  if (typeof protocolVersion !== "string" || !capabilitiesAreObjects(clientCapabilities)) return undefined;
  if (clientInfo !== undefined && !isImplementation(clientInfo)) return undefined;
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) return undefined;
  return { protocolVersion, clientCapabilities, clientInfo, logLevel };
}

/** Whether clientCapabilities (above) accepts `value`, asked without its objects. */
function capabilitiesAreObjects(value: unknown): value is ClientCapabilities {
  if (!isObject(value)) return false;
  for (const [key, members] of ENVELOPE_CAPABILITIES) {
    const capability = value[key];
    if (capability === undefined) continue;
    if (!isObject(capability)) return false;
    for (const member of members) if (capability[member] !== undefined && !isObject(capability[member])) return false;
  }
  return true;
}

function isImplementation(value: unknown): value is Implementation {
  return isObject(value) && typeof value.name === "string" && typeof value.version === "string";
}

function isLoggingLevel(value: unknown): value is LoggingLevel {
  return LOGGING_LEVELS.some((level) => level === value);
}

function envelopeWithErrors(method: string, meta: { [key: string]: unknown }): RequestEnvelope {
  const p = new Params(method, meta, "_meta");
  const info = p.optionalObject(META.clientInfo);
  if (info) implementation(info);
  return {
    protocolVersion: p.string(META.protocolVersion),
    clientCapabilities: clientCapabilities(p.object(META.clientCapabilities)),
    clientInfo: info && checked(info),
    logLevel: p.optionalChoice(META.logLevel, LOGGING_LEVELS),
  };
}

/**
 * One question of an input_required result, as a client reads it (InputRequest in modern.ts): the
 * method must be one the client can answer, and its params are read as that request's would be,
 * except that a URL-mode elicitation has no elicitationId in 2026-07-28.
 */
export function readInputRequest(key: string, value: unknown): InputRequest {
  const p = new Params("result", value, `inputRequests.${key}`);
  const method = p.choice("method", ["elicitation/create", "sampling/createMessage", "roots/list"]);
  const params = p.optionalObject("params") ?? new Params("result", {}, `inputRequests.${key}.params`);
  if (method === "elicitation/create" && params.value.mode === "url") {
    params.string("message");
    params.string("url");
    meta(params);
  } else {
    readServerRequestParams[method](params);
  }
  if (p.value.params === undefined && method !== "roots/list") throw p.error("params", "is required");
  return checked(p);
}

/** The params of the requests a client sends, as a server reads them. */
export const readClientRequestParams: ParamsReaders<ClientRequests> = {
  ping: nothing,
  "server/discover": nothing,
  "subscriptions/listen"(p) {
    subscriptionFilter(p.object("notifications"));
    return checked(meta(p));
  },
  initialize(p) {
    p.string("protocolVersion");
    p.object("capabilities");
    implementation(p.object("clientInfo"));
    return checked(meta(p));
  },
  "completion/complete"(p) {
    const ref = p.object("ref");
    if (ref.choice("type", ["ref/prompt", "ref/resource"]) === "ref/prompt") ref.string("name");
    else ref.string("uri");
    const argument = p.object("argument");
    argument.string("name");
    argument.string("value");
    p.optionalObject("context")?.optionalStringRecord("arguments");
    return checked(meta(p));
  },
  "logging/setLevel"(p) {
    // Spec (server/utilities/logging#error-handling): an invalid level SHOULD get -32602.
    p.choice("level", LOGGING_LEVELS);
    return checked(meta(p));
  },
  "prompts/list": paginated,
  "prompts/get"(p) {
    p.string("name");
    p.optionalStringRecord("arguments");
    inputResponseFields(p);
    return checked(meta(p));
  },
  "resources/list": paginated,
  "resources/templates/list": paginated,
  "resources/read"(p) {
    p.string("uri");
    inputResponseFields(p);
    return checked(meta(p));
  },
  "resources/subscribe": uri,
  "resources/unsubscribe": uri,
  "tools/list": paginated,
  "tools/call"(p) {
    p.string("name");
    p.optionalRecord("arguments");
    inputResponseFields(p);
    return checked(meta(p));
  },
};

/** The results of the requests a client sends, as the client reads them. */
export const readClientRequestResult: ResultReaders<ClientRequests> = {
  ping: nothing,
  "server/discover"(p) {
    p.array("supportedVersions").forEach((version, i) => {
      if (typeof version !== "string") throw p.error(`supportedVersions[${i}]`, "must be a string");
    });
    p.object("capabilities");
    nullAsAbsent(p, "instructions").optionalString("instructions");
    return checked(meta(p));
  },
  "subscriptions/listen": nothing,
  initialize(p) {
    p.string("protocolVersion");
    p.object("capabilities");
    implementation(p.object("serverInfo"));
    nullAsAbsent(p, "instructions").optionalString("instructions");
    return checked(meta(p));
  },
  "completion/complete"(p) {
    const completion = p.object("completion");
    const values = completion.array("values");
    values.forEach((value, i) => {
      if (typeof value !== "string") throw completion.error(`values[${i}]`, "must be a string");
    });
    nullAsAbsent(completion, "total", "hasMore");
    completion.optionalNumber("total");
    completion.optionalBoolean("hasMore");
    return checked(meta(p));
  },
  "logging/setLevel": nothing,
  "prompts/list": page("prompts", ["name"]),
  "prompts/get"(p) {
    nullAsAbsent(p, "description").optionalString("description");
    for (const message of p.objects("messages")) {
      message.choice("role", ["user", "assistant"]);
      message.object("content").string("type");
    }
    return checked(meta(p));
  },
  "resources/list": page("resources", ["uri", "name"]),
  "resources/templates/list": page("resourceTemplates", ["uriTemplate", "name"]),
  "resources/read"(p) {
    p.objectsWith("contents", ["uri"]);
    return checked(meta(p));
  },
  "resources/subscribe": nothing,
  "resources/unsubscribe": nothing,
  "tools/list": page("tools", ["name"]),
  "tools/call"(p) {
    p.objectsWith("content", TYPE);
    nullAsAbsent(p, "structuredContent", "isError");
    // Since 2026-07-28 structuredContent may be any JSON value; before, only an object.
    if (p.value.resultType === undefined) p.optionalRecord("structuredContent");
    p.optionalBoolean("isError");
    return checked(meta(p));
  },
};

/** The same, as functions of the raw result, for Connection.request. */
export const readClientResult = resultReaders(readClientRequestResult);

/** The params of the requests a server sends, as a client reads them. */
export const readServerRequestParams: ParamsReaders<ServerRequests> = {
  ping: nothing,
  "sampling/createMessage"(p) {
    p.array("messages");
    p.number("maxTokens");
    p.optionalObject("modelPreferences");
    p.optionalString("systemPrompt");
    p.optionalChoice("includeContext", ["none", "thisServer", "allServers"]);
    p.optionalNumber("temperature");
    p.optionalArray("stopSequences");
    p.optionalRecord("metadata");
    p.optionalArray("tools");
    p.optionalObject("toolChoice");
    return checked(meta(p));
  },
  "roots/list": nothing,
  "elicitation/create"(p) {
    // Spec (client/elicitation): a request without `mode` is form mode. An unknown mode is left
    // for the client's handler to refuse, naming the mode.
    const mode = p.optionalString("mode") ?? "form";
    p.string("message");
    if (mode === "form") p.object("requestedSchema");
    if (mode === "url") {
      p.string("url");
      p.string("elicitationId");
    }
    return checked(meta(p));
  },
};

/** The results of the requests a server sends, as the server reads them. */
export const readServerRequestResult: ResultReaders<ServerRequests> = {
  ping: nothing,
  "sampling/createMessage"(p) {
    p.choice("role", ["user", "assistant"]);
    if (!Array.isArray(p.value.content)) p.object("content").string("type");
    else p.objectsWith("content", TYPE);
    p.string("model");
    nullAsAbsent(p, "stopReason").optionalString("stopReason");
    return checked(meta(p));
  },
  "roots/list"(p) {
    p.objectsWith("roots", ["uri"]);
    return checked(meta(p));
  },
  "elicitation/create"(p) {
    p.choice("action", ["accept", "decline", "cancel"]);
    nullAsAbsent(p, "content").optionalRecord("content");
    return checked(meta(p));
  },
};

/** The same, as functions of the raw result, for Connection.request. */
export const readServerResult = resultReaders(readServerRequestResult);

/**
 * The params of the notifications a client sends, as a server reads them; cancellation and
 * progress are read by the connection (see ProtocolNotificationMethod).
 */
export const readClientNotification: NotificationReaders<RoleNotifications<ClientNotifications>> = {
  "notifications/initialized": nothing,
  "notifications/roots/list_changed": nothing,
};

/** The params of the notifications a server sends, as a client reads them (cancellation and progress likewise excepted). */
export const readServerNotification: NotificationReaders<RoleNotifications<ServerNotifications>> = {
  "notifications/message"(p) {
    p.choice("level", LOGGING_LEVELS);
    p.optionalString("logger");
    p.present("data");
    return checked(meta(p));
  },
  "notifications/resources/updated": uri,
  "notifications/resources/list_changed": nothing,
  "notifications/tools/list_changed": nothing,
  "notifications/prompts/list_changed": nothing,
  "notifications/elicitation/complete"(p) {
    p.string("elicitationId");
    return checked(meta(p));
  },
  "notifications/subscriptions/acknowledged"(p) {
    subscriptionFilter(p.object("notifications"));
    return checked(meta(p));
  },
};
