// Textbook: modern (the context it hands a handler) in src/textbook/modern.ts; this adds an object
//  per request: its envelope, whom it speaks for, and its input rounds once needed.
// One 2026-07-28 request as its handlers see it: the connection's context for it (id, signal,
// progress), plus what its own envelope says (version, the client's capabilities and identity, the
// log level), whom its connection speaks for (the authenticated principal, if any) and, for the
// methods that may answer input_required, its input rounds. serveModernRequest (serve.ts) makes it
// once the envelope passed its checks, and it carries the request's era from there on: the
// handshake session's requests keep the connection's context, and handlers tell the two apart with
// `instanceof` (ServerConnection.served, .handlerContext).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (era per request)

import type { RequestId } from "../../jsonrpc/messages.js";
import type { ClientCapabilities, Implementation } from "../../mcp/lifecycle.js";
import type { LoggingLevel } from "../../mcp/logging.js";
import type { ModernVersion } from "../../mcp/versions.js";
import type { RequestContext } from "../../protocol/method-table.js";
import type { ModernServed } from "../served.js";
import type { CheckedEnvelope } from "./envelope.js";
import type { InputRounds } from "./input-rounds.js";

/** Who an envelope without clientInfo comes from (it is a SHOULD). */
const UNNAMED_CLIENT: Implementation = { name: "unknown", version: "unknown" };

/**
 * A wrapper rather than a WeakMap from the connection's context to the envelope: a WeakMap entry
 * per request made the modern tools/call cost about 3 µs more (its keys are short-lived, and V8
 * pays for each at collection; `npm run bench`).
 */
export class ModernRequest implements RequestContext, ModernServed {
  readonly protocolVersion: ModernVersion;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
  readonly logLevel: LoggingLevel | undefined;
  readonly principal: string | undefined;
  readonly #request: RequestContext;
  #rounds: InputRounds | undefined = undefined;
  #makeRounds: (() => InputRounds) | undefined = undefined;

  constructor(request: RequestContext, envelope: CheckedEnvelope, principal?: string) {
    this.#request = request;
    this.principal = principal;
    this.protocolVersion = envelope.protocolVersion;
    this.clientCapabilities = envelope.clientCapabilities;
    this.clientInfo = envelope.clientInfo ?? UNNAMED_CLIENT;
    this.logLevel = envelope.logLevel;
  }

  get id(): RequestId { return this.#request.id; }
  get method(): string { return this.#request.method; }
  get signal(): AbortSignal { return this.#request.signal; }
  get inBatch(): boolean { return this.#request.inBatch; }
  get meta(): { [key: string]: unknown } | undefined { return this.#request.meta; }
  get progressToken(): string | number | undefined { return this.#request.progressToken; }
  get ended(): boolean { return this.#request.ended; }

  /** Its input rounds if they were made: only once needed (serve.ts), so a look here makes none. */
  get rounds(): InputRounds | undefined { return this.#rounds; }

  /** How its input rounds are made when first needed; only the methods that may answer input_required have them. */
  roundsWhenNeeded(make: () => InputRounds): void { this.#makeRounds = make; }

  /** Its input rounds, made now if not yet (a first ask, or a look at the handler's signal). */
  inputRounds(): InputRounds | undefined {
    return (this.#rounds ??= this.#makeRounds?.());
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    return this.#request.progress(progress, total, message);
  }
}
