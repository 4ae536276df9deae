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

/** The capability a client request needs the server to have declared, if any. */
export function capabilityOfMethod(method: string, version: ProtocolVersion): CapabilityNeed | undefined {
  const [feature] = method.split("/");
  switch (feature) {
    case "tools":
      return { name: "tools", declared: (c) => !!c.tools };
    case "prompts":
      return { name: "prompts", declared: (c) => !!c.prompts };
    case "resources":
      if (method === "resources/subscribe" || method === "resources/unsubscribe") {
        return { name: "resource subscriptions", declared: (c) => !!c.resources?.subscribe };
      }
      return { name: "resources", declared: (c) => !!c.resources };
    case "logging":
      return { name: "logging", declared: (c) => !!c.logging };
    case "completion":
      if (!supports(version, "completionsCapability")) return { name: "completions", declared: (c) => !!c.prompts || !!c.resources };
      return { name: "completions", declared: (c) => !!c.completions };
    default:
      return undefined;
  }
}

/** The JSON-RPC rules that depend on the negotiated version, for the connection. */
export function wirePolicy(version: ProtocolVersion): WirePolicy {
  return { batches: supports(version, "batches"), omitUnreadableId: supports(version, "omitUnreadableId") };
}
