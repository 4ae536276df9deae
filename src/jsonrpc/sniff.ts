// What can be told about a message that could not be parsed whole (a line over the size limit,
// or text that is not valid JSON) from its first and last bytes only: its id, and whether it is a
// request or a response. Best effort, for answering it well; never used to handle it.
// Spec: https://www.jsonrpc.org/specification (a request has "method"; a response "result" or "error").

import type { RequestId } from "./id.js";

/** How much of a message's start and end is looked at. */
export const EDGE_BYTES = 512;

/** What the edges of a message show. */
export interface Sniffed {
  id?: RequestId;
  /** "request" when a "method" member shows, "response" when "result" or "error" does first. */
  looksLike?: "request" | "response";
}

const ID_VALUE = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
/**
 * `{"id": 7, ...` or `{"jsonrpc":"2.0","id":7, ...`: the id as the object's first member(s). It must
 * end where the member does: else `1.5`, `1e3` or a 17-digit id would be read as a prefix of itself.
 */
const ID_AT_HEAD = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE + String.raw`\s*[,}]`);
/** `..., "id": 7}`: the id as the object's last member (a nested object would end in "}}"). */
const ID_AT_TAIL = new RegExp(String.raw`[,{]\s*"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`);
/** `..., "method": "x"}` (perhaps followed by id and jsonrpc): the method as a last member. */
const METHOD_AT_TAIL = /"method"\s*:\s*"[^"\\]{0,200}"\s*(?:,\s*"(?:id|jsonrpc)"\s*:\s*(?:-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")\s*)*\}\s*$/;

/**
 * The id, when it stands first or last in the object, as the common serializers put it; and the
 * kind, by this rule: the first top-level "method", "result" or "error" member of the head
 * decides (members nested in params or result do not count); failing that, a "method" member
 * at the very end makes a request. Anything else stays unknown rather than guessed.
 */
export function sniff(head: string, tail: string): Sniffed {
  const sniffed: Sniffed = {};
  const id = readId(ID_AT_HEAD.exec(head) ?? ID_AT_TAIL.exec(tail));
  if (id !== undefined) sniffed.id = id;
  const key = firstKindMember(head) ?? (METHOD_AT_TAIL.test(tail) ? "method" : undefined);
  if (key) sniffed.looksLike = key === "method" ? "request" : "response";
  return sniffed;
}

/** The first of "method", "result", "error" among the top-level member names of a JSON text's start. */
function firstKindMember(head: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const char = head[i];
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    else if (char === '"') {
      const start = i;
      for (i++; i < head.length && head[i] !== '"'; i++) if (head[i] === "\\") i++;
      const name = head.slice(start + 1, i);
      if (depth === 1 && /^\s*:/.test(head.slice(i + 1, i + 8)) && (name === "method" || name === "result" || name === "error")) return name;
    }
  }
  return undefined;
}

/** `sniff` for a whole text that failed to parse. */
export function sniffText(text: string): Sniffed {
  return sniff(text.slice(0, EDGE_BYTES), text.slice(-EDGE_BYTES));
}

function readId(match: RegExpExecArray | null): RequestId | undefined {
  if (!match) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]!);
    return typeof id === "string" || Number.isSafeInteger(id) ? (id as RequestId) : undefined;
  } catch {
    return undefined;
  }
}
