// The client's local failures: each names the step that failed and the server. Never sent on the wire.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle (initialization,
// version negotiation, capability negotiation).

import { ConnectionClosedError } from "../jsonrpc/pending.js";

/**
 * The handshake did not finish within its timeout: the server did not answer `initialize`, or
 * did not take `notifications/initialized` (over HTTP, a POST it may stall) in the time left.
 */
export class HandshakeTimeoutError extends Error {
  constructor(readonly afterMs: number, cause?: unknown, readonly step: "initialize" | "notifications/initialized" = "initialize") {
    super(step === "initialize"
      ? `initialize: the server did not answer within ${afterMs} ms`
      : `notifications/initialized: the server did not take it within the handshake's ${afterMs} ms`, { cause });
    this.name = "HandshakeTimeoutError";
  }
}

/** The server answered `initialize` with a protocol version this client does not speak. */
export class VersionRefusedError extends Error {
  constructor(readonly serverVersion: unknown, readonly supported: readonly string[], readonly requested: string) {
    super(
      `initialize: the server chose protocol version ${JSON.stringify(serverVersion)}, which this client does not support ` +
        `(we asked for ${requested}; we support ${supported.join(", ")})`,
    );
    this.name = "VersionRefusedError";
  }
}

/** A request for a feature the server did not declare; refused before anything was sent. */
export class ServerCapabilityError extends Error {
  constructor(readonly method: string, capability: string) {
    super(`${method}: the server did not declare the ${capability} capability (pass enforceServerCapabilities: false to send it anyway)`);
    this.name = "ServerCapabilityError";
  }
}

/**
 * A listing (listAllTools and the like, client/lists.ts) passed one of its bounds in all
 * (ClientOptions.listLimits): nothing of it is kept, and the server is not asked for more pages.
 */
export class ListingTooLargeError extends Error {
  constructor(readonly method: string, readonly bound: string, readonly page: number) {
    super(`${method}: the server's pages add up to ${bound} (at page ${page}); stopping (raise ClientOptions.listLimits to allow more)`);
    this.name = "ListingTooLargeError";
  }
}

/** A method was called before connect() finished, or after close(). */
export class NotConnectedError extends Error {
  constructor(readonly method: string) {
    super(`${method}: the client is not connected`);
    this.name = "NotConnectedError";
  }
}

/**
 * A 2026-07-28 server asked for input (an `input_required` result) the application has no handler
 * for: the client declared no such capability, so the server should not have asked.
 */
export class NoInputHandlerError extends Error {
  constructor(readonly method: string, readonly key: string, readonly inputMethod: string) {
    super(`${method}: the server asked for input ${JSON.stringify(key)} (${inputMethod}), which this client has no handler for`);
    this.name = "NoInputHandlerError";
  }
}

/**
 * A 2026-07-28 server asked for input the application's handler could not give (an elicitation
 * mode it does not support, sampling tools it did not declare, a handler that threw a JSON-RPC
 * error): in the handshake era that error goes to the server; here there is no request to answer,
 * so the call fails locally with it, naming the input request.
 */
export class InputRefusedError extends Error {
  constructor(readonly method: string, readonly key: string, readonly inputMethod: string, reason: string, cause?: unknown) {
    super(`${method}: this client could not answer the server's input ${JSON.stringify(key)} (${inputMethod}): ${reason}`, { cause });
    this.name = "InputRefusedError";
  }
}

/** One input_required result asked for more inputs than ClientOptions.maxInputRequests: none was answered. */
export class InputRequestsExceededError extends Error {
  constructor(readonly method: string, readonly count: number, readonly max: number) {
    super(`${method}: the server asked for ${count} inputs in one round, more than ${max} (maxInputRequests); none answered`);
    this.name = "InputRequestsExceededError";
  }
}

/** A 2026-07-28 request's rounds of input outlasted the call's maxTotalMs, which they share: the next round is not sent. */
export class InputRoundsTimeoutError extends Error {
  constructor(readonly method: string, readonly maxTotalMs: number, readonly rounds: number) {
    super(`${method}: ${rounds} rounds of input used up the call's maximum total time (${maxTotalMs} ms); the next round is not sent`);
    this.name = "InputRoundsTimeoutError";
  }
}

/** A 2026-07-28 request still asked for input after `maxRounds` rounds of answers (ClientOptions.maxInputRounds). */
export class InputRoundsExceededError extends Error {
  constructor(readonly method: string, readonly maxRounds: number) {
    super(`${method}: the server still asked for input after ${maxRounds} rounds; giving up (maxInputRounds)`);
    this.name = "InputRoundsExceededError";
  }
}

/**
 * connect() with a pinned 2026-07-28 version: the server/discover probe did not find a modern
 * server speaking it. `serverSaid` is what the server answered (an error, a timeout, a result).
 */
export class ModernRefusedError extends Error {
  constructor(readonly requested: string, readonly serverSaid: string, cause?: unknown) {
    super(`server/discover: no 2026-07-28 session with this server (asked for ${requested}; ${serverSaid})`, { cause });
    this.name = "ModernRefusedError";
  }
}

/** A method that 2026-07-28 removed, called on a client talking to the server in that era. */
export class RemovedMethodError extends Error {
  constructor(readonly method: string, readonly instead: string) {
    super(`${method}: 2026-07-28 has no such method (${instead})`);
    this.name = "RemovedMethodError";
  }
}

/**
 * The connection closed while the server/discover probe waited: a strict handshake-era server may
 * exit on any request before `initialize`. Pin a handshake version (protocolVersion: "2025-11-25")
 * to talk to it without the probe. A ConnectionClosedError like the one the handshake would give,
 * with the same cause (why the connection closed: say, a server that could not be started).
 */
export class ProbeEndedError extends ConnectionClosedError {
  constructor(closed: ConnectionClosedError) {
    super("server/discover", closed.cause);
    this.message += " (a legacy server that exits on a request before initialize? pin protocolVersion to a handshake version)";
    this.name = "ProbeEndedError";
  }
}
