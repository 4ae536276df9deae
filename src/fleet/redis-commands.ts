// The few Redis commands the fleet stores use, typed as node-redis (the `redis` package, v4 and v5)
// names them, so that its client is passed in as it is and mcp-wire depends on no Redis package.
// Another client fits behind a small object with these methods. Replies are read loosely (a string,
// a number or null), since clients differ in how they type them.

/** SET key value NX PX ms: "OK" when set, null when the key existed. */
export interface RedisSetOptions {
  NX: true;
  PX: number;
}

export interface RedisCommands {
  set(key: string, value: string, options: RedisSetOptions): Promise<unknown>;
  get(key: string): Promise<unknown>;
  del(key: string): Promise<unknown>;
  rPush(key: string, value: string): Promise<unknown>;
  lRange(key: string, start: number, stop: number): Promise<unknown>;
  pExpire(key: string, ms: number): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
}

/**
 * A connection in subscriber mode (node-redis: `client.duplicate()`, connected): Redis lets a
 * subscribed connection run no other command, so it cannot be the RedisCommands one.
 */
export interface RedisSubscriber {
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
}

/** Where every key and channel of one fleet starts (default "mcp-wire:"): fleets may share a Redis. */
export const DEFAULT_REDIS_PREFIX = "mcp-wire:";

/** Reports a write nobody awaits (its failure must not go unseen, nor crash the process). */
export function reportFailure(onProblem: ((message: string) => void) | undefined, what: string): (error: unknown) => void {
  return (error) => onProblem?.(`redis: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
}
