// From a place in a source file (where V8 says a function begins) to the tour stop it belongs to,
// named as README's tour names stops: `name` for a function, `Class.method` (`Class.#method`,
// `Class.constructor`) for a class's member, `table."tools/call"` for a method of an object held by
// a top-level const or returned by a top-level function, `tool "add"` for a handler given to
// `server.tool({ name: "add", ... }, ...)`. A function with none of those names (a callback, a
// closure made inside another function) is part of the function it is written in: its stop is that
// function's, whose lines already hold it (at the top of a file: the statement's, `const x = f(() => ...)`).
// Lines are counted as README counts them: from the signature to the closing brace, inclusive.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as TS from "typescript";

// Required, not imported: through tsx's ESM loader the 9 MB compiler takes seconds to load.
const ts = createRequire(import.meta.url)("typescript") as typeof TS;

export interface Stop {
  /** The file under src/, as `jsonrpc/framing.ts`. */
  file: string;
  symbol: string;
  /** First and last line of the function (1-based), and how many lines that is. */
  from: number;
  to: number;
  lines: number;
}

/** The key a stop is known by in the glosses and in README: `` `file` `symbol` ``'s text. */
export function stopKey(stop: Pick<Stop, "file" | "symbol">): string {
  return `${stop.file} ${stop.symbol}`;
}

type FunctionNode = TS.FunctionLikeDeclaration;

const parsed = new Map<string, TS.SourceFile>();

function sourceFile(path: string): TS.SourceFile {
  let file = parsed.get(path);
  if (!file) {
    file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    parsed.set(path, file);
  }
  return file;
}

/**
 * The stop of the function V8 reports as `v8Name` beginning at `line`:`column` (0-based, as source
 * maps give them) of `path`, `file` being its name under src/. V8's own name for the function is
 * checked against the one found here, so that a source map that points a little off cannot name
 * the wrong function silently.
 */
export function stopAt(path: string, file: string, line: number, column: number, v8Name: string): Stop {
  const source = sourceFile(path);
  const position = source.getPositionOfLineAndCharacter(line, column);
  const enclosing = nodesAt(source, position);
  if (v8Name === "<instance_members_initializer>") {
    // The fields' initial values, computed as an instance is made: part of the constructor.
    const owner = enclosing.findLast(ts.isClassLike);
    if (!owner?.name) throw new Error(`${file}:${line + 1}: field initializers outside a named class`);
    const constructor = owner.members.find(ts.isConstructorDeclaration);
    return constructor ? stopOf(file, source, constructor) : fieldsStop(file, source, owner);
  }
  const found = enclosing.findLast(isFunction);
  if (!found) throw new Error(`${file}:${line + 1}:${column + 1}: no function here for V8's ${JSON.stringify(v8Name)}`);
  const own = ownName(found);
  if (v8Name !== "" && own !== "" && v8Name !== own) {
    throw new Error(`${file}:${line + 1}:${column + 1}: V8 says ${JSON.stringify(v8Name)} begins here, the source has ${JSON.stringify(own)}`);
  }
  return stopOf(file, source, found);
}

/**
 * A class with no constructor of its own: what `new` runs is its fields' initial values, counted as
 * the lines of the fields that have one.
 */
function fieldsStop(file: string, source: TS.SourceFile, owner: TS.ClassLikeDeclaration): Stop {
  const line = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const fields = owner.members.filter((member) => ts.isPropertyDeclaration(member) && member.initializer && !member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword));
  const lines = fields.reduce((sum, field) => sum + line(field.end) - line(field.getStart(source)) + 1, 0);
  const from = fields.length > 0 ? line(fields[0]!.getStart(source)) : line(owner.getStart(source));
  const to = fields.length > 0 ? line(fields.at(-1)!.end) : from;
  return { file, symbol: `${owner.name!.text}.constructor`, from, to, lines };
}

/** Every node whose text holds `position`, outermost first. */
function nodesAt(source: TS.SourceFile, position: number): TS.Node[] {
  const chain: TS.Node[] = [];
  let node: TS.Node | undefined = source;
  while (node) {
    chain.push(node);
    node = node.getChildren(source).find((child) => child.getStart(source) <= position && position < child.end);
  }
  return chain;
}

function isFunction(node: TS.Node): node is FunctionNode {
  return ts.isFunctionLike(node) && "body" in node && (node as FunctionNode).body !== undefined;
}

/** The stop `fn` belongs to: its own, if it has a name README can use, else its enclosing function's. */
function stopOf(file: string, source: TS.SourceFile, fn: FunctionNode): Stop {
  const symbol = tourName(fn);
  if (symbol !== undefined) {
    const from = source.getLineAndCharacterOfPosition(fn.getStart(source)).line + 1;
    const to = source.getLineAndCharacterOfPosition(fn.end).line + 1;
    return { file, symbol, from, to, lines: to - from + 1 };
  }
  let outer: TS.Node = fn.parent;
  while (!isFunction(outer) && !ts.isSourceFile(outer) && !ts.isSourceFile(outer.parent)) outer = outer.parent;
  if (isFunction(outer)) return stopOf(file, source, outer);
  // A nameless function made at the top of the file, as in `const table = make(() => ...)`: the
  // statement's own name, and its lines.
  const name = statementName(outer);
  if (!name) throw new Error(`${file}:${source.getLineAndCharacterOfPosition(fn.getStart(source)).line + 1}: a nameless function in a nameless statement`);
  const from = source.getLineAndCharacterOfPosition(outer.getStart(source)).line + 1;
  const to = source.getLineAndCharacterOfPosition(outer.end).line + 1;
  return { file, symbol: name, from, to, lines: to - from + 1 };
}

function statementName(statement: TS.Node): string | undefined {
  if (ts.isVariableStatement(statement)) {
    const [declaration] = statement.declarationList.declarations;
    return declaration && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
  }
  return ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement) ? statement.name?.text : undefined;
}

/** The function's name as a tour stop, or undefined for one that is part of its enclosing function. */
function tourName(fn: FunctionNode): string | undefined {
  const parent = fn.parent;
  if (ts.isFunctionDeclaration(fn)) return fn.name && ts.isSourceFile(parent) ? fn.name.text : undefined;
  if (ts.isClassLike(parent)) {
    // A class expression is named by what holds it (`const Box = class { ... }`).
    const owner = parent.name?.text ?? (ts.isVariableDeclaration(parent.parent) && ts.isIdentifier(parent.parent.name) ? parent.parent.name.text : undefined);
    if (!owner) return undefined;
    return ts.isConstructorDeclaration(fn) ? `${owner}.constructor` : `${owner}.${memberName(fn.name!)}`;
  }
  if (ts.isPropertyDeclaration(parent) && ts.isClassLike(parent.parent) && parent.parent.name) {
    return `${parent.parent.name.text}.${memberName(parent.name)}`;
  }
  if (ts.isObjectLiteralExpression(parent) && fn.name) return tableName(parent, memberName(fn.name));
  if (ts.isPropertyAssignment(parent) && ts.isObjectLiteralExpression(parent.parent)) {
    return tableName(parent.parent, memberName(parent.name));
  }
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name) && topLevel(parent)) return parent.name.text;
  if (ts.isCallExpression(parent)) return registered(parent, fn);
  return undefined;
}

/**
 * `table.member` for a member of an object literal held by a top-level const, or returned by a
 * top-level function (a feature's handler table: `toolHandlers."tools/call"`), through nested literals.
 */
function tableName(literal: TS.ObjectLiteralExpression, member: string): string | undefined {
  const holder = literal.parent;
  if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name) && topLevel(holder)) return `${holder.name.text}.${member}`;
  if (ts.isReturnStatement(holder)) {
    const maker = holder.parent.parent;
    if (ts.isFunctionDeclaration(maker) && maker.name && ts.isSourceFile(maker.parent)) return `${maker.name.text}.${member}`;
  }
  if (ts.isPropertyAssignment(holder) && ts.isObjectLiteralExpression(holder.parent)) {
    return tableName(holder.parent, `${memberName(holder.name)}.${member}`);
  }
  return undefined;
}

/** `tool "add"`: the handler given after the definition in `x.tool({ name: "add", ... }, handler)`. */
function registered(call: TS.CallExpression, fn: FunctionNode): string | undefined {
  const [definition, handler] = call.arguments;
  if (handler !== fn || !definition || !ts.isObjectLiteralExpression(definition)) return undefined;
  if (!ts.isPropertyAccessExpression(call.expression)) return undefined;
  const name = definition.properties.find((p): p is TS.PropertyAssignment => ts.isPropertyAssignment(p) && memberName(p.name) === "name");
  if (!name || !ts.isStringLiteral(name.initializer)) return undefined;
  return `${call.expression.name.text} ${JSON.stringify(name.initializer.text)}`;
}

function topLevel(declaration: TS.VariableDeclaration): boolean {
  return ts.isSourceFile(declaration.parent.parent.parent);
}

/** A member's name as written: `name`, `#name`, or a quoted key `"tools/call"`. */
function memberName(name: TS.PropertyName): string {
  if (ts.isStringLiteral(name)) return JSON.stringify(name.text);
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  return name.getText();
}

/** The name V8 gives the function itself (or infers for it), "" if it has none of its own. */
function ownName(fn: FunctionNode): string {
  const parent = fn.parent;
  if (ts.isConstructorDeclaration(fn)) return ts.isClassLike(parent) ? parent.name?.text ?? "" : "";
  const prefix = ts.isGetAccessor(fn) ? "get " : ts.isSetAccessor(fn) ? "set " : "";
  const named = fn.name ?? (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) ? parent.name : undefined);
  if (!named) return "";
  return prefix + (ts.isStringLiteral(named) || ts.isIdentifier(named) || ts.isPrivateIdentifier(named) ? named.text : named.getText());
}
