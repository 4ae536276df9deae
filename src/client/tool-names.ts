// The names under which a multi-server manager exposes its servers' tools to a model, and the
// table from those names back to (server, tool). Not an MCP rule: LLM function-calling APIs accept
// only names matching ^[a-zA-Z0-9_-]{1,64}$, while MCP allows 1-128 characters including "."
// (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names).

import { createHash } from "node:crypto";
import type { Tool } from "../mcp/tools.js";

/** What OpenAI and Anthropic accept as a function/tool name. */
export const EXPOSED_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const MAX_EXPOSED_NAME_LENGTH = 64;
/** Between the server's name and the tool's in a default exposed name. */
export const SEPARATOR = "__";
/** Hex digits of SHA-256 kept when a name is shortened. */
const HASH_LENGTH = 8;

/**
 * The rule, in two steps:
 * 1. Every character (code point) outside `a-z A-Z 0-9 _ -` becomes one `_`: "a.b c" -> "a_b_c",
 *    "héllo" -> "h_llo". An empty name becomes "_".
 * 2. A result longer than 64 characters keeps its first 55 characters, then `_`, then the first 8
 *    hex digits of the SHA-256 of the whole step-1 result. Two long names that differ anywhere
 *    (even past character 55) so stay distinct, and the same input always gives the same name.
 * Step 1 can map two different names to one ("a.b", "a_b"); the table below detects that.
 */
export function toExposedName(name: string): string {
  const sanitized = [...name].map((char) => (/^[a-zA-Z0-9_-]$/.test(char) ? char : "_")).join("") || "_";
  if (sanitized.length <= MAX_EXPOSED_NAME_LENGTH) return sanitized;
  const hash = createHash("sha256").update(sanitized).digest("hex").slice(0, HASH_LENGTH);
  return `${sanitized.slice(0, MAX_EXPOSED_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/** `<server>__<tool>`, before sanitizing; what a rename mapper gets as its default. */
export function defaultExposedName(server: string, tool: string): string {
  return `${server}${SEPARATOR}${tool}`;
}

/** One tool as a model sees it: its exposed name, where it lives, and the server's definition. */
export interface ExposedTool {
  /** The name to give the model; matches EXPOSED_NAME_PATTERN. */
  name: string;
  /** The server's name in the manager's configuration. */
  server: string;
  /** The tool exactly as the server listed it (`tool.name` is what tools/call sends). */
  tool: Tool;
}

/** Two or more tools that came out under one exposed name; none of them is exposed. */
export interface Collision {
  exposedName: string;
  sources: { server: string; tool: string }[];
}

/**
 * Builds the exposed-name table from candidates (already filtered, with their unsanitized
 * names). A name claimed twice is withheld entirely: exposing either tool would make the model's
 * call land on a tool it may not have meant.
 */
export function buildToolTable(candidates: { server: string; tool: Tool; name: string }[]): {
  tools: Map<string, ExposedTool>;
  collisions: Collision[];
} {
  const claims = new Map<string, ExposedTool[]>();
  for (const candidate of candidates) {
    const name = toExposedName(candidate.name);
    const entry: ExposedTool = { name, server: candidate.server, tool: candidate.tool };
    const list = claims.get(name);
    if (list) list.push(entry);
    else claims.set(name, [entry]);
  }
  const tools = new Map<string, ExposedTool>();
  const collisions: Collision[] = [];
  for (const [name, entries] of claims) {
    if (entries.length === 1) tools.set(name, entries[0]!);
    else collisions.push({ exposedName: name, sources: entries.map((e) => ({ server: e.server, tool: e.tool.name })) });
  }
  return { tools, collisions };
}

/**
 * Up to `limit` names from `candidates` that look like `name`: the same tool under another
 * server (`x__name`), or within a small edit distance. Closest first.
 */
export function closeMatches(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const wanted = name.toLowerCase();
  const allowed = Math.max(2, Math.floor(wanted.length / 4));
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const tail = lower.slice(lower.lastIndexOf(SEPARATOR) + SEPARATOR.length);
    const score = Math.min(editDistance(wanted, lower), tail === wanted ? 1 : Infinity);
    if (score <= allowed) scored.push({ candidate, score });
  }
  scored.sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map((s) => s.candidate);
}

/** Levenshtein distance, one row at a time; names are short, so this stays cheap. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
