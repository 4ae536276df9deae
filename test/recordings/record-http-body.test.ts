// What `mcp-wire record` over HTTP keeps of a compressed body (src/recordings/record-http-body.ts): the
// decoded JSON, for gzip, deflate and br alike; an SSE stream decoded event by event as it comes; a
// body that inflates past --max-line-bytes stops being decoded at the bound and is noted; an unknown
// or broken encoding is noted. In process: BodyDecoder fed chunks, a SessionFile in a temp dir.
import { test } from "node:test";
import assert from "node:assert/strict";
import { brotliCompressSync, constants, createGzip, deflateSync, gzipSync } from "node:zlib";
import { session } from "../helpers/record-session.js";
import { BodyDecoder, EventRecorder, JsonBody, type DecodedSink } from "../../src/recordings/record-http-body.js";
import { parseRecording } from "../../src/recordings/recording.js";

const PING = '{"jsonrpc":"2.0","id":1,"result":{}}';

/** Feeds `body` to a decoder in chunks of `size` bytes and resolves once the sink was told the end. */
async function decode(encoding: string | undefined, body: Buffer, sink: DecodedSink, size = 7): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    const end = sink.end.bind(sink);
    sink.end = (problem) => (end(problem), resolve());
  });
  const decoder = new BodyDecoder(encoding, sink);
  for (let at = 0; at < body.length; at += size) decoder.push(body.subarray(at, at + size));
  decoder.end();
  await ended;
}

for (const [encoding, compress] of [["gzip", gzipSync], ["x-gzip", gzipSync], ["deflate", deflateSync], ["br", brotliCompressSync]] as const) {
  test(`record over HTTP: a ${encoding} JSON body is recorded decoded`, async () => {
    const { record, read } = session(`json-${encoding}`);
    await decode(encoding, compress(Buffer.from(PING)), new JsonBody("s2c", 1000, encoding, record));
    assert.deepEqual(read(), [`< ${PING}`]);
  });
}

test("record over HTTP: two codings are undone in the reverse order (gzip, then br)", async () => {
  const { record, read } = session("two-codings");
  await decode("gzip, br", brotliCompressSync(gzipSync(Buffer.from(PING))), new JsonBody("c2s", 1000, "gzip, br", record));
  assert.deepEqual(read(), [`> ${PING}`]);
});

test("record over HTTP: a compressed body that inflates past the bound stops being decoded there and is noted", async () => {
  const { record, read } = session("bomb");
  // 8 MiB of zeros in 8 KiB of gzip: decoded whole, it would be 8 MiB; the bound is 1000 bytes.
  const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
  let decoded = 0;
  const body = new JsonBody("s2c", 1000, "gzip", record);
  const counting: DecodedSink = { data: (bytes) => ((decoded += bytes.length), body.data(bytes)), end: (problem) => body.end(problem) };
  await decode("gzip", bomb, counting, 1024);
  assert.ok(decoded <= 1000 + 64 * 1024, `decoding went on past the bound: ${decoded} bytes`);
  assert.deepEqual(read(), ["# < a gzip body decoding to more than --max-line-bytes 1000 bytes: not recorded"]);
});

test("record over HTTP: a gzip SSE stream whose event inflates past the bound stops being decoded there and is noted", async () => {
  const { record, read } = session("sse-bomb");
  const events = new EventRecorder(1000, record);
  let decoded = 0;
  const counting: DecodedSink = { data: (bytes) => ((decoded += bytes.length), events.data(bytes)), end: (problem) => events.end(problem) };
  await decode("gzip", gzipSync(`data: ${"x".repeat(8 * 1024 * 1024)}\n\n`), counting, 1024);
  assert.ok(decoded <= 1000 + 64 * 1024, `decoding went on past the bound: ${decoded} bytes`);
  assert.deepEqual(read(), ["# < the rest of this SSE stream is not recorded: an SSE line passed the limit of 1000 bytes"]);
});

test("record over HTTP: an unencoded body past the bound is noted with its size, as before", async () => {
  const { record, read } = session("long");
  await decode(undefined, Buffer.alloc(1500, "x"), new JsonBody("c2s", 1000, undefined, record));
  assert.deepEqual(read(), ["# > a body of 1500 bytes, longer than --max-line-bytes 1000: not recorded"]);
});

test("record over HTTP: an unknown encoding, or a body that is not what its encoding says, is noted", async () => {
  const { record, read } = session("unknown");
  await decode("compress", Buffer.from("\x1f\x9d whatever"), new JsonBody("s2c", 1000, "compress", record));
  await decode("gzip", Buffer.from(PING), new JsonBody("c2s", 1000, "gzip", record));
  await decode("br", Buffer.from("not brotli"), new EventRecorder(1000, record));
  const lines = read();
  assert.equal(lines[0], "# < content-encoding compress: not one record decodes (gzip, deflate, br); passed through, not recorded");
  assert.match(lines[1]!, /^# > the gzip body could not be decoded: .+; passed through, not recorded$/);
  assert.match(lines[2]!, /^# < the br body could not be decoded: /);
  assert.equal(lines.length, 3);
});

test("record over HTTP: a gzip SSE stream is decoded as it comes: an event is recorded before the stream ends", async () => {
  const { record, read } = session("sse-gzip");
  const recorded: string[] = [];
  const events = new EventRecorder(1000, (write) => record((file) => (write(file), recorded.push("written"))));
  let ended = false;
  const decoder = new BodyDecoder("gzip", { data: (bytes) => events.data(bytes), end: (problem) => ((ended = true), events.end(problem)) });
  // The target's side: a gzip stream flushed after each event, as a streaming server does.
  const gzip = createGzip();
  gzip.on("data", (chunk: Buffer) => decoder.push(chunk));
  const event = (data: string) => new Promise<void>((resolve) => (gzip.write(`event: message\ndata: ${data}\n\n`), gzip.flush(constants.Z_SYNC_FLUSH, resolve)));
  await event('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"first"}}');
  while (recorded.length === 0) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(ended, false, "the first event is in the file while the stream is still open");
  await event('{"jsonrpc":"2.0","id":7,"result":{}}');
  gzip.on("end", () => decoder.end());
  gzip.end();
  while (!ended) await new Promise((resolve) => setImmediate(resolve));
  const text = read();
  assert.deepEqual(text.map((line) => line.slice(0, 1)), ["<", "<"]);
  const entries = parseRecording(["-- session --", ...text].join("\n")).entries;
  assert.deepEqual(entries.map((entry) => entry.message), [JSON.parse(text[0]!.slice(2)), { jsonrpc: "2.0", id: 7, result: {} }]);
  assert.match(text[0]!, /"first"/);
});

test("record over HTTP: a 202's body (the legacy transport's \"Accepted\") is noted, not recorded as the server's message", async () => {
  const { record, read } = session("accepted");
  await decode(undefined, Buffer.from("Accepted"), new JsonBody("s2c", 1000, undefined, record, undefined, () => false));
  await decode(undefined, Buffer.from(PING), new JsonBody("s2c", 1000, undefined, record));
  assert.deepEqual(read(), ["# < its body, not a message: Accepted", `< ${PING}`]);
});
