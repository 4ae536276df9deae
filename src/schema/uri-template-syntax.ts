// RFC 6570 URI Template syntax (https://www.rfc-editor.org/rfc/rfc6570 §2, §3.2.1, Appendix A):
// splitting a template into literals and expressions, the operator table, and percent-encoding.
// Levels 1-4, except that a variable's value is a string or a list; the associative-array form
// (key/value pairs) is left out because MCP resource templates never need it.

export class UriTemplateError extends Error {
  override readonly name = "UriTemplateError";
}

/** One row of RFC 6570 Appendix A: how an operator lays out an expression's expansion. */
export interface Operator {
  /** The character after "{": "" for simple expansion, or one of + # . / ; ? & */
  readonly symbol: string;
  /** Written before the first defined variable. */
  readonly first: string;
  /** Written between defined variables, and between the items of an exploded list. */
  readonly separator: string;
  /** Whether values are written as name=value (";", "?", "&"). */
  readonly named: boolean;
  /** What follows a name whose value is empty: ";x" but "?x=". */
  readonly ifEmpty: string;
  /** Whether reserved characters and %XX triplets pass through unencoded ("+" and "#"). */
  readonly allowReserved: boolean;
}

function operator(symbol: string, first: string, separator: string, named: boolean, ifEmpty: string, allowReserved: boolean): Operator {
  return { symbol, first, separator, named, ifEmpty, allowReserved };
}

const OPERATORS: ReadonlyMap<string, Operator> = new Map([
  ["", operator("", "", ",", false, "", false)],
  ["+", operator("+", "", ",", false, "", true)],
  ["#", operator("#", "#", ",", false, "", true)],
  [".", operator(".", ".", ".", false, "", false)],
  ["/", operator("/", "/", "/", false, "", false)],
  [";", operator(";", ";", ";", true, "", false)],
  ["?", operator("?", "?", "&", true, "=", false)],
  ["&", operator("&", "&", "&", true, "=", false)],
]);

/** A variable inside an expression: `name`, `name:3` (prefix) or `name*` (explode). */
export interface VarSpec {
  readonly name: string;
  /** Keep only this many characters (code points) of a string value. */
  readonly prefix: number | undefined;
  /** Expand a list as separate items rather than one comma-joined value. */
  readonly explode: boolean;
}

export interface Expression {
  readonly operator: Operator;
  readonly variables: readonly VarSpec[];
}

/** A template is literal text (stored already percent-encoded) and expressions, in order. */
export type Part = string | Expression;

// RFC 6570 §2.3: varchar = ALPHA / DIGIT / "_" / pct-encoded, with single dots between them.
const VARSPEC = /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*)(?::([1-9][0-9]{0,3})|(\*))?$/;

export function parseTemplate(template: string): Part[] {
  const fail = (problem: string) => new UriTemplateError(`uri template ${JSON.stringify(template)}: ${problem}`);
  const parts: Part[] = [];
  let literal = "";
  let i = 0;
  while (i < template.length) {
    const char = template[i]!;
    if (char === "}") throw fail(`unexpected "}" at offset ${i}`);
    if (char !== "{") {
      literal += char;
      i++;
      continue;
    }
    const end = template.indexOf("}", i);
    const nested = template.indexOf("{", i + 1);
    if (end === -1 || (nested !== -1 && nested < end)) throw fail(`"{" at offset ${i} is not closed`);
    if (literal !== "") parts.push(encode(literal, true));
    literal = "";
    parts.push(parseExpression(template.slice(i + 1, end), i, fail));
    i = end + 1;
  }
  if (literal !== "") parts.push(encode(literal, true));
  return parts;
}

function parseExpression(body: string, offset: number, fail: (problem: string) => UriTemplateError): Expression {
  if (body === "") throw fail(`empty expression at offset ${offset}`);
  // RFC 6570 §2.2: "=", ",", "!", "@" and "|" are reserved for future operators.
  if ("=,!@|".includes(body[0]!)) throw fail(`operator "${body[0]}" at offset ${offset} is reserved and not supported`);
  const op = OPERATORS.get(body[0]!) ?? OPERATORS.get("")!;
  const list = op.symbol === "" ? body : body.slice(1);
  const variables = list.split(",").map((spec): VarSpec => {
    const parsed = VARSPEC.exec(spec);
    if (parsed === null) throw fail(`invalid variable ${JSON.stringify(spec)} in expression at offset ${offset}`);
    return { name: parsed[1]!, prefix: parsed[2] === undefined ? undefined : Number(parsed[2]), explode: parsed[3] === "*" };
  });
  return { operator: op, variables };
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const HEX_TRIPLET = /^%[0-9A-Fa-f]{2}$/;
const utf8 = new TextEncoder();

/**
 * Percent-encodes `value` as UTF-8 (RFC 6570 §3.2.1). Unreserved characters always pass; with
 * `allowReserved`, reserved characters and existing %XX triplets pass too, so "50%" still becomes
 * "50%25" but "%2F" stays "%2F". A lone surrogate is encoded as U+FFFD rather than throwing.
 */
export function encode(value: string, allowReserved: boolean): string {
  let out = "";
  let i = 0;
  while (i < value.length) {
    const char = String.fromCodePoint(value.codePointAt(i)!);
    if (UNRESERVED.test(char) || (allowReserved && RESERVED.test(char))) {
      out += char;
    } else if (allowReserved && HEX_TRIPLET.test(value.slice(i, i + 3))) {
      out += value.slice(i, i + 3);
      i += 3;
      continue;
    } else {
      for (const byte of utf8.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
    i += char.length;
  }
  return out;
}
