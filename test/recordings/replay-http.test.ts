// mcp-wire replay --url (src/recordings/replay-http.ts): the recordings made against node dist/server.js
// over stdio replay as matching against the same demo server over Streamable HTTP (JSON and SSE
// answers, the server's own request answered on a POST, the session id and protocol version
// headers, 2026-07-28 mirrored headers, a listen the recording leaves open closed at the end);
// recordings made with record --listen replay with their GET stream and over the legacy HTTP+SSE
// transport; a changed one fails with the path; an unreachable URL is a clear error (exit 3), as is
// an answer past --max-line-bytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../helpers/http-peer.js";
import { httpPlan, withPlanNotes } from "../../src/recordings/replay-http.js";

/** The CLI unbundled, with source maps, so that coverage reaches src/recordings/. */
const CLI = fileURLToPath(new URL("../../dist/cli.unbundled.js", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/recordings/replay/${name}`, import.meta.url));

async function replay(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [CLI, "replay", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout };
}

for (const name of ["demo-echo-time.recording", "demo-greet-elicitation.recording", "demo-greet-2026.recording"]) {
  test(`replay --url: ${name} matches over Streamable HTTP`, async () => {
    const served = await serve();
    try {
      const { code, stdout } = await replay([fixture(name), "--timeout", "3000", "--url", served.url]);
      assert.match(stdout, /replay matches/, stdout);
      assert.equal(code, 0);
    } finally {
      await served.close();
    }
  });
}

test("replay --url: a recording whose notes show a GET stream opens it where the client did, and hears what comes on it", async () => {
  const served = await serve();
  const gets: string[] = [];
  served.listening.server.on("request", (request: IncomingMessage) => request.method === "GET" && gets.push(String(request.headers["mcp-session-id"])));
  try {
    const { code, stdout } = await replay([fixture("demo-get-stream.recording"), "--timeout", "3000", "--url", served.url]);
    assert.match(stdout, /replay matches/, stdout);
    assert.equal(code, 0);
    assert.equal(gets.length, 1, "one GET stream, in the session");
    assert.notEqual(gets[0], "undefined");
  } finally {
    await served.close();
  }
});

test("replay --url: a 2026-07-28 listen the recording leaves open is no answer owed: the replay closes its stream at the end (the client's end of it), not waiting", async () => {
  const served = await serve();
  let cut = 0;
  served.listening.server.on("request", (_request: IncomingMessage, response: ServerResponse) => response.on("close", () => void (response.writableFinished || cut++)));
  try {
    const { code, stdout } = await replay([fixture("demo-listen-open-2026.recording"), "--timeout", "3000", "--url", served.url]);
    assert.match(stdout, /replay matches/, stdout);
    assert.doesNotMatch(stdout, /was stopped/);
    assert.equal(code, 0);
    assert.equal(cut, 1, "the listen's stream, closed by the client");
  } finally {
    await served.close();
  }
});

test("replay --url: a recording of the legacy HTTP+SSE transport replays over it (GET /sse on the URL's origin, POSTs to its endpoint)", async () => {
  const served = await serve();
  const paths: string[] = [];
  served.listening.server.on("request", (request: IncomingMessage) => paths.push(`${request.method} ${new URL(request.url!, "http://x").pathname}`));
  try {
    const { code, stdout } = await replay([fixture("demo-legacy-sse.recording"), "--timeout", "3000", "--url", served.url]);
    assert.match(stdout, /replay matches/, stdout);
    assert.equal(code, 0);
    assert.deepEqual(paths, ["GET /sse", "POST /messages", "POST /messages", "POST /messages"]);
    // A changed answer on the event stream is a difference like any other.
    const changed = join(mkdtempSync(join(tmpdir(), "mcp-wire-replay-")), "changed.recording");
    writeFileSync(changed, readFileSync(fixture("demo-legacy-sse.recording"), "utf8").replace("echo: over the old", "echo: over the new"));
    const second = await replay([changed, "--timeout", "3000", "--url", served.url]);
    assert.equal(second.code, 1);
    assert.match(second.stdout, /at \/result\/content\/0\/text\n {4}expected: "echo: over the new transport"/);
  } finally {
    await served.close();
  }
});

for (const name of ["demo-get-stream.recording", "demo-legacy-sse.recording"]) {
  test(`replay --url --update: ${name} keeps the notes its streams are opened by, so the next replay passes`, async () => {
    const path = join(mkdtempSync(join(tmpdir(), "mcp-wire-replay-")), name);
    writeFileSync(path, readFileSync(fixture(name), "utf8"));
    // A fresh server for each run: toggle_extra changes the one it runs on.
    for (const update of [true, false]) {
      const served = await serve();
      try {
        const { code, stdout } = await replay([path, ...(update ? ["--update"] : []), "--timeout", "3000", "--url", served.url]);
        assert.equal(code, 0, stdout);
        assert.deepEqual(httpPlan(readFileSync(path, "utf8")), httpPlan(readFileSync(fixture(name), "utf8")));
      } finally {
        await served.close();
      }
    }
  });
}

test("httpPlan: the first plain GET's place (a GET with Last-Event-ID resumes), or the legacy stream's path", () => {
  const session = (...lines: string[]) => ["# transport: http", "-- session --", ...lines].join("\n");
  assert.deepEqual(httpPlan(session("> {}", "# > GET /mcp last-event-id: 4", "> {}", "# > GET /mcp mcp-session-id: a", "> {}", "# > GET /mcp")), { getStream: { path: "/mcp", before: 2 } });
  assert.deepEqual(httpPlan(session("# > GET /sse?x=1", "# < 200 /sse", "# < event endpoint: /messages?sessionId=a", "> {}")), { legacyStream: "/sse" });
  assert.deepEqual(httpPlan(session("> {}", "< {}")), {});
  // The header is looked for on the POSTs after the first (initialize's, which has none to send).
  assert.deepEqual(httpPlan(session("# > POST /mcp content-type: application/json", "> {}", "# > POST /mcp content-type: application/json; mcp-protocol-version: 2025-11-25", "> {}")), {});
  assert.deepEqual(httpPlan(session("# > POST /mcp content-type: application/json", "> {}")), {}, "initialize alone says nothing");
  const kept = withPlanNotes(session("> {}", "< {}"), { noProtocolVersionHeader: true });
  assert.deepEqual(httpPlan(kept), { noProtocolVersionHeader: true }, "replay --update keeps what the plan was read from");
  assert.deepEqual(httpPlan("# > GET /mcp\n-- client --\n{}\n-- server --\n"), {}, "a golden transcript has no notes");
});

// A client that never sends MCP-Protocol-Version (LangChain4j 1.18 does not) gets, from a server with
// a session per POST, the answers of 2025-03-26, which such a server SHOULD assume without the header
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#protocol-version-header).
// Replayed with the header, the same lines would get 2025-11-25's answers (an isError result here).
test("replay --url: a recorded client that sent no MCP-Protocol-Version header is replayed without one", async () => {
  const served = await serve({ sessionPerPost: true });
  const versions: (string | undefined)[] = [];
  served.listening.server.on("request", (request: IncomingMessage) => versions.push(request.headers["mcp-protocol-version"] as string | undefined));
  const post = "# > POST /mcp content-type: application/json";
  const recording = join(mkdtempSync(join(tmpdir(), "mcp-wire-replay-")), "no-version-header.recording");
  writeFileSync(recording, ["# transport: http", "-- session --",
    post, `> +1 ${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "no-header", version: "1" } } })}`,
    `< +2 ${JSON.stringify({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: { logging: {}, completions: {}, prompts: {}, resources: {}, tools: {} }, serverInfo: { name: "mcp-wire-demo", title: "mcp-wire demo server", version: "0.1.0", description: "A small MCP server written to be read: a few tools, the protocol notes, two prompts." } } })}`,
    post, `> +3 ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}`,
    post, `> +4 ${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: "x", b: 1 } } })}`,
    `< +5 ${JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "tools/call add: invalid arguments: a: must be number, got string", data: { issues: [{ path: "/a", message: "must be number, got string" }] } } })}`,
    ""].join("\n"));
  try {
    assert.deepEqual(httpPlan(readFileSync(recording, "utf8")), { noProtocolVersionHeader: true });
    const { code, stdout } = await replay([recording, "--timeout", "3000", "--url", served.url, "--ignore", "/result/instructions"]);
    assert.match(stdout, /replay matches/, stdout);
    assert.equal(code, 0);
    assert.deepEqual(versions, [undefined, undefined, undefined]);
  } finally {
    await served.close();
  }
});

test("replay --url: a changed answer is a difference with its path; --header reaches the server", async () => {
  const served = await serve();
  const seen: (string | undefined)[] = [];
  served.listening.server.on("request", (request: IncomingMessage) => seen.push(request.headers["x-replay"] as string | undefined));
  const changed = join(mkdtempSync(join(tmpdir(), "mcp-wire-replay-")), "changed.recording");
  writeFileSync(changed, readFileSync(fixture("demo-greet-elicitation.recording"), "utf8").replace("Hello, Eve!", "Hello, Eve?"));
  try {
    const { code, stdout } = await replay([changed, "--url", served.url, "--header", "X-Replay: yes"]);
    assert.equal(code, 1);
    assert.match(stdout, /server message 3 differs:\n {2}at \/result\/content\/0\/text\n {4}expected: "Hello, Eve\?"\n {4}actual: {3}"Hello, Eve!"/);
    assert.ok(seen.length >= 4 && seen.every((value) => value === "yes"), JSON.stringify(seen));
  } finally {
    await served.close();
  }
});

test("replay --url: a server that cannot be reached is a clear error (exit 3)", async () => {
  const served = await serve();
  const url = served.url;
  await served.close();
  const { code, stdout } = await replay([fixture("demo-echo-time.recording"), "--url", url]);
  assert.equal(code, 3);
  assert.match(stdout, /server message 1 of the recording never came: the server could not be reached at http:\/\/127\.0\.0\.1:\d+\/mcp/);
});

test("replay --url: usage errors (exit 2)", async () => {
  for (const args of [["--url", "ftp://x"], ["--url", "http://127.0.0.1:1/mcp", "--", "node"], ["--header", "X: y", "--", "node"]]) {
    assert.equal((await replay([fixture("demo-echo-time.recording"), ...args])).code, 2, args.join(" "));
  }
});

for (const type of ["application/json", "text/event-stream", "legacy"]) {
  test(`replay --url: a ${type} answer past --max-line-bytes stops the replay (exit 3), not read into memory`, async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { padding: "x".repeat(20_000) } });
    const server = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { "content-type": type === "application/json" ? type : "text/event-stream" });
      if (type === "application/json") response.end(big);
      else if (type === "text/event-stream") response.end(`event: message\ndata: ${big}\n\n`);
      else if (request.method === "GET") response.write(`event: endpoint\ndata: /messages\n\nevent: message\ndata: ${big}\n\n`);
      else response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const recording = fixture(type === "legacy" ? "demo-legacy-sse.recording" : "demo-echo-time.recording");
      const { code, stdout } = await replay([recording, "--max-line-bytes", "10000", "--url", url]);
      assert.equal(code, 3, stdout);
      assert.match(stdout, /server message 1 of the recording never came: the server sent a body or SSE event longer than the limit of 10000 bytes \(--max-line-bytes\)/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
}
