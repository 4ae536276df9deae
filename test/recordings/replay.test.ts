// mcp-wire replay (src/recordings/replay*.ts) from the command line, as a user runs it: a recording made
// against node dist/server.js passes; a changed server fails with a diff naming the JSON path; the
// server's own requests are answered under the ids that came; a server that exits or goes quiet
// stops the replay with a clear error, Ctrl-C stops the server too; --ignore and --update; bad input
// is exit 2.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scriptedServer, type ScriptedOptions } from "../helpers/scripted-stdio.js";

/** The CLI unbundled, with source maps, so that coverage reaches src/recordings/. */
const CLI = fileURLToPath(new URL("../../dist/cli.unbundled.js", import.meta.url));
const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/recordings/replay/${name}`, import.meta.url));
const SCRIPTED = fixture("scripted-echo-ask.recording");

/** The CLI as shipped (bundled): one test goes through it, so the bundle is the tested path too. */
const BUNDLED = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

async function replay(args: string[], cli = CLI): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, "replay", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

const against = (options: ScriptedOptions = {}) => ["--", ...scriptedServer(options)];

/** A copy of the scripted recording with `extra` session lines after it. */
function scriptedWith(extra: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-replay-"));
  const path = join(dir, "session.recording");
  writeFileSync(path, readFileSync(SCRIPTED, "utf8") + extra.join("\n") + "\n");
  return path;
}

test("replay: a recording made against node dist/server.js passes against it (the time of get_time ignored)", async () => {
  const { code, stdout } = await replay([fixture("demo-echo-time.recording"), "--", process.execPath, SERVER], BUNDLED);
  assert.match(stdout, /replay matches/);
  assert.equal(code, 0);
});

test("replay: 2026-07-28, a retry echoes the requestState this run's server sealed (it changes from run to run)", async () => {
  const { code, stdout } = await replay([fixture("demo-greet-2026.recording"), "--", process.execPath, SERVER]);
  assert.match(stdout, /replay matches/, stdout);
  assert.equal(code, 0);
});

test("replay: 2026-07-28, a session saved with its listen open passes; the server's end of the listen once its input ends is no difference", async () => {
  const { code, stdout } = await replay([fixture("demo-listen-open-2026.recording"), "--", process.execPath, SERVER]);
  assert.match(stdout, /replay matches/, stdout);
  assert.equal(code, 0);
});

test("replay: notifications match per method, and the server's own request is answered under the id that came", async () => {
  const { code, stdout } = await replay([SCRIPTED, ...against({ serverIdPrefix: "srv-" })]);
  assert.match(stdout, /replay matches/, stdout);
  assert.equal(code, 0);
});

test("replay: a changed server fails with a diff naming the JSON path, what was expected and what came (exit 1)", async () => {
  const { code, stdout } = await replay([SCRIPTED, ...against({ prefix: "ECHO: " })]);
  assert.equal(code, 1);
  assert.match(stdout, /server message 2 differs:\n {2}at \/result\/content\/0\/text\n {4}expected: "echo: hi"\n {4}actual: {3}"ECHO: hi"/);
  assert.match(stdout, /1 problem/);
});

test("replay: --ignore hides a path that changes (\"*\" for any step); the file's # ignore: lines too", async () => {
  assert.equal((await replay([SCRIPTED, "--ignore", "/result/content/*/text", ...against({ prefix: "ECHO: " })])).code, 0);
  const marked = scriptedWith([]);
  writeFileSync(marked, "# ignore: /result/content/0/text\n" + readFileSync(marked, "utf8"));
  assert.equal((await replay([marked, ...against({ prefix: "ECHO: " })])).code, 0);
});

test("replay: a server that exits mid-replay stops it with a clear error (exit 3)", async () => {
  const path = scriptedWith([
    '> {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"exit","arguments":{}}}',
    '< {"jsonrpc":"2.0","id":4,"result":{"content":[]}}',
  ]);
  const { code, stdout } = await replay([path, ...against()]);
  assert.equal(code, 3);
  assert.match(stdout, /replay stopped: server message 6 of the recording never came: the server exited with code 3; expected \{"jsonrpc":"2.0","id":4/);
});

test("replay: a server that never answers stops it after --timeout (exit 3)", async () => {
  const path = scriptedWith([
    '> {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"hang","arguments":{}}}',
    '< {"jsonrpc":"2.0","id":4,"result":{"content":[]}}',
  ]);
  // The timeout also covers the server's start (the first answer): small, but not so small that a
  // busy machine's node startup trips it.
  const { code, stdout } = await replay([path, "--timeout", "1500", ...against()]);
  assert.equal(code, 3);
  assert.match(stdout, /server message 6 of the recording never came: nothing matching came within 1500 ms/);
});

test("replay: a notification the recording has but the running server never sends is a difference (exit 1), not a failure", async () => {
  const path = scriptedWith([
    '< {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"only in the recording"}}',
    '> {"jsonrpc":"2.0","id":4,"method":"ping"}',
    '< {"jsonrpc":"2.0","id":4,"result":{}}',
  ]);
  const { code, stdout } = await replay([path, "--timeout", "1500", ...against()]);
  assert.match(stdout, /server message 6: expected, never came:\n {2}\{"jsonrpc":"2.0","method":"notifications\/message"/);
  assert.doesNotMatch(stdout, /replay stopped/);
  assert.equal(code, 1);
});

test("replay: a server still running after its input ended is stopped, and that is not a difference (exit 0)", async () => {
  const { code, stdout } = await replay([SCRIPTED, "--timeout", "1500", ...against({ linger: true })]);
  assert.match(stdout, /it was stopped\)\n.*replay matches/);
  assert.equal(code, 0);
});

test("replay: a message the recording does not have is reported as unexpected (exit 1)", async () => {
  const path = scriptedWith(['> {"jsonrpc":"2.0","id":4,"method":"ping"}']);
  const { code, stdout } = await replay([path, ...against()]);
  assert.equal(code, 1);
  assert.match(stdout, /unexpected server message:\n {2}\{"jsonrpc":"2.0","id":4,"result":\{\}\}/);
});

test("replay --update: rewrites the server side with what came, in the same form; the next replay passes", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-replay-"));
  const path = join(dir, "session.recording");
  copyFileSync(SCRIPTED, path);
  const first = await replay([path, "--update", ...against({ prefix: "ECHO: " })]);
  assert.equal(first.code, 0, first.stdout);
  const text = readFileSync(path, "utf8");
  assert.ok(text.startsWith(readFileSync(SCRIPTED, "utf8").split("-- session --")[0]! + "-- session --\n"), "header kept");
  assert.match(text, /^< \+\d+ .*"ECHO: hi"/m);
  assert.equal((await replay([path, ...against({ prefix: "ECHO: " })])).code, 0);
  assert.equal((await replay([path, ...against()])).code, 1, "and the old server now differs");
});

test("replay --update: a replay that stopped early rewrites nothing, and says so", async () => {
  const path = scriptedWith([
    '> {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"exit","arguments":{}}}',
    '< {"jsonrpc":"2.0","id":4,"result":{"content":[]}}',
  ]);
  const before = readFileSync(path, "utf8");
  const { code, stdout } = await replay([path, "--update", ...against()]);
  assert.equal(code, 3);
  assert.match(stdout, /session\.recording: not rewritten: the replay did not get to the end\n$/);
  assert.equal(readFileSync(path, "utf8"), before);
});

test("replay: Ctrl-C (SIGINT) stops the server too, which runs in its own process group, and exits 130", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-replay-"));
  const pidFile = join(dir, "server.pid");
  // A server that never answers, nor ends when its input does: only the replay's stop ends it.
  const server = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 60000)`;
  const path = scriptedWith([]);
  const child = spawn(process.execPath, [CLI, "replay", path, "--timeout", "30000", "--", process.execPath, "-e", server], { stdio: "ignore" });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  let pid = 0;
  while (pid === 0) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    try { pid = Number(readFileSync(pidFile, "utf8")); } catch { /* not started yet */ }
  }
  child.kill("SIGINT");
  assert.equal(await exited, 130);
  const gone = async () => {
    for (let tries = 0; tries < 100; tries++) {
      try { process.kill(pid, 0); } catch { return true; }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  };
  const stopped = await gone();
  if (!stopped) process.kill(pid, "SIGKILL");
  assert.ok(stopped, `the server (pid ${pid}) still ran`);
});

const bad = [
  { name: "a recording cut mid-line", text: "# cut\n-- session --\n> {\"jsonrpc\":\"2.0\"}\nthis is not a session line\n", message: /session\.recording:4: a session line starts with/ },
  { name: "an unknown format", text: "hello\n", message: /session\.recording:1: expected "-- session --" or "-- client --"/ },
  { name: "a corrupt JSON lines recording", text: '{"dir":"c2s","msg":{}}\n{"dir":"c2s","ms\n', message: /session\.recording:2: not a JSON line/ },
];

for (const c of bad) {
  test(`replay: ${c.name} is exit 2, naming the line`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-wire-replay-"));
    writeFileSync(join(dir, "session.recording"), c.text);
    const { code, stderr, stdout } = await replay([join(dir, "session.recording"), ...against()]);
    assert.equal(code, 2);
    assert.match(stderr, c.message);
    assert.equal(stdout, "");
  });
}

const usage = [
  { name: "no such file", args: ["/no/such/file.recording", "--", "x"], message: /cannot read the recording "\/no\/such\/file\.recording"/ },
  { name: "no server command", args: [SCRIPTED], message: /give the server command after "--", or --url URL/ },
  { name: "a bad timeout", args: [SCRIPTED, "--timeout", "soon", "--", "x"], message: /--timeout takes a positive number/ },
  { name: "an ignore that is not a pointer", args: [SCRIPTED, "--ignore", "result", "--", "x"], message: /--ignore takes a JSON pointer/ },
  { name: "an unknown option", args: [SCRIPTED, "--fast", "--", "x"], message: /unknown option --fast/ },
];

for (const c of usage) {
  test(`replay: ${c.name} is a usage error (exit 2)`, async () => {
    const { code, stderr } = await replay(c.args);
    assert.equal(code, 2);
    assert.match(stderr, c.message);
  });
}

test("replay --help prints its usage on stdout (exit 0)", async () => {
  const { code, stdout } = await replay(["--help"]);
  assert.equal(code, 0);
  assert.match(stdout, /^usage: mcp-wire replay FILE/);
});

test("replay: a server command that cannot start is a clear error (exit 3, not a difference)", async () => {
  const { code, stdout } = await replay([SCRIPTED, "--", "/no/such/mcp-server"]);
  assert.equal(code, 3);
  assert.match(stdout, /server message 1 of the recording never came: the server could not be started \(spawn \/no\/such\/mcp-server ENOENT\)/);
});

test("replay: a golden transcript against a server that cannot start is exit 3 too, not a list of missing messages", async () => {
  const golden = fileURLToPath(new URL("../../fixtures/transcripts/ids.transcript", import.meta.url));
  const { code, stdout } = await replay([golden, "--", "/no/such/mcp-server"]);
  assert.equal(code, 3);
  assert.match(stdout, /replay stopped: the server could not be started \(spawn \/no\/such\/mcp-server ENOENT\)/);
});

/** A copy of the scripted recording whose header names `command` and, if given, `args`. */
function scriptedNaming(command: string[], args?: string): string {
  const path = scriptedWith([]);
  const quoted = command.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word))).join(" ");
  writeFileSync(path, `# command: ${quoted}\n${args === undefined ? "" : `# args: ${args}\n`}` + readFileSync(path, "utf8"));
  return path;
}

test("replay FILE without a command runs the recording's \"# command:\" with its \"# args:\", said on stderr first", async () => {
  const [node, eval_, source] = scriptedServer();
  const matching = await replay([scriptedNaming([node!, eval_!, source!], '{"serverIdPrefix":"srv-"}')]);
  assert.match(matching.stdout, /replay matches/, matching.stdout + matching.stderr);
  assert.equal(matching.code, 0);
  assert.match(matching.stderr, /^mcp-wire replay: running the recording's server: \S+ -e "/);
  assert.match(matching.stderr, / "\{\\"serverIdPrefix\\":\\"srv-\\"\}"\n/);
  // What runs is shown as it is: a bidi override in the file cannot reorder what a person reads.
  const hidden = await replay([scriptedNaming([node!, eval_!, source!], '{"serverIdPrefix":"srv-","x":"\u202E"}')]);
  assert.match(hidden.stderr, /\\u202e/);
  assert.equal(hidden.stderr.includes("\u202E"), false);
  // The args reach the server: these change its echo, and the replay says so.
  const changed = await replay([scriptedNaming([node!, eval_!, source!], '{"prefix":"X"}')]);
  assert.equal(changed.code, 1);
  assert.match(changed.stdout, /actual: {3}"Xhi"/);
});

test("replay FILE without a command, and no \"# command:\" in it, is a usage error (exit 2)", async () => {
  const path = scriptedWith([]);
  writeFileSync(path, "# args: --page-size 2\n" + readFileSync(path, "utf8"));
  const { code, stderr, stdout } = await replay([path]);
  assert.equal(code, 2);
  assert.match(stderr, /has no "# command:" header: give the server command after "--", or --url URL/);
  assert.equal(stdout, "");
});

const hostile = (tool: string) => scriptedWith([
  `> {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"${tool}","arguments":{}}}`,
  '< {"jsonrpc":"2.0","id":4,"result":{"content":[]}}',
]);

test("replay: a server that writes a line without end is stopped at --max-line-bytes (exit 3), not read into memory", async () => {
  const { code, stdout } = await replay([hostile("endless"), "--max-line-bytes", "100000", "--timeout", "4000", ...against()]);
  assert.equal(code, 3, stdout);
  assert.match(stdout, /server message 6 of the recording never came: the server wrote a line longer than the limit of 100000 bytes \(--max-line-bytes\), and was stopped/);
});

test("replay: a server that floods messages the recording does not have: --max-unexpected past the recording's count are kept, the rest counted (exit 3)", async () => {
  const { code, stdout } = await replay([hostile("flood"), "--max-unexpected", "5", "--timeout", "4000", ...against()]);
  assert.equal(code, 3, stdout.slice(0, 2000));
  // The recording's 6 server messages + 5 kept; 5 of the 6 came, so 6 of those kept are unexpected.
  assert.equal(stdout.match(/unexpected server message:/g)?.length, 6);
  assert.match(stdout, /\(\d+ more server messages? the recording does not have came before the server stopped: counted, not kept\)/);
  assert.match(stdout, /server message 6 of the recording never came: the server sent more than 5 messages the recording does not have, and was stopped/);
});

test("replay: --max-line-bytes and --max-unexpected take positive numbers (exit 2)", async () => {
  for (const option of ["--max-line-bytes", "--max-unexpected"]) {
    const { code, stderr } = await replay([SCRIPTED, option, "0", ...against()]);
    assert.equal(code, 2);
    assert.match(stderr, new RegExp(`${option} takes a positive number`));
  }
});

test("replay FILE of an HTTP recording, with neither a command nor --url: the usage error names the URL it was recorded at", async () => {
  const { code, stderr, stdout } = await replay([fixture("demo-get-stream.recording")]);
  assert.equal(code, 2);
  assert.match(stderr, /has no "# command:" header: give the server command after "--", or --url URL \(it was recorded at http:\/\/127\.0\.0\.1:\d+\/mcp\)/);
  assert.equal(stdout, "");
});
