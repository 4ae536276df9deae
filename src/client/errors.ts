// The client's local failures: each names the step that failed and the server. Never sent on the wire.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle (initialization,
// version negotiation, capability negotiation).

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

/** A method was called before connect() finished, or after close(). */
export class NotConnectedError extends Error {
  constructor(readonly method: string) {
    super(`${method}: the client is not connected`);
    this.name = "NotConnectedError";
  }
}
