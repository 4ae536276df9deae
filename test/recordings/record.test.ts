// `mcp-wire record` over stdio (src/recordings/record-cli.ts, record-stdio.ts), run as the bin runs it:
// the host sees the same bytes as without the proxy, the recording holds every line in order, and
// exit codes, signals and usage errors behave. Needs `npm run build` (dist/cli.unbundled.js and
// dist/cli.cjs, dist/server.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseRecording } from "../../src/recordings/recording.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The bin, as hosts run it. */
const CLI = join(root, "dist/cli.cjs");
/** The same program unbundled, with source maps, so that coverage reaches src/recordings/ (test/cli/program.ts says why). */
const RECORD = join(root, "dist/cli.unbundled.js");
const SERVER = join(root, "dist/server.js");
const ECHO = join(root, "fixtures/recordings/record/echo-server.mjs");
const dir = mkdtempSync(join(tmpdir(), "mcp-wire-record-"));
let files = 0;
const newFile = () => join(dir, `${++files}.recording`);
const TIMEOUT_MS = 15_000;

interface Run {
  pid: number;
  stdout: Buffer[];
  stderr: string;
  write(data: string | Buffer): void;
  end(): void;
  kill(signal: NodeJS.Signals): void;
  /** Resolves once stdout holds `text`. */
  waitFor(text: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node dist/cli.unbundled.js record ...recordArgs -- ...server` (`program`: the bin instead). */
function record(recordArgs: string[], server: string[], program = RECORD): Run {
  return start([program, "record", ...recordArgs, "--", ...server]);
}

/** Starts `node ...args` with its three pipes read. */
function start(args: string[]): Run {
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
  const run: Run = {
    pid: child.pid!,
    stdout: [],
    stderr: "",
    write: (data) => void child.stdin.write(data),
    end: () => child.stdin.end(),
    kill: (signal) => child.kill(signal),
    waitFor: (text) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${JSON.stringify(text)} on stdout; stderr: ${run.stderr}`)), TIMEOUT_MS);
      const check = () => {
        if (!Buffer.concat(run.stdout).toString().includes(text)) return;
        clearTimeout(timer);
        child.stdout.off("data", check);
        resolve();
      };
      child.stdout.on("data", check);
      check();
    }),
    exited: new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal }))),
  };
  child.stdout.on("data", (chunk: Buffer) => run.stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => (run.stderr += chunk.toString()));
  child.stdin.on("error", () => {});
  return run;
}

/** The server's pid, from the "pid N" line echo-server.mjs writes on stderr (passed through by the proxy). */
async function serverPid(run: Run): Promise<number> {
  for (let waited = 0; waited < TIMEOUT_MS; waited += 20) {
    const match = /pid (\d+)/.exec(run.stderr);
    if (match) return Number(match[1]);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no pid on stderr: ${run.stderr}`);
}

async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < TIMEOUT_MS; waited += 20) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const SESSION = [
  INIT,
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"through the proxy"}}}',
  "this line is not JSON",
  '{"jsonrpc":"2.0","id":"4","method":"ping"}',
];

/** Plays SESSION a line at a time, each request after the previous answer; returns the lines that came back. */
async function playSession(run: Run): Promise<string[]> {
  const waits: { [line: string]: string } = { [SESSION[0]!]: '"id":1,', [SESSION[2]!]: '"id":2,', [SESSION[3]!]: '"id":3,', [SESSION[4]!]: "-32700", [SESSION[5]!]: '"id":"4"' };
  for (const line of SESSION) {
    run.write(line + "\n");
    if (waits[line]) await run.waitFor(waits[line]!);
  }
  run.end();
  assert.deepEqual(await run.exited, { code: 0, signal: null }, run.stderr);
  return Buffer.concat(run.stdout).toString().split("\n").filter(Boolean);
}

test("record: a session through the proxy gets the answers it gets without it, and the file holds every line in wire order", { timeout: TIMEOUT_MS * 2 }, async () => {
  const out = newFile();
  const proxied = await playSession(record(["--out", out], [process.execPath, SERVER]));
  const direct = await playSession(start([SERVER]));
  assert.deepEqual(proxied, direct, "the host sees what it sees without the proxy");
  assert.equal(proxied.length, 5, "four answers and one parse error");
  assert.match(proxied[3]!, /-32700/);
  assert.match(proxied[2]!, /echo: through the proxy/);

  const recording = parseRecording(readFileSync(out, "utf8"), out);
  assert.equal(recording.form, "session");
  assert.equal(recording.header.transport, "stdio");
  assert.equal(recording.header.command, `${process.execPath} ${SERVER}`);
  assert.deepEqual(recording.entries.filter((e) => e.dir === "c2s").map((e) => e.text), SESSION, "every line the host sent, as sent");
  assert.deepEqual(recording.entries.filter((e) => e.dir === "s2c").map((e) => e.text), proxied, "every line the server sent, as sent");
  // Each request was written after the previous answer, so wire order is known: c, s, c, c, s, ...
  assert.deepEqual(recording.entries.map((e) => e.dir), ["c2s", "s2c", "c2s", "c2s", "s2c", "c2s", "s2c", "c2s", "s2c", "c2s", "s2c"]);
  const times = recording.entries.map((e) => e.at!);
  assert.ok(times.every((t, i) => Number.isInteger(t) && (i === 0 || t >= times[i - 1]!)), `times in order: ${times}`);
  assert.equal(recording.entries.find((e) => e.text === "this line is not JSON")!.message, undefined, "the malformed line is recorded as it was");
});

test("record: our CLI through the proxy prints what it prints without it, and replay matches the recording", { timeout: TIMEOUT_MS * 2 }, () => {
  const cli = (server: string[]) => spawnSync(process.execPath, [CLI, "call", "add", "a=3", "b=4", "--", ...server], { encoding: "utf8", timeout: TIMEOUT_MS });
  const out = newFile();
  const proxied = cli([process.execPath, RECORD, "record", "--out", out, "--", process.execPath, SERVER]);
  const direct = cli([process.execPath, SERVER]);
  assert.equal(proxied.status, 0, proxied.stderr);
  assert.equal(proxied.stdout, direct.stdout);
  const methods = parseRecording(readFileSync(out, "utf8")).entries.map((e) => (e.message as { method?: string }).method).filter(Boolean);
  assert.ok(methods.includes("tools/call"), `recorded methods: ${methods}`);
  // What record writes, replay plays back: against the same server, it matches.
  const replay = spawnSync(process.execPath, [RECORD, "replay", out, "--", process.execPath, SERVER], { encoding: "utf8", timeout: TIMEOUT_MS });
  assert.equal(replay.status, 0, replay.stdout + replay.stderr);
});

test("record: stdout carries the server's bytes exactly (no trailing newline, bytes that are not UTF-8), stderr passes through", { timeout: TIMEOUT_MS * 2 }, async () => {
  const out = newFile();
  const run = record(["--out", out], [process.execPath, ECHO]);
  const sent = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n\n'), Buffer.from([0x3e, 0xff, 0xfe, 0x0a]), Buffer.from("last, with no newline")]);
  // In pieces cut at awkward places, as a pipe may deliver them.
  for (const piece of [sent.subarray(0, 7), sent.subarray(7, 44), sent.subarray(44)]) run.write(piece);
  run.end();
  assert.deepEqual(await run.exited, { code: 0, signal: null });
  assert.deepEqual(Buffer.concat(run.stdout), sent);
  assert.match(run.stderr, /^pid \d+\n$/, "the server's stderr, and nothing else");
  const recording = parseRecording(readFileSync(out, "utf8"));
  // The \r of the first line's CRLF is the wire's byte: the reader keeps it (recording.ts).
  assert.deepEqual(recording.entries.filter((e) => e.dir === "c2s").map((e) => e.text), ['{"jsonrpc":"2.0","id":1,"method":"ping"}\r', "", ">\uFFFD\uFFFD", "last, with no newline"]);
  assert.deepEqual(recording.entries.filter((e) => e.dir === "s2c").map((e) => e.text), recording.entries.filter((e) => e.dir === "c2s").map((e) => e.text));
});

test("record: a line longer than --max-line-bytes passes through whole and is recorded as a note", { timeout: TIMEOUT_MS * 2 }, async () => {
  const out = newFile();
  const run = record(["--out", out, "--max-line-bytes", "100"], [process.execPath, ECHO]);
  const long = `{"text":"${"x".repeat(300)}"}\n`;
  run.write(long.slice(0, 50));
  run.write(long.slice(50) + "short\n");
  run.end();
  assert.deepEqual(await run.exited, { code: 0, signal: null });
  assert.equal(Buffer.concat(run.stdout).toString(), long + "short\n");
  const text = readFileSync(out, "utf8");
  assert.match(text, /^# > \+\d+ a line of 311 bytes passed through, longer than --max-line-bytes 100: not recorded$/m);
  assert.match(text, /^# < \+\d+ a line of 311 bytes/m);
  assert.deepEqual(parseRecording(text).entries.map((e) => e.text), ["short", "short"]);
});

test("record: the server's exit code is the proxy's (the bin, as hosts run it)", { timeout: TIMEOUT_MS * 2 }, async () => {
  const run = record(["--out", newFile()], [process.execPath, ECHO, "--exit", "3"], CLI);
  run.end();
  assert.deepEqual(await run.exited, { code: 3, signal: null });
});

test("record: SIGTERM to the proxy stops the server, which ends the proxy the same way; the file is complete", { timeout: TIMEOUT_MS * 2 }, async () => {
  const out = newFile();
  const run = record(["--out", out], [process.execPath, ECHO]);
  const pid = await serverPid(run);
  run.write("one\ntwo\n");
  await run.waitFor("two\n");
  run.kill("SIGTERM");
  assert.deepEqual(await run.exited, { code: null, signal: "SIGTERM" });
  assert.ok(await gone(pid), `server ${pid} still running`);
  const entries = parseRecording(readFileSync(out, "utf8")).entries;
  for (const dir of ["c2s", "s2c"]) assert.deepEqual(entries.filter((e) => e.dir === dir).map((e) => e.text), ["one", "two"], dir);
});

test("record: a server that ignores SIGTERM is killed with its group after --grace-ms", { timeout: TIMEOUT_MS * 2 }, async () => {
  const run = record(["--out", newFile(), "--grace-ms", "200"], [process.execPath, ECHO, "--ignore-sigterm"]);
  const pid = await serverPid(run);
  run.kill("SIGTERM");
  const end = await run.exited;
  assert.equal(end.signal, "SIGKILL", "the server was killed, and the proxy ends as it did");
  assert.ok(await gone(pid), `server ${pid} still running`);
});

const usage: [string, string[], number, RegExp][] = [
  ["--help prints the usage on stdout", ["--help"], 0, /^usage: mcp-wire record --out FILE/],
  ["no --out", ["--", process.execPath, ECHO], 2, /missing --out FILE/],
  ["no server", ["--out", "x.recording"], 2, /missing server/],
  ["an unknown option", ["--nope", "--", "x"], 2, /unknown option "--nope"/],
  ["a bad --max-line-bytes", ["--out", "x", "--max-line-bytes", "0", "--", "x"], 2, /--max-line-bytes: expected a positive whole number/],
  ["a server that cannot start", ["--out", join(dir, "spawn.recording"), "--", join(dir, "no-such-server")], 1, /spawn: could not start/],
  ["a file that cannot be created", ["--out", join(dir, "no-such-dir", "x.recording"), "--", process.execPath, ECHO], 1, /record: cannot create/],
  ...(existsSync("/dev/full") ? [["a file that cannot be written", ["--out", "/dev/full", "--", process.execPath, ECHO], 1, /record: cannot write to "\/dev\/full"/] satisfies [string, string[], number, RegExp]] : []),
];
for (const [name, args, status, message] of usage) {
  test(`record: ${name} (exit ${status})`, () => {
    const result = spawnSync(process.execPath, [RECORD, "record", ...args], { encoding: "utf8", timeout: TIMEOUT_MS, input: "" });
    assert.equal(result.status, status, result.stderr);
    assert.match(status === 0 ? result.stdout : result.stderr, message);
    if (status !== 0) assert.equal(result.stdout, "", "nothing of the proxy's own on stdout");
  });
}

test("record --check: each message is checked as it passes, a violation said on stderr at once, stdout untouched", { timeout: TIMEOUT_MS * 2 }, async () => {
  const input = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    // Spec (basic#requests): an id MUST NOT be null. The server answers it with an error; the checker names the rule.
    '{"jsonrpc":"2.0","id":null,"method":"ping"}',
    '{"jsonrpc":"2.0","id":2,"method":"ping"}',
  ];
  // initialized only once initialize is answered, as the lifecycle asks (the checker would say so).
  const checked = record(["--out", newFile(), "--check"], [SERVER]);
  checked.write(input[0] + "\n");
  await checked.waitFor('"id":1');
  checked.write(input.slice(1).join("\n") + "\n");
  await checked.waitFor('"id":2');
  checked.end();
  assert.equal((await checked.exited).code, 0);
  assert.match(checked.stderr, /^mcp-wire record --check: .*:#4 c2s id-null: .*\(https:\/\/modelcontextprotocol\.io\/specification\//m);
  assert.doesNotMatch(checked.stderr, /#[12356] /, "only the null id is a violation");
  const plain = record(["--out", newFile()], [SERVER]);
  plain.write(input[0] + "\n");
  await plain.waitFor('"id":1');
  plain.write(input.slice(1).join("\n") + "\n");
  await plain.waitFor('"id":2');
  plain.end();
  await plain.exited;
  assert.equal(Buffer.concat(checked.stdout).toString(), Buffer.concat(plain.stdout).toString(), "checking changes nothing on stdout");
  assert.doesNotMatch(plain.stderr, /--check/);
});

test("record: a host that reads slowly still gets every byte the server wrote before it exited, and the file every line", { timeout: TIMEOUT_MS * 2 }, async () => {
  const out = newFile();
  // A shell pipe, as a host's would be: the proxy's stdout is the slow host's stdin.
  const node = JSON.stringify(process.execPath);
  const pipeline = `${node} ${JSON.stringify(RECORD)} record --out ${JSON.stringify(out)} -- ${node} ${JSON.stringify(join(root, "fixtures/recordings/record/burst-server.cjs"))} < /dev/null | ${node} ${JSON.stringify(join(root, "fixtures/recordings/record/slow-host.cjs"))}`;
  const run = spawnSync("sh", ["-c", `${pipeline}; exit $?`], { encoding: "utf8", timeout: TIMEOUT_MS });
  const got = run.stderr.trim();
  const proxyCode = run.status;
  assert.equal(proxyCode, 0);
  const lines = parseRecording(readFileSync(out, "utf8")).entries.filter((e) => e.dir === "s2c");
  assert.equal(Number(got), 1200 * (lines[0]!.text.length + 1), "every byte reached the host");
  assert.equal(lines.length, 1200, "every line is in the recording");
});
