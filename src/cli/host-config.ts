// `--config FILE [--server NAME]`: a server taken from the file a host (an MCP client application)
// keeps its servers in, so that what runs in the host runs the same under mcp-wire. The formats:
// - "mcpServers": {NAME: {command, args?, env?, cwd?} | {url, headers?} | {type, url, headers?}}, as
//   Claude Desktop (https://modelcontextprotocol.io/quickstart/user), Claude Code's .mcp.json
//   (https://code.claude.com/docs/en/mcp), Cursor (https://cursor.com/docs/context/mcp) and Gemini
//   CLI's settings.json (https://geminicli.com/docs/tools/mcp-server: httpUrl for Streamable HTTP,
//   url for SSE) write it;
// - "servers": {NAME: {type: "stdio", command, args?, env?} | {type: "http" | "sse", url, headers?}},
//   VS Code's mcp.json (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration).
// Every URL goes to the HTTP transport, which speaks Streamable HTTP and falls back to HTTP+SSE.
// Left out: VS Code's "envFile" and "${input:...}" (refused, by name), a host's own fields
// (timeout, trust, includeTools, ...: ignored).

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, resolve } from "node:path";
import { isObject } from "../jsonrpc/messages.js";
import { httpUrl, type ConfiguredServer, type CliOptions, type ServerLocation } from "./arguments.js";
import type { Command } from "./command.js";
import type { SessionLine } from "./session.js";
import { didYouMean } from "./suggest.js";
import { UsageError } from "./usage.js";

/** One server of a configuration file, as mcp-wire runs it; `env` goes over our own environment. */
export interface HostServer {
  name: string;
  server: ServerLocation;
  env: { [key: string]: string };
  cwd?: string;
}

type Environment = { [key: string]: string | undefined };

/** The command line with its server read from the file named by --config (any other, as it is). */
export function sessionFromConfig(
  line: { options: CliOptions; command: Command; server: ServerLocation | ConfiguredServer }, environment: Environment = process.env,
): SessionLine {
  if (!("config" in line.server)) return { options: line.options, command: line.command, server: line.server };
  const { config, name, headers, authorization } = line.server;
  const found = loadHostServer(config, name, environment);
  if ("url" in found.server) {
    if (line.options.cwd !== undefined || Object.keys(line.options.env).length > 0) {
      throw new UsageError(`--env and --cwd are for a server started by command, and ${JSON.stringify(found.name)} is reached by URL`);
    }
    const server: ServerLocation = { url: found.server.url, headers: { ...found.server.headers, ...headers } };
    if (authorization !== undefined) server.authorization = authorization;
    return { options: line.options, command: line.command, server };
  }
  if (Object.keys(headers).length > 0 || authorization !== undefined) {
    throw new UsageError(`--header and the OAuth options are for a server reached by URL, and ${JSON.stringify(found.name)} is started by command`);
  }
  // The command line's --env and --cwd win over the file's: they are the more particular wish.
  const options: CliOptions = { ...line.options, env: { ...found.env, ...line.options.env } };
  const cwd = line.options.cwd ?? found.cwd;
  if (cwd !== undefined) options.cwd = cwd;
  return { options, command: line.command, server: found.server };
}

/** Reads `file` and takes its server `name` (or its only one). */
export function loadHostServer(file: string, name: string | undefined, environment: Environment): HostServer {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
    throw new UsageError(`cannot read ${file}: ${why}`);
  }
  return hostServer(file, text, name, environment);
}

/** The server `name` of the configuration file `file`, whose text is `text`. */
export function hostServer(file: string, text: string, name: string | undefined, environment: Environment): HostServer {
  const document = parse(file, text);
  const key = isObject(document) && isObject(document.mcpServers) ? "mcpServers" : isObject(document) && isObject(document.servers) ? "servers" : undefined;
  if (key === undefined) throw new UsageError(`${file} has no "mcpServers" or "servers" object: is it a host's MCP configuration?`);
  const servers = (document as { [key: string]: { [name: string]: unknown } })[key];
  const names = Object.keys(servers);
  if (names.length === 0) throw new UsageError(`${file} names no servers`);
  if (name === undefined && names.length > 1) throw new UsageError(`${file} has ${names.length} servers: ${names.join(", ")}; say which with --server NAME`);
  const chosen = name ?? names[0];
  if (!Object.hasOwn(servers, chosen)) throw new UsageError(`${file} has no server ${JSON.stringify(chosen)}${didYouMean(chosen, names)}; its servers: ${names.join(", ")}`);
  const where = `${file}: server ${JSON.stringify(chosen)}`;
  const fail = (detail: string): never => {
    throw new UsageError(`${where}${detail}`);
  };
  return { name: chosen, ...entry(servers[chosen], expander(file, key, environment, fail), dirname(file), where, fail) };
}

/** JSON, with the comments and trailing commas VS Code's and Gemini CLI's files may hold (JSONC). */
function parse(file: string, text: string): unknown {
  // Blanked rather than removed, so that a position in the error is the position in the file.
  const plain = text
    .replace(/"(?:[^"\\\n]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (found) => (found.startsWith('"') ? found : found.replace(/[^\n]/g, " ")))
    .replace(/"(?:[^"\\\n]|\\.)*"|,(?=\s*[}\]])/g, (found) => (found === "," ? " " : found));
  try {
    return JSON.parse(plain);
  } catch (error) {
    const message = (error as Error).message;
    const at = Number(/at position (\d+)/.exec(message)?.[1] ?? plain.length);
    const before = plain.slice(0, at).split("\n");
    const reason = message.replace(/ in JSON at position \d+.*$/, "").replace(/\s*\(line \d+ column \d+\)$/, "");
    throw new UsageError(`${file} is not valid JSON at line ${before.length}, column ${before[before.length - 1].length + 1}: ${reason}`);
  }
}

const TYPES = ["stdio", "http", "sse", "streamable-http"];

/** One entry of the file, checked field by field, each string expanded as its host would. */
function entry(
  value: unknown, expand: (text: string) => string, directory: string, where: string, fail: (detail: string) => never,
): Omit<HostServer, "name"> {
  if (!isObject(value)) return fail(" is not an object");
  if (value.envFile !== undefined) fail(' has "envFile", which mcp-wire does not read: put the variables in "env", or pass them with --env');
  const type = value.type;
  if (type !== undefined && (typeof type !== "string" || !TYPES.includes(type))) {
    fail(` has type ${JSON.stringify(type)}; mcp-wire runs ${TYPES.map((t) => JSON.stringify(t)).join(", ").replace(/, ([^,]*)$/, " and $1")}`);
  }
  // Gemini CLI's order when an entry has several: httpUrl, then url, then command.
  const url = type === "stdio" ? undefined : value.httpUrl ?? value.url;
  if (url !== undefined) {
    if (typeof url !== "string") return fail(': "url" must be a string');
    return { server: { url: httpUrl(expand(url), `${where}: "url"`), headers: strings(value.headers, "headers", expand, fail) }, env: {} };
  }
  if (typeof value.command !== "string") return fail(' has neither "command" nor "url" (nor "httpUrl"): mcp-wire cannot run it');
  if (value.args !== undefined && !(Array.isArray(value.args) && value.args.every((arg) => typeof arg === "string"))) fail(': "args" must be an array of strings');
  const server = { command: expand(value.command), args: ((value.args ?? []) as string[]).map(expand) };
  const found: Omit<HostServer, "name"> = { server, env: strings(value.env, "env", expand, fail) };
  if (value.cwd !== undefined) {
    if (typeof value.cwd !== "string") fail(': "cwd" must be a string');
    // A relative cwd is taken from the file's own directory, wherever mcp-wire is run from.
    found.cwd = resolve(directory, expand(value.cwd as string));
  }
  return found;
}

function strings(value: unknown, field: string, expand: (text: string) => string, fail: (detail: string) => never): { [key: string]: string } {
  if (value === undefined) return {};
  if (!isObject(value) || !Object.values(value).every((text) => typeof text === "string")) return fail(`: ${JSON.stringify(field)} must be an object of strings`);
  return Object.fromEntries(Object.entries(value as { [key: string]: string }).map(([key, text]) => [key, expand(text)]));
}

/**
 * How the file's host expands variables in its strings, told by the file's name and place, since
 * the "mcpServers" shape is shared: none in Claude Desktop's (nor in any file we cannot place);
 * `${VAR}` and `${VAR:-default}` in Claude Code's .mcp.json; `$VAR` and `${VAR}` in Gemini CLI's
 * (.gemini/); `${env:VAR}`, `${userHome}`, `${workspaceFolder}` and their kin in VS Code's
 * ("servers") and Cursor's (.cursor/). A variable that is not set is an error, not an empty
 * string: a server started with an empty key fails later, and less clearly.
 */
function expander(file: string, key: "mcpServers" | "servers", environment: Environment, fail: (detail: string) => never): (text: string) => string {
  const folders = file.split(/[\\/]/);
  const variable = (found: string, name: string, fallback?: string): string => {
    const value = environment[name] ?? fallback;
    return value ?? fail(` uses ${found}, and ${name} is not set`);
  };
  if (basename(file) === ".mcp.json") {
    return (text) => text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (found, name: string, fallback?: string) => variable(found, name, fallback));
  }
  if (folders.includes(".gemini")) {
    return (text) => text.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (found, braced?: string, bare?: string) => variable(found, braced ?? bare ?? ""));
  }
  const editor = key === "servers" ? ".vscode" : folders.includes(".cursor") ? ".cursor" : undefined;
  if (editor === undefined) return (text) => text;
  // The workspace is the folder that holds .vscode/ (or .cursor/); a profile's file has none.
  const at = folders.lastIndexOf(editor);
  const workspace = at > 0 ? folders.slice(0, at).join("/") : undefined;
  const known: { [name: string]: () => string | undefined } = {
    userHome: () => environment.HOME ?? homedir(),
    workspaceFolder: () => workspace,
    workspaceFolderBasename: () => (workspace === undefined ? undefined : basename(workspace)),
    pathSeparator: () => "/",
    "/": () => "/",
  };
  return (text) => text.replace(/\$\{([^}]*)\}/g, (found, inner: string) => {
    if (inner.startsWith("env:")) return variable(found, inner.slice(4));
    if (inner.startsWith("input:")) return fail(` uses ${found}, which only VS Code can ask for: pass the value with --env or --header instead`);
    const value = Object.hasOwn(known, inner) ? known[inner]() : undefined;
    return value ?? fail(` uses ${found}, which mcp-wire cannot fill in here`);
  });
}
