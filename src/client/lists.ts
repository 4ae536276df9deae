// Following nextCursor to the end of a paginated list, and the cache of whole lists that the
// server's list_changed notifications invalidate (in 2026-07-28, the same notifications on the listen).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination

import type { ListName } from "../mcp/methods.js";
import type { Prompt } from "../mcp/prompts.js";
import type { Resource, ResourceTemplate } from "../mcp/resources.js";
import type { Tool } from "../mcp/tools.js";

/** Whole lists by name (ListName in mcp/methods.ts), each kept until the server says it changed. */
export type ListCache = { [L in ListName]?: ListItem<L>[] };
type ListItem<L extends ListName> = { tools: Tool; resources: Resource; resourceTemplates: ResourceTemplate; prompts: Prompt }[L];

/** Whole lists, each kept until the server says it changed; a listing that raced a change is not kept. */
export class Lists {
  readonly #lists: ListCache = {};
  /** Counts list changes, so a listing that raced one is not cached. */
  #generation = 0;

  /** A whole list from the cache, or fetched and cached unless the list changed meanwhile. */
  async cached<K extends keyof ListCache>(key: K, fetch: () => Promise<NonNullable<ListCache[K]>>): Promise<NonNullable<ListCache[K]>> {
    const cached = this.#lists[key];
    if (cached) return cached as NonNullable<ListCache[K]>;
    const generation = this.#generation;
    const fresh = await fetch();
    if (generation === this.#generation) this.#lists[key] = fresh;
    return fresh;
  }

  /** The server said these lists changed. */
  changed(keys: readonly ListName[]): void {
    this.#generation++;
    for (const key of keys) delete this.#lists[key];
  }

  clear(): void {
    this.changed(["tools", "resources", "resourceTemplates", "prompts"]);
  }
}

/** A server that keeps handing out cursors is cut off here rather than followed forever. */
const MAX_PAGES = 10_000;

/** Fetches page after page until a page comes without nextCursor. */
export async function collectPages<K extends keyof ListCache, T>(
  fetchPage: (params: { cursor: string } | undefined) => Promise<{ [P in K]: T[] } & { nextCursor?: string }>,
  key: K,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor === undefined ? undefined : { cursor });
    // The result's reader (mcp/read.ts) has checked that it holds the array.
    items.push(...result[key]);
    // Spec (server/utilities/pagination): cursors are opaque; a missing nextCursor ends the list.
    const next = result.nextCursor;
    if (typeof next !== "string") return items;
    if (seen.has(next)) throw new Error(`${key}: the server sent the cursor ${JSON.stringify(next)} twice; stopping`);
    seen.add(next);
    cursor = next;
  }
  throw new Error(`${key}: more than ${MAX_PAGES} pages; stopping`);
}
