// RFC 6570 URI Templates for MCP resource templates: expansion (levels 1-4) and the reverse,
// matching a concrete URI to recover its variables on resources/read.
// https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
// https://www.rfc-editor.org/rfc/rfc6570 — values are strings or lists; associative arrays are
// not supported. See uri-template-match.ts for which URIs match() can take apart.

import { TemplateMatcher, type Variables } from "./uri-template-match.js";
import { type Expression, type Part, type VarSpec, UriTemplateError, encode, parseTemplate } from "./uri-template-syntax.js";

export { UriTemplateError };

export class UriTemplate {
  readonly template: string;
  readonly #parts: readonly Part[];
  readonly #matcher: TemplateMatcher;

  /** Parses `template`; throws UriTemplateError if it is malformed. */
  constructor(template: string) {
    this.template = template;
    this.#parts = parseTemplate(template);
    this.#matcher = new TemplateMatcher(this.#parts);
  }

  /** The variable names in order of first appearance. */
  variableNames(): string[] {
    const names = new Set<string>();
    for (const part of this.#parts) if (typeof part !== "string") for (const spec of part.variables) names.add(spec.name);
    return [...names];
  }

  /** RFC 6570 §3: the URI the template describes for these values. */
  expand(variables: Record<string, string | string[] | undefined>): string {
    let out = "";
    for (const part of this.#parts) out += typeof part === "string" ? part : expandExpression(part, variables);
    return out;
  }

  /** The variables that expand to exactly `uri`, percent-decoded; undefined when it does not match. */
  match(uri: string): Variables | undefined {
    return this.#matcher.match(uri);
  }

  toString(): string {
    return this.template;
  }
}

function expandExpression(expression: Expression, variables: Record<string, string | string[] | undefined>): string {
  const pieces: string[] = [];
  for (const spec of expression.variables) {
    // Object.hasOwn: a variable called "constructor" must not find Object.prototype.constructor.
    const value = Object.hasOwn(variables, spec.name) ? variables[spec.name] : undefined;
    // RFC 6570 §2.3: undefined variables and empty lists are skipped, separators and all.
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    pieces.push(expandVariable(expression, spec, value));
  }
  return pieces.length === 0 ? "" : expression.operator.first + pieces.join(expression.operator.separator);
}

function expandVariable({ operator }: Expression, spec: VarSpec, value: string | string[]): string {
  const named = (text: string) => (text === "" ? spec.name + operator.ifEmpty : `${spec.name}=${text}`);
  if (typeof value === "string") {
    const text = encode(spec.prefix === undefined ? value : firstCodePoints(value, spec.prefix), operator.allowReserved);
    return operator.named ? named(text) : text;
  }
  // RFC 6570 §2.4.1: a prefix does not apply to lists.
  const items = value.map((item) => encode(item, operator.allowReserved));
  if (!spec.explode) return operator.named ? `${spec.name}=${items.join(",")}` : items.join(",");
  return operator.named ? items.map(named).join(operator.separator) : items.join(operator.separator);
}

/** The first `count` characters, counted in code points so an emoji is never cut in half. */
function firstCodePoints(value: string, count: number): string {
  let end = 0;
  for (let taken = 0; taken < count && end < value.length; taken++) end += value.codePointAt(end)! > 0xffff ? 2 : 1;
  return value.slice(0, end);
}
