// `record --check`: each line checked as it passes. Over stdio one session; over HTTP the sessions
// of the run told apart as their lines pass, by what record-http.ts knows of each line's exchange
// when it writes it, as check-sessions.ts does for a whole recording: the Mcp-Session-Id, 2026-07-28
// requests apart. An initialize comes before its answer names its session, so the session it begins
// is named once that answer passes (or, from a server that gives none, is the one of the lines
// without a session id from then on). Unlike a whole recording's check, a request the HTTP layer
// refuses is checked, since its status comes after it: a retry of one with its id is reported.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management

import { isObject } from "../jsonrpc/messages.js";
import { SessionChecker } from "./check.js";
import { envelopeVersion, type Finding } from "./check-state.js";
import type { Exchange, WireEntry } from "./recording.js";

/**
 * The sessions checked at once, the longest unused forgotten past it: each keeps what its session
 * said, and a host may open sessions without end. A forgotten one that comes back starts afresh.
 */
export const MAX_LIVE_SESSIONS = 1000;

interface Live {
  checker: SessionChecker;
  /** How findings name the session; undefined over stdio. */
  name?: string;
}

export class LiveSessions {
  readonly #bySession = new Map<string, Live>();
  /** The session an initialize began, by its exchange, until its answer names it. */
  readonly #begun = new WeakMap<Exchange, Live>();
  readonly #modernExchanges = new WeakSet<Exchange>();
  #one: Live | undefined;
  #sessionless: Live | undefined;
  #modern: Live | undefined;
  #index = 0;

  /** The violations of the next line; `exchange`: what its HTTP exchange said so far (record-http.ts keeps it). */
  check(entry: WireEntry, exchange?: Exchange): Finding[] {
    const index = ++this.#index;
    const live = exchange === undefined ? (this.#one ??= { checker: new SessionChecker() }) : this.#sessionOf(entry, exchange, index);
    const findings = live.checker.check(entry, index);
    return live.name === undefined ? findings : findings.map((finding) => ({ ...finding, session: live.name }));
  }

  #sessionOf(entry: WireEntry, exchange: Exchange, index: number): Live {
    if (entry.dir === "c2s" && envelopeVersion(entry.message) === "2026-07-28") this.#modernExchanges.add(exchange);
    if (this.#modernExchanges.has(exchange)) return (this.#modern ??= { checker: httpChecker(), name: "2026-07-28 requests (no session)" });
    const begun = this.#begun.get(exchange);
    if (exchange.session !== undefined) {
      const named = this.#bySession.get(exchange.session) ?? begun ?? { checker: httpChecker() };
      named.name = `session ${exchange.session}`;
      // Set again, it is the newest in the map's order: the first is the longest unused.
      this.#bySession.delete(exchange.session);
      this.#bySession.set(exchange.session, named);
      if (this.#bySession.size > MAX_LIVE_SESSIONS) this.#bySession.delete(this.#bySession.keys().next().value!);
      return named;
    }
    if (begun) {
      // Answered without a session id: the server gives none, and this is the session from now on.
      if (entry.dir === "s2c") {
        begun.name = "messages without a session id";
        this.#sessionless = begun;
      }
      return begun;
    }
    if (entry.dir === "c2s" && isObject(entry.message) && entry.message.method === "initialize") {
      const live = { checker: httpChecker(), name: `the session initialize #${index} begins` };
      this.#begun.set(exchange, live);
      return live;
    }
    return (this.#sessionless ??= { checker: httpChecker(), name: "messages without a session id" });
  }
}

function httpChecker(): SessionChecker {
  return new SessionChecker(undefined, { http: true });
}
