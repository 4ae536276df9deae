// Following nextCursor to the end of a paginated list, and the cache of whole lists that the
// server's list_changed notifications invalidate (in 2026-07-28, the same notifications on the listen).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination

import { LIST_METHODS, type ListName } from "../mcp/methods.js";
import type { Prompt } from "../mcp/prompts.js";
import type { Resource, ResourceTemplate } from "../mcp/resources.js";
import type { Tool } from "../mcp/tools.js";
import { ListingTooLargeError } from "./errors.js";

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

/**
 * How much one listing (every page of one list, followed to its end) may add up to. Each page is
 * bounded by the transport's message size; these bound them all together, since a server may hand
 * out cursors for ever, and the manager lists again on every list_changed.
 */
export interface ListingLimits {
  /** Items in all (default 10,000). */
  maxItems: number;
  /** Bytes in all: the items as JSON, plus the cursors kept to spot a loop (default 32 MiB). */
  maxBytes: number;
  /** Pages in all (default 10,000): empty pages with short cursors add up to little else. */
  maxPages: number;
}

export const DEFAULT_LISTING_LIMITS: ListingLimits = { maxItems: 10_000, maxBytes: 32 * 1024 * 1024, maxPages: 10_000 };

/** Fetches page after page until a page comes without nextCursor, within `limits`. */
export async function collectPages<K extends keyof ListCache, T>(
  fetchPage: (params: { cursor: string } | undefined) => Promise<{ [P in K]: T[] } & { nextCursor?: string }>,
  key: K,
  limits: Partial<ListingLimits> = {},
): Promise<T[]> {
  const { maxItems, maxBytes, maxPages } = { ...DEFAULT_LISTING_LIMITS, ...limits };
  const method = LIST_METHODS[key];
  const items: T[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await fetchPage(cursor === undefined ? undefined : { cursor });
    // The result's reader (mcp/read.ts) has checked that it holds the array.
    const pageItems = result[key];
    // Checked before the page is kept: past a bound, nothing more is held.
    if (items.length + pageItems.length > maxItems) throw new ListingTooLargeError(method, `more than ${maxItems} items`, page);
    bytes += Buffer.byteLength(JSON.stringify(pageItems));
    // Spec (server/utilities/pagination): cursors are opaque; a missing nextCursor ends the list.
    const next = result.nextCursor;
    if (typeof next === "string") bytes += Buffer.byteLength(next);
    if (bytes > maxBytes) throw new ListingTooLargeError(method, `more than ${maxBytes} bytes`, page);
    items.push(...pageItems);
    if (typeof next !== "string") return items;
    if (seen.has(next)) throw new Error(`${method}: the server sent the cursor ${JSON.stringify(next.slice(0, 100))} a second time (page ${page}); stopping`);
    if (page >= maxPages) throw new ListingTooLargeError(method, `more than ${maxPages} pages`, page);
    seen.add(next);
    cursor = next;
  }
}
