// One command of `mcp-wire` and its arguments, after the options: `tools`, `call <tool> ...`,
// `read <uri>`, `get <prompt> ...`, `complete ...`, `request <method> [params]`. `call` and `get`
// take their arguments the same two ways, through one parser (givenArguments); key=value words
// stay text here, since only the tool's inputSchema can say their types.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server (the methods the commands send).

import type { PromptReference, ResourceTemplateReference } from "../mcp/completion.js";
import { didYouMean } from "./suggest.js";
import { UsageError } from "./usage.js";
import { COMMANDS } from "./vocabulary.js";

/** How `call` or `get` was given its arguments. */
export type GivenArguments =
  | { kind: "none" }
  | { kind: "json"; value: { [key: string]: unknown } }
  | { kind: "pairs"; pairs: [key: string, text: string][] };

export type Command =
  | { name: "discover" | "tools" | "resources" | "templates" | "prompts" | "ping" }
  | { name: "call"; tool: string; args: GivenArguments }
  | { name: "read"; uri: string }
  | { name: "get"; prompt: string; args: { [key: string]: string } }
  | { name: "complete"; ref: PromptReference | ResourceTemplateReference; argument: string; value: string }
  | { name: "request"; method: string; params?: { [key: string]: unknown } };

/** The command `name` and the words after it, up to the server's `--`. */
export function parseCommand(name: string, rest: string[]): Command {
  const count = (min: number, max: number, shape: string) => {
    if (rest.length >= min && rest.length <= max) return;
    throw new UsageError(`${name}: expected ${shape}, got ${rest.length} argument${rest.length === 1 ? "" : "s"}`);
  };
  switch (name) {
    case "discover":
    case "tools":
    case "resources":
    case "templates":
    case "prompts":
    case "ping":
      count(0, 0, "no arguments");
      return { name };
    case "call":
      count(1, Infinity, "<tool> [JSON_OBJECT | key=value ...]");
      return { name, tool: rest[0], args: givenArguments(name, rest.slice(1)) };
    case "read":
      count(1, 1, "<uri>");
      return { name, uri: rest[0] };
    case "get":
      count(1, Infinity, "<prompt> [JSON_OBJECT | key=value ...]");
      return { name, prompt: rest[0], args: promptArguments(givenArguments(name, rest.slice(1))) };
    case "complete": {
      count(3, 3, "<prompt | template-uri> <argument> <value>");
      const [target, argument, value] = rest;
      // A prompt name never looks like a URI or a template; a template always does.
      const ref: PromptReference | ResourceTemplateReference =
        target.includes("://") || target.includes("{") ? { type: "ref/resource", uri: target } : { type: "ref/prompt", name: target };
      return { name, ref, argument, value };
    }
    case "request": {
      count(1, 2, "<method> [PARAMS_JSON]");
      if (rest[0] === "") throw new UsageError("request: a method name is required");
      return rest.length === 1 ? { name, method: rest[0] } : { name, method: rest[0], params: jsonObject("request: PARAMS_JSON", rest[1]) };
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(name)}${didYouMean(name, COMMANDS.map((command) => command.name))}`);
  }
}

/** The arguments of `call` or `get` (named by `context`): none, one JSON object, or key=value pairs. */
function givenArguments(context: string, words: string[]): GivenArguments {
  if (words.length === 0) return { kind: "none" };
  if (words[0].trimStart().startsWith("{")) {
    if (words.length > 1) throw new UsageError(`${context}: give the arguments either as one JSON object or as key=value pairs, not both`);
    return { kind: "json", value: jsonObject(`${context}: JSON arguments`, words[0]) };
  }
  return { kind: "pairs", pairs: pairs(context, words) };
}

/**
 * Prompt arguments as the wire carries them. A JSON value that is not a string is refused rather
 * than turned into one: `{"n":3}` could mean "3" or a mistake, and only the user knows which.
 */
function promptArguments(given: GivenArguments): { [key: string]: string } {
  if (given.kind === "none") return {};
  if (given.kind === "pairs") return Object.fromEntries(given.pairs);
  for (const [key, value] of Object.entries(given.value)) {
    // Spec (server/prompts): prompts/get `arguments` maps each name to a string.
    if (typeof value !== "string") {
      throw new UsageError(`get: argument ${JSON.stringify(key)} must be a string (prompt arguments are strings), got ${JSON.stringify(value)}`);
    }
  }
  return given.value as { [key: string]: string };
}

function pairs(context: string, words: string[]): [string, string][] {
  const seen = new Set<string>();
  return words.map((word) => {
    const found = pair(context, word);
    if (seen.has(found[0])) throw new UsageError(`${context}: argument ${JSON.stringify(found[0])} is given twice`);
    seen.add(found[0]);
    return found;
  });
}

/** One key=value word (a key of at least one character); also `--env`'s. */
export function pair(context: string, word: string): [string, string] {
  const equals = word.indexOf("=");
  if (equals < 1) throw new UsageError(`${context}: expected key=value, got ${JSON.stringify(word)}`);
  return [word.slice(0, equals), word.slice(equals + 1)];
}

function jsonObject(context: string, text: string): { [key: string]: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${context} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`${context} must be a JSON object, got ${text}`);
  }
  return value as { [key: string]: unknown };
}
