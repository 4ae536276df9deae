// The handshake era's opening: initialize, the version check, then notifications/initialized, all
// within the handshake timeout. McpClient.connect runs it for a handshake-era server (or a pinned
// handshake version); a 2026-07-28 server has no handshake (modern/session.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization

import { RequestTimeoutError } from "../jsonrpc/pending.js";
import type { Connection } from "../protocol/connection.js";
import type { InitializeRequestParams, InitializeResult } from "../mcp/lifecycle.js";
import { readClientResult } from "../mcp/read.js";
import { isSupportedVersion, SUPPORTED_PROTOCOL_VERSIONS, wirePolicy } from "../mcp/versions.js";
import { HandshakeTimeoutError, VersionRefusedError } from "./errors.js";

/**
 * Runs the handshake on a started connection; closes it and throws when any step fails, but leaves
 * it open when initialize's error is one `keepOpenOn` wants to act on (McpClient re-probes after a -32022).
 */
export async function handshake(connection: Connection, params: InitializeRequestParams, handshakeMs: number, keepOpenOn: (error: unknown) => boolean = () => false): Promise<InitializeResult> {
  // Kept in the connection's clock, which stands still while the transport waits on a person (OAuth).
  const deadline = connection.clock.now() + handshakeMs;
  let result: InitializeResult;
  try {
    result = await connection.request("initialize", params, { timeouts: { idleMs: handshakeMs, maxTotalMs: handshakeMs } }, readClientResult.initialize);
  } catch (error) {
    if (!keepOpenOn(error)) await connection.close();
    throw error instanceof RequestTimeoutError ? new HandshakeTimeoutError(handshakeMs, error) : error;
  }
  // Spec (basic/lifecycle#version-negotiation): a client that does not support the server's
  // version SHOULD disconnect (the schema says MUST).
  if (!isSupportedVersion(result.protocolVersion)) {
    await connection.close();
    throw new VersionRefusedError(result.protocolVersion, SUPPORTED_PROTOCOL_VERSIONS, params.protocolVersion);
  }
  connection.setPolicy(wirePolicy(result.protocolVersion));
  // Spec (basic/lifecycle#initialization): after a successful initialize, the client MUST send initialized.
  if (!(await sendInitialized(connection, deadline - connection.clock.now()))) {
    await connection.close();
    throw new HandshakeTimeoutError(handshakeMs, undefined, "notifications/initialized");
  }
  return result;
}

/**
 * Sends notifications/initialized, giving up after `leftMs` (what is left of the handshake):
 * over HTTP it is a POST the server may stall, and connect() must end on time whatever the
 * transport does. Resolves to whether it was sent in time.
 */
async function sendInitialized(connection: Connection, leftMs: number): Promise<boolean> {
  const stop = new AbortController();
  const timer = connection.clock.after(Math.max(0, leftMs), () => stop.abort(new Error(`notifications/initialized: not taken within the handshake timeout`)));
  const expired = new Promise<void>((resolve) => stop.signal.addEventListener("abort", () => resolve(), { once: true }));
  try {
    await Promise.race([connection.notify("notifications/initialized", undefined, { signal: stop.signal }), expired]);
  } finally {
    connection.clock.cancel(timer);
  }
  return !stop.signal.aborted;
}
