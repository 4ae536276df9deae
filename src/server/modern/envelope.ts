// Textbook: envelope, modern (its era check) in src/textbook/modern.ts; this adds the order of the
//  checks, -32022 naming every version served, and the refusal of undeclared capabilities.
// The era of one request, judged by its body alone, and the checks a 2026-07-28 request passes before
// its handler runs: its envelope (-32602), its version (-32022), whether its method exists in that
// generation (-32601) and whether the server offers what it needs (-32601). A request is modern when
// its `params._meta` carries a protocolVersion; `initialize` without one opens a handshake session.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning and
// https://modelcontextprotocol.io/specification/2026-07-28/changelog; the order of the checks is
// ours (PROTOCOL_NOTES.md, "The era of each message"; the spec fixes none). The HTTP transport runs
// the same checks before it picks a status code (http/modern-post.ts), so both transports answer alike.

import { RpcError } from "../../jsonrpc/messages.js";
import { ErrorCode } from "../../mcp/errors.js";
import type { Implementation } from "../../mcp/lifecycle.js";
import { METHOD_ERA, type ClientRequestMethod } from "../../mcp/methods.js";
import { META, type RequestEnvelope } from "../../mcp/modern.js";
import { readRequestEnvelope } from "../../mcp/read-modern.js";
import { ALL_PROTOCOL_VERSIONS, isModernVersion, type ModernVersion } from "../../mcp/versions.js";

/** Whether a request claims the 2026-07-28 generation: its `_meta` has a protocolVersion key. */
export function claimsModern(meta: { [key: string]: unknown } | undefined): meta is { [key: string]: unknown } {
  return meta !== undefined && Object.hasOwn(meta, META.protocolVersion);
}

/**
 * Whether a claim is a valid modern envelope. Only `initialize` asks: one without a valid claim opens
 * a handshake session as always (spec: basic/versioning#backward-compatibility-with-initialization-based-versions),
 * since that is what its sender can speak.
 */
export function validModernClaim(method: string, meta: { [key: string]: unknown }): boolean {
  try {
    return isModernVersion(readRequestEnvelope(method, meta).protocolVersion);
  } catch {
    return false;
  }
}

/**
 * Whether a request is served the 2026-07-28 way: it claims that era, unless it is an initialize
 * whose claim is not valid, which opens a handshake session as always.
 */
export function isModernRequest(method: string, meta: { [key: string]: unknown } | undefined): meta is { [key: string]: unknown } {
  return claimsModern(meta) && (method !== "initialize" || validModernClaim(method, meta));
}

/** A modern request's envelope, checked: the version is one we speak. */
export interface CheckedEnvelope extends RequestEnvelope {
  protocolVersion: ModernVersion;
  clientInfo?: Implementation;
}

/**
 * A request's envelope as checkModernRequest returned it, with the method and the very `_meta`
 * object it was checked for: a transport that checked it before the connection was made (HTTP
 * picks a status by it, http/modern-post.ts) hands it on, and the connection does not read it again.
 */
export interface CheckedRequest {
  method: string;
  meta: { [key: string]: unknown };
  envelope: CheckedEnvelope;
}

/**
 * Checks a request that claims the modern era, in our order (PROTOCOL_NOTES.md, "The era of each
 * message"), and returns its envelope; throws the RpcError to answer with. `refused` holds the methods the server's
 * modern capabilities do not cover, with their errors (server/capabilities.ts, Offer).
 */
export function checkModernRequest(method: string, meta: { [key: string]: unknown }, refused: ReadonlyMap<string, RpcError>): CheckedEnvelope {
  const envelope = readModernEnvelope(method, meta);
  const requested = envelope.protocolVersion;
  const era = METHOD_ERA[method as ClientRequestMethod];
  // Spec (changelog, removed methods): initialize, ping, logging/setLevel and resources/(un)subscribe
  // do not exist for a 2026-07-28 request, whatever the same connection did before.
  if (era === "legacy") {
    throw new RpcError(ErrorCode.MethodNotFound, `${method}: not a method of protocol ${requested} (it belongs to the handshake era, 2025-11-25 and before)`);
  }
  const refusal = refused.get(method);
  if (refusal) throw refusal;
  return envelope;
}

/**
 * The first two checks alone, for every modern request, including one for a method with no handler:
 * its envelope (-32602) and its version (-32022) are judged before the method is (-32601), as on HTTP.
 */
export function readModernEnvelope(method: string, meta: { [key: string]: unknown }): CheckedEnvelope {
  // Spec (basic/versioning): a malformed claim is -32602, never a fall back to the legacy era.
  const envelope = readRequestEnvelope(method, meta);
  const requested = envelope.protocolVersion;
  // Spec (basic/versioning): a version the server does not implement is -32022 with both lists.
  if (!isModernVersion(requested)) throw unsupportedVersion(requested);
  return { ...envelope, protocolVersion: requested };
}

/** The error readModernEnvelope throws, returned; undefined when the envelope and version pass. */
export function envelopeRefusal(method: string, meta: { [key: string]: unknown }): RpcError | undefined {
  try {
    readModernEnvelope(method, meta);
    return undefined;
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
}

/**
 * The -32022 error for a version we do not speak: every version we do, newest first (our decision;
 * the example in basic/versioning#protocol-version-negotiation lists both eras).
 */
export function unsupportedVersion(requested: string): RpcError {
  // The message names at most 64 characters of it: a hostile 1 MB "version" is echoed once, in data.
  const shown = requested.length > 64 ? `${requested.slice(0, 64)}… (${requested.length} characters)` : requested;
  return new RpcError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${shown}`, {
    supported: [...ALL_PROTOCOL_VERSIONS],
    requested,
  });
}
