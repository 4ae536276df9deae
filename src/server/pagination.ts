// Splitting the four list results into pages, behind opaque cursors.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
// A cursor encodes which list and where the next page starts. Clients must treat it as opaque;
// we still check every cursor we get back, because a client may send anything.

import { invalidParams } from "../jsonrpc/field-reader.js";
import type { PaginatedRequestParams, PaginatedResult } from "../mcp/base.js";
import { LIST_METHODS, type ListName } from "../mcp/methods.js";


export const DEFAULT_PAGE_SIZE = 50;

/**
 * The result of a list method: one page of `items` under the list's own key (`tools`, ...) and,
 * unless it is the last page, the `nextCursor` that fetches the next one.
 */
export function paginate<K extends ListName, T>(list: K, items: readonly T[], params: PaginatedRequestParams, pageSize: number): PaginatedResult & { [P in K]: T[] } {
  const cursor = params.cursor;
  const start = cursor === undefined ? 0 : readCursor(list, cursor);
  const end = start + pageSize;
  const result: PaginatedResult = { [list]: items.slice(start, end) };
  // Spec (server/utilities/pagination): a missing nextCursor means the end of the results.
  if (end < items.length) result.nextCursor = makeCursor(list, end);
  return result as PaginatedResult & { [P in K]: T[] };
}

function makeCursor(list: ListName, offset: number): string {
  return Buffer.from(JSON.stringify([list, offset])).toString("base64url");
}

function readCursor(list: ListName, cursor: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  const valid =
    Array.isArray(decoded) && decoded.length === 2 && decoded[0] === list &&
    Number.isSafeInteger(decoded[1]) && (decoded[1] as number) >= 0 &&
    makeCursor(list, decoded[1] as number) === cursor;
  // Spec (server/utilities/pagination): an invalid cursor SHOULD get -32602 Invalid params.
  if (!valid) throw invalidParams(LIST_METHODS[list], "cursor", "is not a cursor this server issued for this list");
  // A list that shrank since the cursor was issued simply has no more items.
  return (decoded as [ListName, number])[1];
}
