// One-line notes for the walkthrough: what a wire message is and what its key fields mean, in
// either generation. Each note paraphrases, in our own words, what the spec says of its method
// (the sections are linked from PROTOCOL_NOTES.md, which has the longer story); a 2026-07-28
// message is recognised by its own fields (the envelope in `_meta`, `resultType`, the cache hints),
// so the same method gets the same note in both eras plus one sentence on what is new.

import { isObject, type JSONRPCMessage } from "./jsonrpc/messages.js";
import { META } from "./mcp/modern.js";

export type Direction = "client→server" | "server→client";

/** Notes for requests and notifications, by method. */
const REQUEST_NOTES: Record<string, string> = {
  initialize: "request `initialize` (handshake era): protocolVersion is the newest version the client speaks, capabilities what it can do, clientInfo who it is.",
  "notifications/initialized": "notification (no id, so no answer): the client is ready; only now may the server send its own requests.",
  "server/discover": "request `server/discover` (2026-07-28): which versions and capabilities do you have? It opens no session and changes nothing.",
  "subscriptions/listen": "request `subscriptions/listen` (2026-07-28): a stream for the change notifications named in `notifications`; it is answered only when it ends.",
  "notifications/subscriptions/acknowledged": "notification (2026-07-28): the listen is open; `notifications` is what the server will send on it, each tagged with _meta subscriptionId.",
  "tools/list": "request `tools/list`: which tools does the server offer? (params may carry a cursor for the next page)",
  "tools/call": "request `tools/call`: run the tool `name` with these `arguments`; _meta.progressToken, if present, asks for progress.",
  "resources/list": "request `resources/list`: which fixed resources can be read?",
  "resources/templates/list": "request `resources/templates/list`: which URI templates (RFC 6570) describe further resources?",
  "resources/read": "request `resources/read`: the contents at this `uri`, from a fixed resource or a matching template.",
  "resources/subscribe": "request `resources/subscribe` (handshake era; the server declared resources.subscribe): tell me when the resource at `uri` changes.",
  "resources/unsubscribe": "request `resources/unsubscribe` (handshake era): stop telling me about `uri`.",
  "notifications/resources/updated": "notification `notifications/resources/updated`: the resource at `uri` changed; it carries no contents, so a client that cares reads it again.",
  "roots/list": "request `roots/list` (server to client): which filesystem roots (file:// URIs) may the server work in? Only sent to a client that declared roots.",
  "prompts/list": "request `prompts/list`: which prompt templates does the server offer, and their arguments?",
  "prompts/get": "request `prompts/get`: fill the prompt `name` with these string `arguments`.",
  "completion/complete": "request `completion/complete`: suggest values for `argument` of this prompt (or template), given what was typed.",
  ping: "request `ping` (handshake era; 2026-07-28 removed it): are you there? The answer is an empty result.",
  "notifications/progress": "notification `notifications/progress`: progress (increasing) of total, under the token the request supplied.",
  "notifications/message": "notification `notifications/message`: a log message at `level`, sent because the level in force lets it through (logging/setLevel's, the server's own before any, or in 2026-07-28 the request's _meta logLevel).",
  "notifications/cancelled": "notification `notifications/cancelled`: the sender gave up on requestId (reason says why); the receiver should stop and send no answer.",
  "logging/setLevel": "request `logging/setLevel` (handshake era): send me log messages at `level` and every more severe one (syslog's eight levels, debug to emergency).",
  "notifications/tools/list_changed": "notification `notifications/tools/list_changed`: the server's tools changed (it declared tools.listChanged); a client may list them again.",
  "elicitation/create": "request `elicitation/create` (server to client): ask the user `message`; requestedSchema is a flat form of primitive fields, never for secrets.",
  "sampling/createMessage": "request `sampling/createMessage` (server to client): run your model on `messages`; systemPrompt and maxTokens are requests, and a human should get to review.",
};

/** Notes for results, by the method of the request they answer. */
const RESULT_NOTES: Record<string, string> = {
  initialize: "result: the version both sides will now speak, the server's capabilities (what it offers), serverInfo, and instructions for the model.",
  "server/discover": "result: supportedVersions, the server's capabilities and instructions; the client picks a version and names it on every request.",
  "tools/list": "result: each tool's name, description and inputSchema (JSON Schema for its arguments); annotations are hints, outputSchema describes structuredContent.",
  "tools/call": "result: `content` blocks for the model; `structuredContent` when the tool has an outputSchema; isError: true means the tool failed, not the protocol.",
  "resources/list": "result: each resource's uri, name and mimeType; no contents yet.",
  "resources/templates/list": "result: uriTemplate patterns; a read of any URI that matches one is served.",
  "resources/read": "result: `contents`, each with its uri and either `text` or a base64 `blob`.",
  "resources/subscribe": "result: `{}`. From now on the server sends notifications/resources/updated when that resource changes.",
  "roots/list": "result: `roots`, each a file:// `uri` with an optional `name`: where the user lets the server work.",
  "prompts/list": "result: each prompt's name, description and arguments (required or not).",
  "prompts/get": "result: `messages` ready for the model, each with a role and one content block (here, also an embedded resource).",
  "completion/complete": "result: `completion.values` (at most 100), and hasMore when there are more than shown.",
  ping: "result: `{}`, the empty result. The server is alive.",
  "logging/setLevel": "result: `{}`. From now on the server sends notifications/message only at this level or above.",
  "elicitation/create": "result: action is accept (content holds the form's answers), decline (the user said no) or cancel (dismissed, no choice made).",
  "sampling/createMessage": "result: the model's message (role, content), `model` names the model that actually answered, stopReason why it stopped.",
};

const INPUT_REQUIRED =
  "result, resultType input_required (2026-07-28): not the answer yet; inputRequests asks the client, by key, for what the server used to request itself, and requestState is the server's state to echo back.";
const RETRY =
  "request `tools/call` again, under a new id (2026-07-28): inputResponses answers the inputRequests by key, requestState is echoed unchanged; the server picks up where it left off.";

/**
 * Notes for a stream of messages, one side's session at a time: it remembers the method of each
 * request by direction and id, so that a response's note can say what it answers (each side
 * numbers its own requests, so the same id can name two requests), and gives that method too.
 * The walkthrough and `mcp-wire explain` both note messages through it.
 */
export function noteTracker(): (direction: Direction, message: JSONRPCMessage | JSONRPCMessage[]) => { note: string; answered?: string } {
  const sentMethods = new Map<string, string>();
  return (direction, message) => {
    const single = Array.isArray(message) ? undefined : message;
    if (single && "method" in single && "id" in single) sentMethods.set(`${direction}:${String(single.id)}`, single.method);
    const answered = single && !("method" in single) ? sentMethods.get(`${direction === "client→server" ? "server→client" : "client→server"}:${String(single.id)}`) : undefined;
    const note = noteFor(direction, message, answered);
    return answered === undefined ? { note } : { note, answered };
  };
}

export function noteFor(direction: Direction, message: JSONRPCMessage | JSONRPCMessage[], answered: string | undefined): string {
  if (Array.isArray(message)) return "a JSON-RPC batch: several messages in one array (2025-03-26 only).";
  if ("method" in message) {
    const params = isObject(message.params) ? message.params : {};
    if ("inputResponses" in params) return `${RETRY}${envelopeNote(params)}`;
    const note = REQUEST_NOTES[message.method] ?? `${"id" in message ? "request" : "notification"} \`${message.method}\` (${direction}).`;
    return `${note}${envelopeNote(params)}${listenTagNote(message.method, params)}`;
  }
  if ("error" in message) {
    const { code } = message.error;
    const meaning = ERROR_MEANINGS[code] ?? "an application-defined error";
    // Spec (basic#responses): an error response has no id when the request's id could not be read.
    if (!("id" in message) || message.id === null) return `error response without an id: code ${code} is ${meaning}; the server could not read which request it was, so it names none.`;
    return `error response to ${answered ?? "a request"}: code ${code} is ${meaning}; the request failed at the protocol level.`;
  }
  const result = isObject(message.result) ? message.result : {};
  if (result["resultType"] === "input_required") return INPUT_REQUIRED;
  const note = (answered && RESULT_NOTES[answered]) || `result for ${answered ?? "a request"}: its id matches the request it answers.`;
  return `${note}${completeNote(result)}`;
}

/** A 2026-07-28 request carries the envelope: what a handshake said once, said on every request. */
function envelopeNote(params: { [key: string]: unknown }): string {
  const meta = isObject(params["_meta"]) ? params["_meta"] : {};
  if (!(META.protocolVersion in meta)) return "";
  const logLevel = META.logLevel in meta ? ` and logLevel ${String(meta[META.logLevel])}` : "";
  return ` _meta: the envelope (protocolVersion, clientInfo, clientCapabilities${logLevel}), on every 2026-07-28 request.`;
}

/** A change notification of 2026-07-28 names the listen it belongs to. */
function listenTagNote(method: string, params: { [key: string]: unknown }): string {
  const meta = isObject(params["_meta"]) ? params["_meta"] : {};
  if (!method.endsWith("/list_changed") || !(META.subscriptionId in meta)) return "";
  return ` 2026-07-28: sent only on the listen with id ${String(meta[META.subscriptionId])}, which asked for it.`;
}

/** A complete 2026-07-28 result says so, may say how long it can be cached, and names the server. */
function completeNote(result: { [key: string]: unknown }): string {
  if (result["resultType"] !== "complete") return "";
  const cache = "ttlMs" in result ? `; reusable for ${String(result["ttlMs"])} ms (cacheScope ${String(result["cacheScope"])})` : "";
  return ` resultType complete${cache}; _meta serverInfo names the server.`;
}

const ERROR_MEANINGS: Record<number, string> = {
  [-32700]: "Parse error (not JSON)",
  [-32600]: "Invalid Request (not a valid JSON-RPC message, or not allowed now)",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
  [-32002]: "Resource not found (MCP, handshake era)",
  [-32020]: "Header mismatch (2026-07-28: an HTTP header disagrees with the body)",
  [-32021]: "Missing required client capability (2026-07-28)",
  [-32022]: "Unsupported protocol version (2026-07-28; data lists the supported ones)",
};
