// 2026-07-28 requests over Streamable HTTP for the modern-*.test.ts files: a request with the envelope in `_meta`, POSTed
// with the headers a conforming client mirrors (mcp-headers.ts), which a test may override or drop.
import { mirroredHeaders, type HeaderParam } from "../../src/http/mcp-headers.js";
import { post } from "./http-peer.js";

export const MODERN = "2026-07-28";

/** The envelope keys of `_meta`; `extra` adds to them (a progressToken, a logLevel, capabilities). */
export function envelope(extra: object = {}, capabilities: object = {}): object {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "modern-test", version: "1.0.0" },
    ...extra,
  };
}

export type ModernMessage = { jsonrpc: "2.0"; id?: string | number; method: string; params: { [key: string]: unknown } };

/** A modern request: `params` plus the envelope (`meta` joins it). */
export function modernRequest(id: string | number, method: string, params: object = {}, meta: object = {}, capabilities: object = {}): ModernMessage {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope(meta, capabilities) } };
}

/**
 * POSTs `message` with its mirrored headers; `headers` overrides them, and a header set to null is
 * left out.
 */
export function postModern(url: string, message: ModernMessage | object, headers: Record<string, string | null> = {}, params: HeaderParam[] = [], signal?: AbortSignal): Promise<Response> {
  const mirrored: Record<string, string> = "method" in message ? mirroredHeaders(message as ModernMessage, params) : {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) delete mirrored[name];
    else mirrored[name] = value;
  }
  return post(url, message, mirrored, signal);
}
