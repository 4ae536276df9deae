// "did you mean": the names nearest a mistyped one (a command, a flag, a tool, a server of a config
// file), by edit distance. One helper, so that every usage error suggests the same way.

/** Names longer than this are compared whole, not letter by letter: nobody mistypes 200 letters. */
const LONGEST_COMPARED = 64;

/**
 * The optimal-string-alignment distance (Levenshtein's insertions, deletions and substitutions,
 * plus Damerau's swap of two neighbours, each costing 1) between `a` and `b`, or `bound + 1` once
 * it is sure to exceed `bound`. Two rows of the table, each cut off once all its cells pass the bound.
 */
export function editDistance(a: string, b: string, bound: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  if (a.length > LONGEST_COMPARED || b.length > LONGEST_COMPARED) return bound + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let smallest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let cell = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cell = Math.min(cell, before[j - 2] + 1);
      current.push(cell);
      smallest = Math.min(smallest, cell);
    }
    if (smallest > bound) return bound + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length], bound + 1);
}

/**
 * The candidates near enough to `word` to be what was meant, nearest first (ties in the order
 * given), at most `most`. Near enough: a third of the word's letters wrong (its leading dashes
 * not counted), at least one.
 */
export function closest(word: string, candidates: Iterable<string>, most = 3): string[] {
  const bound = Math.max(1, Math.floor(word.replace(/^-+/, "").length / 3));
  const near: { name: string; distance: number }[] = [];
  for (const name of candidates) {
    const distance = editDistance(word, name, bound);
    if (distance <= bound && distance > 0) near.push({ name, distance });
  }
  return near.sort((x, y) => x.distance - y.distance).slice(0, most).map((found) => found.name);
}

/** `did you mean "x"?`, or `""` when nothing is near; `quote: false` for flags, which need no quotes. */
export function meant(word: string, candidates: Iterable<string>, quote = true): string {
  const names = closest(word, candidates).map((name) => (quote ? JSON.stringify(name) : name));
  if (names.length === 0) return "";
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
  return `did you mean ${listed}?`;
}

/** ` (did you mean "x"?)`, to end an error's line with, or `""`. */
export function didYouMean(word: string, candidates: Iterable<string>, quote = true): string {
  const question = meant(word, candidates, quote);
  return question === "" ? "" : ` (${question})`;
}
