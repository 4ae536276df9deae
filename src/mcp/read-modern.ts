// Textbook: envelope in src/textbook/modern.ts; this adds a -32602 naming each field of the
//  envelope, the retry fields, and a question as a client reads it.
// What 2026-07-28 adds to the readers: the envelope in a request's `_meta`, the fields a retry of
// tools/call, prompts/get or resources/read carries (read for modern requests only: the handshake
// era has no such fields), and a question of an input_required result as a client reads it.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning,
// basic/index#request-metadata and basic/patterns/mrtr.

import type { ParamsReaders } from "../protocol/method-table.js";
import { isObject } from "../jsonrpc/messages.js";
import { FieldReader } from "../jsonrpc/field-reader.js";
import { LOGGING_LEVELS, type LoggingLevel } from "./logging.js";
import type { ClientRequests } from "./methods.js";
import type { ClientCapabilities, Implementation } from "./lifecycle.js";
import { META, type InputRequest, type RequestEnvelope } from "./modern.js";
import { promptsGetFields, readClientRequestParams, toolsCallFields } from "./read-client-requests.js";
import { checked, implementation, meta } from "./read-fields.js";
import { readServerRequestParams } from "./read-server-requests.js";

/**
 * The fields a 2026-07-28 retry adds (InputResponseFields in modern.ts). Each answer's shape is read
 * by the server, against the question it answers (server/modern/input-rounds.ts).
 */
function inputResponseFields(p: FieldReader): void {
  p.optionalRecord("inputResponses");
  p.optionalString("requestState");
}

/**
 * The params of a 2026-07-28 request, as a server reads them: the handshake era's readers, with the
 * retry fields for the three methods that may answer input_required. Made once, at load.
 */
export const readModernRequestParams: ParamsReaders<ClientRequests> = {
  ...readClientRequestParams,
  "tools/call"(p) {
    toolsCallFields(p);
    inputResponseFields(p);
    return checked(meta(p));
  },
  "prompts/get"(p) {
    promptsGetFields(p);
    inputResponseFields(p);
    return checked(meta(p));
  },
  "resources/read"(p) {
    p.string("uri");
    inputResponseFields(p);
    return checked(meta(p));
  },
};

/**
 * The capabilities a server reads in a 2026-07-28 envelope, each with the members of it that it
 * reads: it decides what it may ask on them, request by request, so each must be an object when
 * present (`{"elicitation": null}` or `false` is not a declaration). Keys it does not know are kept.
 */
const ENVELOPE_CAPABILITIES: readonly (readonly [string, readonly string[]])[] = [
  ["experimental", []], ["roots", []], ["extensions", []], ["sampling", ["context", "tools"]], ["elicitation", ["form", "url"]],
];

function clientCapabilities(p: FieldReader): ClientCapabilities {
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
 * reading it through FieldReader was about a tenth of a modern tools/call's cost (`npm run bench`).
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
  const p = new FieldReader(method, meta, "_meta");
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
  const p = new FieldReader("result", value, `inputRequests.${key}`);
  const method = p.choice("method", ["elicitation/create", "sampling/createMessage", "roots/list"]);
  const params = p.optionalObject("params") ?? new FieldReader("result", {}, `inputRequests.${key}.params`);
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
