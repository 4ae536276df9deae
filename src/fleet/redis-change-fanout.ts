// List changes between the processes of a fleet over Redis PUBLISH/SUBSCRIBE on one channel. Pub/sub
// keeps nothing: a process that is not subscribed when a change is published never hears of it, as
// a client whose listen was not open never would. Messages come from our own processes, but are
// read as untrusted all the same (a shared Redis is someone else's too): anything else is dropped.

import { isObject } from "../jsonrpc/messages.js";
import type { ChangingList } from "../mcp/methods.js";
import type { CatalogChange, ChangeFanout } from "./stores.js";
import { DEFAULT_REDIS_PREFIX, reportFailure, type RedisCommands, type RedisSubscriber } from "./redis-commands.js";

const LISTS: readonly ChangingList[] = ["tools", "prompts", "resources"];
/** Longer messages are not ours (a resource URI is bounded by the catalog's maxUriLength, 2048 by default). */
const MAX_MESSAGE_CHARS = 16 * 1024;

export class RedisChangeFanout implements ChangeFanout {
  readonly #redis: RedisCommands;
  readonly #subscriber: RedisSubscriber;
  readonly #channel: string;
  readonly #onProblem: ((message: string) => void) | undefined;
  readonly #listeners = new Set<(origin: string, change: CatalogChange) => void>();
  #subscribed: Promise<unknown> | undefined;
  /** The last UNSUBSCRIBE, until it is answered. */
  #unsubscribing: Promise<unknown> = Promise.resolve();

  constructor(redis: RedisCommands, subscriber: RedisSubscriber, options: { prefix?: string; onProblem?: (message: string) => void } = {}) {
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#channel = `${options.prefix ?? DEFAULT_REDIS_PREFIX}changes`;
    this.#onProblem = options.onProblem;
  }

  /** Resolves once the subscription is in place: changes published before then are not heard. */
  get ready(): Promise<unknown> {
    return this.#subscribed ?? Promise.resolve();
  }

  publish(origin: string, change: CatalogChange): void {
    this.#redis.publish(this.#channel, JSON.stringify({ origin, ...change })).catch(reportFailure(this.#onProblem, "publishing a list change"));
  }

  subscribe(listener: (origin: string, change: CatalogChange) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#subscribed) {
      // A SUBSCRIBE sent while the last UNSUBSCRIBE is unanswered is undone by it (node-redis then
      // holds no subscription, and says nothing): a new first listener waits for it.
      this.#subscribed = this.#unsubscribing.then(() => this.#subscriber.subscribe(this.#channel, (message) => this.#deliver(message)));
      this.#subscribed.catch(reportFailure(this.#onProblem, "subscribing to list changes"));
    }
    return () => {
      if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
      const subscribed = this.#subscribed;
      this.#subscribed = undefined;
      this.#unsubscribing = (async () => {
        await subscribed?.catch(() => {});
        await this.#subscriber.unsubscribe(this.#channel);
      })().catch(reportFailure(this.#onProblem, "unsubscribing from list changes"));
    };
  }

  #deliver(message: string): void {
    const read = message.length <= MAX_MESSAGE_CHARS ? readChange(message) : undefined;
    if (!read) return this.#onProblem?.(`redis: dropped a message on ${this.#channel} that is not a list change`);
    for (const listener of this.#listeners) listener(read.origin, read.change);
  }
}

function readChange(message: string): { origin: string; change: CatalogChange } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const { origin, list, resourceUpdated } = value;
  if (typeof origin !== "string") return undefined;
  const known = LISTS.find((name) => name === list);
  if (known) return { origin, change: { list: known } };
  if (typeof resourceUpdated === "string") return { origin, change: { resourceUpdated } };
  return undefined;
}
