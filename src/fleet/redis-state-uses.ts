// The requestState uses of a fleet in Redis: one key per used token, set only if absent (SET NX)
// and expiring when the token does (PX), so Redis holds nothing past a token's life and its own
// memory bound (maxmemory) is the only one. A token is one the server sealed, under the fleet's
// key, so each key stands for an input round the fleet itself answered.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow

import type { SharedStateUses } from "./stores.js";
import { DEFAULT_REDIS_PREFIX, type RedisCommands } from "./redis-commands.js";

export class RedisStateUses implements SharedStateUses {
  readonly #redis: RedisCommands;
  readonly #prefix: string;
  readonly #now: () => number;

  constructor(redis: RedisCommands, options: { prefix?: string; now?: () => number } = {}) {
    this.#redis = redis;
    this.#prefix = `${options.prefix ?? DEFAULT_REDIS_PREFIX}state-use:`;
    this.#now = options.now ?? Date.now;
  }

  async claim(nonce: string, expiresAt: number): Promise<boolean> {
    // An expired token is refused before it gets here; the floor keeps PX valid all the same.
    const ms = Math.max(1, Math.ceil(expiresAt - this.#now()));
    return (await this.#redis.set(this.#prefix + nonce, "1", { NX: true, PX: ms })) !== null;
  }

  async release(nonce: string): Promise<void> {
    await this.#redis.del(this.#prefix + nonce);
  }
}
