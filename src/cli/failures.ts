// How a CLI run fails: one line of text for each way a step can fail (the exit codes are in output.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle (the steps: spawn,
// server/discover (2026-07-28/basic/versioning), initialize, version negotiation, operation, the
// server's exit) and basic (JSON-RPC errors).
// The library's errors already say what broke; this file puts the failed step in front.

import { HandshakeTimeoutError, ProbeEndedError, VersionRefusedError } from "../client/errors.js";
import { RpcError } from "../jsonrpc/messages.js";
import { ServerExitedError, SpawnError } from "../transports/stdio-client.js";

/** One step of the run (a method, usually) and why it failed; `hint`, what the user might do about it. */
export class StepFailure extends Error {
  constructor(readonly step: string, cause: unknown, readonly hint?: string) {
    super(`${step} failed`, { cause });
    this.name = "StepFailure";
  }
}

/** Runs one step; a failure comes out as a StepFailure that names it. */
export async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw error instanceof StepFailure ? error : new StepFailure(name, error);
  }
}

/** The message for any failure, the step first. */
export function describeFailure(error: unknown): string {
  const stepName = error instanceof StepFailure ? error.step : undefined;
  const cause = error instanceof StepFailure ? error.cause : error;

  // A process that never started or has ended is the real story, whatever request noticed it:
  // the pending call's ConnectionClosedError carries it as its cause.
  const spawn = findCause(cause, SpawnError);
  if (spawn) return `spawn failed: ${spawn.problem}`;
  if (cause instanceof HandshakeTimeoutError) {
    return `handshake timed out after ${cause.afterMs} ms: the server did not ${cause.step === "initialize" ? "answer initialize" : "take notifications/initialized"}`;
  }
  if (cause instanceof VersionRefusedError) {
    return `version refused: the server chose protocol version ${JSON.stringify(cause.serverVersion)}, ` +
      `but we asked for ${cause.requested} and speak only ${cause.supported.join(", ")}`;
  }
  const exited = findCause(cause, ServerExitedError);
  const probeEnded = findCause(cause, ProbeEndedError) !== undefined;
  const detail = exited
    ? exited.message
    : probeEnded
      ? "the server closed the connection before answering"
      : cause instanceof RpcError
        ? `${cause.code} ${cause.message}${cause.data === undefined ? "" : `; data: ${JSON.stringify(cause.data)}`}`
        : withoutPrefix(messageOf(cause), stepName);
  // A strict server of the handshake era may end the connection on any request before initialize.
  const hint = probeEnded
    ? "\n(if it ends only when asked server/discover, it speaks only the handshake: try --protocol-version 2025-11-25)"
    : error instanceof StepFailure && error.hint !== undefined ? `\n(${error.hint})` : "";
  return (stepName === undefined ? detail : `${stepName} failed: ${detail}`) + hint;
}

/** The first error of `type` in the chain of causes from `error`, if any. */
export function findCause<T extends Error>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 10; at = at.cause, depth++) {
    if (at instanceof type) return at;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Library messages start with their method ("tools/call: no response ..."); the step already says it. */
function withoutPrefix(message: string, stepName: string | undefined): string {
  return stepName !== undefined && message.startsWith(`${stepName}: `) ? message.slice(stepName.length + 2) : message;
}
