// Which generation an McpClient speaks to the server behind one connection: a pinned handshake
// version says it outright; otherwise the server/discover probe (modern/probe.ts) decides, helped by
// what was remembered of the server (modern/era-cache.ts), and what it finds is remembered in turn.
// A verdict stays the connection's: an answer to the probe that comes after its timeout is
// remembered for the next connect() only.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions
// (clients SHOULD cache the era per process or origin, MAY re-probe on failure).

import type { Connection } from "../protocol/connection.js";
import type { Transport } from "../protocol/transport.js";
import { isModernVersion, isSupportedVersion, type ProtocolVersion } from "../mcp/versions.js";
import type { Envelope } from "./modern/envelope.js";
import { EraMemory, type EraCache } from "./modern/era-cache.js";
import { probe, type EraVerdict } from "./modern/probe.js";

export class EraChoice {
  readonly #eras: EraMemory;
  #connection: Connection | undefined;
  /** The current connection's verdict, once chosen; its reason grows when a late answer comes. */
  verdict: EraVerdict | undefined;

  constructor(cache: EraCache) {
    this.#eras = new EraMemory(cache);
  }

  /** A new connection over `transport`: its verdict is yet to be chosen, and remembered under it. */
  attach(transport: Transport): void {
    this.#eras.attach(transport);
    this.#connection = undefined;
    this.verdict = undefined;
  }

  /** The server said it changed (see McpClient): the next connect() probes again. */
  forget(): void {
    this.#eras.forget();
  }

  /**
   * The era of the server behind `connection`: a pinned handshake version without a probe, a
   * remembered handshake verdict (auto only), or what the probe finds, remembered unless reached by
   * a timeout. A remembered modern server is probed all the same: server/discover is the probe, and
   * its result is never kept (era-cache.ts).
   */
  async choose(connection: Connection, mode: "auto" | ProtocolVersion, envelope: Envelope, timeoutMs: number): Promise<EraVerdict> {
    this.#connection = connection;
    if (isSupportedVersion(mode)) return (this.verdict = { era: "handshake", reason: `protocolVersion pinned to ${mode}: initialize, no probe` });
    const remembered = mode === "auto" ? this.#eras.recall() : undefined;
    if (remembered?.era === "handshake") return (this.verdict = { era: "handshake", reason: `${remembered.reason} (remembered)` });
    const onLateVerdict = mode === "auto" ? (late: EraVerdict) => this.#lateVerdict(connection, late) : undefined;
    const verdict = await probe(connection, { envelope, timeoutMs, pinned: isModernVersion(mode) ? mode : undefined, onLateVerdict });
    if (mode === "auto") this.#eras.learn(verdict);
    return (this.verdict = verdict);
  }

  /**
   * The probe timed out, and initialize was then refused as a modern server refuses it (`why`):
   * probes once more on the same connection. The modern verdict, or undefined for any other.
   */
  async reprobe(connection: Connection, envelope: Envelope, timeoutMs: number, why: string): Promise<EraVerdict | undefined> {
    const again = await probe(connection, { envelope, timeoutMs }).catch(() => undefined);
    if (again?.era !== "modern") return undefined;
    this.#eras.learn(again);
    return (this.verdict = { ...again, reason: `${this.verdict?.reason ?? "no probe"}; ${why}: probed again: ${again.reason}` });
  }

  /**
   * The probe's answer came after it timed out and this connection fell back to initialize: it
   * stays so (the handshake is under way or done), but what the answer says is remembered, as it
   * would have been in time, for the next connect(); a modern verdict is probed again anyway.
   */
  #lateVerdict(connection: Connection, late: EraVerdict): void {
    if (connection !== this.#connection) return;
    this.#eras.learn(late);
    const verdict = this.verdict;
    if (verdict?.era === "handshake") this.verdict = { ...verdict, reason: `${verdict.reason}; the probe's answer came late: ${late.reason} (remembered for the next connect)` };
  }
}
