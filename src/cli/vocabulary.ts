// The words of mcp-wire's command line: its commands and its flags, in one table that the parser
// (arguments.ts, command.ts), the "did you mean" of a mistyped one (suggest.ts) and the shell
// completion scripts (completion.ts) all read, so that none of them can name a word the others lack.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server (the methods the commands send).

import type { LoggingLevel } from "../mcp/logging.js";
import { ALL_PROTOCOL_VERSIONS, type ProtocolVersion } from "../mcp/versions.js";

/** A command, with the few words a completion menu shows beside it. */
export interface CommandWord { name: string; about: string }

/** The commands a client session runs (command.ts parses their arguments). */
export const SESSION_COMMANDS = [
  { name: "discover", about: "print what the server offers" },
  { name: "tools", about: "list every tool" },
  { name: "call", about: "call a tool" },
  { name: "resources", about: "list every resource" },
  { name: "read", about: "read a resource" },
  { name: "templates", about: "list every resource template" },
  { name: "prompts", about: "list every prompt" },
  { name: "get", about: "get a prompt" },
  { name: "complete", about: "suggest values for an argument" },
  { name: "ping", about: "check that the server answers" },
  { name: "request", about: "send any request" },
] as const satisfies readonly CommandWord[];

/** The recording tools, each its own module with its own command line (src/cli.ts loads them). */
export const WIRE_TOOL_COMMANDS = [
  { name: "record", about: "record a session as it passes" },
  { name: "explain", about: "print a recording, one line per message" },
  { name: "diagram", about: "draw a recording as a sequence diagram" },
  { name: "replay", about: "play a recording against a server" },
  { name: "check", about: "check a recording against the spec" },
  { name: "inspect", about: "show a live session on a local web page" },
] as const satisfies readonly CommandWord[];

export const COMMANDS: readonly CommandWord[] = [
  ...SESSION_COMMANDS,
  { name: "logout", about: "forget the credentials stored for a URL" },
  { name: "completion", about: "print a shell completion script" },
  ...WIRE_TOOL_COMMANDS,
];

export type SessionCommandName = (typeof SESSION_COMMANDS)[number]["name"];
export type WireToolName = (typeof WIRE_TOOL_COMMANDS)[number]["name"];

export const LOGGING_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
export const PROTOCOL_MODES: readonly ("auto" | ProtocolVersion)[] = ["auto", ...ALL_PROTOCOL_VERSIONS];
/** The shells `mcp-wire completion` writes a script for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * A flag. `value` names what it takes (absent: it takes none); `completes` is what a shell may
 * offer for that value: file names, directory names, or a fixed set.
 */
export interface FlagWord {
  name: string;
  value?: string;
  completes?: "file" | "directory" | readonly string[];
  about: string;
}

const FLAG_TABLE = [
  { name: "--url", value: "URL", about: "connect over HTTP" },
  { name: "--header", value: "NAME:VALUE", about: "send this header on every HTTP request" },
  { name: "--config", value: "FILE", completes: "file", about: "take the server from a host's configuration file" },
  { name: "--server", value: "NAME", about: "the server of --config's file to use" },
  { name: "--client-id", value: "ID", about: "OAuth: a registered client ID" },
  { name: "--client-issuer", value: "URL", about: "OAuth: the issuer of that client ID" },
  { name: "--client-secret", value: "SECRET", about: "OAuth: that client's secret" },
  { name: "--scope", value: "SCOPES", about: "OAuth: the scopes to ask for" },
  { name: "--no-browser", about: "OAuth: print the authorization URL only" },
  { name: "--auth-timeout", value: "SECONDS", about: "OAuth: how long to wait for the redirect" },
  { name: "--no-store", about: "OAuth: keep tokens in memory only" },
  { name: "--protocol-version", value: "V", completes: PROTOCOL_MODES, about: "pin the protocol version" },
  { name: "--trace", about: "print every message on stderr" },
  { name: "--timeout", value: "MS", about: "give up on each request after MS ms" },
  { name: "--handshake-timeout", value: "MS", about: "give up on initialize after MS ms" },
  { name: "--env", value: "KEY=VALUE", about: "set a variable in the server's environment" },
  { name: "--cwd", value: "DIR", completes: "directory", about: "start the server in DIR" },
  { name: "--log-level", value: "LEVEL", completes: LOGGING_LEVELS, about: "ask the server to log at LEVEL" },
  { name: "--quiet", about: "do not pass the server's stderr on" },
  { name: "-h", about: "print the help" },
  { name: "--help", about: "print the help" },
] as const satisfies readonly FlagWord[];

/** Every flag the parser takes; arguments.ts's switch has a case for each name (the compiler checks). */
export type FlagName = (typeof FLAG_TABLE)[number]["name"];
export const FLAGS: readonly (FlagWord & { name: FlagName })[] = FLAG_TABLE;

/** The table's row for `text`, if it is a flag of ours. */
export function flagNamed(text: string): (FlagWord & { name: FlagName }) | undefined {
  return FLAGS.find((flag) => flag.name === text);
}
