// The checker's session rules: the order of the handshake, and capabilities both ways (a request
// or notification only where the side that must support it declared it). Both use the project's
// own tables: undeclaredServerCapability (mcp/versions.ts) for the client's requests,
// requireClientCapability (server/capabilities.ts) for the server's.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
// Leaves out 2026-07-28 requests (no handshake; their capabilities travel in each envelope, which
// check-rules-modern.ts reads).

import { isObject } from "../jsonrpc/messages.js";
import type { ServerRequestMethod } from "../mcp/methods.js";
import { readServerRequestParams } from "../mcp/read.js";
import { isSupportedVersion, undeclaredServerCapability } from "../mcp/versions.js";
import { CapabilityError, requireClientCapability } from "../server/capabilities.js";
import { initializeSucceeded, type CheckState, type Rule } from "./check-state.js";

const LIFECYCLE = "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle";

/** The server's notifications and the capability flag of its own that announces each. */
const SERVER_NOTIFICATION_NEEDS: { [method: string]: (state: CheckState) => boolean } = {
  "notifications/message": (state) => !!state.serverCapabilities?.logging,
  "notifications/tools/list_changed": (state) => !!state.serverCapabilities?.tools?.listChanged,
  "notifications/prompts/list_changed": (state) => !!state.serverCapabilities?.prompts?.listChanged,
  "notifications/resources/list_changed": (state) => !!state.serverCapabilities?.resources?.listChanged,
  "notifications/resources/updated": (state) => !!state.serverCapabilities?.resources?.subscribe,
};

function isServerRequest(method: string): method is ServerRequestMethod {
  return Object.hasOwn(readServerRequestParams, method);
}

export const SESSION_RULES: Rule[] = [
  {
    name: "lifecycle-order",
    spec: `${LIFECYCLE}#initialization`,
    check(event, dir, state, report) {
      // Spec (basic/lifecycle#initialization): initialization MUST be the first interaction.
      if (event.kind === "batch" && dir === "c2s" && !state.initializeSent) report("a batch before initialize");
      if (event.kind === "notification" && dir === "c2s" && event.method === "notifications/initialized" && !initializeSucceeded(state)) {
        report("notifications/initialized before initialize succeeded");
      }
      if (event.kind !== "request" || event.request.version === "2026-07-28") return;
      // Spec (basic/lifecycle#initialization): initialize comes first, and once it succeeded, never
      // again; until it is answered the client sends no request but ping, and it starts normal
      // operation with notifications/initialized. The client's own order is kept in every form.
      if (dir === "c2s") {
        if (event.method === "initialize") {
          if (initializeSucceeded(state)) report("initialize again, in a session already initialized");
        } else if (event.method !== "ping") {
          if (!state.initializeSent) report(`${event.method} before initialize`);
          else if (state.ordered && !state.initializeAnswered) report(`${event.method} before initialize was answered`);
          else if (!state.initializedSent) report(`${event.method} before notifications/initialized`);
        }
        return;
      }
      // Spec (basic/lifecycle#initialization): the server sends no request but ping before the
      // client's notifications/initialized. Needs the order between the sides.
      if (state.ordered && !state.initializedSent && event.method !== "ping") report(`${event.method} before notifications/initialized`);
    },
  },
  {
    name: "capability-undeclared",
    spec: `${LIFECYCLE}#capability-negotiation`,
    check(event, dir, state, report) {
      if (event.kind === "request" && event.request.version !== "2026-07-28" && event.request.version !== undefined) {
        const version = event.request.version;
        if (dir === "c2s" && state.serverCapabilities) {
          // Spec (basic/lifecycle#capability-negotiation): only what the other side declared.
          const need = undeclaredServerCapability(event.method, version, state.serverCapabilities);
          if (need) report(`${event.method}: the server did not declare ${need.name}`);
        }
        if (dir === "s2c" && state.clientCapabilities && isServerRequest(event.method)) {
          const why = clientRefusal(event.method, event.params, version, state);
          if (why) report(why);
        }
      }
      if (event.kind !== "notification") return;
      const declared = dir === "s2c" ? SERVER_NOTIFICATION_NEEDS[event.method] : undefined;
      if (declared && state.serverCapabilities && !declared(state)) report(`${event.method}: the server did not declare the capability for it`);
      if (dir === "c2s" && event.method === "notifications/roots/list_changed" && state.clientCapabilities && !state.clientCapabilities.roots?.listChanged) {
        report(`${event.method}: the client did not declare roots.listChanged`);
      }
    },
  },
];

function clientRefusal(method: ServerRequestMethod, params: { [key: string]: unknown }, version: string, state: CheckState): string | undefined {
  if (!isSupportedVersion(version) || !isObject(state.clientCapabilities)) return undefined;
  try {
    requireClientCapability({ clientCapabilities: state.clientCapabilities, singleRequest: false, state: "operating", protocolVersion: version }, method, params);
    return undefined;
  } catch (error) {
    if (error instanceof CapabilityError) return error.message;
    throw error;
  }
}
