// `--config FILE --server NAME`: the server taken from a host's configuration file (Claude Desktop,
// Claude Code's .mcp.json, Cursor, VS Code's mcp.json, Gemini CLI's settings.json), as
// cli/host-config.ts reads them; then the built program run from such a file.
// Run `npm run build` first: the program tests need dist/.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCommandLine, UsageError, type CliOptions } from "../../src/cli/arguments.js";
import { hostServer, loadHostServer, sessionFromConfig } from "../../src/cli/host-config.js";
import { ExitCode } from "../../src/cli/output.js";
import { DEMO, parsedOutput, runCli, SERVER } from "./program.js";

const DIR = mkdtempSync(join(tmpdir(), "mcp-wire-host-config-"));
process.on("exit", () => rmSync(DIR, { recursive: true, force: true }));
const json = (value: unknown): string => JSON.stringify(value, null, 2);
const ENV = { HOME: "/home/u", TOKEN: "t0k", PORT: "3000" };

// ---- the formats ----

test("mcpServers (Claude Desktop, Cursor, .mcp.json): a command with args, env and cwd", () => {
  const text = json({ mcpServers: { demo: { command: "node", args: ["server.js", "--x"], env: { A: "1" }, cwd: "/srv" } } });
  assert.deepEqual(hostServer("/c/claude_desktop_config.json", text, "demo", ENV), {
    name: "demo", server: { command: "node", args: ["server.js", "--x"] }, env: { A: "1" }, cwd: "/srv",
  });
});

test("mcpServers: a url with headers, with or without a type (http, sse, streamable-http)", () => {
  for (const type of [undefined, "http", "sse", "streamable-http"]) {
    const text = json({ mcpServers: { web: { type, url: "http://127.0.0.1:3000/mcp", headers: { "X-Key": "k" } } } });
    assert.deepEqual(hostServer("/c/mcp.json", text, "web", ENV), {
      name: "web", server: { url: "http://127.0.0.1:3000/mcp", headers: { "X-Key": "k" } }, env: {},
    });
  }
});

test("VS Code's servers: type stdio and type http; its file may hold comments and trailing commas", () => {
  const text = `{
    // the demo
    "servers": {
      "demo": { "type": "stdio", "command": "node", "args": ["s.js"], "env": { "A": "1" }, },
      /* and one over HTTP */
      "web": { "type": "http", "url": "http://127.0.0.1:3000/mcp", "headers": { "X-Key": "k" } },
    },
    "inputs": [],
  }`;
  assert.deepEqual(hostServer("/p/.vscode/mcp.json", text, "demo", ENV), { name: "demo", server: { command: "node", args: ["s.js"] }, env: { A: "1" } });
  assert.deepEqual(hostServer("/p/.vscode/mcp.json", text, "web", ENV), { name: "web", server: { url: "http://127.0.0.1:3000/mcp", headers: { "X-Key": "k" } }, env: {} });
});

test("Gemini CLI's settings.json: httpUrl (Streamable HTTP), url (SSE) and command", () => {
  const text = json({ theme: "x", mcpServers: { a: { httpUrl: "http://127.0.0.1:1/mcp", headers: { H: "1" } }, b: { url: "http://127.0.0.1:2/sse" }, c: { command: "srv" } } });
  const file = "/p/.gemini/settings.json";
  assert.deepEqual(hostServer(file, text, "a", ENV).server, { url: "http://127.0.0.1:1/mcp", headers: { H: "1" } });
  assert.deepEqual(hostServer(file, text, "b", ENV).server, { url: "http://127.0.0.1:2/sse", headers: {} });
  assert.deepEqual(hostServer(file, text, "c", ENV).server, { command: "srv", args: [] });
});

test("no --server: the only server of the file is taken; of several, the error lists them", () => {
  assert.equal(hostServer("/c/x.json", json({ mcpServers: { only: { command: "a" } } }), undefined, ENV).name, "only");
  assert.throws(() => hostServer("/c/x.json", json({ mcpServers: { one: { command: "a" }, two: { command: "b" } } }), undefined, ENV),
    (e: unknown) => e instanceof UsageError && e.message === "/c/x.json has 2 servers: one, two; say which with --server NAME");
});

test("expansion: ${VAR} and ${VAR:-default} in .mcp.json (Claude Code); ${env:VAR} in VS Code's and Cursor's files; $VAR and ${VAR} in Gemini's", () => {
  const claudeCode = json({ mcpServers: { s: { command: "${HOME}/bin/srv", args: ["--port", "${PORT:-80}", "${NONE:-d}"], env: { K: "${TOKEN}" } } } });
  assert.deepEqual(hostServer("/p/.mcp.json", claudeCode, "s", ENV), { name: "s", server: { command: "/home/u/bin/srv", args: ["--port", "3000", "d"] }, env: { K: "t0k" } });
  const vscode = json({ servers: { s: { type: "http", url: "http://127.0.0.1:${env:PORT}/mcp", headers: { Authorization: "Bearer ${env:TOKEN}" } } } });
  assert.deepEqual(hostServer("/p/.vscode/mcp.json", vscode, "s", ENV).server, { url: "http://127.0.0.1:3000/mcp", headers: { Authorization: "Bearer t0k" } });
  const cursor = json({ mcpServers: { s: { command: "srv", args: ["${env:TOKEN}", "${userHome}"] } } });
  assert.deepEqual(hostServer("/p/.cursor/mcp.json", cursor, "s", ENV).server, { command: "srv", args: ["t0k", "/home/u"] });
  const gemini = json({ mcpServers: { s: { command: "srv", env: { A: "$TOKEN", B: "${PORT}" } } } });
  assert.deepEqual(hostServer("/p/.gemini/settings.json", gemini, "s", ENV).env, { A: "t0k", B: "3000" });
});

test("expansion: none in a file whose host defines none (Claude Desktop's): the text is kept as written", () => {
  const text = json({ mcpServers: { s: { command: "srv", args: ["${TOKEN}", "$TOKEN", "${env:TOKEN}"] } } });
  assert.deepEqual(hostServer("/c/claude_desktop_config.json", text, "s", ENV).server, { command: "srv", args: ["${TOKEN}", "$TOKEN", "${env:TOKEN}"] });
});

test("a relative cwd is the config file's directory's", () => {
  assert.equal(hostServer("/p/.gemini/settings.json", json({ mcpServers: { s: { command: "srv", cwd: "./server-dir" } } }), "s", ENV).cwd, "/p/.gemini/server-dir");
});

const broken: { name: string; file?: string; text: string; server?: string; message: RegExp }[] = [
  { name: "not JSON: the line and column", text: '{\n  "mcpServers": {\n    "a": { "command": "x" ]\n  }\n}', message: /^\/c\/x\.json is not valid JSON at line 3, column 27: / },
  { name: "not JSON: cut short", text: '{"mcpServers": {', message: /^\/c\/x\.json is not valid JSON at line 1, column 17: / },
  { name: "not an object", text: "[1]", message: /^\/c\/x\.json has no "mcpServers" or "servers" object: is it a host's MCP configuration\?$/ },
  { name: "neither key", text: json({ servers2: {} }), message: /^\/c\/x\.json has no "mcpServers" or "servers" object/ },
  { name: "no servers", text: json({ mcpServers: {} }), message: /^\/c\/x\.json names no servers$/ },
  { name: "no such server, with a suggestion", text: json({ mcpServers: { weather: { command: "a" }, files: { command: "b" } } }), server: "wether", message: /^\/c\/x\.json has no server "wether" \(did you mean "weather"\?\); its servers: weather, files$/ },
  { name: "no such server, nothing near", text: json({ mcpServers: { weather: { command: "a" } } }), server: "zzz", message: /^\/c\/x\.json has no server "zzz"; its servers: weather$/ },
  { name: "neither command nor url", text: json({ mcpServers: { s: { args: ["a"] } } }), server: "s", message: /^\/c\/x\.json: server "s" has neither "command" nor "url" \(nor "httpUrl\"\): mcp-wire cannot run it$/ },
  { name: "a type we do not speak", text: json({ servers: { s: { type: "websocket", url: "ws://h" } } }), server: "s", message: /^\/c\/x\.json: server "s" has type "websocket"; mcp-wire runs "stdio", "http", "sse" and "streamable-http"$/ },
  { name: "args not strings", text: json({ mcpServers: { s: { command: "a", args: ["x", 1] } } }), server: "s", message: /^\/c\/x\.json: server "s": "args" must be an array of strings$/ },
  { name: "env not strings", text: json({ mcpServers: { s: { command: "a", env: { A: 1 } } } }), server: "s", message: /^\/c\/x\.json: server "s": "env" must be an object of strings$/ },
  { name: "a url that is not http", text: json({ mcpServers: { s: { url: "ftp://h/x" } } }), server: "s", message: /^\/c\/x\.json: server "s": "url": expected an http:\/\/ or https:\/\/ URL, got "ftp:\/\/h\/x"$/ },
  { name: "VS Code's envFile", file: "/p/.vscode/mcp.json", text: json({ servers: { s: { type: "stdio", command: "a", envFile: ".env" } } }), server: "s", message: /^\/p\/\.vscode\/mcp\.json: server "s" has "envFile", which mcp-wire does not read: put the variables in "env", or pass them with --env$/ },
  { name: "VS Code's ${input:...}", file: "/p/.vscode/mcp.json", text: json({ servers: { s: { type: "stdio", command: "a", env: { K: "${input:key}" } } } }), server: "s", message: /^\/p\/\.vscode\/mcp\.json: server "s" uses \$\{input:key\}, which only VS Code can ask for: pass the value with --env or --header instead$/ },
  { name: "an unset variable", file: "/p/.mcp.json", text: json({ mcpServers: { s: { command: "a", args: ["${NOT_SET}"] } } }), server: "s", message: /^\/p\/\.mcp\.json: server "s" uses \$\{NOT_SET\}, and NOT_SET is not set$/ },
];
for (const c of broken) {
  test(`config refused: ${c.name}`, () => {
    assert.throws(() => hostServer(c.file ?? "/c/x.json", c.text, c.server, ENV), (e: unknown) => e instanceof UsageError && c.message.test(e.message));
  });
}

test("a file that is not there is named, as given", () => {
  assert.throws(() => loadHostServer(join(DIR, "nope.json"), undefined, ENV), (e: unknown) => e instanceof UsageError && e.message === `cannot read ${join(DIR, "nope.json")}: no such file`);
});

// ---- the command line ----

const defaults: CliOptions = { protocolVersion: "auto", trace: false, quiet: false, env: {} };

test("cli arguments: --config FILE [--server NAME] in place of a server command or --url", () => {
  assert.deepEqual(parseCommandLine(["--config", "a.json", "--server", "demo", "tools"]), { help: false, options: defaults, command: { name: "tools" }, server: { config: "a.json", name: "demo", headers: {} } });
  assert.deepEqual(parseCommandLine(["tools", "--config=a.json"]), { help: false, options: defaults, command: { name: "tools" }, server: { config: "a.json", headers: {} } });
});

const refused: { argv: string[]; message: RegExp }[] = [
  { argv: ["--server", "demo", "tools", "--", "x"], message: /^--server needs --config FILE: it names a server of that file$/ },
  { argv: ["--config", "a.json", "tools", "--", "x"], message: /^give one of --config, --url or a server command after "--", not two$/ },
  { argv: ["--config", "a.json", "--url", "http://h/mcp", "tools"], message: /^give one of --config, --url or a server command after "--", not two$/ },
  { argv: ["--config", "", "tools"], message: /^--config needs a value$/ },
];
for (const c of refused) {
  test(`cli arguments: refuses ${JSON.stringify(c.argv)}`, () => {
    assert.throws(() => parseCommandLine(c.argv), (e: unknown) => e instanceof UsageError && c.message.test(e.message));
  });
}

test("the entry's env goes over our environment, and --env over the entry's; --cwd over its cwd", () => {
  const file = join(DIR, "env.json");
  writeFileSync(file, json({ mcpServers: { s: { command: "srv", args: ["a"], env: { A: "entry", B: "entry" }, cwd: "/srv" } } }));
  const line = parseCommandLine(["--config", file, "--env", "B=flag", "tools"]);
  assert.ok(!line.help && "options" in line);
  assert.deepEqual(sessionFromConfig(line, ENV), {
    options: { ...defaults, env: { A: "entry", B: "flag" }, cwd: "/srv" }, command: { name: "tools" }, server: { command: "srv", args: ["a"] },
  });
  const moved = parseCommandLine(["--config", file, "--cwd", "/elsewhere", "tools"]);
  assert.ok(!moved.help && "options" in moved);
  assert.equal(sessionFromConfig(moved, ENV).options.cwd, "/elsewhere");
});

test("an HTTP entry takes --header (over its own headers) and refuses --env; a stdio entry refuses --header", () => {
  const file = join(DIR, "web.json");
  writeFileSync(file, json({ mcpServers: { web: { url: "http://127.0.0.1:1/mcp", headers: { A: "entry", B: "entry" } }, cmd: { command: "srv" } } }));
  const line = parseCommandLine(["--config", file, "--server", "web", "--header", "B: flag", "tools"]);
  assert.ok(!line.help && "options" in line);
  assert.deepEqual(sessionFromConfig(line, ENV).server, { url: "http://127.0.0.1:1/mcp", headers: { A: "entry", B: "flag" } });
  const withEnv = parseCommandLine(["--config", file, "--server", "web", "--env", "A=1", "tools"]);
  assert.ok(!withEnv.help && "options" in withEnv);
  assert.throws(() => sessionFromConfig(withEnv, ENV), /^UsageError: --env and --cwd are for a server started by command, and "web" is reached by URL$/);
  const withHeader = parseCommandLine(["--config", file, "--server", "cmd", "--header", "A: 1", "tools"]);
  assert.ok(!withHeader.help && "options" in withHeader);
  assert.throws(() => sessionFromConfig(withHeader, ENV), /^UsageError: --header and the OAuth options are for a server reached by URL, and "cmd" is started by command$/);
});

// ---- the built program ----

describe("cli program: --config", { timeout: 60_000 }, () => {
  const file = join(DIR, "project", ".mcp.json");
  mkdirSync(join(DIR, "project"));
  writeFileSync(file, json({ mcpServers: { demo: { command: process.execPath, args: [SERVER] }, other: { command: "nothing-here" } } }));

  test("--config FILE --server NAME prints what the same server after -- prints", async () => {
    const fromConfig = parsedOutput(await runCli(["--config", file, "--server", "demo", "tools"]));
    const direct = parsedOutput(await runCli(["tools", ...DEMO]));
    assert.deepEqual(fromConfig, direct);
  });

  test("--help names --config and --server", async () => {
    const help = (await runCli(["--help"])).stdout;
    assert.match(help, /^ {7}mcp-wire \[options\] --config FILE \[--server NAME\] <command> \[arguments\]$/m);
    assert.match(help, /^ {2}--config FILE {12}take the server from a host's configuration file/m);
    assert.match(help, /^ {2}--server NAME {12}the server of --config's file/m);
  });

  test("a file problem is a usage error: exit 2, nothing started, nothing on stdout", async () => {
    for (const [args, message] of [
      [["--config", file, "tools"], /has 2 servers: demo, other; say which with --server NAME/],
      [["--config", file, "--server", "dmeo", "tools"], /has no server "dmeo" \(did you mean "demo"\?\)/],
      [["--config", join(DIR, "none.json"), "tools"], /cannot read .*none\.json: no such file/],
    ] as const) {
      const result = await runCli([...args]);
      assert.equal(result.code, ExitCode.usage, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, message);
    }
  });
});
