// The walkthrough's refusals, and a server of the other era. 2026-07-28 refuses a request on its
// own envelope: a malformed claim (-32602), a version the server does not speak (-32022 with the
// ones it does), an ask of the client the request's capabilities leave out (-32021); the handshake
// era said the same things once, in initialize, and answers each otherwise. The client API never
// sends such requests, so these are raw lines (to a second demo server, walkthrough-wire.ts).
// Last, a server of the handshake era, met by a client of each kind.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning and basic/patterns/mrtr

import { META } from "./mcp/modern.js";
import { isModernVersion } from "./mcp/versions.js";
import { SPEC, type Step } from "./walkthrough-steps.js";

const CLIENT_INFO = { name: "mcp-wire-walkthrough", version: "0.1.0" };

/** A 2026-07-28 request as a line, with an envelope claiming `version` and declaring `capabilities`. */
function modernLine(id: number, method: string, params: object, version: string, capabilities: object = {}): string {
  const _meta = { [META.protocolVersion]: version, [META.clientInfo]: CLIENT_INFO, [META.clientCapabilities]: capabilities };
  return JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta } });
}

/** An initialize as a line, on the raw lines' connection (the handshake era's only claim). */
function initializeLine(id: number, params: object): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params });
}

export const REFUSAL_STEPS: Step[] = [
  {
    title: "Refused: a malformed claim",
    why: "What the client says about itself must have the spec's shape: here clientInfo is a string, not an object.",
    play: async (_client, { version, raw }) => {
      if (isModernVersion(version)) {
        await raw(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: { [META.protocolVersion]: version, [META.clientInfo]: "walkthrough", [META.clientCapabilities]: {} } } }));
      } else {
        await raw(initializeLine(2, { protocolVersion: version, capabilities: {}, clientInfo: "walkthrough" }));
      }
    },
    changed: "the claim rides on every request, so any request can be refused for it (-32602, the field named); in the handshake era only initialize carried it, and a refused initialize opens no session.",
    spec: `${SPEC}/basic/versioning`,
  },
  {
    title: "Refused: an unsupported version",
    why: "The client asks for a protocol version from the future, 2099-01-01.",
    play: async (_client, { version, raw, say }) => {
      if (isModernVersion(version)) {
        await raw(modernLine(3, "server/discover", {}, "2099-01-01"));
        say("a client picks a version from data.supported and sends the request again; there is no session to fall back on.");
      } else {
        await raw(initializeLine(3, { protocolVersion: "2099-01-01", capabilities: {}, clientInfo: CLIENT_INFO }));
        say("no error: the server offers the version it speaks, and the client decides whether to go on. It goes on, declaring no capabilities:");
        await raw(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), 0);
      }
    },
    changed: "version negotiation was a counter-offer in initialize's result; now a request naming a version the server lacks gets -32022, with data.supported (every version it speaks) and data.requested.",
    spec: `${SPEC}/basic/versioning`,
  },
  {
    title: "Refused: a capability the client did not declare",
    why: "greet must ask the user, but this client declared no elicitation: the server may not ask it.",
    play: async (_client, { version, raw }) => {
      if (isModernVersion(version)) await raw(modernLine(4, "tools/call", { name: "greet", arguments: {} }, version));
      else await raw(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "greet", arguments: {} } }));
    },
    changed: "the session's initialize declared no elicitation, so the tool failed (isError); now the request's own clientCapabilities lack it, and the call is refused with -32021, data.requiredCapabilities naming what was missing.",
    spec: `${SPEC}/basic/patterns/mrtr`,
  },
  {
    title: "A server of the handshake era",
    why: "A server written before 2026-07-28 (here the demo, deaf to the envelope): a handshake client just sends initialize; a dual-era client probes first.",
    play: async (_client, { version, say, handshakeEraClient }) => {
      const client = await handshakeEraClient(isModernVersion(version) ? "auto" : version);
      say(`era: ${client.era} (${client.eraReason}); it speaks ${client.protocolVersion}.`);
      await client.close();
    },
    changed: "a dual-era client (protocolVersion auto) asks server/discover first; a server that answers with an error (here -32601) or not at all gets initialize next, on the same connection, as from a handshake-era client.",
    spec: `${SPEC}/basic/versioning`,
  },
];
