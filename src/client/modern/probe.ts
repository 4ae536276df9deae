// Which generation a server speaks, found by asking: `server/discover` with the envelope of our
// newest modern version, on the same connection, before anything else. A DiscoverResult means a
// 2026-07-28 server; -32022 naming a modern version we speak means one that wants another version
// (asked once more); anything else (any other error, a malformed result, no answer in time, an HTTP
// 4xx refusal but 401/403) means a handshake-era server, which gets `initialize` next. HTTP 401,
// 403 and 5xx are thrown (authorization, a failing server), and so is a failed OAuth authorization
// (an AuthorizationError, http/client-auth.ts: a verdict on the authorization, none on the era);
// a closed connection is ProbeEndedError. A person signing in stops the probe's clock
// (Transport.onHold). The probe waits as long as the handshake may take (ClientOptions.
// handshakeTimeoutMs, unless probeTimeoutMs says otherwise): a server behind a proxy that takes
// seconds to come up is still found modern. After a timeout the server also gets
// notifications/cancelled for the probe, and initialize gets the next id, so a late answer to the
// probe is never taken for initialize's; the probe's id stays reserved for it (onLateVerdict), so
// that it is judged as an answer in time would have been, not dropped as a stray.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era
// clients), basic/transports/stdio#backward-compatibility and streamable-http#backward-compatibility.
// Unlike SDK v2 this probes in place rather
// than in a throwaway process: a server that exits on the probe ends connect() with ProbeEndedError.

import { isObject, RpcError, type JSONRPCResponse } from "../../jsonrpc/messages.js";
import { ErrorCode } from "../../mcp/errors.js";
import { ConnectionClosedError, MalformedResponseError, RequestTimeoutError } from "../../jsonrpc/pending.js";
import type { Connection } from "../../protocol/connection.js";
import type { DiscoverResult } from "../../mcp/modern.js";
import { readClientResult } from "../../mcp/read.js";
import { isModernVersion, LATEST_MODERN_VERSION, type ModernVersion } from "../../mcp/versions.js";
import { ModernRefusedError, ProbeEndedError } from "../errors.js";
import type { Envelope } from "./envelope.js";
import { modernReader } from "./input-rounds.js";

/** The era a server speaks, and one line saying why the client thinks so. */
export type EraVerdict =
  | { era: "modern"; version: ModernVersion; discover: DiscoverResult; reason: string }
  /** `unsure`: reached by a timeout, used for this connect() only and never remembered. */
  | { era: "handshake"; reason: string; unsure?: true };

export interface ProbeOptions {
  envelope: Envelope;
  /**
   * How long to wait for each answer. A server that says nothing in time gets the handshake, but
   * that verdict is not remembered: a slow start must not make a modern server a handshake one
   * for good, so the next connect() probes again.
   */
  timeoutMs: number;
  /** A version the application pinned: no fallback, a failed probe is a ModernRefusedError. */
  pinned?: ModernVersion;
  /**
   * Auto only: takes the verdict of an answer that came after the probe timed out (and the client
   * fell back to initialize), judged as it would have been in time. Not called for a -32022 or an
   * unreadable answer: neither says what the server speaks.
   */
  onLateVerdict?: (verdict: EraVerdict) => void;
}

const readDiscover = modernReader("server/discover", readClientResult["server/discover"]);

/** Sends server/discover (twice at most, after a -32022) and judges the answer. */
export async function probe(connection: Connection, options: ProbeOptions): Promise<EraVerdict> {
  const first = options.pinned ?? LATEST_MODERN_VERSION;
  const verdict = await ask(connection, first, options);
  if (!("retryWith" in verdict)) return verdict;
  const second = await ask(connection, verdict.retryWith, options);
  if (!("retryWith" in second)) return second;
  // A modern server that refuses the very version it listed: no fallback (it is not a legacy server).
  throw new ModernRefusedError(verdict.retryWith, `server/discover answered -32022 twice, though it listed ${verdict.retryWith}`);
}

type Answer = EraVerdict | { retryWith: ModernVersion };

async function ask(connection: Connection, version: ModernVersion, options: ProbeOptions): Promise<Answer> {
  const timeouts = { idleMs: options.timeoutMs, maxTotalMs: options.timeoutMs };
  const learn = options.onLateVerdict;
  const onLateAnswer = learn && ((response: JSONRPCResponse) => judgeLate(response, version, options, learn));
  try {
    const outcome = await connection.request("server/discover", options.envelope.wrap(version, undefined), { timeouts, onLateAnswer }, readDiscover);
    // modernReader lets no other resultType through for server/discover.
    if (outcome.resultType !== "complete") throw new Error("unreachable");
    return judgeDiscover(outcome.result, version, options);
  } catch (error) {
    return judgeFailure(error, version, options);
  }
}

function judgeDiscover(discover: DiscoverResult, version: ModernVersion, options: ProbeOptions): Answer {
  // Spec (basic/versioning): the client picks a version from supportedVersions, ours if listed.
  const chosen = discover.supportedVersions.includes(version) ? version : discover.supportedVersions.find(isModernVersion);
  if (chosen === undefined) {
    return fallBack(options, `server/discover listed ${JSON.stringify(discover.supportedVersions)}, no modern version we speak`);
  }
  return { era: "modern", version: chosen, discover, reason: `server/discover answered ${chosen}` };
}

/** An answer after the timeout, judged as one in time; what cannot be read says nothing. */
function judgeLate(response: JSONRPCResponse, version: ModernVersion, options: ProbeOptions, learn: (verdict: EraVerdict) => void): void {
  let answer: Answer;
  try {
    if ("error" in response) answer = judgeFailure(RpcError.fromErrorObject(response.error), version, options);
    else {
      const outcome = readDiscover(response.result);
      if (outcome.resultType !== "complete") return;
      answer = judgeDiscover(outcome.result, version, options);
    }
  } catch {
    return;
  }
  if (!("retryWith" in answer)) learn(answer);
}

function judgeFailure(error: unknown, version: ModernVersion, options: ProbeOptions): Answer {
  if (error instanceof RpcError) {
    // Spec (basic/versioning): -32022 is a modern server's answer: retry with a version it
    // supports, and do not fall back (the fallback MUST NOT hinge on one error code either way).
    if (error.code === ErrorCode.UnsupportedProtocolVersion) {
      const supported = isObject(error.data) && Array.isArray(error.data.supported) ? error.data.supported : [];
      // The version it lists may be the one we asked for (say, an HTTP header that disagreed with
      // the body): once more with it. A pinned version is retried only if the server lists it.
      const retryWith = supported.find((v): v is ModernVersion => isModernVersion(v) && (options.pinned === undefined || v === options.pinned));
      if (retryWith !== undefined) return { retryWith };
      return fallBack(options, `server/discover answered -32022 (supported: ${JSON.stringify(supported)})`);
    }
    return fallBack(options, `server/discover answered ${error.code} (${error.message})`, error);
  }
  if (error instanceof RequestTimeoutError) return { ...fallBack(options, `server/discover got no answer within ${options.timeoutMs} ms`, error), unsure: true };
  if (error instanceof MalformedResponseError) return fallBack(options, `server/discover answered a malformed result (${error.message})`, error);
  if (error instanceof ConnectionClosedError) throw new ProbeEndedError(error);
  const status = refusedOverHttp(error);
  if (status !== undefined) return fallBack(options, `server/discover was refused with HTTP ${status} and no JSON-RPC answer`, error);
  throw error;
}

/**
 * The HTTP status of a modern POST that a legacy server refused without a JSON-RPC answer (any 4xx
 * but 401 and 403: a 400, 404 or 405 when it does not know the headers or the method); undefined for anything else. Read by
 * shape, not class: the client does not depend on the HTTP transport (http/client-fetch.ts
 * HttpStatusError). 401 and 403 are authorization, and 5xx a failing server: neither says "legacy".
 * Spec (basic/versioning, HTTP): an empty or unknown 4xx body means initialize.
 */
function refusedOverHttp(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("status" in error)) return undefined;
  const status = error.status;
  if (typeof status !== "number" || status < 400 || status >= 500 || status === 401 || status === 403) return undefined;
  return status;
}

/** Auto: the handshake. Pinned: the clear error naming what the server said. */
function fallBack(options: ProbeOptions, said: string, cause?: unknown): Extract<EraVerdict, { era: "handshake" }> {
  if (options.pinned !== undefined) throw new ModernRefusedError(options.pinned, said, cause);
  return { era: "handshake", reason: `${said}: fell back to initialize` };
}

/**
 * Whether initialize failed as a 2026-07-28 server fails it: -32022, or (over HTTP, read by shape as
 * refusedOverHttp reads it) a 400 whose message names an unsupported protocol version.
 */
export function initializeSaysModern(error: unknown): boolean {
  if (error instanceof RpcError) return error.code === ErrorCode.UnsupportedProtocolVersion;
  if (!(error instanceof Error) || !("status" in error) || error.status !== 400) return false;
  return /unsupported protocol version|-32022/i.test(error.message);
}
