// Comparing one message the server sent with the one a recording expected (mcp-wire replay): a
// walk over both JSON values that reports each place they differ by its JSON pointer (RFC 6901),
// skipping the places that change from run to run.
// Ignored: the pointers given ("*" stands for any one step, and a pointer covers all below it), the
// DEFAULT_IGNORE set, and any two strings that are both ISO 8601 timestamps (get_time's text, a
// log's time). Object keys compare as sets; order inside arrays counts.

import { printable } from "./recording.js";

/** Values that change from run to run in every session, ignored unless the caller asks otherwise. */
export const DEFAULT_IGNORE: readonly string[] = [
  // 2026-07-28: the server's sealed state for an input_required round; sealed afresh on each run.
  "/result/requestState",
];

/** One place where two messages differ. `undefined` stands for "absent". */
export interface Difference {
  /** The JSON pointer of the place, "" for the whole message. */
  path: string;
  expected: unknown;
  actual: unknown;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Where `actual` differs from `expected`, outside the ignored places. */
export function compareValues(expected: unknown, actual: unknown, ignore: readonly string[] = DEFAULT_IGNORE): Difference[] {
  const patterns = ignore.map(splitPointer);
  const differences: Difference[] = [];
  const walk = (want: unknown, got: unknown, steps: string[]): void => {
    if (patterns.some((pattern) => covers(pattern, steps))) return;
    if (isObject(want) && isObject(got)) {
      for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) walk(want[key], got[key], [...steps, key]);
      return;
    }
    if (Array.isArray(want) && Array.isArray(got)) {
      for (let i = 0; i < Math.max(want.length, got.length); i++) walk(want[i], got[i], [...steps, String(i)]);
      return;
    }
    if (typeof want === "string" && typeof got === "string" && ISO_TIME.test(want) && ISO_TIME.test(got)) return;
    if (want !== got) differences.push({ path: joinPointer(steps), expected: want, actual: got });
  };
  walk(expected, actual, []);
  return differences;
}

/** Whether two values are the same outside the ignored places. */
export function sameValue(expected: unknown, actual: unknown, ignore: readonly string[] = DEFAULT_IGNORE): boolean {
  return compareValues(expected, actual, ignore).length === 0;
}

/** A difference as two readable lines: the path, what was expected, what came. */
export function formatDifference(difference: Difference): string {
  return `  at ${difference.path === "" ? "(the whole message)" : printable(difference.path)}\n    expected: ${show(difference.expected)}\n    actual:   ${show(difference.actual)}`;
}

function show(value: unknown): string {
  return value === undefined ? "(absent)" : shorten(JSON.stringify(value));
}

const SHOWN_CHARS = 300;

/**
 * A long text cut to what a report line can show, saying how long it was; made printable, since it
 * comes from a recording or a server (an escape sequence or a bidi override would change the report).
 */
export function shorten(text: string): string {
  return printable(text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}... (${text.length} characters)` : text);
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function covers(pattern: string[], steps: string[]): boolean {
  return pattern.length <= steps.length && pattern.every((step, i) => step === "*" || step === steps[i]);
}

/** RFC 6901: "/a/b~1c" is ["a", "b/c"]; "" is the whole document. */
export function splitPointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((step) => step.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function joinPointer(steps: string[]): string {
  return steps.map((step) => "/" + step.replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}
