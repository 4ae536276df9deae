// README's host configuration, read as each host reads it: the JSON entries (tagged
// `<!-- example: host config; HOST... -->`) and the `claude mcp add` lines (tagged
// `<!-- example: host commands -->`), each checked against its host's own format and turned into
// what the host would start or reach, with README's placeholder paths made real. Used by
// test/programs/doc-examples.test.ts and host-config.test.ts (which start every entry), and by
// scripts/host-check.ts (which gives them to the real hosts).
// The formats, from each host's documentation:
//   Claude Desktop  https://modelcontextprotocol.io/docs/develop/connect-local-servers
//                   (claude_desktop_config.json "mcpServers": command, args; stdio only: remote
//                   servers are connectors, reached from Anthropic's cloud,
//                   https://support.claude.com/en/articles/11175166-getting-started-with-custom-connectors-using-remote-mcp)
//   Claude Code     https://code.claude.com/docs/en/mcp (`claude mcp add [--transport http] NAME ...`;
//                   .mcp.json "mcpServers": command, args, or "type": "http" with url)
//   VS Code         https://code.visualstudio.com/docs/copilot/reference/mcp-configuration
//                   (.vscode/mcp.json "servers": "type": "stdio" with command, args, or "type": "http" with url)
//   Cursor          https://cursor.com/docs/context/mcp (~/.cursor/mcp.json "mcpServers": command, args, or url)
//   Gemini CLI      https://geminicli.com/docs/tools/mcp-server (settings.json "mcpServers": command,
//                   args, or httpUrl for Streamable HTTP; its url means the old SSE transport)

import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDemoServer } from "../src/demo/server-definition.js";
import { McpHttpServer } from "../src/http/server.js";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** README's placeholders: where the clone is, and where a user's own project is. */
export const CLONE = "/absolute/path/to/mcp-wire/";
export const OWN_PROJECT = "/absolute/path/to/your-project/";
/** README's HTTP examples serve the demo here (`node dist/server.js --http --port 3000`). */
export const DEMO_URL = "http://127.0.0.1:3000/mcp";

export type Host = "claude-desktop" | "claude-code" | "vscode" | "cursor" | "gemini";
const HOSTS: readonly string[] = ["claude-desktop", "claude-code", "vscode", "cursor", "gemini"];

/** One server a host would start (stdio) or reach (http), as README wrote it. */
export type HostEntry =
  | { host: Host; name: string; transport: "stdio"; command: string; args: string[] }
  | { host: Host; name: string; transport: "http"; url: string };

export interface HostBlock {
  where: string;
  hosts: Host[];
  entries: HostEntry[];
}

/** The hosts a `host config; HOST HOST` tag names. */
export function hostsOfTag(tag: string): Host[] {
  const [, list = ""] = tag.split(";").map((part) => part.trim());
  const hosts = list.split(/\s+/).filter((word) => word !== "");
  if (hosts.length === 0) throw new Error(`host config: the tag names no host (one or more of ${HOSTS.join(", ")})`);
  for (const host of hosts) if (!HOSTS.includes(host)) throw new Error(`host config: unknown host ${JSON.stringify(host)} (one of ${HOSTS.join(", ")})`);
  return hosts as Host[];
}

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function stringsOf(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw new Error(`${what}: "args" must be an array of strings`);
  return value;
}

/** One entry of a host's JSON, checked against that host's format. */
function entryOf(host: Host, name: string, value: unknown): HostEntry {
  const what = `${host} "${name}"`;
  if (!isObject(value)) throw new Error(`${what}: an entry must be an object`);
  const known = new Set(["command", "args", "env", "cwd", "type", "url", "httpUrl", "headers"]);
  for (const key of Object.keys(value)) if (!known.has(key)) throw new Error(`${what}: unexpected field "${key}"`);
  const { type, command, url, httpUrl } = value;
  if (host === "vscode" && type !== "stdio" && type !== "http") throw new Error(`${what}: VS Code needs "type": "stdio" or "http"`);
  if (typeof command === "string") {
    if (type !== undefined && type !== "stdio") throw new Error(`${what}: a command with "type": ${JSON.stringify(type)}`);
    return { host, name, transport: "stdio", command, args: stringsOf(value.args, what) };
  }
  if (host === "claude-desktop") throw new Error(`${what}: Claude Desktop's file takes stdio servers only (command, args)`);
  if (host === "gemini") {
    if (typeof httpUrl !== "string") throw new Error(`${what}: Gemini CLI reaches Streamable HTTP by "httpUrl" ("url" is its SSE transport)`);
    return { host, name, transport: "http", url: httpUrl };
  }
  if (typeof url !== "string") throw new Error(`${what}: neither "command" nor "url"`);
  if ((host === "vscode" || host === "claude-code") && type !== "http") throw new Error(`${what}: a url needs "type": "http" here`);
  return { host, name, transport: "http", url };
}

/** The entries of a host configuration block: "servers" for VS Code, "mcpServers" for the others. */
export function entriesOf(hosts: Host[], config: unknown): HostEntry[] {
  if (!isObject(config)) throw new Error("host config: not a JSON object");
  const entries: HostEntry[] = [];
  for (const host of hosts) {
    const key = host === "vscode" ? "servers" : "mcpServers";
    const servers = config[key];
    if (!isObject(servers) || Object.keys(config).length !== 1) throw new Error(`host config: ${host} wants one key, "${key}"`);
    for (const [name, value] of Object.entries(servers)) entries.push(entryOf(host, name, value));
  }
  return entries;
}

/** A `claude mcp add` line: `[--scope S] NAME -- COMMAND ARGS...` or `--transport http NAME URL`. */
export function claudeCodeEntry(line: string): HostEntry {
  const words = line.trim().split(/\s+/);
  if (words.slice(0, 3).join(" ") !== "claude mcp add") throw new Error(`host commands: not a claude mcp add line: ${line}`);
  const rest = words.slice(3);
  let transport = "stdio";
  const positional: string[] = [];
  while (rest.length > 0 && rest[0] !== "--") {
    const word = rest.shift()!;
    if (word === "--transport") transport = rest.shift() ?? "";
    else if (word === "--scope") rest.shift();
    else if (word.startsWith("-")) throw new Error(`host commands: an option README does not explain: ${word}`);
    else positional.push(word);
  }
  const name = positional[0] ?? "";
  if (transport === "http") {
    if (positional.length !== 2 || rest.length > 0) throw new Error(`host commands: --transport http wants NAME URL: ${line}`);
    return { host: "claude-code", name, transport: "http", url: positional[1]! };
  }
  if (transport !== "stdio" || positional.length !== 1 || rest[0] !== "--" || rest.length < 2) throw new Error(`host commands: wants NAME -- COMMAND ARGS: ${line}`);
  return { host: "claude-code", name, transport: "stdio", command: rest[1]!, args: rest.slice(2) };
}

/** README's fenced blocks tagged `<!-- example: TAG... -->`, with their lines. */
function taggedBlocks(readme: string, prefix: string): { where: string; tag: string; lines: string[] }[] {
  const lines = readme.split("\n");
  const found: { where: string; tag: string; lines: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const tag = /^<!-- example: (.*?) -->$/.exec(lines[i]!)?.[1];
    if (tag === undefined || !tag.startsWith(prefix) || !/^```\w+$/.test(lines[i + 1] ?? "")) continue;
    const body: string[] = [];
    for (i += 2; lines[i] !== "```"; i++) body.push(lines[i]!);
    found.push({ where: `README.md:${i + 1 - body.length}`, tag, lines: body });
  }
  return found;
}

/** Every host block of README: the JSON ones and the `claude mcp add` lines. */
export function readmeHostBlocks(readme = readFileSync(join(ROOT, "README.md"), "utf8")): HostBlock[] {
  const blocks: HostBlock[] = taggedBlocks(readme, "host config").map(({ where, tag, lines }) => {
    const hosts = hostsOfTag(tag);
    return { where, hosts, entries: entriesOf(hosts, JSON.parse(lines.join("\n"))) };
  });
  for (const { where, lines } of taggedBlocks(readme, "host commands")) {
    const adds = lines.filter((line) => line.startsWith("claude mcp add "));
    blocks.push({ where, hosts: ["claude-code"], entries: adds.map(claudeCodeEntry) });
  }
  return blocks;
}

/** What an entry's path stands for: the clone (README's placeholder) or the user's own project. */
export function realPath(value: string, ownProject: string): string {
  return value.replace(CLONE, ROOT).replace(OWN_PROJECT, ownProject);
}

/**
 * What README's OWN_PROJECT + "dist/weather.js" stands for: a user's own server, as small as one
 * can be, importing this package's dist/ by its path (where node_modules would give it).
 */
export function ownServerSource(): string {
  const index = JSON.stringify(new URL("../dist/index.js", import.meta.url).href);
  return [
    `import { McpServer, serveStdio, text } from ${index};`,
    'const server = new McpServer({ name: "weather", version: "1.0.0" });',
    'server.tool({ name: "forecast", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },',
    "  ({ city }) => ({ content: [text(`Sunny in ${city}.`)] }));",
    "serveStdio(server);",
  ].join("\n") + "\n";
}

/** A user's machine, as README's host entries suppose it: their own project, the bins on PATH, the demo over HTTP. */
export interface UserMachine {
  /** What OWN_PROJECT stands for here. */
  ownProject: string;
  /** PATH with the package's bins first. */
  path: string;
  /** Where README's DEMO_URL is served here (a free port, not 3000). */
  demoUrl: string;
  close(): Promise<void>;
}

/**
 * Makes the machine under `home`: the user's own server (ownServerSource), package.json's "bin"
 * linked into a bin directory as `npm link` or `npm install -g` links it, and the demo served over
 * Streamable HTTP in this process.
 */
export async function makeUserMachine(home: string): Promise<UserMachine> {
  const ownProject = join(home, "your-project") + "/";
  mkdirSync(join(ownProject, "dist"), { recursive: true });
  writeFileSync(join(ownProject, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(ownProject, "dist/weather.js"), ownServerSource());
  const bin = join(home, "bin");
  mkdirSync(bin);
  symlinkSync(join(ROOT, "dist/server.js"), join(bin, "mcp-wire-server"));
  symlinkSync(join(ROOT, "dist/cli.cjs"), join(bin, "mcp-wire"));
  const http = new McpHttpServer(createDemoServer());
  const listening = await http.listen();
  listening.server.unref();
  return {
    ownProject,
    path: [bin, process.env.PATH].join(delimiter),
    demoUrl: DEMO_URL.replace("http://127.0.0.1:3000", listening.origin),
    close: async () => {
      await listening.close();
      await http.close();
    },
  };
}

/** The entry as the user's machine runs it: README's placeholders made real. */
export function onMachine(entry: HostEntry, machine: UserMachine): HostEntry {
  if (entry.transport === "http") {
    if (entry.url !== DEMO_URL) throw new Error(`${entry.host} "${entry.name}": README's HTTP examples use ${DEMO_URL}, not ${entry.url}`);
    return { ...entry, url: machine.demoUrl };
  }
  return { ...entry, args: entry.args.map((arg) => realPath(arg, machine.ownProject)) };
}

/** The server name an entry's initialize must answer with: the user's own server is "weather", every other the demo. */
export function expectedServerName(entry: HostEntry): string {
  return entry.transport === "stdio" && entry.args.some((arg) => arg.startsWith(OWN_PROJECT)) ? "weather" : "mcp-wire-demo";
}
