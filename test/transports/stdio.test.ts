// The stdio server as a host runs it: a real `node dist/server.js` child, fed hostile input.
// Whatever arrives, stdout carries only JSON-RPC messages, each request gets one answer, and the
// process stays up until its stdin closes or it is signalled.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PassThrough, Writable } from "node:stream";
import { StreamTransport } from "../../src/transports/stdio.js";
import { SENT_AT_ONCE } from "../../src/protocol/transport.js";
import { Dispatcher } from "../../src/protocol/dispatch.js";
import { Connection, type RequestContext } from "../../src/protocol/connection.js";
import { McpClient } from "../../src/client/client.js";
import { StdioClientTransport } from "../../src/transports/stdio-client.js";
import { DEFAULT_CONTENT_BYTES, DEFAULT_MAX_MESSAGE_BYTES } from "../../src/jsonrpc/framing.js";

const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n';

interface Run { child: ChildProcessWithoutNullStreams; stdout: () => string; stderr: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }

function start(args: string[] = []): Run {
  const child = spawn(process.execPath, [SERVER, ...args]);
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Every stdout line must be one JSON-RPC message; returns them parsed. */
function messages(stdout: string): { id?: unknown; error?: { code: number; message: string }; result?: unknown }[] {
  return stdout.split("\n").filter(Boolean).map((line) => {
    const message = JSON.parse(line);
    assert.equal(message.jsonrpc, "2.0", `not a JSON-RPC message on stdout: ${line.slice(0, 200)}`);
    return message;
  });
}

async function feed(input: (Buffer | string)[], args: string[] = []) {
  const run = start(args);
  for (const piece of input) run.child.stdin.write(piece);
  run.child.stdin.end();
  const { code } = await run.exited;
  return { code, messages: messages(run.stdout()), stderr: run.stderr() };
}

test("stdio: invalid UTF-8 is a parse error and the server goes on", async () => {
  const bad = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}}\n')]);
  const { code, messages: out, stderr } = await feed([INIT, bad, '{"jsonrpc":"2.0","id":6,"method":"ping"}\n']);
  assert.equal(code, 0);
  assert.deepEqual(out.slice(1), [{ jsonrpc: "2.0", error: { code: -32700, message: "parse error: message is not valid UTF-8" } }, { jsonrpc: "2.0", id: 6, result: {} }]);
  assert.match(stderr, /not valid UTF-8/);
});

test("stdio: a line over the limit gets an error to its id, and the stream recovers", async () => {
  const big = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${"x".repeat(300_000)}"}}}\n`;
  const { code, messages: out } = await feed([INIT, big.slice(0, 1000), big.slice(1000), '{"jsonrpc":"2.0","id":8,"method":"ping"}\n'], ["--max-message-bytes", "100000"]);
  assert.equal(code, 0);
  assert.equal(out[1]!.id, 7);
  assert.equal(out[1]!.error!.code, -32600);
  assert.match(out[1]!.error!.message, /exceeds the limit of 100000 bytes/);
  assert.deepEqual(out[2], { jsonrpc: "2.0", id: 8, result: {} });
});

test("stdio: with default options, a 64 MiB text argument is echoed end to end; a message past the limit is still refused", { timeout: 30_000 }, async () => {
  // The default limit is 64 MiB of content plus room for the envelope, on both sides: the server
  // reads the request, our client reads the answer ("echo: " and the text). About 2 s on loopback.
  const client = new McpClient({ name: "t", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER] }));
  try {
    const result = await client.callTool("echo", { text: "a".repeat(DEFAULT_CONTENT_BYTES) });
    const echoed = (result.content[0] as { text: string }).text;
    assert.equal(echoed.length, "echo: ".length + DEFAULT_CONTENT_BYTES);
    assert.ok(/^echo: a+$/.test(echoed));
    // A text as long as the whole limit makes a message past it: the server drops it as it
    // arrives and answers its id with -32600, as before.
    await assert.rejects(client.callTool("echo", { text: "a".repeat(DEFAULT_MAX_MESSAGE_BYTES) }), { code: -32600, message: new RegExp(`exceeds the limit of ${DEFAULT_MAX_MESSAGE_BYTES} bytes`) });
    await client.ping();
  } finally {
    await client.close();
  }
});

test("stdio: hostile arguments (deep nesting, huge ids, odd types) get answers, not crashes", async () => {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  const lines = [
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":${deep}}}}`,
    `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":${deep},"b":1}}}`,
    `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`,
    `{"jsonrpc":"2.0","id":"${"i".repeat(100_000)}","method":"ping"}`,
    `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":{"toString":1}}}`,
    `{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"review_message","arguments":{"message":"\\u0000\\ud800"}}}`,
    `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"docs://demo/protocol-notes/${"%".repeat(1000)}"}}`,
    `{"jsonrpc":"2.0","id":6,"method":"ping"}`,
  ];
  const { code, messages: out } = await feed([INIT, lines.join("\n") + "\n"]);
  assert.equal(code, 0);
  const byId = new Map(out.map((m) => [typeof m.id === "string" && m.id.length > 100 ? "long" : m.id, m]));
  assert.equal((byId.get(1)!.result as { isError: boolean }).isError, true, "deep text argument: isError result");
  assert.equal((byId.get(2)!.result as { isError: boolean }).isError, true);
  assert.ok(out.some((m) => !("id" in m) && m.error?.code === -32600), "unsafe integer id: invalid request without id");
  assert.deepEqual(byId.get("long")!.result, {});
  assert.equal(byId.get(3)!.error!.code, -32602);
  assert.ok(byId.get(4)!.result, "odd unicode in prompt arguments is fine");
  assert.equal(byId.get(5)!.error!.code, -32002);
  assert.deepEqual(byId.get(6)!.result, {});
  assert.equal(out.length, 9, "one answer per request (and the initialize result)");
});

test("stdio: the server exits within 2 s when stdin closes, even with a call in flight (which is answered)", async () => {
  const run = start();
  run.child.stdin.write(INIT + '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"countdown","arguments":{"steps":3,"intervalMs":50}}}\n');
  await new Promise((r) => setTimeout(r, 100));
  const closedAt = Date.now();
  run.child.stdin.end();
  const { code } = await run.exited;
  assert.equal(code, 0);
  assert.ok(Date.now() - closedAt < 2000);
  assert.equal(messages(run.stdout()).at(-1)!.id, 1);
});

test("stdio: stdin's end waits for a call in flight however long it runs: a 2 s countdown is answered", async () => {
  const run = start();
  run.child.stdin.end(INIT + '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"countdown","arguments":{"steps":2,"intervalMs":1000}}}\n');
  const { code } = await run.exited;
  assert.equal(code, 0);
  const last = messages(run.stdout()).at(-1)!;
  assert.equal(last.id, 1);
  assert.deepEqual(last.result, { content: [{ type: "text", text: "countdown: done after 2 steps" }] });
});

test("stdio: a host that does not read stdout stops being read; once it reads, every request is answered and the server exits", async () => {
  const run = spawn(process.execPath, [SERVER]);
  const count = 20_000;
  const pings = Array.from({ length: count }, (_, i) => `{"jsonrpc":"2.0","id":${i + 1},"method":"ping"}\n`);
  const total = Buffer.byteLength(pings.join(""));
  // In pieces of 100 lines, so that what is still queued on our side shows how far the server read.
  for (let i = 0; i < count; i += 100) run.stdin.write(pings.slice(i, i + 100).join(""));
  run.stdin.end();
  // stdout is not read: wait until the server stops taking input (the bytes still queued on our side stop changing).
  let queued = -1;
  while (run.stdin.writableLength !== queued) {
    queued = run.stdin.writableLength;
    await new Promise((r) => setTimeout(r, 300));
  }
  const taken = total - queued;
  // Taken: what fills the pipes and the streams' buffers (a few 64 KiB) and the answers that fit in stdout's pipe.
  assert.ok(taken < 500_000, `the server read ${taken} of ${total} bytes while its stdout was not read`);
  let out = "";
  run.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
  const code = await new Promise((resolve) => run.on("exit", resolve));
  assert.equal(code, 0);
  const ids = messages(out).map((m) => m.id);
  assert.equal(ids.length, count);
  assert.equal(new Set(ids).size, count);
});

test("stdio: SIGTERM and SIGINT end the server cleanly", async () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const run = start();
    run.child.stdin.write(INIT);
    // Signal only once the server answered: its handlers are installed by then.
    while (!run.stdout().includes('"id":0')) await new Promise((r) => setTimeout(r, 10));
    run.child.kill(signal);
    const { code } = await run.exited;
    assert.equal(code, 0, `${signal}: exit code`);
  }
});

test("stdio: a reader that goes away (EPIPE) is a clean shutdown, not a crash", async () => {
  const run = start();
  run.child.stdout.destroy();
  run.child.stdin.write(INIT + '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"docs://demo/protocol-notes"}}\n');
  const { code } = await run.exited;
  assert.equal(code, 0);
  assert.doesNotMatch(run.stderr(), /Unhandled|at .*\.js:\d+/);
});

test("stdio: console output from inside the server goes to stderr, never stdout", async () => {
  const child = spawn(process.execPath, ["--input-type=module", "-e", `
    await import(${JSON.stringify(new URL("../../dist/transports/stdout-guard.js", import.meta.url).href)});
    console.log("log"); console.info("info"); console.debug("debug"); console.warn("warn"); console.table([1]);
    console.dir({ dir: 1 }); console.group("group"); console.count("count"); console.dirxml("dirxml"); console.timeLog("t");`]);
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c));
  child.stderr.on("data", (c: Buffer) => (err += c));
  await new Promise((resolve) => child.on("close", resolve));
  assert.equal(out, "");
  assert.match(err, /log[\s\S]*info[\s\S]*debug[\s\S]*warn[\s\S]*dir: 1[\s\S]*group[\s\S]*count: 1[\s\S]*dirxml/);
});

test("stdio: bad options are a usage error on stderr, exit 2", async () => {
  const run = start(["--page-size", "zero"]);
  const { code } = await run.exited;
  assert.equal(code, 2);
  assert.equal(run.stdout(), "");
  assert.match(run.stderr(), /--page-size needs a positive whole number/);
});

test("stdio transport: with pauseWhileOutputBlocked, stops reading while the output is backed up, and delivers the rest in order once it drains", async () => {
  const input = new PassThrough();
  const output = new PassThrough({ highWaterMark: 64 });
  const transport = new StreamTransport(input, output, { pauseWhileOutputBlocked: true });
  const seen: string[] = [];
  transport.start({
    message: (text) => {
      seen.push(text);
      void transport.send({ jsonrpc: "2.0", id: seen.length, result: { pad: "x".repeat(100) } });
    },
    unreadable: () => {},
    close: () => {},
  });
  const count = 500;
  for (let i = 0; i < count; i++) input.write(`{"n":${i}}\n`);
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(seen.length < 10, `${seen.length} messages taken in while no answer was read`);
  let answers = 0;
  output.on("data", (chunk: Buffer) => (answers += chunk.toString().split("\n").length - 1));
  await new Promise<void>((resolve) => {
    const check = () => (answers === count ? resolve() : setTimeout(check, 5));
    check();
  });
  assert.deepEqual(seen, Array.from({ length: count }, (_, i) => `{"n":${i}}`));
});

test("stdio transport: by default, reading goes on while the output is backed up (a client must keep reading answers)", async () => {
  const input = new PassThrough();
  const transport = new StreamTransport(input, new PassThrough({ highWaterMark: 16 }));
  let seen = 0;
  transport.start({ message: () => void transport.send({ jsonrpc: "2.0", method: `n${++seen}` }), unreadable: () => {}, close: () => {} });
  input.write("{}\n{}\n{}\n");
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(seen, 3);
});

test("stdio transport: a client flooding a server over small pipes gets every answer (no two-sided stall)", async () => {
  const toServer = new PassThrough({ highWaterMark: 64 });
  const toClient = new PassThrough({ highWaterMark: 64 });
  const echo = new Dispatcher<RequestContext>([{ method: "echo", kind: "request", handle: (p) => ({ echoed: p.value }) }]);
  const server = new Connection(new StreamTransport(toServer, toClient, { pauseWhileOutputBlocked: true }), { dispatcher: echo });
  const client = new Connection(new StreamTransport(toClient, toServer), { dispatcher: new Dispatcher([]) });
  server.start();
  client.start();
  const pad = "x".repeat(200);
  const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => client.request("echo", { i, pad }, { timeouts: { idleMs: 5000 } })));
  assert.deepEqual(answers.map((a) => (a.echoed as { i: number }).i), Array.from({ length: 300 }, (_, i) => i));
  await client.close();
  await server.close();
});

test("stdio transport: pauseInput holds frames back, in order, until resumeInput; the end of input waits for them", async () => {
  const input = new PassThrough();
  const transport = new StreamTransport(input, new PassThrough());
  const seen: string[] = [];
  let ended = false;
  transport.start({
    message: (text) => {
      seen.push(text);
      if (seen.length === 2) transport.pauseInput();
    },
    unreadable: () => {},
    inputEnded: () => (ended = true),
    close: () => {},
  });
  input.end("1\n2\n3\n4\n");
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(seen, ["1", "2"]);
  assert.equal(ended, false);
  transport.resumeInput();
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(seen, ["1", "2", "3", "4"]);
  assert.equal(ended, true);
});

test("stdio transport: waits for drain under backpressure and refuses to send once closed", async () => {
  const input = new PassThrough();
  const output = new PassThrough({ highWaterMark: 16 });
  const transport = new StreamTransport(input, output);
  const closed: (Error | undefined)[] = [];
  transport.start({ message: () => {}, unreadable: () => {}, close: (cause) => closed.push(cause) });
  let sent = false;
  const sending = transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { data: "x".repeat(1000) } }).then(() => (sent = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(sent, false, "still waiting for the reader");
  output.read();
  await sending;
  assert.equal(sent, true);
  await transport.close();
  await assert.rejects(transport.send({ jsonrpc: "2.0", method: "x" }), /closed/);
  assert.deepEqual(closed, [undefined]);
});

test("stdio transport: a message taken at once is answered with the shared SENT_AT_ONCE; failures are rejections, never throws", async () => {
  const transport = new StreamTransport(new PassThrough(), new PassThrough());
  transport.start({ message: () => {}, unreadable: () => {}, close: () => {} });
  // Connection.send watches no promise for failure when it is SENT_AT_ONCE: nothing is left that could fail.
  assert.equal(transport.send({ jsonrpc: "2.0", method: "a" }), SENT_AT_ONCE);
  // A BigInt cannot be written as JSON: the send fails as a promise, as an async function's would.
  let unencodable: Promise<void> | undefined;
  assert.doesNotThrow(() => (unencodable = transport.send({ jsonrpc: "2.0", method: "b", params: { n: 1n } })));
  await assert.rejects(unencodable!, TypeError);
  await transport.close();
  let closed: Promise<void> | undefined;
  assert.doesNotThrow(() => (closed = transport.send({ jsonrpc: "2.0", method: "c" })));
  await assert.rejects(closed!, /closed/);
});

test("stdio transport: the short messages of one tick leave in one buffer; a close writes them before the stream ends", async () => {
  const chunks: string[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString("utf8"));
      callback();
    },
  });
  const transport = new StreamTransport(new PassThrough(), output);
  transport.start({ message: () => {}, unreadable: () => {}, close: () => {} });
  for (const method of ["a", "b", "c"]) void transport.send({ jsonrpc: "2.0", method });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(chunks, ['{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n{"jsonrpc":"2.0","method":"c"}\n']);
  // serveStdio ends stdout as soon as the session closes, which may be within the tick of the last answer.
  void transport.send({ jsonrpc: "2.0", method: "d" });
  await transport.close();
  output.end();
  await new Promise((resolve) => output.on("finish", resolve));
  assert.deepEqual(chunks.slice(1), ['{"jsonrpc":"2.0","method":"d"}\n']);
});

test("stdio transport: a short message leaves as one buffer with its line end; a long one is not copied to add it", async () => {
  const chunks: Buffer[][] = [];
  const output = new Writable({
    writev(entries, callback) {
      chunks.push(entries.map(({ chunk }) => chunk as Buffer));
      callback();
    },
  });
  const transport = new StreamTransport(new PassThrough(), output);
  transport.start({ message: () => {}, unreadable: () => {}, close: () => {} });
  await transport.send({ jsonrpc: "2.0", method: "a" });
  await transport.send({ jsonrpc: "2.0", method: "b", params: { data: "x".repeat(64 * 1024) } });
  await new Promise((resolve) => setImmediate(resolve));
  const written = chunks.flat().map((chunk) => chunk.toString("utf8"));
  assert.equal(written.length, 3);
  assert.equal(written[0], '{"jsonrpc":"2.0","method":"a"}\n');
  assert.ok(written[1]!.startsWith('{"jsonrpc":"2.0","method":"b"') && written[1]!.endsWith("}"));
  assert.equal(written[2], "\n");
  await transport.close();
});
