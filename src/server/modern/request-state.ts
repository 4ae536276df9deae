// The `requestState` of a Multi Round-Trip Request, sealed by the server and opened on the retry.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
// A handler that asks the client something is run again from the start on each retry; the state
// carries the answers of earlier rounds, in ask order, each labelled with the fingerprint of the ask
// it answers, the keys its own round asked under (only those may be answered with it), and how many
// rounds the request has taken. The token is signed (HMAC-SHA256), not encrypted: it holds nothing
// but the client's own answers and a fingerprint of each question, so there is nothing to hide from the
// client, only tampering to detect. Opening a token verifies it; it is used up only by `consume`,
// once the retry it came with has produced an answer (input-rounds.ts).

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { invalidParams, typeName } from "../../jsonrpc/field-reader.js";
import { ErrorCode, isObject, RpcError } from "../../jsonrpc/messages.js";
import { canonicalJson } from "../../schema/json-schema-values.js";
import { ReplayMemory } from "./replay-memory.js";
import type { SharedStateUses } from "../../fleet/stores.js";

/** How long a sealed state may be presented back: long enough for a person to answer a form. */
export const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;
/** The longest token minted or accepted, in bytes (a token is ASCII: one character, one byte). */
export const DEFAULT_MAX_REQUEST_STATE_BYTES = 256 * 1024;
/** How many used tokens are remembered to refuse their replay; when all are live, a new use is refused (replay-memory.ts). */
export const DEFAULT_MAX_REMEMBERED_USES = 100_000;
/** The share of the remembered uses one authenticated principal may hold, by default: one flooding caller fills a tenth. */
export const DEFAULT_PRINCIPAL_SHARE = 0.1;
/** HMAC-SHA256 keys shorter than its output weaken it. */
export const MIN_REQUEST_STATE_KEY_BYTES = 32;

/** One earlier round's answer: `ask` is askFingerprint() of the question, `answer` the client's result. */
export interface StoredAnswer {
  ask: string;
  answer: unknown;
}

export interface RequestStateOptions {
  /** Shared by every process behind one load balancer; default: 32 random bytes per process. */
  key?: string | Uint8Array;
  ttlMs?: number;
  maxStateBytes?: number;
  maxRememberedUses?: number;
  /**
   * How many of them one authenticated principal may hold (default a tenth of maxRememberedUses,
   * rounded up); uses with no principal share the whole memory, nothing telling their callers apart.
   */
  maxRememberedUsesPerPrincipal?: number;
  /**
   * Where the processes sharing `key` record the uses, so that a token accepted by one is refused
   * by all (fleet/stores.ts; RedisStateUses for a fleet). Each process's own memory is kept too.
   */
  sharedUses?: SharedStateUses;
  /** The clock, in ms since the epoch; tests pass their own. */
  now?: () => number;
}

/** What a round seals for the next one. */
export interface SealedRound {
  method: string;
  params: object;
  /** The answers so far, in ask order. */
  answers: StoredAnswer[];
  /** The inputRequests keys this round asked under: the retry's inputResponses are read for these only. */
  asked: string[];
  /** How many input_required answers this request has had, this one included (1 for the first). */
  round: number;
  /**
   * Who the caller is, when the server knows (ServerConnectionOptions.principal: over HTTP, the access
   * token's issuer and subject). Bound like the params: the token opens only for that principal, and
   * a token sealed with none opens only for a caller with none.
   */
  principal?: string;
}

/** A verified token, not yet used up: pass it to `consume` once its retry has produced an answer. */
export interface OpenedState {
  readonly answers: readonly StoredAnswer[];
  readonly asked: ReadonlySet<string>;
  readonly round: number;
  readonly nonce: string;
  readonly expiresAt: number;
  /** Whom it was opened for (the only principal it opens for): its use is counted to them. */
  readonly principal: string | undefined;
}

/**
 * Why `open` or `consume` refused a token (-32602); sent to the client as `error.data.reason`. A
 * valid token refused for want of room to remember its use is -32603 with reason `busy` instead.
 */
export type RequestStateRejection = "malformed" | "too-long" | "forged" | "expired" | "replayed" | "other-request";

/** `seal` could not make a token within the bounds. Local: the caller answers -32602 (input-rounds.ts). */
export class RequestStateTooLargeError extends Error {
  constructor(why: string) {
    super(`requestState: cannot seal: ${why}`);
    this.name = "RequestStateTooLargeError";
  }
}

/** 2: the asked keys, the round count and the principal joined the payload and the binding. */
const VERSION = 2;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Retry fields that change from round to round, and the envelope, which is not the request's content. */
const UNBOUND_PARAMS = new Set(["_meta", "inputResponses", "requestState"]);

export class RequestStateCodec {
  /**
   * The given key, else random bytes drawn on first use: a server that never seals a round never
   * loads node:crypto, which costs a stdio server's start about 3 ms (scripts/bundle.ts).
   */
  #key: Uint8Array | undefined;
  readonly #ttlMs: number;
  readonly #maxStateBytes: number;
  readonly #now: () => number;
  /** The nonces of the tokens used up and not yet expired. */
  readonly #used: ReplayMemory;
  readonly #shared: SharedStateUses | undefined;

  constructor(options: RequestStateOptions = {}) {
    if (options.key !== undefined) {
      const key = typeof options.key === "string" ? Buffer.from(options.key, "utf8") : options.key;
      if (key.byteLength < MIN_REQUEST_STATE_KEY_BYTES) {
        throw new RangeError(`RequestStateCodec: the key must be at least ${MIN_REQUEST_STATE_KEY_BYTES} bytes, got ${key.byteLength}`);
      }
      this.#key = key;
    }
    this.#ttlMs = positive("ttlMs", options.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS);
    this.#maxStateBytes = positive("maxStateBytes", options.maxStateBytes ?? DEFAULT_MAX_REQUEST_STATE_BYTES);
    const remembered = positive("maxRememberedUses", options.maxRememberedUses ?? DEFAULT_MAX_REMEMBERED_USES);
    const perPrincipal = positive("maxRememberedUsesPerPrincipal", options.maxRememberedUsesPerPrincipal ?? Math.ceil(remembered * DEFAULT_PRINCIPAL_SHARE));
    this.#used = new ReplayMemory(remembered, perPrincipal);
    this.#now = options.now ?? Date.now;
    this.#shared = options.sharedUses;
  }

  /** Whether the uses are shared with other processes: a retry then waits for claimShared before it runs. */
  get shared(): boolean {
    return this.#shared !== undefined;
  }

  /**
   * Claims an opened token's use in the shared store, before its handler runs: a claim made by
   * another process (or another retry here) refuses it as replayed. If the run then produces no
   * answer, releaseShared makes it usable again, as consume's wait does for one process. A store
   * that cannot be reached refuses the retry (-32603): accepting it could accept a replay.
   */
  async claimShared(opened: OpenedState, method: string): Promise<void> {
    if (!this.#shared) return;
    let claimed: boolean;
    try {
      claimed = await this.#shared.claim(opened.nonce, opened.expiresAt);
    } catch (error) {
      throw new RpcError(ErrorCode.InternalError, `${method}: "requestState" cannot be checked now: the store of used states is unreachable (${error instanceof Error ? error.message : String(error)}); retry later`, { reason: "busy" });
    }
    if (!claimed) throw refuser(method)("replayed", REPLAYED);
  }

  /** The claimed use produced no answer (cancelled, failed): the token may be presented again. */
  releaseShared(opened: OpenedState): Promise<void> {
    return this.#shared?.release(opened.nonce) ?? Promise.resolve();
  }

  /** The token for a round's `input_required` result; throws RequestStateTooLargeError past the bounds. */
  seal(round: SealedRound): string {
    const binding = bindingOf(round.method, round.params, round.principal);
    if (binding === undefined) throw new RequestStateTooLargeError("the params nest too deeply to be bound");
    const payload = {
      v: VERSION, b: binding, e: this.#now() + this.#ttlMs, n: randomBytes(16).toString("base64url"),
      r: round.round, k: round.asked, a: round.answers,
    };
    const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
    const token = `${body}.${this.#mac(body)}`;
    if (token.length > this.#maxStateBytes) {
      throw new RequestStateTooLargeError(`the state is ${token.length} bytes, over the ${this.#maxStateBytes}-byte limit`);
    }
    return token;
  }

  /**
   * What a retry's `requestState` carries, verified but not used up (see `consume`), or an RpcError
   * -32602 with `data.reason`. Cheap checks come first, so a huge or forged token costs no decoding.
   * A valid token that could not be remembered as used is refused here, before its handler runs
   * (-32603 `busy`, see #refuseIfFull).
   */
  open(token: unknown, method: string, params: object, principal?: string): OpenedState {
    const refuse = refuser(method);
    if (typeof token !== "string") throw refuse("malformed", `must be a string, got ${typeName(token)}`);
    if (token.length > this.#maxStateBytes) {
      throw refuse("too-long", `is ${token.length} bytes long, over the ${this.#maxStateBytes}-byte limit`);
    }
    if (!TOKEN_SHAPE.test(token)) throw refuse("malformed", "is not a requestState this server issued");
    const [body = "", mac = ""] = token.split(".");
    // Spec (basic/patterns/mrtr#server-requirements-basic-workflow): requestState is attacker-controlled; reject state that fails verification.
    if (!this.#verify(body, mac)) throw refuse("forged", "failed its integrity check (altered, or issued under another key)");
    const payload = decode(body);
    if (payload === undefined) throw refuse("malformed", "is signed but unreadable (another version of this server?)");
    // Spec (basic/patterns/mrtr#server-requirements-basic-workflow): bind method, params and expiry into the state; reject a mismatch.
    if (payload.binding !== bindingOf(method, params, principal)) {
      throw refuse("other-request", "was issued for another request (a different method, different params or another caller)");
    }
    const now = this.#now();
    if (now >= payload.expiresAt) throw refuse("expired", `expired ${Math.ceil((now - payload.expiresAt) / 1000)} s ago; start the request again`);
    if (this.#used.has(payload.nonce, principal)) throw refuse("replayed", REPLAYED);
    this.#refuseIfFull(method, now, principal);
    return { ...payload, principal };
  }

  /**
   * Uses up an opened token, once the retry it came with has produced an answer: until then a bad
   * answer, a cancel or a dropped stream leaves it usable. Throws -32602 `replayed` if another
   * retry with the same token used it up first (two sent at once both open), and -32603 `busy` if
   * the memory filled up since it was opened (retries racing for its last room): that answer is
   * not sent, and the token stays usable, as after a cancel.
   */
  consume(opened: OpenedState, method: string): void {
    // Spec (basic/patterns/mrtr#server-requirements-basic-workflow): single use is enforced server-side.
    if (this.#used.has(opened.nonce, opened.principal)) throw refuser(method)("replayed", REPLAYED);
    this.#refuseIfFull(method, this.#now(), opened.principal);
    this.#used.add(opened.nonce, opened.expiresAt, opened.principal);
  }

  /**
   * Refuses a use that the replay memory has no room to remember (in all, or in the principal's
   * share): forgetting a live entry instead would let that token be used again. The error is -32603
   * (the server's own limit, as for maxListens), not -32602: the state is valid, and the same retry
   * succeeds once a remembered token that bound counts expires, not sooner than `retryAfterSeconds`.
   * The memory is per process: processes that share a key behind a load balancer share the uses
   * only through `sharedUses` (claimShared); without it a token may be used once on each.
   */
  #refuseIfFull(method: string, now: number, principal: string | undefined): void {
    const full = this.#used.noRoom(now, principal);
    if (!full) return;
    const { limit } = full;
    const retryAfterSeconds = Math.ceil(full.waitMs / 1000);
    const whose = full.perPrincipal ? " of this caller's, the most one caller may have" : "";
    throw new RpcError(ErrorCode.InternalError,
      `${method}: "requestState" cannot be accepted now: the server remembers ${limit} used states${whose}, none expired yet, to refuse their replay; retry in ${retryAfterSeconds} s`,
      { reason: "busy", limit, retryAfterSeconds });
  }

  #mac(body: string): string {
    this.#key ??= randomBytes(MIN_REQUEST_STATE_KEY_BYTES);
    return createHmac("sha256", this.#key).update(body).digest("base64url");
  }

  /** Compares the encoded texts, so that two spellings of one MAC (loose base64 padding bits) are not both accepted. */
  #verify(body: string, mac: string): boolean {
    const expected = Buffer.from(this.#mac(body), "ascii");
    const given = Buffer.from(mac, "ascii");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** A short label of what a handler asked (method and params), to tell on replay whether it asks the same. */
export function askFingerprint(method: string, params: unknown): string {
  const text = canonicalJson([method, params ?? {}]);
  if (text === undefined) throw new RequestStateTooLargeError(`the params of ${method} nest too deeply to be fingerprinted`);
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

const REPLAYED = "was already used; each requestState is accepted once";

function refuser(method: string): (reason: RequestStateRejection, problem: string) => RpcError {
  return (reason, problem) => invalidParams(method, "requestState", problem, { reason });
}

/**
 * What a token is bound to: a digest of the method, of the params without the retry fields and the
 * envelope, and of the caller's identity if known, in canonical JSON (sorted keys), so
 * re-serialising in another key order still matches. Undefined for params nested deeper than
 * canonicalJson reads; seal never binds such params.
 */
function bindingOf(method: string, params: object, principal: string | undefined): string | undefined {
  const bound = Object.fromEntries(Object.entries(params).filter(([name]) => !UNBOUND_PARAMS.has(name)));
  const text = canonicalJson([method, bound, principal ?? null]);
  return text === undefined ? undefined : createHash("sha256").update(text).digest("base64url");
}

/** The payload of a verified token; undefined if it is not one this version wrote. */
function decode(body: string): (Omit<OpenedState, "principal"> & { binding: string }) | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.v !== VERSION || !Array.isArray(value.a) || !Array.isArray(value.k)) return undefined;
  const { b: binding, e: expiresAt, n: nonce, r: round } = value;
  if (typeof binding !== "string" || typeof expiresAt !== "number" || typeof nonce !== "string") return undefined;
  if (typeof round !== "number" || !Number.isSafeInteger(round) || round < 1) return undefined;
  const asked = new Set<string>();
  for (const key of value.k) {
    if (typeof key !== "string") return undefined;
    asked.add(key);
  }
  const answers: StoredAnswer[] = [];
  for (const item of value.a) {
    if (!isObject(item) || typeof item.ask !== "string") return undefined;
    answers.push({ ask: item.ask, answer: item.answer });
  }
  return { binding, expiresAt, nonce, round, asked, answers };
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`RequestStateCodec: ${name} must be a positive integer, got ${value}`);
  return value;
}
