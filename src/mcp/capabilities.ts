// Which server capability each client request needs. Both roles use it: the server answers
// -32601 for a capability it did not declare, and the client refuses to send such a request.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation

import type { WirePolicy } from "../protocol/connection.js";
import type { ServerCapabilities } from "./lifecycle.js";
import { supports, type ProtocolVersion } from "./versions.js";

export interface CapabilityNeed {
  name: string;
  declared(capabilities: ServerCapabilities): boolean;
}

const TOOLS: CapabilityNeed = { name: "tools", declared: (c) => !!c.tools };
const PROMPTS: CapabilityNeed = { name: "prompts", declared: (c) => !!c.prompts };
const RESOURCES: CapabilityNeed = { name: "resources", declared: (c) => !!c.resources };
const SUBSCRIPTIONS: CapabilityNeed = { name: "resource subscriptions", declared: (c) => !!c.resources?.subscribe };
const LOGGING: CapabilityNeed = { name: "logging", declared: (c) => !!c.logging };
const COMPLETIONS: CapabilityNeed = { name: "completions", declared: (c) => !!c.completions };
/** 2024-11-05 had completion/complete but no flag for it: prompts or resources imply it. */
const COMPLETIONS_2024: CapabilityNeed = { name: "completions", declared: (c) => !!c.prompts || !!c.resources };

const NEEDS = new Map<string, CapabilityNeed>([
  ["tools/list", TOOLS],
  ["tools/call", TOOLS],
  ["prompts/list", PROMPTS],
  ["prompts/get", PROMPTS],
  ["resources/list", RESOURCES],
  ["resources/templates/list", RESOURCES],
  ["resources/read", RESOURCES],
  ["resources/subscribe", SUBSCRIPTIONS],
  ["resources/unsubscribe", SUBSCRIPTIONS],
  ["logging/setLevel", LOGGING],
  ["completion/complete", COMPLETIONS],
]);

/** The capability a client request needs the server to have declared, if any. */
export function capabilityOfMethod(method: string, version: ProtocolVersion): CapabilityNeed | undefined {
  const need = NEEDS.get(method);
  return need === COMPLETIONS && !supports(version, "completionsCapability") ? COMPLETIONS_2024 : need;
}

/** The JSON-RPC rules that depend on the negotiated version, for the connection. */
export function wirePolicy(version: ProtocolVersion): WirePolicy {
  return { batches: supports(version, "batches"), omitUnreadableId: supports(version, "omitUnreadableId") };
}
