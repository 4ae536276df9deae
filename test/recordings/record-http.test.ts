// `mcp-wire record --listen --target` (src/recordings/record-http.ts): our CLI through the reverse proxy
// gets what it gets directly from `node dist/server.js --http`, both eras; the file holds the
// messages and the session's headers but no secret; SSE is streamed through, not buffered; a target
// that is down gives the client a JSON-RPC error; compressed bodies pass through as sent and are
// recorded decoded; the target's userinfo and query reach it but not the file; headers named in
// Connection are not forwarded. Needs `npm run build`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { gzipSync } from "node:zlib";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseRecording } from "../../src/recordings/recording.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(root, "dist/cli.cjs");
/** The proxy: the CLI unbundled, with source maps, so that coverage reaches src/recordings/. */
const RECORD = join(root, "dist/cli.unbundled.js");
const SERVER = join(root, "dist/server.js");
const dir = mkdtempSync(join(tmpdir(), "mcp-wire-record-http-"));
const TOKEN = "a-secret-token-0123456789";
const TIMEOUT_MS = 15_000;

/** Starts `node ...args` and resolves with it once its stderr shows an http://127.0.0.1:PORT URL, and that URL's origin. */
async function startListening(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; origin: string; stderr: () => string }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env });
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => assert.fail(`stdout from ${args.join(" ")}: ${chunk}`));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${stderr}`)), TIMEOUT_MS);
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(stderr);
      if (match) (clearTimeout(timer), resolve(match[0]));
    });
  });
  return { child, origin, stderr: () => stderr };
}

function proxy(out: string, target: string) {
  return startListening([RECORD, "record", "--out", out, "--listen", "127.0.0.1:0", "--target", target]);
}

test("record over HTTP: our CLI gets through the proxy what it gets directly, in both eras; the file has the messages and headers, not the token", { timeout: TIMEOUT_MS * 2 }, async () => {
  const server = await startListening([SERVER, "--http", "--port", "0"], { ...process.env, MCP_WIRE_TOKEN: TOKEN });
  const out = join(dir, "cli.recording");
  const recorder = await proxy(out, `${server.origin}/mcp`);
  try {
    const cli = (origin: string, args: string[]) => spawnSync(process.execPath, [CLI, "--url", `${origin}/mcp`, "--header", `Authorization: Bearer ${TOKEN}`, ...args], { encoding: "utf8", timeout: TIMEOUT_MS });
    for (const args of [["call", "add", "a=3", "b=4"], ["--protocol-version", "2025-11-25", "call", "echo", "text=through the proxy"]]) {
      const proxied = cli(recorder.origin, args);
      assert.equal(proxied.status, 0, proxied.stderr);
      assert.equal(proxied.stdout, cli(server.origin, args).stdout, args.join(" "));
    }
    assert.match(recorder.stderr(), new RegExp(`^mcp-wire record: listening on ${recorder.origin}/mcp, recording to ${out}\\n$`));
  } finally {
    recorder.child.kill("SIGTERM");
    const [code] = await once(recorder.child, "exit");
    assert.equal(code, 143, "SIGTERM ends the proxy with 128 + 15");
    server.child.kill("SIGTERM");
  }
  const text = readFileSync(out, "utf8");
  assert.equal(text.includes(TOKEN), false, "the token is not in the file");
  assert.match(text, /^# > POST \/mcp .*authorization: \[redacted\]/m);
  assert.match(text, /^# < 200 \/mcp content-type: text\/event-stream; mcp-session-id: \S+/m, "the session id of the handshake era");
  const recording = parseRecording(text, out);
  assert.equal(recording.header.transport, "http");
  assert.equal(recording.header.url, `${server.origin}/mcp`);
  const sent = recording.entries.filter((e) => e.dir === "c2s").map((e) => (e.message as { method?: string }).method);
  assert.deepEqual(sent.filter((m) => m === "tools/call" || m === "initialize" || m === "server/discover"), ["server/discover", "tools/call", "initialize", "tools/call"]);
  const texts = recording.entries.filter((e) => e.dir === "s2c").map((e) => e.text);
  assert.ok(texts.some((t) => t.includes('"structuredContent":{"sum":7}')), "the JSON answer of the modern call");
  assert.ok(texts.some((t) => t.includes("echo: through the proxy")), "the SSE answer of the handshake-era call");
});

test("record over HTTP: an SSE stream passes through as it comes, each message recorded, other events noted", { timeout: TIMEOUT_MS * 2 }, async () => {
  let sendRest = () => {};
  const target = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write('event: endpoint\ndata: /messages?sessionId=1\n\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"first"}}\n\n');
    sendRest = () => res.end('data: {"jsonrpc":"2.0",\ndata: "method":"notifications/message","params":{"level":"info","data":"second"}}\n\n');
  });
  target.listen(0, "127.0.0.1");
  await once(target, "listening");
  const address = target.address();
  assert.ok(address && typeof address === "object");
  const out = join(dir, "sse.recording");
  const recorder = await proxy(out, `http://127.0.0.1:${address.port}/mcp`);
  try {
    const response = await fetch(`${recorder.origin}/mcp`, { headers: { accept: "text/event-stream", cookie: "session=secret-cookie" } });
    assert.equal(response.status, 200);
    const reader = response.body!.getReader();
    let seen = "";
    // The first event arrives while the target still holds the stream open: nothing waits for its end.
    while (!seen.includes("first")) seen += Buffer.from((await reader.read()).value!).toString();
    sendRest();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) seen += Buffer.from(chunk.value).toString();
    assert.match(seen, /"second"/);
  } finally {
    recorder.child.kill("SIGINT");
    const [code] = await once(recorder.child, "exit");
    assert.equal(code, 130);
    target.close();
  }
  const text = readFileSync(out, "utf8");
  assert.match(text, /^# < event endpoint: \/messages\?sessionId=1$/m);
  assert.match(text, /^# > GET \/mcp cookie: \[redacted\]$/m);
  assert.equal(text.includes("secret-cookie"), false);
  const received = parseRecording(text).entries.map((e) => [e.dir, (e.message as { params: { data: string } }).params.data]);
  assert.deepEqual(received, [["s2c", "first"], ["s2c", "second"]], "an event of several data lines is one message");
});

test("record over HTTP: a target that is down gives the client 502 with a JSON-RPC error, and a note", { timeout: TIMEOUT_MS * 2 }, async () => {
  const closed = createServer();
  closed.listen(0, "127.0.0.1");
  await once(closed, "listening");
  const address = closed.address();
  assert.ok(address && typeof address === "object");
  closed.close();
  const out = join(dir, "down.recording");
  const recorder = await proxy(out, `http://127.0.0.1:${address.port}/mcp`);
  try {
    const response = await fetch(`${recorder.origin}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    assert.equal(response.status, 502);
    const body = (await response.json()) as { error: { code: number; message: string } };
    assert.equal(body.error.code, -32603);
    assert.match(body.error.message, /the target http:\/\/127\.0\.0\.1:\d+ failed/);
  } finally {
    recorder.child.kill("SIGTERM");
    await once(recorder.child, "exit");
  }
  assert.match(readFileSync(out, "utf8"), /^# < the target failed: /m);
});

/** A target that keeps what it was sent, and answers from `answer`. */
async function target(answer: (req: IncomingMessage) => { headers: { [name: string]: string }; body: Buffer }) {
  const seen: { url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => parts.push(chunk));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", headers: req.headers, body: Buffer.concat(parts) });
      const { headers, body } = answer(req);
      res.writeHead(200, headers);
      res.end(body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  assert.ok(address && typeof address === "object");
  return { server, seen, port: address.port };
}

/** A request through node:http, which neither forbids a Connection header nor decodes the answer. */
async function send(url: string, headers: { [name: string]: string }, body: Buffer): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  const req = request(url, { method: "POST", headers });
  req.end(body);
  const [res] = (await once(req, "response")) as [IncomingMessage];
  const parts: Buffer[] = [];
  for await (const chunk of res) parts.push(chunk as Buffer);
  return { headers: res.headers, body: Buffer.concat(parts) };
}

const CALL = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}';
const RESULT = '{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"sum":3}}}';

test("record over HTTP: gzip bodies pass through as sent and are recorded decoded, a JSON answer and an SSE stream alike", { timeout: TIMEOUT_MS * 2 }, async () => {
  const answers = { json: gzipSync(RESULT), sse: gzipSync(`event: message\ndata: ${RESULT}\n\n`) };
  const { server, port } = await target((req) => req.url === "/sse"
    ? { headers: { "content-type": "text/event-stream", "content-encoding": "gzip" }, body: answers.sse }
    : { headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: answers.json });
  const out = join(dir, "gzip.recording");
  const recorder = await proxy(out, `http://127.0.0.1:${port}/mcp`);
  try {
    for (const path of ["/mcp", "/sse"] as const) {
      const answer = await send(`${recorder.origin}${path}`, { "content-type": "application/json", "content-encoding": "gzip" }, gzipSync(CALL));
      assert.equal(answer.headers["content-encoding"], "gzip");
      assert.deepEqual(answer.body, path === "/sse" ? answers.sse : answers.json, "the client gets the bytes the target sent");
    }
  } finally {
    recorder.child.kill("SIGTERM");
    await once(recorder.child, "exit");
    server.close();
  }
  const text = readFileSync(out, "utf8");
  assert.match(text, /^# > POST \/mcp content-type: application\/json; content-encoding: gzip$/m);
  assert.deepEqual(parseRecording(text).entries.map((entry) => [entry.dir, entry.text]), [["c2s", CALL], ["s2c", RESULT], ["c2s", CALL], ["s2c", RESULT]]);
});

test("record over HTTP: the target's userinfo and query reach it, the target's query first, but not the file", { timeout: TIMEOUT_MS * 2 }, async () => {
  const { server, seen, port } = await target(() => ({ headers: { "content-type": "application/json" }, body: Buffer.from(RESULT) }));
  const out = join(dir, "credentials.recording");
  const recorder = await proxy(out, `http://user:p%40ss-secret@127.0.0.1:${port}/mcp?key=api-key-secret&region=eu`);
  try {
    await send(`${recorder.origin}/mcp?trace=client-value`, { "content-type": "application/json" }, Buffer.from(CALL));
    const explicit = await send(`${recorder.origin}//elsewhere/mcp`, { authorization: "Bearer the-client-token" }, Buffer.from(CALL));
    assert.deepEqual(explicit.body, Buffer.from(RESULT));
  } finally {
    recorder.child.kill("SIGTERM");
    await once(recorder.child, "exit");
    server.close();
  }
  assert.equal(seen[0]!.url, "/mcp?key=api-key-secret&region=eu&trace=client-value");
  assert.equal(seen[0]!.headers.authorization, `Basic ${Buffer.from("user:p@ss-secret").toString("base64")}`);
  assert.equal(seen[1]!.headers.authorization, "Bearer the-client-token", "the client's own Authorization wins");
  assert.equal(seen[1]!.url, "//elsewhere/mcp?key=api-key-secret&region=eu", "a path that looks like a host is a path on the target");
  const text = readFileSync(out, "utf8");
  for (const secret of ["p%40ss-secret", "api-key-secret", "client-value", "user:", "the-client-token"]) assert.equal(text.includes(secret), false, secret);
  assert.match(text, new RegExp(`^# url: http://\\*\\*\\*@127\\.0\\.0\\.1:${port}/mcp\\?key=\\*\\*\\*&region=\\*\\*\\*$`, "m"));
  assert.match(text, /^# > POST \/mcp\?trace=\*\*\* content-type: application\/json$/m);
});

test("record over HTTP: a target's userinfo with a '%' that starts no escape goes as written, and the proxy stays up", { timeout: TIMEOUT_MS * 2 }, async () => {
  const { server, seen, port } = await target(() => ({ headers: { "content-type": "application/json" }, body: Buffer.from(RESULT) }));
  const recorder = await proxy(join(dir, "percent.recording"), `http://us%zz:pw@127.0.0.1:${port}/mcp`);
  try {
    for (let i = 0; i < 2; i++) assert.deepEqual((await send(`${recorder.origin}/mcp`, {}, Buffer.from(CALL))).body, Buffer.from(RESULT));
  } finally {
    recorder.child.kill("SIGTERM");
    await once(recorder.child, "exit");
    server.close();
  }
  assert.equal(seen[1]!.headers.authorization, `Basic ${Buffer.from("us%zz:pw").toString("base64")}`);
});

test("record over HTTP: headers named in a Connection header stay on their hop, both ways", { timeout: TIMEOUT_MS * 2 }, async () => {
  const { server, seen, port } = await target(() => ({ headers: { "content-type": "application/json", connection: "keep-alive, x-target-hop", "x-target-hop": "1", "x-kept": "yes" }, body: Buffer.from(RESULT) }));
  const recorder = await proxy(join(dir, "hop.recording"), `http://127.0.0.1:${port}/mcp`);
  let answer;
  try {
    answer = await send(`${recorder.origin}/mcp`, { "content-type": "application/json", connection: "keep-alive, X-Client-Hop", "x-client-hop": "1", "x-kept": "yes" }, Buffer.from(CALL));
  } finally {
    recorder.child.kill("SIGTERM");
    await once(recorder.child, "exit");
    server.close();
  }
  assert.equal(seen[0]!.headers["x-client-hop"], undefined);
  assert.equal(seen[0]!.headers["x-kept"], "yes");
  assert.equal(answer.headers["x-target-hop"], undefined);
  assert.equal(answer.headers["x-kept"], "yes");
});

const usage: [string, string[], RegExp][] = [
  ["--listen without --target", ["--out", "x", "--listen", "127.0.0.1:0"], /--listen and --target go together/],
  ["a bad --listen", ["--out", "x", "--listen", "nowhere", "--target", "http://127.0.0.1:1/mcp"], /--listen: expected HOST:PORT/],
  ["a --target that is not HTTP", ["--out", "x", "--listen", "0", "--target", "ftp://x/"], /--target: expected an http/],
  ["both a target and a server command", ["--out", "x", "--listen", "0", "--target", "http://127.0.0.1:1/mcp", "--", "node"], /not both/],
];
for (const [name, args, message] of usage) {
  test(`record over HTTP: ${name} is a usage error (exit 2)`, () => {
    const result = spawnSync(process.execPath, [RECORD, "record", ...args], { encoding: "utf8", timeout: TIMEOUT_MS });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, message);
  });
}
