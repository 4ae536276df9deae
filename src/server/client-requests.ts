// The requests a server may send to its client, and the capability each one needs first.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/sampling, client/elicitation
// and client/roots. A missing capability is a local error: nothing is sent.

import type { ServerRequestMethod } from "../mcp/methods.js";
import { supports } from "../mcp/versions.js";
import type { ServerSession } from "./session.js";

/** The server tried a request its client cannot take. Local: never sent on the wire. */
export class CapabilityError extends Error {
  constructor(method: string, why: string) {
    super(`${method}: ${why}`);
    this.name = "CapabilityError";
  }
}

/** Throws CapabilityError unless the client declared what `method` (with these params) needs. */
export function requireClientCapability(session: ServerSession, method: ServerRequestMethod, params: object): void {
  const client = session.clientCapabilities;
  if (session.stateless) {
    throw new CapabilityError(method, "a stateless HTTP server has no channel back to the client; run it with sessions to send requests to the client");
  }
  // Spec (basic/lifecycle#initialization): no requests but ping before notifications/initialized.
  if (session.state !== "operating") {
    throw new CapabilityError(method, `the client has not finished initializing (state: ${session.state})`);
  }
  switch (method) {
    case "sampling/createMessage":
      // Spec (client/sampling#capabilities): sampling needs the client's `sampling` capability.
      if (!client.sampling) throw new CapabilityError(method, "the client did not declare the sampling capability");
      // Spec (client/sampling#tools-in-sampling): tools and toolChoice only with `sampling.tools`.
      if ((field(params, "tools") !== undefined || field(params, "toolChoice") !== undefined) && !(client.sampling.tools && supports(session.protocolVersion, "samplingTools"))) {
        throw new CapabilityError(method, "the client did not declare sampling.tools, so tools and toolChoice cannot be sent");
      }
      return;
    case "elicitation/create": {
      if (!client.elicitation || !supports(session.protocolVersion, "elicitation")) {
        throw new CapabilityError(method, "the client did not declare the elicitation capability");
      }
      // Spec (client/elicitation#capabilities): an empty elicitation object means form mode only.
      const mode = field(params, "mode") ?? "form";
      const modes = Object.keys(client.elicitation).length === 0 ? ["form"] : Object.keys(client.elicitation);
      if (mode === "url" && !supports(session.protocolVersion, "urlElicitation")) {
        throw new CapabilityError(method, `protocol ${session.protocolVersion} has no URL-mode elicitation`);
      }
      // Spec (client/elicitation): servers MUST NOT send a mode the client did not declare.
      if (!modes.includes(String(mode))) throw new CapabilityError(method, `the client did not declare ${String(mode)}-mode elicitation`);
      return;
    }
    case "roots/list":
      if (!client.roots) throw new CapabilityError(method, "the client did not declare the roots capability");
      return;
    default:
      return;
  }
}

function field(params: object, name: string): unknown {
  return name in params ? (params as { [key: string]: unknown })[name] : undefined;
}
