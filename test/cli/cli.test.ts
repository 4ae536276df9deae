// The mcp-wire CLI: its argument parser, key=value typing, tracing and failure messages as units,
// then the built program (`node dist/cli.unbundled.js ... -- node dist/server.js`) as a child process.
// Run `npm run build` first: the program tests need dist/.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpHttpServer } from "../../src/http/server.js";
import { parseCommandLine, UsageError, type CliOptions, type CommandLine } from "../../src/cli/arguments.js";
import { coerceArguments } from "../../src/cli/commands.js";
import { describeFailure, StepFailure } from "../../src/cli/failures.js";
import { ExitCode } from "../../src/cli/output.js";
import { cliTrace } from "../../src/cli/trace.js";
import { HandshakeTimeoutError, ModernRefusedError, ProbeEndedError, VersionRefusedError } from "../../src/client/errors.js";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { ConnectionClosedError, RequestTimeoutError } from "../../src/jsonrpc/pending.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { ServerExitedError, SpawnError } from "../../src/transports/stdio-client.js";
import { CLI, DEMO, nodeScript, parsedOutput, runCli, SERVER, type Run } from "./program.js";

// ---- the argument parser ----

const server = { command: "node", args: ["s.js", "--flag"] };
const defaults: CliOptions = { protocolVersion: "auto", trace: false, quiet: false, env: {} };
const parsed: { name: string; argv: string[]; expected: CommandLine }[] = [
  { name: "a list command", argv: ["tools", "--", "node", "s.js", "--flag"], expected: { help: false, options: defaults, command: { name: "tools" }, server } },
  {
    name: "every option, in both spellings, and options after the command",
    argv: ["--trace", "--timeout", "50", "--handshake-timeout=70", "--env", "A=1", "--env=B=x=y", "--cwd", "/tmp", "ping", "--log-level", "debug", "--quiet", "--", "node", "s.js", "--flag"],
    expected: {
      help: false,
      options: { protocolVersion: "auto", trace: true, quiet: true, timeoutMs: 50, handshakeTimeoutMs: 70, env: { A: "1", B: "x=y" }, cwd: "/tmp", logLevel: "debug" },
      command: { name: "ping" },
      server,
    },
  },
  { name: "call without arguments", argv: ["call", "get_time", "--", "node", "s.js", "--flag"], expected: { help: false, options: defaults, command: { name: "call", tool: "get_time", args: { kind: "none" } }, server } },
  {
    name: "call with key=value pairs (a value may hold '=')",
    argv: ["call", "add", "a=3", "b=x=1", "--", "node", "s.js", "--flag"],
    expected: { help: false, options: defaults, command: { name: "call", tool: "add", args: { kind: "pairs", pairs: [["a", "3"], ["b", "x=1"]] } }, server },
  },
  {
    name: "call with one JSON object",
    argv: ["call", "add", '{"a":1,"b":2}', "--", "node", "s.js", "--flag"],
    expected: { help: false, options: defaults, command: { name: "call", tool: "add", args: { kind: "json", value: { a: 1, b: 2 } } }, server },
  },
  {
    name: "get with string arguments",
    argv: ["get", "explain_topic", "topic=tools", "audience=expert", "--", "node", "s.js", "--flag"],
    expected: { help: false, options: defaults, command: { name: "get", prompt: "explain_topic", args: { topic: "tools", audience: "expert" } }, server },
  },
  {
    name: "get with one JSON object, as call takes it",
    argv: ["get", "explain_topic", ' {"topic":"tools","audience":"expert"}', "--", "node", "s.js", "--flag"],
    expected: { help: false, options: defaults, command: { name: "get", prompt: "explain_topic", args: { topic: "tools", audience: "expert" } }, server },
  },
  { name: "get without arguments", argv: ["get", "p", "--", "node", "s.js", "--flag"], expected: { help: false, options: defaults, command: { name: "get", prompt: "p", args: {} }, server } },
  {
    name: "complete against a prompt name",
    argv: ["complete", "explain_topic", "topic", "li", "--", "node", "s.js", "--flag"],
    expected: { help: false, options: defaults, command: { name: "complete", ref: { type: "ref/prompt", name: "explain_topic" }, argument: "topic", value: "li" }, server },
  },
  {
    name: "complete against a resource template",
    argv: ["complete", "docs://demo/notes/{section}", "section", "", "--", "node", "s.js", "--flag"],
    expected: { help: false, options: defaults, command: { name: "complete", ref: { type: "ref/resource", uri: "docs://demo/notes/{section}" }, argument: "section", value: "" }, server },
  },
  {
    name: "request with params",
    argv: ["request", "resources/read", '{"uri":"a://b"}', "--", "node", "s.js", "--flag"],
    expected: { help: false, options: defaults, command: { name: "request", method: "resources/read", params: { uri: "a://b" } }, server },
  },
  { name: "read", argv: ["read", "a://b", "--", "node", "s.js", "--flag"], expected: { help: false, options: defaults, command: { name: "read", uri: "a://b" }, server } },
  {
    name: "--url with headers, instead of a server command",
    argv: ["--url", "http://127.0.0.1:3000/mcp", "--header", "Authorization: Bearer abc:def", "--header=X-Tag:1", "tools"],
    expected: { help: false, options: defaults, command: { name: "tools" }, server: { url: "http://127.0.0.1:3000/mcp", headers: { Authorization: "Bearer abc:def", "X-Tag": "1" } } },
  },
  { name: "--url alone, normalized", argv: ["ping", "--url=https://example.com"], expected: { help: false, options: defaults, command: { name: "ping" }, server: { url: "https://example.com/", headers: {} } } },
  { name: "discover", argv: ["discover", "--", "node", "s.js", "--flag"], expected: { help: false, options: defaults, command: { name: "discover" }, server } },
  ...(["auto", "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const).map((version) => ({
    name: `--protocol-version ${version}`,
    argv: [`--protocol-version=${version}`, "discover", "--", "node", "s.js", "--flag"],
    expected: { help: false, options: { ...defaults, protocolVersion: version }, command: { name: "discover" }, server } as const,
  })),
  { name: "--help wins over everything", argv: ["call", "--help"], expected: { help: true } },
  { name: "-h too", argv: ["-h", "bogus"], expected: { help: true } },
];
for (const c of parsed) {
  test(`cli arguments: ${c.name}`, () => assert.deepEqual(parseCommandLine(c.argv), c.expected));
}

const refused: { argv: string[]; message: RegExp }[] = [
  { argv: [], message: /^missing command$/ },
  { argv: ["tools"], message: /^missing server: put its command after "--"/ },
  { argv: ["tools", "--"], message: /^missing server/ },
  { argv: ["fly", "--", "x"], message: /^unknown command "fly"$/ },
  { argv: ["request", "", "--", "x"], message: /^request: a method name is required$/ },
  { argv: ["--verbose", "tools", "--", "x"], message: /^unknown option --verbose$/ },
  { argv: ["tools", "extra", "--", "x"], message: /^tools: expected no arguments, got 1 argument$/ },
  { argv: ["read", "--", "x"], message: /^read: expected <uri>, got 0 arguments$/ },
  { argv: ["complete", "p", "a", "--", "x"], message: /^complete: expected <prompt \| template-uri> <argument> <value>/ },
  { argv: ["call", "add", "{bad", "--", "x"], message: /^call: JSON arguments is not valid JSON/ },
  { argv: ["call", "add", "[1]", "--", "x"], message: /^call: expected key=value, got "\[1\]"$/ },
  { argv: ["call", "add", '{"a":1}', "b=2", "--", "x"], message: /^call: give the arguments either as one JSON object or as key=value pairs/ },
  { argv: ["call", "add", "a=1", "a=2", "--", "x"], message: /^call: argument "a" is given twice$/ },
  { argv: ["get", "p", "=x", "--", "x"], message: /^get: expected key=value, got "=x"$/ },
  { argv: ["get", "p", "{bad", "--", "x"], message: /^get: JSON arguments is not valid JSON/ },
  { argv: ["get", "p", '{"a":"x"}', "b=y", "--", "x"], message: /^get: give the arguments either as one JSON object or as key=value pairs/ },
  { argv: ["get", "p", "a=1", "a=2", "--", "x"], message: /^get: argument "a" is given twice$/ },
  { argv: ["get", "p", '{"topic":"tools","n":3}', "--", "x"], message: /^get: argument "n" must be a string \(prompt arguments are strings\), got 3$/ },
  { argv: ["get", "p", '{"on":true}', "--", "x"], message: /^get: argument "on" must be a string .*, got true$/ },
  { argv: ["get", "p", '{"list":["a"]}', "--", "x"], message: /^get: argument "list" must be a string .*, got \["a"\]$/ },
  { argv: ["get", "p", '{"none":null}', "--", "x"], message: /^get: argument "none" must be a string .*, got null$/ },
  { argv: ["request", "m", "[1]", "--", "x"], message: /^request: PARAMS_JSON must be a JSON object, got \[1\]$/ },
  { argv: ["--timeout", "abc", "ping", "--", "x"], message: /^--timeout needs a positive whole number of milliseconds, got "abc"$/ },
  { argv: ["--timeout", "0", "ping", "--", "x"], message: /^--timeout needs a positive whole number/ },
  { argv: ["ping", "--timeout"], message: /^--timeout needs a value$/ },
  { argv: ["--trace=yes", "ping", "--", "x"], message: /^--trace takes no value$/ },
  { argv: ["--env", "NOEQUALS", "ping", "--", "x"], message: /^--env: expected key=value, got "NOEQUALS"$/ },
  { argv: ["--log-level", "loud", "ping", "--", "x"], message: /^--log-level: "loud" is not one of debug, info/ },
  { argv: ["--protocol-version", "2026-01-01", "discover", "--", "x"], message: /^--protocol-version: "2026-01-01" is not one of auto, 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05$/ },
  { argv: ["--protocol-version", "AUTO", "discover", "--", "x"], message: /^--protocol-version: "AUTO" is not one of/ },
  { argv: ["--protocol-version=", "discover", "--", "x"], message: /^--protocol-version: "" is not one of/ },
  { argv: ["discover", "--protocol-version"], message: /^--protocol-version needs a value$/ },
  { argv: ["discover", "extra", "--", "x"], message: /^discover: expected no arguments, got 1 argument$/ },
  { argv: ["--url", "ftp://h/x", "ping"], message: /^--url: expected an http:\/\/ or https:\/\/ URL, got "ftp:\/\/h\/x"$/ },
  { argv: ["--url", "not a url", "ping"], message: /^--url: expected an http/ },
  { argv: ["--url", "http://h/mcp", "ping", "--", "x"], message: /^give either --url or a server command after "--", not both$/ },
  { argv: ["--url", "http://h/mcp", "--env", "A=1", "ping"], message: /^--env and --cwd are for a server started after "--", not for --url$/ },
  { argv: ["--header", "X-A: 1", "ping", "--", "x"], message: /^--header needs --url/ },
  // The text is not repeated: "Authorization Bearer <token>", its colon forgotten, would print the token.
  { argv: ["--url", "http://h/mcp", "--header", "no-colon", "ping"], message: /^--header: expected NAME:VALUE, got no ":" \(the text is not shown: it may hold a secret\)$/ },
  { argv: ["--url", "http://h/mcp", "--header", "bad name: 1", "ping"], message: /^--header: expected NAME:VALUE/ },
];
for (const c of refused) {
  test(`cli arguments: refuses ${JSON.stringify(c.argv)}`, () => {
    assert.throws(() => parseCommandLine(c.argv), (error: unknown) => error instanceof UsageError && c.message.test(error.message));
  });
}

// ---- key=value typing ----

const schema = {
  type: "object",
  properties: {
    n: { type: "number" }, i: { type: "integer" }, flag: { type: "boolean" }, obj: { type: "object" },
    list: { type: "array" }, s: { type: "string" }, either: { type: ["string", "number"] }, maybe: { type: ["integer", "null"] },
  },
};
const coercions: { name: string; pairs: [string, string][]; expected: { [key: string]: unknown } }[] = [
  { name: "numbers, integers, booleans", pairs: [["n", "1.5"], ["i", "-3"], ["flag", "false"]], expected: { n: 1.5, i: -3, flag: false } },
  { name: "JSON for object and array", pairs: [["obj", '{"x":[1]}'], ["list", "[1,\"a\"]"]], expected: { obj: { x: [1] }, list: [1, "a"] } },
  { name: "strings stay strings, even numeric ones", pairs: [["s", "007"], ["either", "12"]], expected: { s: "007", either: "12" } },
  { name: "unknown properties stay strings", pairs: [["other", "42"]], expected: { other: "42" } },
  { name: "a type list is tried in order", pairs: [["maybe", "null"]], expected: { maybe: null } },
  {
    name: "text that does not fit stays text, for the server to judge",
    pairs: [["n", "x"], ["n2", ""], ["i", "2.5"], ["flag", "yes"], ["obj", "[1]"], ["list", "{"]],
    expected: { n: "x", n2: "", i: "2.5", flag: "yes", obj: "[1]", list: "{" },
  },
];
for (const c of coercions) {
  test(`cli coercion: ${c.name}`, () => assert.deepEqual(coerceArguments(schema, c.pairs), c.expected));
}
test("cli coercion: without a schema everything is a string", () => {
  assert.deepEqual(coerceArguments(undefined, [["a", "3"]]), { a: "3" });
});

// ---- tracing ----

test("cli trace: each message is written with its direction and the elapsed time, before it is sent", async () => {
  const [ours, theirs] = createMemoryPair();
  const lines: string[] = [];
  let now = 0;
  const traced = cliTrace(ours, (line) => lines.push(line), () => now);
  const received: string[] = [];
  let closed = false;
  traced.start({ message: (text) => received.push(text), unreadable: () => {}, close: () => (closed = true) });
  const arrived = new Promise<string>((resolve) => theirs.start({ message: resolve, unreadable: () => {}, close: () => {} }));

  now = 1.25;
  await traced.send({ jsonrpc: "2.0", id: 1, method: "ping" });
  assert.deepEqual(lines, ['[trace +1.3ms] → {"jsonrpc":"2.0","id":1,"method":"ping"}']);
  assert.equal(await arrived, '{"jsonrpc":"2.0","id":1,"method":"ping"}');

  now = 20;
  await theirs.send({ jsonrpc: "2.0", id: 1, result: {} });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(received, ['{"jsonrpc":"2.0","id":1,"result":{}}'], "the connection still gets the message");
  assert.equal(lines[1], '[trace +20.0ms] ← {"jsonrpc":"2.0","id":1,"result":{}}');

  await traced.close();
  assert.equal(closed, true);
  assert.equal(lines[2], "[trace +20.0ms] × closed");
});

// ---- failure messages ----

const exited = new ServerExitedError(4, null, ["boom"]);
const failures: { name: string; error: unknown; expected: string }[] = [
  { name: "a JSON-RPC error names the step, code and data", error: new StepFailure("tools/call", new RpcError(-32602, "unknown tool", { name: "x" })), expected: 'tools/call failed: -32602 unknown tool; data: {"name":"x"}' },
  { name: "a spawn failure, whichever request noticed it", error: new StepFailure("initialize", new ConnectionClosedError("initialize", new SpawnError("nope", new Error("spawn nope ENOENT")))), expected: 'spawn failed: could not start "nope": spawn nope ENOENT' },
  { name: "a server exit, with its stderr", error: new StepFailure("tools/list", new ConnectionClosedError("tools/list", exited)), expected: "tools/list failed: server exited with code 4; last stderr lines:\nboom" },
  { name: "a handshake timeout", error: new StepFailure("initialize", new HandshakeTimeoutError(250)), expected: "handshake timed out after 250 ms: the server did not answer initialize" },
  {
    name: "a handshake timeout on notifications/initialized",
    error: new StepFailure("initialize", new HandshakeTimeoutError(250, undefined, "notifications/initialized")),
    expected: "handshake timed out after 250 ms: the server did not take notifications/initialized",
  },
  {
    name: "a refused version",
    error: new StepFailure("initialize", new VersionRefusedError("1999-01-01", ["2025-11-25", "2025-06-18"], "2025-11-25")),
    expected: 'version refused: the server chose protocol version "1999-01-01", but we asked for 2025-11-25 and speak only 2025-11-25, 2025-06-18',
  },
  {
    name: "a stdio server that exits on the probe: its exit, and a hint to skip the probe",
    error: new StepFailure("server/discover", new ProbeEndedError(new ConnectionClosedError("server/discover", exited))),
    expected: "server/discover failed: server exited with code 4; last stderr lines:\nboom\n(if it ends only when asked server/discover, it speaks only the handshake: try --protocol-version 2025-11-25)",
  },
  {
    name: "a connection that closes on the probe without an exit to tell",
    error: new StepFailure("server/discover", new ProbeEndedError(new ConnectionClosedError("server/discover"))),
    expected: "server/discover failed: the server closed the connection before answering\n(if it ends only when asked server/discover, it speaks only the handshake: try --protocol-version 2025-11-25)",
  },
  {
    name: "a pinned 2026-07-28 that the server does not speak",
    error: new StepFailure("server/discover", new ModernRefusedError("2026-07-28", "server/discover answered -32601 (Method not found)")),
    expected: "server/discover failed: no 2026-07-28 session with this server (asked for 2026-07-28; server/discover answered -32601 (Method not found))",
  },
  { name: "a request timeout, without saying the method twice", error: new StepFailure("ping", new RequestTimeoutError("ping", 3, 100, "idle")), expected: "ping failed: no response after 100 ms (idle timeout)" },
];
for (const c of failures) {
  test(`cli failures: ${c.name}`, () => assert.equal(describeFailure(c.error), c.expected));
}

// ---- the program ----

/** Runs the CLI. A generous handshake timeout comes first (a later one wins), so a loaded machine is not a failure. */
const run = (args: string[]): Promise<Run> => runCli(["--handshake-timeout", "30000", ...args]);

/** Runs the CLI, expects the exit code, and returns stdout parsed as JSON. */
const runJson = async (args: string[], code: number = ExitCode.ok) => parsedOutput(await run(args), code);

// Two at a time: each test starts one to three pairs of processes.
describe("cli program", { concurrency: 2 }, () => {
  test("dist/ is built (run npm run build first)", () => assert.ok(existsSync(CLI) && existsSync(SERVER)));

  const names = (list: { name: string }[]) => list.map((item) => item.name).sort();

  test("tools lists every tool", async () => {
    assert.deepEqual(names((await runJson(["tools", ...DEMO])).tools), ["add", "countdown", "echo", "get_time", "greet", "summarize", "toggle_extra"]);
  });

  test("call add a=3 b=4 types the values by the inputSchema and prints 7", async () => {
    const result = await runJson(["call", "add", "a=3", "b=4", ...DEMO]);
    assert.deepEqual(result.structuredContent, { sum: 7 });
    assert.deepEqual(result.content, [{ type: "text", text: '{"sum":7}' }]);
  });

  test("call with a JSON object", async () => {
    assert.deepEqual((await runJson(["call", "echo", '{"text":"a=b c"}', ...DEMO])).content, [{ type: "text", text: "echo: a=b c" }]);
  });

  test("call whose result has isError exits 3 and still prints the result", async () => {
    const result = await runJson(["call", "add", "a=x", "b=1", ...DEMO], ExitCode.toolError);
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /a: must be number/);
  });

  test("resources, read, templates", async () => {
    const [resources, read, templates] = await Promise.all([
      runJson(["resources", ...DEMO]),
      runJson(["read", "docs://demo/protocol-notes/lifecycle", ...DEMO]),
      runJson(["templates", ...DEMO]),
    ]);
    assert.deepEqual(resources.resources.map((r: { uri: string }) => r.uri), ["docs://demo/protocol-notes"]);
    assert.equal(read.contents[0].uri, "docs://demo/protocol-notes/lifecycle");
    assert.match(read.contents[0].text, /^## Lifecycle/);
    assert.deepEqual(templates.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate), ["docs://demo/protocol-notes/{section}"]);
  });

  test("prompts and get", async () => {
    const [prompts, got] = await Promise.all([
      runJson(["prompts", ...DEMO]),
      runJson(["get", "explain_topic", "topic=lifecycle", "audience=expert", ...DEMO]),
    ]);
    assert.deepEqual(names(prompts.prompts), ["explain_topic", "review_message"]);
    assert.equal(got.description, 'Explain "Lifecycle" at expert level');
  });

  test("get takes one JSON object, as call does", async () => {
    const got = await runJson(["get", "explain_topic", '{"topic":"tools","audience":"beginner"}', ...DEMO]);
    assert.equal(got.description, 'Explain "Tools" at beginner level');
  });

  test("get refuses a JSON value that is not a string: exit 2, naming the argument", async () => {
    const result = await run(["get", "explain_topic", '{"topic":"tools","audience":5}', ...DEMO]);
    assert.equal(result.code, ExitCode.usage);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, 'mcp-wire: get: argument "audience" must be a string (prompt arguments are strings), got 5\n(mcp-wire --help shows the usage)\n');
  });

  test("complete against a prompt and against a resource template", async () => {
    const [prompt, template] = await Promise.all([
      runJson(["complete", "explain_topic", "audience", "ex", ...DEMO]),
      runJson(["complete", "docs://demo/protocol-notes/{section}", "section", "lif", ...DEMO]),
    ]);
    assert.deepEqual(prompt.completion.values, ["expert"]);
    assert.deepEqual(template.completion.values, ["lifecycle"]);
  });

  test("ping prints {}", async () => {
    assert.deepEqual(await runJson(["ping", ...DEMO]), {});
  });

  test("request sends any method, with params", async () => {
    const result = await runJson(["request", "prompts/get", '{"name":"review_message","arguments":{"message":"{}"}}', ...DEMO]);
    assert.equal(result.description, "Review one MCP message");
  });

  test("a JSON-RPC error names the method and code, exits 1, prints nothing on stdout", async () => {
    const [unknownTool, unknownMethod] = await Promise.all([run(["call", "nosuch", ...DEMO]), run(["request", "nope/nothing", ...DEMO])]);
    assert.equal(unknownTool.code, ExitCode.failed);
    assert.equal(unknownTool.stdout, "");
    assert.match(unknownTool.stderr, /^mcp-wire: tools\/call failed: -32602 /m);
    assert.equal(unknownMethod.code, ExitCode.failed);
    assert.match(unknownMethod.stderr, /^mcp-wire: nope\/nothing failed: -32601 /m);
  });

  test("usage errors exit 2 before anything starts", async () => {
    for (const args of [["fly", ...DEMO], ["tools"], ["call", "add", "{bad", ...DEMO], ["--timeout", "soon", "ping", ...DEMO]]) {
      const result = await run(args);
      assert.equal(result.code, ExitCode.usage, args.join(" "));
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /^mcp-wire: .*\n\(mcp-wire --help shows the usage\)\n$/);
    }
  });

  test("--help prints the usage with the exit codes on stdout", async () => {
    const result = await run(["--help"]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^usage: mcp-wire /);
    assert.match(result.stdout, /^ {7}mcp-wire \[options\] --url URL \[--header NAME:VALUE\]\.\.\. <command> \[arguments\]$/m);
    assert.match(result.stdout, /^ {2}--url URL {16}connect over HTTP/m);
    assert.match(result.stdout, /^ {2}--header NAME:VALUE {6}send this header on every HTTP request/m);
    assert.match(result.stdout, /^ {2}--protocol-version V {5}auto \(default\), 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05$/m);
    assert.match(result.stdout, /^ {2}discover {31}print what the server offers: its server\/discover result,$/m);
    assert.match(result.stdout, /^ {2}call <tool> \[JSON_OBJECT \| key=value \.\.\.\]$/m);
    assert.match(result.stdout, /^ {2}get <prompt> \[JSON_OBJECT \| key=value \.\.\.\]$/m);
    assert.match(result.stdout, /exit codes:\n {2}0 {2}success\n {2}1 .*\n {2}2 {2}usage error.*\n {2}3 {2}the tool ran and reported failure/);
  });

  test("a server command that does not exist: spawn failed, exit 1", async () => {
    const result = await run(["ping", "--", "mcp-wire-no-such-command"]);
    assert.equal(result.code, ExitCode.failed);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /^mcp-wire: spawn failed: could not start "mcp-wire-no-such-command": .*ENOENT/m);
  });

  test("a server that exits at once: the message names its exit code and stderr", async () => {
    const result = await run(["tools", ...nodeScript("console.error('going away'); process.exit(4)")]);
    assert.equal(result.code, ExitCode.failed);
    assert.match(result.stderr, /^\[server\] going away$/m, "server stderr is passed on");
    // The first request is the server/discover probe (--protocol-version auto), so it is the step that failed.
    assert.match(result.stderr, /^mcp-wire: server\/discover failed: server exited with code 4; last stderr lines:\ngoing away\n\(if it ends only when asked server\/discover, it speaks only the handshake: try --protocol-version 2025-11-25\)$/m);
  });

  test("--quiet keeps the server's stderr to itself; --env and --cwd reach the server", async () => {
    const result = await run(["--quiet", "--env", "MCP_WIRE_GREETING=hello", "--cwd", tmpdir(), "ping", ...nodeScript("console.error(process.env.MCP_WIRE_GREETING, process.cwd()); process.exit(4)")]);
    assert.doesNotMatch(result.stderr, /\[server\]/);
    assert.match(result.stderr, new RegExp(`last stderr lines:\nhello ${realpathSync(tmpdir()).replace(/[/\\.]/g, "\\$&")}$`, "m"));
  });

  test("--handshake-timeout: a server that never answers", async () => {
    const silent = "process.stdin.resume(); process.stdin.on('end', () => process.exit(0))";
    const result = await run(["--handshake-timeout", "200", "ping", ...nodeScript(silent)]);
    assert.equal(result.code, ExitCode.failed);
    assert.match(result.stderr, /^mcp-wire: handshake timed out after 200 ms/m);
  });

  test("--timeout gives up on a slow request and names it", async () => {
    const result = await run(["--timeout", "100", "call", "countdown", "steps=2", "intervalMs=1000", ...DEMO]);
    assert.equal(result.code, ExitCode.failed);
    assert.match(result.stderr, /^mcp-wire: tools\/call failed: no response after 100 ms/m);
  });

  test("--trace shows both directions with elapsed time; stdout stays clean JSON (a handshake session, pinned)", async () => {
    const result = await run(["--trace", "--protocol-version", "2025-11-25", "ping", ...DEMO]);
    assert.equal(result.code, 0);
    assert.deepEqual(JSON.parse(result.stdout), {});
    assert.match(result.stderr, /^\[trace \+\d+\.\dms\] → \{"jsonrpc":"2\.0","id":0,"method":"initialize"/m);
    assert.match(result.stderr, /^\[trace \+\d+\.\dms\] ← \{"jsonrpc":"2\.0","id":0,"result":\{"protocolVersion"/m);
    assert.match(result.stderr, /^\[trace \+\d+\.\dms\] → \{"jsonrpc":"2\.0","id":1,"method":"ping"\}$/m);
  });

  test("--log-level sets the server's level and prints its log messages on stderr", async () => {
    const result = await run(["--log-level", "debug", "call", "echo", "text=hi", ...DEMO]);
    assert.equal(result.code, 0);
    assert.match(result.stderr, /^\[server log debug echo\] echo: repeating 2 characters$/m);
    const quiet = await run(["call", "echo", "text=hi", ...DEMO]);
    assert.doesNotMatch(quiet.stderr, /server log debug/, "without --log-level the server keeps debug to itself");
  });

  test("--url: the same commands over Streamable HTTP, a token given with --header, the session ended at exit", async () => {
    const token = "cli-test-token-5b1e8d7a9c";
    const http = new McpHttpServer(createDemoServer(), { bearerToken: token });
    const listening = await http.listen({ port: 0 });
    try {
      const url = `${listening.origin}/mcp`;
      const auth = ["--header", `Authorization: Bearer ${token}`];
      const [sum, tools] = await Promise.all([
        runJson(["--url", url, ...auth, "call", "add", "a=3", "b=4"]),
        runJson(["--url", url, ...auth, "tools"]),
      ]);
      assert.deepEqual(sum.structuredContent, { sum: 7 });
      assert.deepEqual(names(tools.tools), ["add", "countdown", "echo", "get_time", "greet", "summarize", "toggle_extra"]);
      assert.equal(http.streamable.sessionCount, 0, "each run sent DELETE");

      const refused = await run(["--url", url, "ping"]);
      assert.equal(refused.code, ExitCode.failed);
      // The probe is the first POST, so it is the one refused. Its 401 starts OAuth (issue 12): this
      // server has no metadata, so the 2025-03-26 fallbacks end at a /register it does not have, and
      // the hint names --header, which is what a server with a fixed token wants.
      assert.match(refused.stderr, /^mcp-wire: server\/discover failed: dynamic client registration: http:\/\/127\.0\.0\.1:\d+\/register: answered HTTP 404 without an OAuth error$/m);
      assert.match(refused.stderr, /^\(the server asked for authorization, and OAuth with it failed as above; a server that takes a fixed token gets it with --header "Authorization: Bearer TOKEN"\)$/m);
      const pinned = await run(["--url", url, "--protocol-version", "2025-11-25", "ping"]);
      assert.match(pinned.stderr, /^mcp-wire: initialize failed: dynamic client registration: /m);
    } finally {
      await http.close();
      await listening.close();
    }
  });

  test("--url: a server that only speaks HTTP+SSE at the URL given, and one that is not there", async () => {
    const http = new McpHttpServer(createDemoServer());
    const listening = await http.listen({ port: 0 });
    try {
      const traced = await run(["--trace", "--url", `${listening.origin}/sse`, "call", "echo", "text=old"]);
      assert.equal(traced.code, 0, traced.stderr);
      assert.deepEqual(JSON.parse(traced.stdout).content, [{ type: "text", text: "echo: old" }]);
      // The /sse endpoint refuses the server/discover POST, so auto falls back to initialize, which opens the stream.
      assert.match(traced.stderr, /^\[trace \+\d+\.\dms\] → \{"jsonrpc":"2\.0","id":0,"method":"server\/discover"/m);
      assert.match(traced.stderr, /^\[trace \+\d+\.\dms\] → \{"jsonrpc":"2\.0","id":1,"method":"initialize"/m);
      assert.match(traced.stderr, /^\[trace \+\d+\.\dms\] era: handshake 2025-11-25: server\/discover answered -32000 \(POST is not supported on \/sse\): fell back to initialize$/m);
    } finally {
      await http.close();
      await listening.close();
    }
    const gone = await run(["--url", `${listening.origin}/mcp`, "ping"]);
    assert.equal(gone.code, ExitCode.failed);
    assert.match(gone.stderr, /^mcp-wire: server\/discover failed: could not reach http:\/\/127\.0\.0\.1:\d+\/mcp: .*ECONNREFUSED/m);
  });
});
