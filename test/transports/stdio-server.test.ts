// serveStdio in process, with a stand-in for the process: the same rules the real server keeps
// (answer what is in flight when stdin ends, then exit 0; close on SIGTERM; problems on stderr,
// under the server's own name).
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpServer } from "../../src/server/definition.js";
import { serveStdio } from "../../src/transports/stdio-server.js";

function standIn() {
  const host = new EventEmitter() as EventEmitter & { stdin: PassThrough; stdout: PassThrough; stderr: PassThrough; exit: (code: number) => void };
  host.stdin = new PassThrough();
  host.stdout = new PassThrough();
  host.stderr = new PassThrough();
  // serveStdio's exit timer is unref'd (it must never hold a real process up), so keep this one alive.
  const keepAlive = setInterval(() => {}, 1000);
  const exited = new Promise<number>((resolve) => (host.exit = (code) => (clearInterval(keepAlive), resolve(code))));
  let out = "";
  let err = "";
  host.stdout.on("data", (c: Buffer) => (out += c));
  host.stderr.on("data", (c: Buffer) => (err += c));
  return { host, exited, out: () => out, err: () => err };
}

const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n';

test("serveStdio: answers, reports problems on stderr, and exits 0 when stdin ends", async () => {
  const { host, exited, out, err } = standIn();
  serveStdio(createDemoServer(), { process: host as never });
  host.stdin.end(INIT + "not json\n");
  assert.equal(await exited, 0);
  const lines = out().trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines[0].result.protocolVersion, "2025-11-25");
  assert.equal(lines[1].error.code, -32700);
  // Under the server's own name (its ServerInfo.name), as the demo program's is (src/demo/main.ts).
  assert.match(err(), /^mcp-wire-demo: parse error/m);
});

test("serveStdio: problem lines go under the program's own name: its ServerInfo.name, or the programName it gives", async () => {
  for (const { options, prefix } of [{ options: {}, prefix: "weather: " }, { options: { programName: "weather-mcp" }, prefix: "weather-mcp: " }]) {
    const { host, exited, err } = standIn();
    const server = new McpServer({ name: "weather", version: "1" });
    // @ts-expect-error -- wrong on purpose: the check at run time is what is tested.
    server.tool({ name: "lookup", inputSchema: { type: "object" }, outputSchema: { type: "object", required: ["temperature"] } }, () => ({ content: [], structuredContent: {} }));
    serveStdio(server, { process: host as never, ...options });
    host.stdin.end(INIT + '{"jsonrpc":"2.0","method":"notifications/initialized"}\n' + "not json\n" + '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup"}}\n');
    assert.equal(await exited, 0);
    assert.deepEqual(err().trimEnd().split("\n").map((line) => line.slice(0, prefix.length)), [prefix, prefix]);
    assert.match(err(), /^[\w-]+: tools\/call lookup: structuredContent does not match the tool's outputSchema: missing required property "temperature"$/m);
    assert.doesNotMatch(err(), /mcp-wire-server/);
  }
});

test("serveStdio: SIGTERM closes the session and exits 0", async () => {
  const { host, exited } = standIn();
  const session = serveStdio(createDemoServer(), { process: host as never });
  host.stdin.write(INIT);
  host.emit("SIGTERM");
  assert.equal(await exited, 0);
  assert.equal(session.state, "closed");
});

test("serveStdio: while stderr is not read, problem lines are dropped and counted, not buffered", async () => {
  const { host, exited } = standIn();
  host.stderr = new PassThrough({ highWaterMark: 256 });
  serveStdio(createDemoServer(), { process: host as never });
  host.stdin.write("not json\n".repeat(200));
  await new Promise((r) => setTimeout(r, 50));
  // One line may overshoot the buffer's mark; the other 199 wait for no one.
  assert.ok(host.stderr.writableLength < 512, `${host.stderr.writableLength} bytes of problem lines buffered`);
  let err = "";
  host.stderr.on("data", (c: Buffer) => (err += c));
  await new Promise((r) => setTimeout(r, 50));
  const [, dropped] = /(\d+) problem lines dropped while stderr was not read/.exec(err) ?? [];
  const shown = err.split("\n").filter((line) => /parse error/.test(line)).length;
  assert.equal(shown + Number(dropped), 200);
  host.stdin.end();
  assert.equal(await exited, 0);
});
