// The command line of `mcp-wire`: options, one command with its arguments, then `--` and the
// server, or `--url` for a server that is already running and speaks HTTP.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server (the methods the commands send)
// and https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (--protocol-version).
// Pure parsing, no I/O: it turns argv into a value or throws UsageError (exit code 2). `call` and
// `get` take their arguments the same two ways, through one parser. Tool arguments given as
// key=value stay text here; only the tool's inputSchema can say their types.

import type { PromptReference, ResourceTemplateReference } from "../mcp/completion.js";
import type { LoggingLevel } from "../mcp/logging.js";
import { ALL_PROTOCOL_VERSIONS, type ProtocolVersion } from "../mcp/versions.js";
import { isSecureUrl } from "../auth/metadata.js";

export const USAGE = `usage: mcp-wire [options] <command> [arguments] -- <server command> [server arguments...]
       mcp-wire [options] --url URL [--header NAME:VALUE]... <command> [arguments]
       mcp-wire logout URL                    forget the credentials stored for the server at URL
       mcp-wire record --out FILE [--] <server command> [server arguments...]
       mcp-wire record --out FILE --listen HOST:PORT --target URL
                                              a transparent proxy (stdio, or HTTP) that records the
                                              session in FILE as it passes
       mcp-wire explain FILE [--wire]         print a recording, one line per message, with notes
       mcp-wire diagram FILE [--format mermaid|svg] [--out FILE]
                                              draw a recording as a sequence diagram
       mcp-wire replay FILE [--timeout MS] [--ignore POINTER]... [--update] -- <server command> | --url URL
                                              play a recording's client side against the server and
                                              compare what it sends (no command: the recording's
                                              own); exit 1 on a difference, 3 if the server failed
       mcp-wire check FILE [--json]           check a recording against the spec of the version it
                                              negotiated, one line per violation; exit 1 if any
       (the wire tools above work on recordings of sessions; each has its own --help)

Starts an MCP server over stdio (or, with --url, reaches one over HTTP), finds out which protocol
generation it speaks (--protocol-version auto: 2026-07-28 if it answers server/discover, else the
initialize handshake), runs one command, prints its result as JSON on stdout, and stops the
server (or ends the session).

commands:
  discover                               print what the server offers: its server/discover result,
                                         or, from a server that speaks only the handshake, what
                                         initialize told (stderr says so; exit 0 unless
                                         --protocol-version 2026-07-28 demanded discover)
  tools                                  list every tool (all pages)
  call <tool> [JSON_OBJECT | key=value ...]
                                         call a tool; key=value values take the type the tool's
                                         inputSchema gives them (number, integer, boolean, JSON for
                                         object and array), else stay strings
  resources                              list every resource
  read <uri>                             read a resource
  templates                              list every resource template
  prompts                                list every prompt
  get <prompt> [JSON_OBJECT | key=value ...]
                                         get a prompt; its arguments are strings, so every value
                                         of the JSON object must be a string
  complete <prompt | template-uri> <argument> <value>
                                         suggest values for an argument; a reference containing
                                         "://" or "{" is a resource template URI, else a prompt name
  ping                                   check that the server answers
  request <method> [PARAMS_JSON]         send any request and print its result

options (before "--"):
  --url URL                connect over HTTP instead of starting a server: Streamable HTTP, or
                           the older HTTP+SSE transport if the server turns that down
  --header NAME:VALUE      send this header on every HTTP request (repeatable; with --url),
                           e.g. --header "Authorization: Bearer $TOKEN"
  --client-id ID           OAuth: a client ID registered with the server's authorization server
                           (without it, mcp-wire registers itself: Dynamic Client Registration)
  --client-issuer URL      OAuth: the issuer of that authorization server, as its metadata names
                           it; needed with --client-id, which is sent to that server only (never
                           to another one the MCP server names)
  --client-secret SECRET   OAuth: that client's secret; prefer the environment variable
                           MCP_WIRE_CLIENT_SECRET, since a command line is seen by other users
                           (ps) and kept in shell history
  --scope "A B"            OAuth: the scopes to ask for (default: the server's 401 challenge,
                           else its metadata's scopes_supported)
  --no-browser             OAuth: only print the authorization URL, do not open a browser
  --auth-timeout SECONDS   OAuth: how long to wait for the browser's redirect (default 300)
  --no-store               OAuth: keep tokens in memory for this run only; by default they are
                           kept in $XDG_CONFIG_HOME/mcp-wire/credentials.json (~/.config/...,
                           %APPDATA%\\mcp-wire\\ on Windows), mode 0600, per issuer and server
  --protocol-version V     auto (default), 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05
  --trace                  print every message on stderr: → sent, ← received, ms since start, and
                           which protocol era was chosen and why; over HTTP also each request
                           (http →, OAuth's included) and its status (http ←), credentials redacted
  --timeout MS             give up on each request after MS ms (default: 60000 without a sign of life)
  --handshake-timeout MS   give up on initialize after MS ms (default 5000); server/discover
                           waits as long, then auto falls back to initialize
  --env KEY=VALUE          set a variable in the server's environment (repeatable)
  --cwd DIR                start the server in DIR
  --log-level LEVEL        ask the server to log at LEVEL (debug, info, notice, warning, error,
                           critical, alert, emergency); its log messages are printed on stderr
  --quiet                  do not pass the server's stderr on (by default each line is printed
                           on our stderr after "[server] ")
  -h, --help               print this help

exit codes:
  0  success
  1  the server or the protocol failed: spawn, HTTP, handshake, server exit, JSON-RPC error, timeout
  2  usage error: a bad command line or bad JSON arguments
  3  the tool ran and reported failure (its result, printed as usual, has isError: true)
  130, 143  interrupted by SIGINT (Ctrl-C) or SIGTERM; the server is stopped first

A server that answers 401 is asked for authorization (OAuth 2.1): mcp-wire finds its authorization
server, prints a URL to open (and opens it in a browser), receives the redirect on
http://127.0.0.1:<port>/callback, and sends the token it gets. Tokens, secrets and codes are never
printed, --trace included.

examples:
  mcp-wire call add a=3 b=4 -- node dist/server.js
  mcp-wire call add '{"a":3,"b":4}' -- node dist/server.js
  mcp-wire get explain_topic '{"topic":"tools"}' -- node dist/server.js
  mcp-wire --url http://127.0.0.1:3000/mcp tools
  mcp-wire --url https://mcp.example.com/mcp --scope "files:read" tools`;

/** A command line that cannot be run; the message says what is wrong with it. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

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

export interface CliOptions {
  /** "auto" probes with server/discover; a version pins it (a handshake one sends initialize only). */
  protocolVersion: "auto" | ProtocolVersion;
  trace: boolean;
  quiet: boolean;
  timeoutMs?: number;
  handshakeTimeoutMs?: number;
  /** Added to our own environment for the server. */
  env: { [key: string]: string };
  cwd?: string;
  logLevel?: LoggingLevel;
}

/** How to obtain authorization from a server that asks for it (OAuth 2.1); absent fields take their defaults. */
export interface AuthFlags {
  clientId?: string;
  /** The authorization server --client-id is registered with; the OAuth client presents it to no other. */
  clientIssuer?: string;
  /** From --client-secret; the session falls back to MCP_WIRE_CLIENT_SECRET (the parser reads no environment). */
  clientSecret?: string;
  scope?: string;
  noBrowser?: true;
  /** How long the loopback listener waits for the redirect. */
  timeoutMs?: number;
  noStore?: true;
}

/**
 * Where the server is: a command to start (stdio), or a URL to reach with these extra headers and,
 * when any OAuth flag was given, `authorization`.
 */
export type ServerLocation = { command: string; args: string[] } | { url: string; headers: { [name: string]: string }; authorization?: AuthFlags };

export type CommandLine =
  | { help: true }
  | { help: false; logout: string }
  | { help: false; options: CliOptions; command: Command; server: ServerLocation };

const LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const PROTOCOL_MODES: readonly ("auto" | ProtocolVersion)[] = ["auto", ...ALL_PROTOCOL_VERSIONS];

export function parseCommandLine(argv: readonly string[]): CommandLine {
  const split = argv.indexOf("--");
  // Everything after the first "--" belongs to the server, options included.
  const ours = split === -1 ? argv : argv.slice(0, split);
  const theirs = split === -1 ? [] : argv.slice(split + 1);
  const options: CliOptions = { protocolVersion: "auto", trace: false, quiet: false, env: {} };
  const words: string[] = [];
  let url: string | undefined;
  const headers: { [name: string]: string } = {};
  const auth: AuthFlags = {};

  for (let i = 0; i < ours.length; i++) {
    const arg = ours[i];
    if (arg === "-h" || arg === "--help") return { help: true };
    if (!arg.startsWith("--")) {
      words.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const flag = equals === -1 ? arg : arg.slice(0, equals);
    const value = (): string => {
      if (equals !== -1) return arg.slice(equals + 1);
      if (i + 1 >= ours.length) throw new UsageError(`${flag} needs a value`);
      return ours[++i];
    };
    const noValue = (): true => {
      if (equals !== -1) throw new UsageError(`${flag} takes no value`);
      return true;
    };
    switch (flag) {
      case "--trace": options.trace = noValue(); break;
      case "--quiet": options.quiet = noValue(); break;
      case "--timeout": options.timeoutMs = milliseconds(flag, value()); break;
      case "--handshake-timeout": options.handshakeTimeoutMs = milliseconds(flag, value()); break;
      case "--cwd": options.cwd = value(); break;
      case "--url": url = httpUrl(value()); break;
      case "--header": {
        const [name, text] = header(value());
        headers[name] = text;
        break;
      }
      case "--env": {
        const [key, text] = pair(flag, value());
        options.env[key] = text;
        break;
      }
      case "--log-level": options.logLevel = oneOf(flag, value(), LEVELS); break;
      case "--protocol-version": options.protocolVersion = oneOf(flag, value(), PROTOCOL_MODES); break;
      case "--client-id": auth.clientId = nonEmpty(flag, value()); break;
      case "--client-issuer": auth.clientIssuer = issuer(flag, value()); break;
      case "--client-secret": auth.clientSecret = nonEmpty(flag, value()); break;
      case "--scope": auth.scope = nonEmpty(flag, value()); break;
      case "--no-browser": auth.noBrowser = noValue(); break;
      case "--auth-timeout": auth.timeoutMs = seconds(flag, value()); break;
      case "--no-store": auth.noStore = noValue(); break;
      default: throw new UsageError(`unknown option ${flag}`);
    }
  }

  if (words.length === 0) throw new UsageError("missing command");
  const authGiven = Object.keys(auth).length > 0;
  if (auth.clientSecret !== undefined && auth.clientId === undefined) throw new UsageError("--client-secret needs --client-id: a secret belongs to a client ID");
  if (auth.clientIssuer !== undefined && auth.clientId === undefined) throw new UsageError("--client-issuer needs --client-id: it says which authorization server the client ID belongs to");
  if (auth.clientId !== undefined && auth.clientIssuer === undefined) {
    throw new UsageError("--client-id needs --client-issuer URL: a client ID (and its secret) belongs to one authorization server, and is sent to that one only, not to whichever the MCP server names");
  }
  if (words[0] === "logout") {
    if (split !== -1 || authGiven) throw new UsageError("logout takes the server's URL only");
    if (words.length !== (url === undefined ? 2 : 1)) throw new UsageError("logout: expected the server's URL (mcp-wire logout URL)");
    return { help: false, logout: url ?? httpUrl(words[1], "logout") };
  }
  const command = parseCommand(words[0], words.slice(1));
  if (url !== undefined) {
    if (split !== -1) throw new UsageError('give either --url or a server command after "--", not both');
    if (options.cwd !== undefined || Object.keys(options.env).length > 0) throw new UsageError('--env and --cwd are for a server started after "--", not for --url');
    return { help: false, options, command, server: authGiven ? { url, headers, authorization: auth } : { url, headers } };
  }
  if (Object.keys(headers).length > 0) throw new UsageError("--header needs --url: headers are sent only over HTTP");
  if (authGiven) throw new UsageError("the OAuth options (--client-id, --scope, ...) need --url: a server on stdio is not asked for authorization");
  if (theirs.length === 0) {
    throw new UsageError(`missing server: put its command after "--" (e.g. mcp-wire ${words[0]} -- node dist/server.js), or give --url`);
  }
  return { help: false, options, command, server: { command: theirs[0], args: theirs.slice(1) } };
}

/** An http:// or https:// URL, as the value of `flag`; also `mcp-wire record --target`'s. */
export function httpUrl(text: string, flag = "--url"): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // Reported below, with the rest.
  }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") throw new UsageError(`${flag}: expected an http:// or https:// URL, got ${JSON.stringify(text)}`);
  return url.href;
}

/**
 * `Name: value` (the space is optional), as curl takes it. A malformed one is not repeated in the
 * error: "Authorization Bearer <token>", its colon forgotten, would print the token.
 */
function header(text: string): [string, string] {
  const colon = text.indexOf(":");
  if (colon === -1) throw new UsageError('--header: expected NAME:VALUE, got no ":" (the text is not shown: it may hold a secret)');
  const name = text.slice(0, colon).trim();
  // RFC 9110 field names are tokens: letters, digits and !#$%&'*+-.^_`|~
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new UsageError(`--header: expected NAME:VALUE, and ${JSON.stringify(name)} is not a header name`);
  return [name, text.slice(colon + 1).trim()];
}

function parseCommand(name: string, rest: string[]): Command {
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
      throw new UsageError(`unknown command ${JSON.stringify(name)}`);
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

function pair(context: string, word: string): [string, string] {
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

function oneOf<T extends string>(flag: string, text: string, allowed: readonly T[]): T {
  const found = allowed.find((candidate) => candidate === text);
  if (found === undefined) throw new UsageError(`${flag}: ${JSON.stringify(text)} is not one of ${allowed.join(", ")}`);
  return found;
}

/**
 * An authorization server's issuer identifier, kept exactly as typed: the OAuth client compares it
 * with the issuer the server's metadata names, character for character (RFC 8414 section 3.3).
 */
function issuer(flag: string, text: string): string {
  // Spec (authorization#communication-security): authorization servers are served over HTTPS (loopback aside).
  if (!isSecureUrl(text)) throw new UsageError(`${flag}: expected an https:// URL (or http:// to this machine), got ${JSON.stringify(text)}`);
  return text;
}

function nonEmpty(flag: string, text: string): string {
  if (text.trim() === "") throw new UsageError(`${flag} needs a value`);
  return text;
}

/** Whole seconds, returned as milliseconds. */
function seconds(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isSafeInteger(value) || value < 1 || value > 86_400) {
    throw new UsageError(`${flag} needs a whole number of seconds from 1 to 86400, got ${JSON.stringify(text)}`);
  }
  return value * 1000;
}

function milliseconds(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`${flag} needs a positive whole number of milliseconds, got ${JSON.stringify(text)}`);
  }
  return value;
}
