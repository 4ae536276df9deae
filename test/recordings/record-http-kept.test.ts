// What `mcp-wire record --listen` keeps at once across every open exchange (src/recordings/record-http-kept.ts,
// record-http-body.ts): compressed bodies that are never finished keep no more than --max-kept-bytes
// between them, however many are open; each past it is noted and stops being decoded, and every
// body gives its share back when it ends, is cut short or is given up. The total counts the
// decoders too (Brotli's window), and unencoded bodies. In process: BodyDecoder fed chunks; the
// last test runs the proxy (dist/cli.unbundled.js record --listen; needs `npm run build`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { session } from "../helpers/record-session.js";
import { BodyDecoder, EventRecorder, JsonBody, type DecodedSink, type Recorder } from "../../src/recordings/record-http-body.js";
import { DECODER_BYTES, KeptBytes } from "../../src/recordings/record-http-kept.js";

const MIB = 1024 * 1024;
const PING = '{"jsonrpc":"2.0","id":1,"result":{}}';
/** 8 MiB of zeros gzipped (about 8 KiB) without the gzip trailer: it all decodes, and the body never ends. */
const DECODED = 8 * MIB;
const NEVER_ENDING = (() => {
  const whole = gzipSync(Buffer.alloc(DECODED));
  return whole.subarray(0, whole.length - 8);
})();

/** A JsonBody behind a sink that counts what it keeps: every byte it accepted, until it is told its end. */
function watched(body: JsonBody): { sink: DecodedSink; state: { keeps: number; ended: boolean } } {
  const state = { keeps: 0, ended: false };
  const sink: DecodedSink = {
    data: (bytes) => {
      const more = body.data(bytes);
      if (more) state.keeps += bytes.length;
      return more;
    },
    end: (problem) => {
      state.ended = true;
      state.keeps = 0;
      body.end(problem);
    },
    held: () => body.held(),
  };
  return { sink, state };
}

/** An unencoded request body recorded up to `limit` bytes, counted against `kept`. */
function unencoded(limit: number, record: Recorder, kept: KeptBytes): BodyDecoder {
  return new BodyDecoder(undefined, new JsonBody("c2s", limit, undefined, record), kept);
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test("record over HTTP: gzip bodies never finished keep no more than the total between them, and give it back as they end", async () => {
  const { record, read } = session("never-finished");
  const kept = new KeptBytes(20 * MIB);
  // Each body alone is under --max-line-bytes (16 MiB): only the total can stop them.
  const bodies = Array.from({ length: 16 }, () => {
    const { sink, state } = watched(new JsonBody("c2s", 16 * MIB, "gzip", record));
    return { state, decoder: new BodyDecoder("gzip", sink, kept) };
  });
  for (const { decoder } of bodies) decoder.push(NEVER_ENDING);
  // zlib decodes on its own threads: wait until each body is decoded whole or was given up.
  while (!bodies.every(({ state }) => state.ended || state.keeps === DECODED)) await turn();
  const keptAtOnce = bodies.reduce((sum, { state }) => sum + state.keeps, 0);
  assert.ok(keptAtOnce <= kept.limit, `16 open bodies keep ${keptAtOnce} decoded bytes between them, past the total of ${kept.limit}`);
  assert.ok(kept.peak <= kept.limit, `the counter passed the total: ${kept.peak}`);
  const givenUp = bodies.filter(({ state }) => state.ended).length;
  assert.equal(givenUp, 14, "two bodies fit whole (8 MiB and a decoder each); the other fourteen are given up");
  for (const { decoder } of bodies) decoder.abort();
  assert.equal(kept.held, 0, "every share is given back");
  const lines = read();
  assert.equal(lines.filter((line) => line === `# > the copies kept for the exchanges still open reached --max-kept-bytes ${20 * MIB}; passed through, not recorded`).length, 14);
  assert.equal(lines.filter((line) => line === "# > the body ended early (its connection closed); passed through, not recorded").length, 2);
  assert.equal(lines.length, 16);
});

test("record over HTTP: a decoder takes its share of the total before it decodes: a br body with no room is not decoded at all", async () => {
  const { record, read } = session("decoder-share");
  const kept = new KeptBytes(MIB);
  assert.ok(DECODER_BYTES.br! > MIB && DECODER_BYTES.gzip! < MIB);
  const ended = (body: JsonBody, encoding: string, bytes: Buffer) => new Promise<void>((resolve) => {
    const decoder = new BodyDecoder(encoding, { data: (chunk) => body.data(chunk), end: (problem) => (body.end(problem), resolve()), held: () => body.held() }, kept);
    decoder.push(bytes);
    decoder.end();
  });
  await ended(new JsonBody("s2c", MIB, "br", record), "br", brotliCompressSync(Buffer.from(PING)));
  await ended(new JsonBody("s2c", MIB, "gzip", record), "gzip", gzipSync(Buffer.from(PING)));
  assert.deepEqual(read(), [`# < the copies kept for the exchanges still open reached --max-kept-bytes ${MIB}; passed through, not recorded`, `< ${PING}`]);
  assert.equal(kept.held, 0);
});

test("record over HTTP: unencoded bodies count against the total too, and a body cut short gives its share back", () => {
  const { record, read } = session("unencoded");
  const kept = new KeptBytes(1000);
  const first = unencoded(1000, record, kept);
  first.push(Buffer.alloc(800, " "));
  assert.equal(kept.held, 800);
  const refused = unencoded(1000, record, kept);
  refused.push(Buffer.from(PING.padEnd(300, " ")));
  refused.end();
  first.abort();
  assert.equal(kept.held, 0);
  const after = unencoded(1000, record, kept);
  after.push(Buffer.from(PING.padEnd(300, " ")));
  after.end();
  assert.deepEqual(read(), [
    "# > the copies kept for the exchanges still open reached --max-kept-bytes 1000; passed through, not recorded",
    "# > the body ended early (its connection closed); passed through, not recorded",
    `> ${PING.padEnd(300, " ")}`,
  ]);
});

test("record over HTTP: an SSE stream keeps only its event under way against the total, and a stream cut short is not noted", async () => {
  const { record, read } = session("sse");
  const kept = new KeptBytes(1000);
  const events = new EventRecorder(1000, record);
  const decoder = new BodyDecoder(undefined, events, kept);
  for (let i = 0; i < 20; i++) decoder.push(Buffer.from(`data: ${PING}\n\n`));
  decoder.push(Buffer.from("data: {\"jsonrpc\""));
  assert.equal(kept.held, 'data: {"jsonrpc"'.length, "the twenty events written are given back; the one under way is kept");
  decoder.abort();
  assert.equal(kept.held, 0);
  assert.deepEqual(read(), Array.from({ length: 20 }, () => `< ${PING}`));
});

test("record over HTTP: a body past its own --max-line-bytes keeps nothing, so a full total does not change its note", () => {
  const { record, read } = session("own-bound");
  const kept = new KeptBytes(1000);
  const holder = unencoded(1000, record, kept);
  holder.push(Buffer.alloc(900, " "));
  const decoder = unencoded(100, record, kept);
  decoder.push(Buffer.alloc(150, "x"));
  decoder.push(Buffer.alloc(150, "x"));
  decoder.end();
  holder.abort();
  assert.deepEqual(read(), ["# > a body of 300 bytes, longer than --max-line-bytes 100: not recorded", "# > the body ended early (its connection closed); passed through, not recorded"]);
  assert.equal(kept.held, 0);
});

test("record over HTTP: compressed input that outruns its decoder counts as kept: past the total, the body is given up at once", () => {
  const { record, read } = session("outrun");
  const kept = new KeptBytes(MIB);
  let ended = false;
  const body = new JsonBody("c2s", 16 * MIB, "gzip", record);
  const decoder = new BodyDecoder("gzip", { data: (bytes) => body.data(bytes), end: (problem) => ((ended = true), body.end(problem)), held: () => body.held() }, kept);
  // 2 MiB that does not compress, pushed in one go: zlib decodes on its own threads, so it all waits in the decoder.
  const input = gzipSync(randomBytes(2 * MIB));
  for (let at = 0; at < input.length && !ended; at += 64 * 1024) decoder.push(input.subarray(at, at + 64 * 1024));
  assert.equal(ended, true, "the body was given up while its input waited");
  assert.equal(kept.held, 0);
  assert.ok(kept.peak <= kept.limit, `the counter passed the total: ${kept.peak}`);
  assert.deepEqual(read(), [`# > the copies kept for the exchanges still open reached --max-kept-bytes ${MIB}; passed through, not recorded`]);
});

test("record --listen: a request held open keeps its share until its connection closes, then the next body is recorded", { timeout: 30_000 }, async () => {
  // The target reads each body whole and answers; it tells how many body bytes it has had.
  let bodyBytes = 0;
  const target = createServer((req, res) => {
    req.on("data", (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(PING));
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => target.once("listening", resolve));
  const targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/mcp`;
  const out = join(tmpdir(), `mcp-wire-record-kept-${process.pid}.recording`);
  const record = join(fileURLToPath(new URL("../../", import.meta.url)), "dist/cli.unbundled.js");
  const proxy = spawn(process.execPath, [record, "record", "--out", out, "--listen", "127.0.0.1:0", "--target", targetUrl, "--max-line-bytes", "4000", "--max-kept-bytes", "4096"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  proxy.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
  try {
    while (!/listening on (http:\/\/\S+\/mcp)/.test(stderr)) await new Promise((resolve) => setTimeout(resolve, 20));
    const url = /listening on (http:\/\/\S+\/mcp)/.exec(stderr)![1]!;
    const port = Number(new URL(url).port);
    // 3000 bytes (under --max-line-bytes) of a body that never ends: once the target has them, the proxy has counted them (it records before it forwards).
    const held = connect(port, "127.0.0.1");
    held.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${(3000).toString(16)}\r\n${" ".repeat(3000)}\r\n`);
    while (bodyBytes < 3000) await new Promise((resolve) => setTimeout(resolve, 20));
    const message = PING.padEnd(2000, " ");
    const post = async () => (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: message })).text();
    assert.equal(await post(), PING, "the body with no room still reaches the target, and its answer the client");
    const lines = () => readFileSync(out, "utf8").split("\n").map((line) => line.replace(/ \+\d+ /, " "));
    held.destroy();
    while (!lines().includes("# > the body ended early (its connection closed); passed through, not recorded")) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await post(), PING);
    const c2s = () => lines().filter((line) => /^(# )?> (?!POST)/.test(line));
    while (c2s().length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(c2s(), [
      "# > the copies kept for the exchanges still open reached --max-kept-bytes 4096; passed through, not recorded",
      "# > the body ended early (its connection closed); passed through, not recorded",
      `> ${message}`,
    ]);
  } finally {
    proxy.kill("SIGTERM");
    target.close();
  }
});

test("record over HTTP: an SSE stream given up at the total keeps nothing of its event under way, though the stream stays open", () => {
  const { record, read } = session("sse-given-up");
  const kept = new KeptBytes(100);
  const events = new EventRecorder(1000, record);
  const decoder = new BodyDecoder(undefined, events, kept);
  decoder.push(Buffer.from(`data: ${"x".repeat(80)}`));
  assert.equal(kept.held, 86);
  decoder.push(Buffer.from("x".repeat(30)));
  assert.equal(kept.held, 0);
  assert.equal(events.held(), 0, "the parser's pieces of the event are let go with the share");
  assert.deepEqual(read(), ["# < the copies kept for the exchanges still open reached --max-kept-bytes 100; passed through, not recorded"]);
});

test("record --listen: an answer that comes while its request is still arriving is recorded as it comes, not kept until the request ends", { timeout: 30_000 }, async () => {
  // A target that answers a POST at once with an SSE stream, before the body has ended.
  const target = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (let i = 0; i < 3; i++) res.write(`data: {"jsonrpc":"2.0","method":"notifications/message","params":{"n":${i}}}\n\n`);
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => target.once("listening", resolve));
  const targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/mcp`;
  const out = join(tmpdir(), `mcp-wire-record-early-${process.pid}.recording`);
  const record = join(fileURLToPath(new URL("../../", import.meta.url)), "dist/cli.unbundled.js");
  const proxy = spawn(process.execPath, [record, "record", "--out", out, "--listen", "127.0.0.1:0", "--target", targetUrl], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  proxy.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
  try {
    while (!/listening on (http:\/\/\S+\/mcp)/.test(stderr)) await new Promise((resolve) => setTimeout(resolve, 20));
    const port = Number(new URL(/listening on (http:\/\/\S+\/mcp)/.exec(stderr)![1]!).port);
    const held = connect(port, "127.0.0.1");
    let received = "";
    held.on("data", (chunk: Buffer) => (received += chunk));
    held.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"a":\r\n`);
    while ((received.match(/"n":/g) ?? []).length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    // Stopped now, the proxy writes what it has; the request's body is still open.
    proxy.kill("SIGTERM");
    await new Promise((resolve) => proxy.once("exit", resolve));
    held.destroy();
    const events = readFileSync(out, "utf8").split("\n").filter((line) => line.startsWith("< "));
    assert.equal(events.length, 3, "the three messages of the answer are in the file");
  } finally {
    proxy.kill("SIGKILL");
    target.closeAllConnections();
    target.close();
  }
});
