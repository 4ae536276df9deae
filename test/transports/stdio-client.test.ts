// The stdio client transport against servers that misbehave (fixtures/servers/minimal.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { McpClient } from "../../src/client/client.js";
import { HandshakeTimeoutError, VersionRefusedError } from "../../src/client/errors.js";
import { ConnectionClosedError } from "../../src/jsonrpc/pending.js";
import { ServerClosedStdoutError, ServerExitedError, SpawnError, StdioClientTransport, type StdioServerParameters } from "../../src/transports/stdio-client.js";
import { launchCommand, quoteForCmd } from "../../src/transports/windows-command.js";

const MINIMAL = fileURLToPath(new URL("../../fixtures/servers/minimal.mjs", import.meta.url));
const info = { name: "fault-tests", version: "1" };

function minimal(mode: string, extra: Partial<StdioServerParameters> = {}) {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [MINIMAL, mode], onStderr: (l) => stderr.push(l), graceMs: 500, ...extra });
  return { transport, stderr };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

test("stdio client: a server that exits mid-call rejects every pending call at once, with code and stderr", async () => {
  const { transport } = minimal("exit-mid-call");
  const client = new McpClient(info);
  await client.connect(transport);
  const closed = new Promise((resolve) => client.once("close", resolve));
  const calls = [client.callTool("a"), client.ping().then(() => client.callTool("b"))];
  for (const call of calls) {
    await assert.rejects(call, (e: unknown) => e instanceof ConnectionClosedError && e.cause instanceof ServerExitedError
      && /exited with code 3/.test(e.message) && /fatal: something broke/.test(e.message));
  }
  const cause = (await closed) as ServerExitedError;
  assert.equal(cause.code, 3);
  assert.deepEqual(cause.stderrTail, ["fatal: something broke"]);
});

test("stdio client: a server that closes its stdout but keeps running fails the pending calls at once, and is stopped", { timeout: 10_000 }, async () => {
  const { transport } = minimal("close-stdout");
  // Timeouts far beyond the test's own: only the end of stdout can fail the call in time.
  const client = new McpClient(info, { timeouts: { idleMs: 600_000, maxTotalMs: 600_000 } });
  await client.connect(transport);
  const pid = transport.pid!;
  const closed = new Promise((resolve) => client.once("close", resolve));
  await assert.rejects(client.callTool("a"), (e: unknown) => e instanceof ConnectionClosedError && e.cause instanceof ServerClosedStdoutError
    && /^tools\/call: connection closed before the response arrived: the server closed its stdout/.test(e.message));
  assert.ok((await closed) instanceof ServerClosedStdoutError);
  assert.ok(await gone(pid), "the server was stopped the way close() does");
});

test("stdio client: a stderr line that never ends is passed on in pieces, none past the limit plus one read", async () => {
  const { transport, stderr } = minimal("stderr-flood", { maxStderrLineBytes: 1024 });
  const client = new McpClient(info);
  await client.connect(transport);
  const deadline = Date.now() + 5000;
  while (!stderr.includes("end") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const pieces = stderr.slice(0, stderr.indexOf("end"));
  assert.equal(pieces.join(""), "e".repeat(256 * 1024), "nothing lost");
  assert.ok(pieces.length > 1 && pieces.every((piece) => piece.length <= 1024 + 64 * 1024), `${pieces.length} pieces`);
  await client.close();
});

test("stdio client: garbage on the server's stdout is reported, and the connection goes on", async () => {
  const { transport } = minimal("garbage");
  const problems: string[] = [];
  const client = new McpClient(info, { onProblem: (p) => problems.push(p) });
  await client.connect(transport);
  assert.deepEqual((await client.callTool("t")).content, [{ type: "text", text: "ok" }]);
  assert.ok(problems.some((p) => /not valid JSON/.test(p)), problems.join("; "));
  await client.close();
});

test("stdio client: a server that never answers initialize fails within the handshake timeout", async () => {
  const { transport } = minimal("silent");
  // The handshake's own timeout, pinned (by default the probe would wait first).
  const client = new McpClient(info, { protocolVersion: "2025-11-25", handshakeTimeoutMs: 300 });
  const started = Date.now();
  await assert.rejects(client.connect(transport), (e: unknown) => e instanceof HandshakeTimeoutError && /did not answer within 300 ms/.test(e.message));
  assert.ok(Date.now() - started < 2500);
  assert.ok(await gone(transport.pid!), "the silent server was stopped");
});

test("stdio client: a version we do not speak is refused, naming both sides", async () => {
  const { transport } = minimal("old-version");
  // The version initialize settles on: the handshake era, pinned.
  const client = new McpClient(info, { protocolVersion: "2025-11-25" });
  await assert.rejects(client.connect(transport), (e: unknown) => e instanceof VersionRefusedError && /"1999-01-01"/.test(e.message) && /2025-11-25/.test(e.message));
  assert.ok(await gone(transport.pid!));
});

test("stdio client: a server that ignores SIGTERM is killed after the grace period", async () => {
  const { transport, stderr } = minimal("ignore-sigterm");
  const client = new McpClient(info);
  await client.connect(transport);
  const pid = transport.pid!;
  const started = Date.now();
  await client.close();
  const took = Date.now() - started;
  assert.ok(!alive(pid));
  assert.ok(took >= 900 && took < 3000, `took ${took} ms: stdin grace, then SIGTERM grace, then SIGKILL`);
  assert.ok(stderr.includes("ignoring SIGTERM"));
});

test("stdio client: a server started through sh -c leaves no grandchild behind", async () => {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({ command: "sh", args: ["-c", `"${process.execPath}" "${MINIMAL}" grandchild`], onStderr: (l) => stderr.push(l), graceMs: 500 });
  const client = new McpClient(info);
  await client.connect(transport);
  const grandchild = Number(/grandchild (\d+)/.exec(stderr.join("\n"))?.[1]);
  assert.ok(grandchild > 0 && alive(grandchild));
  await client.close();
  assert.ok(await gone(grandchild), "the grandchild was stopped with its group");
});

test("stdio client: a command that does not exist is a spawn error", async () => {
  const transport = new StdioClientTransport({ command: "/nonexistent/mcp-server" });
  const client = new McpClient(info);
  await assert.rejects(client.connect(transport), (e: unknown) => e instanceof ConnectionClosedError && e.cause instanceof SpawnError && /ENOENT/.test(e.message));
});

test("windows: .cmd scripts and npx run through cmd.exe with every argument quoted", () => {
  assert.deepEqual(launchCommand("node", ["a b"], "linux"), { file: "node", args: ["a b"], windowsVerbatimArguments: false });
  assert.deepEqual(launchCommand("server.exe", ["x"], "win32"), { file: "server.exe", args: ["x"], windowsVerbatimArguments: false });
  const npx = launchCommand("npx", ["-y", "@scope/server", "a b", 'say "hi" & del *'], "win32");
  assert.equal(npx.file, "cmd.exe");
  assert.deepEqual(npx.args.slice(0, 3), ["/d", "/s", "/c"]);
  assert.equal(npx.args[3], '"npx -y @scope/server ^"a b^" ^"say \\^"hi\\^" ^& del *^""');
  assert.equal(launchCommand("C:\\tools\\serve.BAT", [], "win32").file, "cmd.exe");
  assert.equal(quoteForCmd("%PATH%"), "^%PATH^%");
  assert.equal(quoteForCmd(""), '^"^"');
  assert.equal(quoteForCmd("trailing\\ slash\\"), '^"trailing\\ slash\\\\^"');
});

test("stdio client: with restarts on, a crashed server is started again and re-initialized", async () => {
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { StdioServerConnection } = await import("../../src/client/restart.js");
  const marker = join(mkdtempSync(join(tmpdir(), "mcp-wire-")), "crashed");
  const client = new McpClient(info);
  const events: string[] = [];
  for (const event of ["restarting", "restarted", "restartFailed"]) client.on(event, (detail) => events.push(`${event} ${detail.attempt ?? detail.attempts}`));
  const connection = new StdioServerConnection(client, { command: process.execPath, args: [MINIMAL, "crash-once", marker], graceMs: 500 }, { initialDelayMs: 10 });
  await connection.start();
  const firstPid = connection.transport!.pid;
  await assert.rejects(client.callTool("t"), (e: unknown) => e instanceof ConnectionClosedError && /exited with code 5/.test(e.message));
  await new Promise((resolve) => client.once("restarted", resolve));
  assert.notEqual(connection.transport!.pid, firstPid);
  assert.deepEqual((await client.callTool("t")).content, [{ type: "text", text: "ok" }]);
  assert.deepEqual(events, ["restarting 1", "restarted 1"]);
  await connection.close();
});

test("stdio client: restarts are bounded, and giving up is reported", async () => {
  const { StdioServerConnection } = await import("../../src/client/restart.js");
  const client = new McpClient(info, { handshakeTimeoutMs: 500 });
  const connection = new StdioServerConnection(client, { command: process.execPath, args: [MINIMAL, "exit-mid-call"], graceMs: 200 }, { maxRetries: 2, initialDelayMs: 10 });
  await connection.start();
  // From now on every start fails: the program is gone.
  (connection.parameters as { args: string[] }).args = ["/nonexistent/server.mjs"];
  const failed = new Promise<{ attempts: number }>((resolve) => client.once("restartFailed", resolve));
  await assert.rejects(client.callTool("t"));
  assert.equal((await failed).attempts, 2);
  await connection.close();
});

test("stdio client: closing a transport whose server never started returns at once, however often", async () => {
  const transport = new StdioClientTransport({ command: "/nonexistent/mcp-server" });
  const closed = new Promise((resolve) => transport.start({ message: () => {}, unreadable: () => {}, close: resolve }));
  assert.ok((await closed) instanceof SpawnError);
  await transport.close();
  await transport.close();
});

test("stdio client: pauseInput holds the server's messages back until resumeInput (the connection's bound on work in flight)", async () => {
  const { transport } = minimal("normal");
  const received: string[] = [];
  transport.start({ message: (text) => void received.push(text), unreadable: () => {}, close: () => {} });
  try {
    transport.pauseInput();
    await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    // The answer comes at once from this server; paused, it must wait in the pipe.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(received, []);
    transport.resumeInput();
    const deadline = Date.now() + 5000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(received.map((text) => JSON.parse(text)), [{ jsonrpc: "2.0", id: 1, result: {} }]);
  } finally {
    await transport.close();
  }
});

test("stdio client: a message sent just before close reaches the server before its stdin ends", async () => {
  // The child tells on stderr what it read before its stdin ended.
  const reader = `let read = ""; process.stdin.on("data", (c) => (read += c)); process.stdin.on("end", () => process.stderr.write("read: " + read.trim() + "\\n"));`;
  const stderr: string[] = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: ["-e", reader], onStderr: (l) => stderr.push(l), graceMs: 2000 });
  transport.start({ message: () => {}, unreadable: () => {}, close: () => {} });
  // Sent and closed within one tick: the message is still held for the tick's one write.
  await transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
  await transport.close();
  assert.deepEqual(stderr, ['read: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}']);
});
