// Soak cases for `mcp-wire record` (issue 19, items 7 and 12): gzip POSTs that are never finished,
// each decoding to tens of MiB, must not make the HTTP proxy keep a decoded copy per request without
// a total, nor br POSTs of a few bytes each make it hold a 16 MiB decoder apiece; and the stdio proxy
// must run a server named without a "--" before its command. And an answer that comes before its
// request has ended must not be held in memory until that request ends.

import { connect, type Socket } from "node:net";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, createBrotliCompress, createGzip, gzipSync } from "node:zlib";
import { drained } from "./client-cases.js";
import { judge, mib, MIB, NotHeld, RSS_BOUND, serverChecks, sleep, type CaseContext, type SoakCase, type Tracked } from "./harness.js";
import { exchange, initialize, LineReader, request, within } from "./wire.js";

/** 62 MiB of zeros gzipped (about 60 KiB) without the 8-byte trailer: it decodes whole, and never ends. */
const NEVER_ENDING_GZIP = (() => {
  const whole = gzipSync(Buffer.alloc(62 * MIB));
  return whole.subarray(0, whole.length - 8);
})();

/** 32 MiB of "a" in Brotli's largest window, flushed but never ended: a few dozen bytes that fill a 16 MiB ring buffer. */
async function neverEndingBrotli(): Promise<Buffer> {
  const brotli = createBrotliCompress({ params: { [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_QUALITY]: 5 } });
  const out: Buffer[] = [];
  brotli.on("data", (chunk: Buffer) => out.push(chunk));
  brotli.write(Buffer.alloc(32 * MIB, "a"));
  await new Promise<void>((resolve) => brotli.flush(() => resolve()));
  brotli.destroy();
  return Buffer.concat(out);
}

/** `mcp-wire record --listen` (the process under test, role "server") in front of the demo server over HTTP, or of `targetUrl`. */
async function proxied(context: CaseContext, targetUrl?: string): Promise<{ proxy: Tracked; url: string; out: string }> {
  if (targetUrl === undefined) {
    const target = context.spawnNode("target", ["dist/server.js", "--http", "--port", "0"]);
    const at = await target.awaitStderr(/Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/, 10_000);
    if (!at) throw new NotHeld(`the target did not start: ${target.describeEnd()}`);
    targetUrl = at[1]!;
  }
  const folder = mkdtempSync(join(tmpdir(), "soak-record-"));
  context.onEnd(() => rmSync(folder, { recursive: true, force: true }));
  const out = join(folder, "http.recording");
  const proxy = context.spawnNode("server", ["dist/cli.js", "record", "--out", out, "--listen", "127.0.0.1:0", "--target", targetUrl]);
  const listening = await proxy.awaitStderr(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/, 10_000);
  if (!listening) throw new NotHeld(`record --listen did not start: ${proxy.describeEnd()}`);
  return { proxy, url: listening[1]!, out };
}

/** A POST with a compressed body sent in one chunk of chunked encoding, never followed by its last chunk. */
function openBomb(url: string, coding: string, bomb: Buffer): Promise<Socket> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-encoding: ${coding}\r\ntransfer-encoding: chunked\r\n\r\n`);
      socket.write(`${bomb.length.toString(16)}\r\n`);
      socket.write(bomb);
      socket.write("\r\n", () => resolve(socket));
    });
    socket.on("error", reject);
    // The answer, if any, is not wanted.
    socket.resume();
  });
}

/** The bound on the proxy's peak RSS with any number of open bombs. */
const PROXY_RSS_BOUND = RSS_BOUND;

function openBombsCase(count: number, coding: "gzip" | "br"): SoakCase {
  const what = coding === "gzip" ? `gzip POSTs of ${Math.round(NEVER_ENDING_GZIP.length / 1024)} KiB (decoding to 62 MiB each)` : "br POSTs of a few dozen bytes (decoding to 32 MiB each, in a 16 MiB window)";
  return {
    name: `record-${coding}-${count}`,
    title: `record --listen: ${count} ${what} held open, never finished`,
    bound: `the proxy's peak RSS < ${mib(PROXY_RSS_BOUND)}; a legitimate client is served while they are open, and once they close its messages are recorded again`,
    limitMs: 90_000,
    async run(context) {
      const { proxy, url, out } = await proxied(context);
      const bomb = coding === "gzip" ? NEVER_ENDING_GZIP : await neverEndingBrotli();
      const bombs = await Promise.all(Array.from({ length: count }, () => openBomb(url, coding, bomb)));
      context.onEnd(() => bombs.forEach((socket) => socket.destroy()));
      // Decoding runs on its own: wait until the proxy's memory stops growing (at most 20 s).
      let last = 0;
      for (let waited = 0; waited < 20_000 && proxy.alive; waited += 1000) {
        await sleep(1000, context.signal);
        context.sampleAll();
        if (proxy.peakRss === last) break;
        last = proxy.peakRss;
      }
      const during = await exchange(url, initialize("during"), {}, within(context.signal, 10_000)).catch(() => undefined);
      bombs.forEach((socket) => socket.destroy());
      await sleep(500, context.signal);
      const after = await exchange(url, initialize("after"), {}, within(context.signal, 10_000)).catch(() => undefined);
      await sleep(200, context.signal);
      const recording = readFileSync(out, "utf8");
      const recordedAfter = recording.split("\n").some((line) => line.startsWith("> ") && line.includes('"id":"after"'));
      const notKept = recording.split("\n").filter((line) => /not kept|not recorded/.test(line)).length;
      return judge([
        [during?.status === 200, `a legitimate initialize while ${count} bombs were open: ${during ? `HTTP ${during.status}` : "no answer"}`],
        [after?.status === 200 && recordedAfter, `after they closed: ${after ? `HTTP ${after.status}` : "no answer"}, ${recordedAfter ? "recorded as a message" : "not recorded"}`],
        [true, `${notKept} bodies noted as not recorded`],
        ...serverChecks(proxy, PROXY_RSS_BOUND).map(([ok, text]): [boolean, string] => [ok, text.replace(/^server/, "proxy")]),
      ]);
    },
  };
}

export const recordGzip16Case = openBombsCase(16, "gzip");
export const recordGzip64Case = openBombsCase(64, "gzip");
export const recordBr64Case = openBombsCase(64, "br");

/** 62 MiB of zeros gzipped and flushed, not ended: the stream's start, and its deflate blocks to send again and again. */
async function endlessGzip(): Promise<{ start: Buffer; more: Buffer }> {
  const gzip = createGzip();
  const out: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => out.push(chunk));
  gzip.write(Buffer.alloc(62 * MIB));
  await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
  gzip.destroy();
  const start = Buffer.concat(out);
  // After the 10-byte gzip header, blocks that refer only to the zeros before them: valid again after themselves.
  return { start, more: start.subarray(10) };
}

/** Streams one endless gzip POST, `repeats` blocks of 62 MiB decoded each, as fast as the proxy takes them. */
function floodBody(url: string, stream: { start: Buffer; more: Buffer }, repeats: number, signal: AbortSignal): Promise<{ socket: Socket; sent: number }> {
  const { hostname, port, pathname } = new URL(url);
  const chunk = (bytes: Buffer) => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")]);
  return new Promise((resolve) => {
    let sent = 0;
    const socket = connect(Number(port), hostname, async () => {
      socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ntransfer-encoding: chunked\r\n\r\n`);
      socket.write(chunk(stream.start));
      const more = chunk(stream.more);
      for (let i = 0; i < repeats && !socket.destroyed && !signal.aborted; i++) {
        sent += stream.more.length;
        if (!socket.write(more)) await drained(socket);
      }
      resolve({ socket, sent });
    });
    socket.on("error", () => resolve({ socket, sent }));
    socket.resume();
  });
}

export const recordGzipFloodCase: SoakCase = {
  name: "record-gzip-flood",
  title: "record --listen: 16 gzip POSTs streaming zeros as fast as the proxy takes them (each 60 KiB decodes to 62 MiB), never finished",
  bound: `the proxy's peak RSS < ${mib(PROXY_RSS_BOUND)} however much is sent (input waiting for zlib counts against --max-kept-bytes); a legitimate client is served after`,
  limitMs: 120_000,
  async run(context) {
    const { proxy, url } = await proxied(context);
    const stream = await endlessGzip();
    const signal = within(context.signal, 60_000);
    const floods = await Promise.all(Array.from({ length: 16 }, () => floodBody(url, stream, context.scaled(1000, 300), signal)));
    context.onEnd(() => floods.forEach(({ socket }) => socket.destroy()));
    await sleep(1000, context.signal);
    context.sampleAll();
    const sent = floods.reduce((sum, { sent }) => sum + sent, 0);
    const served = await exchange(url, initialize("after-flood"), {}, within(context.signal, 10_000)).catch(() => undefined);
    return judge([
      [true, `16 clients sent ${mib(sent)} of gzip (${Math.round(sent / stream.more.length) * 62} MiB decoded, were it decoded whole)`],
      [served?.status === 200, `a legitimate initialize with the floods still open: ${served ? `HTTP ${served.status}` : "no answer"}`],
      ...serverChecks(proxy, PROXY_RSS_BOUND).map(([ok, text]): [boolean, string] => [ok, text.replace(/^server/, "proxy")]),
    ]);
  },
};

export const recordEarlyAnswerCase: SoakCase = {
  name: "record-early-answer",
  title: "record --listen: a hostile target streams 1 MiB SSE events to a POST whose body the client never finishes",
  bound: `the proxy's peak RSS < ${mib(PROXY_RSS_BOUND)} however much is streamed (the answer is recorded as it comes, not held for the request's end); the events reach the client and the file`,
  limitMs: 60_000,
  async run(context) {
    const event = `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${"x".repeat(MIB)}"}}\n\n`;
    // At most 400 MiB whatever the scale: the file, read back whole, must stay a string.
    const budget = Math.min(context.scaled(400, 100), 400) * MIB;
    let streamed = 0;
    const target = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const pump = () => {
        while (!res.destroyed && streamed < budget) {
          streamed += event.length;
          if (!res.write(event)) return;
        }
        res.end();
      };
      res.on("drain", pump);
      pump();
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", () => resolve()));
    context.onEnd(() => {
      target.closeAllConnections();
      target.close();
    });
    const { proxy, url, out } = await proxied(context, `http://127.0.0.1:${(target.address() as { port: number }).port}/mcp`);
    const { hostname, port, pathname } = new URL(url);
    let received = 0;
    const socket = connect(Number(port), hostname, () => socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"a":\r\n`));
    socket.on("data", (chunk: Buffer) => (received += chunk.length));
    socket.on("error", () => {});
    context.onEnd(() => void socket.destroy());
    const signal = within(context.signal, 40_000);
    while (received < budget && !signal.aborted && proxy.alive) await sleep(50, signal);
    await sleep(500, context.signal);
    context.sampleAll();
    const recorded = readFileSync(out, "utf8").split("\n").filter((line) => line.startsWith("< ")).length;
    const sent = Math.round(streamed / event.length);
    return judge([
      [received >= budget, `the client read ${mib(received)} of ${mib(budget)} streamed`],
      [recorded >= sent - 1, `${recorded} of ${sent} events in the file while the request is still open`],
      ...serverChecks(proxy, PROXY_RSS_BOUND).map(([ok, text]): [boolean, string] => [ok, text.replace(/^server/, "proxy")]),
    ]);
  },
};

export const recordBareCommandCase: SoakCase = {
  name: "record-bare-command",
  title: 'record --out FILE node dist/server.js --page-size 3 (no "--", as the Inspector\'s launcher leaves it)',
  bound: "the server runs with its own option, answers initialize and a ping through the proxy, and the file holds those lines; the proxy exits 0 when stdin ends",
  limitMs: 30_000,
  async run(context) {
    const out = join(mkdtempSync(join(tmpdir(), "soak-record-")), "stdio.recording");
    const proxy = context.spawnNode("server", ["dist/cli.js", "record", "--out", out, process.execPath, "dist/server.js", "--page-size", "3"], { stdio: true });
    const reader = new LineReader(proxy.child.stdout!);
    proxy.child.stdin!.on("error", () => {});
    proxy.child.stdin!.write(JSON.stringify(initialize()) + "\n");
    proxy.child.stdin!.write(JSON.stringify(request("bare-ping", "ping")) + "\n");
    const answered = (await reader.answered(0, 10_000, context.signal)) && (await reader.answered("bare-ping", 10_000, context.signal));
    proxy.child.stdin!.end();
    const end = await Promise.race([proxy.exited, sleep(10_000, context.signal).then(() => undefined)]);
    // A proxy that refused its arguments never created the file.
    const lines = existsSync(out) ? readFileSync(out, "utf8").split("\n") : [];
    const recorded = lines.some((line) => line.startsWith("> ") && line.includes('"bare-ping"')) && lines.some((line) => line.startsWith("< ") && line.includes('"bare-ping"'));
    return judge([
      [answered, answered ? "initialize and ping answered through the proxy" : `no answer: ${proxy.describeEnd()}`],
      [recorded, recorded ? "the ping and its answer are in the file" : "the file lacks the ping or its answer"],
      [end?.code === 0, `the proxy ${end ? `exited with code ${end.code}${end.signal ? ` (${end.signal})` : ""}` : "did not exit within 10 s"}`],
    ]);
  },
};
