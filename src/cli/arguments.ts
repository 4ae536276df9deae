// The command line of `mcp-wire`: options, one command with its arguments, then `--` and the
// server, or `--url` for a server that is already running and speaks HTTP, or `--config FILE` for
// one named in a host's configuration file (host-config.ts reads it).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server (the methods the commands send)
// and https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (--protocol-version).
// Pure parsing, no I/O: it turns argv into a value or throws UsageError (exit code 2). The command
// and its arguments are command.ts's, the help text and UsageError usage.ts's, the words it knows
// vocabulary.ts's.

import type { LoggingLevel } from "../mcp/logging.js";
import type { ProtocolVersion } from "../mcp/versions.js";
import { isSecureUrl } from "../auth/metadata.js";
import { pair, parseCommand, type Command } from "./command.js";
import { didYouMean } from "./suggest.js";
import { UsageError } from "./usage.js";
import { FLAGS, flagNamed, LOGGING_LEVELS, PROTOCOL_MODES, SHELLS, type Shell } from "./vocabulary.js";

export { USAGE, UsageError } from "./usage.js";
export type { Command, GivenArguments } from "./command.js";

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

/**
 * `--config FILE [--server NAME]`: a server named in a host's configuration file, which
 * host-config.ts reads (the parser does no I/O); `headers` and `authorization` are the flags'.
 */
export interface ConfiguredServer {
  config: string;
  name?: string;
  headers: { [name: string]: string };
  authorization?: AuthFlags;
}

export type CommandLine =
  | { help: true }
  | { help: false; logout: string }
  | { help: false; completion: Shell }
  | { help: false; options: CliOptions; command: Command; server: ServerLocation | ConfiguredServer };

export function parseCommandLine(argv: readonly string[]): CommandLine {
  const split = argv.indexOf("--");
  // Everything after the first "--" belongs to the server, options included.
  const ours = split === -1 ? argv : argv.slice(0, split);
  const theirs = split === -1 ? [] : argv.slice(split + 1);
  const options: CliOptions = { protocolVersion: "auto", trace: false, quiet: false, env: {} };
  const words: string[] = [];
  let url: string | undefined;
  let config: string | undefined;
  let serverName: string | undefined;
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
    const known = flagNamed(flag);
    if (known === undefined) throw new UsageError(`unknown option ${flag}${didYouMean(flag, FLAGS.map((f) => f.name), false)}`);
    switch (known.name) {
      case "-h": case "--help": return { help: true };
      case "--trace": options.trace = noValue(); break;
      case "--quiet": options.quiet = noValue(); break;
      case "--timeout": options.timeoutMs = milliseconds(flag, value()); break;
      case "--handshake-timeout": options.handshakeTimeoutMs = milliseconds(flag, value()); break;
      case "--cwd": options.cwd = value(); break;
      case "--url": url = httpUrl(value()); break;
      case "--config": config = nonEmpty(flag, value()); break;
      case "--server": serverName = nonEmpty(flag, value()); break;
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
      case "--log-level": options.logLevel = oneOf(flag, value(), LOGGING_LEVELS); break;
      case "--protocol-version": options.protocolVersion = oneOf(flag, value(), PROTOCOL_MODES); break;
      case "--client-id": auth.clientId = nonEmpty(flag, value()); break;
      case "--client-issuer": auth.clientIssuer = issuer(flag, value()); break;
      case "--client-secret": auth.clientSecret = nonEmpty(flag, value()); break;
      case "--scope": auth.scope = nonEmpty(flag, value()); break;
      case "--no-browser": auth.noBrowser = noValue(); break;
      case "--auth-timeout": auth.timeoutMs = seconds(flag, value()); break;
      case "--no-store": auth.noStore = noValue(); break;
      default: {
        // A flag of the table that no case reads fails to compile here.
        const unread: never = known.name;
        throw new Error(`flag ${String(unread)} is in the vocabulary but not parsed`);
      }
    }
  }

  if (words.length === 0) throw new UsageError("missing command");
  const authGiven = Object.keys(auth).length > 0;
  if (auth.clientSecret !== undefined && auth.clientId === undefined) throw new UsageError("--client-secret needs --client-id: a secret belongs to a client ID");
  if (auth.clientIssuer !== undefined && auth.clientId === undefined) throw new UsageError("--client-issuer needs --client-id: it says which authorization server the client ID belongs to");
  if (auth.clientId !== undefined && auth.clientIssuer === undefined) {
    throw new UsageError("--client-id needs --client-issuer URL: a client ID (and its secret) belongs to one authorization server, and is sent to that one only, not to whichever the MCP server names");
  }
  if (words[0] === "completion") return { help: false, completion: shell(words.slice(1)) };
  if (words[0] === "logout") {
    if (split !== -1 || authGiven) throw new UsageError("logout takes the server's URL only");
    if (words.length !== (url === undefined ? 2 : 1)) throw new UsageError("logout: expected the server's URL (mcp-wire logout URL)");
    return { help: false, logout: url ?? httpUrl(words[1], "logout") };
  }
  const command = parseCommand(words[0], words.slice(1));
  if (serverName !== undefined && config === undefined) throw new UsageError("--server needs --config FILE: it names a server of that file");
  if (config !== undefined && (url !== undefined || split !== -1)) {
    throw new UsageError('give one of --config, --url or a server command after "--", not two');
  }
  if (config !== undefined) {
    const configured: ConfiguredServer = { config, headers };
    if (serverName !== undefined) configured.name = serverName;
    if (authGiven) configured.authorization = auth;
    return { help: false, options, command, server: configured };
  }
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

/** `completion SHELL`'s one argument. */
function shell(rest: string[]): Shell {
  const found = SHELLS.find((name) => rest.length === 1 && name === rest[0]);
  if (found === undefined) {
    const given = rest.length === 0 ? "no shell" : JSON.stringify(rest.join(" "));
    throw new UsageError(`completion: expected one of ${SHELLS.join(", ")}, got ${given}${rest.length === 1 ? didYouMean(rest[0], SHELLS) : ""}`);
  }
  return found;
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
