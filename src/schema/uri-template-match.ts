// Matching a concrete URI against an RFC 6570 template and recovering the variables, as a server
// does on resources/read (https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates).
// One left-to-right pass with no backtracking and no regular expression over the URI, so even a
// 100 KB near-miss costs time linear in its length. The price: when a split is ambiguous the
// first plausible one is taken, and two expressions with nothing between them cannot both match.

import type { Expression, Part } from "./uri-template-syntax.js";

export type Variables = Record<string, string | string[]>;

export class TemplateMatcher {
  readonly #parts: readonly Part[];
  /** For each expression, the characters its expanded text can never contain. */
  readonly #stops: ReadonlyMap<number, ReadonlySet<string>>;

  constructor(parts: readonly Part[]) {
    this.#parts = mergeQueries(parts);
    this.#stops = new Map(this.#parts.map((part, i) => [i, typeof part === "string" ? new Set<string>() : stopsFor(part, this.#parts[i + 1])]));
  }

  match(uri: string): Variables | undefined {
    const found = new Map<string, string | string[]>();
    let pos = 0;
    for (let i = 0; i < this.#parts.length; i++) {
      const part = this.#parts[i]!;
      if (typeof part === "string") {
        if (!uri.startsWith(part, pos)) return undefined;
        pos += part.length;
        continue;
      }
      const end = this.#regionEnd(i, uri, pos);
      if (end === undefined || !readExpression(part, uri.slice(pos, end), found)) return undefined;
      pos = end;
    }
    // Anchored: the whole URI must be used up. Object.fromEntries keeps a "__proto__" variable an own property.
    return pos === uri.length ? Object.fromEntries(found) : undefined;
  }

  /** Where the text of expression `index`, starting at `pos`, ends. */
  #regionEnd(index: number, uri: string, pos: number): number | undefined {
    const { operator } = this.#parts[index] as Expression;
    const next = this.#parts[index + 1];
    // A prefixed expression whose operator character is absent expanded to nothing.
    if (operator.first !== "" && !uri.startsWith(operator.first, pos)) return pos;
    const start = pos + operator.first.length;
    const stops = this.#stops.get(index)!;
    let runEnd = start;
    while (runEnd < uri.length && !stops.has(uri[runEnd]!)) runEnd++;
    const fits = (end: number) => end === pos || (end >= start && end <= runEnd);
    if (typeof next !== "string") return runEnd;
    if (index + 1 === this.#parts.length - 1) {
      // The final literal must end the URI, so the expression takes everything before it.
      const end = uri.length - next.length;
      return end >= pos && uri.endsWith(next) && fits(end) ? end : undefined;
    }
    // Otherwise stop at the literal's first occurrence, which is the one answer a regex's
    // backtracking would also try first; we just never try the others.
    const found = uri.indexOf(next, pos + 1);
    if (found !== -1 && fits(found)) return found;
    return operator.first !== "" && uri.startsWith(next, pos) ? pos : undefined;
  }
}

/** {?a}{&b} expands to "?a=1&b=2" whose parameters may come in any order: read them as one. */
function mergeQueries(parts: readonly Part[]): Part[] {
  const isQuery = (part: Part | undefined): part is Expression =>
    typeof part === "object" && (part.operator.symbol === "?" || part.operator.symbol === "&");
  const merged: Part[] = [];
  for (const part of parts) {
    const previous = merged[merged.length - 1];
    if (isQuery(previous) && isQuery(part)) {
      merged[merged.length - 1] = { operator: previous.operator, variables: [...previous.variables, ...part.variables] };
    } else {
      merged.push(part);
    }
  }
  return merged;
}

function stopsFor(expression: Expression, next: Part | undefined): Set<string> {
  const { symbol } = expression.operator;
  const stops = new Set<string>();
  const single = expression.variables.length === 1 && !expression.variables[0]!.explode;
  // Values are percent-encoded, so these characters can only belong to what follows.
  if (symbol === "" || symbol === "." || symbol === ";" || (symbol === "/" && single)) stops.add("/");
  if (symbol === "" || symbol === "." || symbol === "/" || symbol === ";") stops.add("?");
  if (symbol !== "+" && symbol !== "#") stops.add("#");
  // {+path} may hold any reserved character; a following {?q} or {.ext} still claims its own.
  if (typeof next === "object" && next.operator.first !== "") stops.add(next.operator.first);
  return stops;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined; // a malformed %-escape means this URI is not one the template produces
  }
}

/** Records `value` for `name`; a variable used twice ({/who,who}) must have one value. */
function record(found: Map<string, string | string[]>, name: string, value: string | string[]): boolean {
  const earlier = found.get(name);
  if (earlier === undefined) found.set(name, value);
  return earlier === undefined || JSON.stringify(earlier) === JSON.stringify(value);
}

function readExpression(expression: Expression, region: string, found: Map<string, string | string[]>): boolean {
  const { operator, variables } = expression;
  // {var} and {+var} have no operator character to tell "absent" apart, so they need text.
  if (region === "") return operator.first !== "";
  const text = region.slice(operator.first.length);
  if (operator.named) return readNamed(expression, text, found);
  if (variables.length === 1 && !variables[0]!.explode) {
    const value = decode(text);
    return value !== undefined && record(found, variables[0]!.name, value);
  }
  const items = text.split(operator.separator);
  let index = 0;
  for (let k = 0; k < variables.length && index < items.length; k++) {
    const spec = variables[k]!;
    // An exploded list takes every item the variables after it do not need.
    const take = spec.explode ? Math.max(1, items.length - index - (variables.length - k - 1)) : 1;
    const values = items.slice(index, index + take).map(decode);
    index += take;
    if (values.includes(undefined)) return false;
    if (!record(found, spec.name, spec.explode ? (values as string[]) : values[0]!)) return false;
  }
  return index === items.length;
}

/** ";x=1;y" or "?a=1&b=2": name=value items in any order; names the template lacks are ignored. */
function readNamed(expression: Expression, text: string, found: Map<string, string | string[]>): boolean {
  const specs = new Map(expression.variables.map((spec) => [spec.name, spec]));
  const lists = new Map<string, string[]>();
  for (const item of text.split(expression.operator.separator)) {
    const equals = item.indexOf("=");
    const spec = specs.get(equals === -1 ? item : item.slice(0, equals));
    if (spec === undefined) continue;
    const value = decode(equals === -1 ? "" : item.slice(equals + 1));
    if (value === undefined) return false;
    if (spec.explode) lists.set(spec.name, [...(lists.get(spec.name) ?? []), value]);
    else if (!record(found, spec.name, value)) return false;
  }
  for (const [name, values] of lists) if (!record(found, name, values)) return false;
  return true;
}
