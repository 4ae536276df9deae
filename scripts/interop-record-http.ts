// `mcp-wire record --listen --target` between the official SDK client and server-everything over
// HTTP, both pinned: over Streamable HTTP (server-everything's `streamableHttp`, the SDK's
// StreamableHTTPClientTransport) and over the legacy HTTP+SSE transport (`sse`, SSEClientTransport).
// As over stdio (scripts/interop-record.ts): the client's results through the proxy equal those
// without it; the recording holds every message an independent capture saw; it passes `mcp-wire
// check`; `mcp-wire replay --url` matches against a fresh server-everything and fails against a
// changed one (a tool more) and a different one (our demo), naming the path that differs.
// The independent capture is a fetch the SDK client is given (its `fetch` option): it logs each
// request body, and each answer's JSON body or SSE "message" events, from a clone of the answer.
// It shares no code with the proxy. Spec:
// https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http and
// https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseRecording } from "../src/recordings/recording.js";
import type { Checks } from "./interop.js";
import { freePort, startHttpServer, type HttpServer } from "./interop-modern/peers.js";
import { changedEverything, CLI, DIFFERENT_SERVER_EXIT, EVERYTHING, expectChangedServerDiff, expectCheckPasses, expectCli, PEERS_DIR, REQUEST_TIMEOUT_MS, ROOT, session, summary, TOOL_TIMEOUT_MS, type FetchLike, type SdkModule, type Session } from "./interop-record-session.js";

type EverythingTransport = "streamableHttp" | "sse";
interface Captured { dir: "c2s" | "s2c"; text: string }

/** How long the capture may take to finish reading its clones once the session closed. */
const CAPTURE_SETTLE_MS = 2_000;

/** The checks for one HTTP transport of server-everything. */
export async function httpChecks(checks: Checks, sdk: SdkModule, work: string, transport: EverythingTransport): Promise<void> {
  const label = transport === "sse" ? "HTTP+SSE" : "Streamable HTTP";
  const recording = join(work, `everything-${transport}.recording`);
  const connect = (url: string, fetch?: FetchLike) =>
    transport === "sse" ? new sdk.SSEClientTransport(new URL(url), { fetch }) : new sdk.StreamableHTTPClientTransport(new URL(url), { fetch });
  const captured: Captured[] = [];
  let direct: Session | undefined;
  let proxied: Session | undefined;
  let server: HttpServer | undefined;
  try {
    await checks.run(`${label}: start server-everything ${transport}`, async () => (server = await everything(transport)).url);
    if (!server) return;
    const url = server.url;
    await checks.run(`${label}: sdk client -> server-everything, direct`, async () => summary((direct = await session(sdk, connect(url)))));
    await checks.run(`${label}: sdk client -> capturing fetch -> mcp-wire record --listen -> server-everything`, async () => {
      const proxy = await startHttpServer(process.execPath, [CLI, "record", "--out", recording, "--listen", "127.0.0.1:0", "--target", url], {
        cwd: ROOT, address: (output) => /listening on (http:\S+),/.exec(output)?.[1],
      });
      const capture = capturingFetch(captured);
      try {
        proxied = await session(sdk, connect(proxy.url, capture.fetch));
      } finally {
        // Stopped by SIGTERM, the proxy ends the file before it exits: the recording is whole.
        await proxy.stop();
        await capture.settled();
      }
      return `${summary(proxied)}, through ${proxy.url}`;
    });
  } finally {
    await server?.stop();
  }
  if (!direct || !proxied) return;
  await checks.run(`${label}: the client sees no difference: every result equal to the direct session's`, () => {
    assert.deepEqual(proxied!.results, direct!.results);
    return proxied!.results.map(([name]) => name).join(", ");
  });
  // The client's messages go one POST at a time, so their order is the wire's; the server's come on
  // several answers and streams at once, whose order between them the proxy and the client may see apart.
  await checks.run(`${label}: the recording holds every message the independent capture saw (the client's in order, the server's as a set)`, () => {
    const recorded = parseRecording(readFileSync(recording, "utf8"), recording).entries;
    const texts = (entries: Captured[], dir: "c2s" | "s2c") => entries.filter((entry) => entry.dir === dir).map((entry) => entry.text);
    assert.deepEqual(texts(recorded, "c2s"), texts(captured, "c2s"), "c2s: the recording and the capture differ");
    assert.deepEqual(texts(recorded, "s2c").sort(), texts(captured, "s2c").sort(), "s2c: the recording and the capture differ");
    assert.ok(captured.length >= 2 * proxied!.results.length, `only ${captured.length} messages for ${proxied!.results.length} calls`);
    return `${texts(captured, "c2s").length} client and ${texts(captured, "s2c").length} server bodies or events, byte for byte`;
  });
  await checks.run(`${label}: mcp-wire check passes the recording`, () => expectCheckPasses(recording));
  await checks.run(`${label}: mcp-wire replay --url against a fresh server-everything matches`, () =>
    withServer(everything(transport), (url) => expectCli(["replay", recording, "--url", url], 0, TOOL_TIMEOUT_MS, PEERS_DIR)));
  await checks.run(`${label}: mcp-wire replay --url against a changed server-everything (one tool more) fails with exit 1, naming the path`, () =>
    withServer(everything(transport, changedEverything(transport)), (url) => expectChangedServerDiff([recording, "--url", url], [1], "/result/tools/")));
  await checks.run(`${label}: mcp-wire replay --url against a different server (our demo) fails, naming the path (${DIFFERENT_SERVER_EXIT})`, () =>
    withServer(ourDemo(transport), (url) => expectChangedServerDiff([recording, "--url", url], [1], "/result/serverInfo/name")));
}

/** server-everything over `transport` (or the node arguments given), on a free port (it listens on PORT). */
async function everything(transport: EverythingTransport, args = [EVERYTHING, transport]): Promise<HttpServer> {
  const port = await freePort();
  const path = transport === "sse" ? "/sse" : "/mcp";
  return startHttpServer(process.execPath, args, {
    cwd: PEERS_DIR, env: { ...process.env, PORT: String(port) }, address: (output) => (/listening on port \d+|running on port \d+/.test(output) ? `http://127.0.0.1:${port}${path}` : undefined),
  });
}

/** Our demo server over HTTP: its Streamable HTTP endpoint, or its legacy /sse one. */
function ourDemo(transport: EverythingTransport): Promise<HttpServer> {
  return startHttpServer(process.execPath, [join(ROOT, "dist", "server.js"), "--http", "--port", "0"], {
    cwd: ROOT, address: (output) => {
      const origin = /Streamable HTTP at (http:\S+)\/mcp/.exec(output)?.[1];
      return origin === undefined ? undefined : `${origin}${transport === "sse" ? "/sse" : "/mcp"}`;
    },
  });
}

async function withServer<T>(starting: Promise<HttpServer>, body: (url: string) => Promise<T>): Promise<T> {
  const server = await starting;
  try {
    return await body(server.url);
  } finally {
    await server.stop();
  }
}

/**
 * The independent capture: a fetch that logs each request's body, and each answer's body (JSON, or
 * any other non-empty text; not a 202's, which acknowledges and carries no message) or its SSE "message" events, read from a clone as they come. Only a
 * stream's own end (or the client aborting it) ends its reading; settled() waits for those. As
 * record does, a body that carries no message is left out: the answer to anything but a POST (a
 * 405 to a GET), and an HTTP error's that answers no request by its id.
 */
function capturingFetch(log: Captured[]): { fetch: FetchLike; settled: () => Promise<void> } {
  const reading: Promise<void>[] = [];
  const fetchAndLog: FetchLike = async (url, init) => {
    if (typeof init?.body === "string" && init.body !== "") log.push({ dir: "c2s", text: init.body });
    const response = await fetch(url, init);
    const copy = response.clone();
    const sse = /^text\/event-stream/i.test(response.headers.get("content-type") ?? "");
    const carriesMessage = (text: string) => text !== "" && (init?.method ?? "GET") === "POST" && response.status !== 202 && (response.ok || /"id":\s*(?!null)[^,}\s]/.test(text));
    reading.push((sse && response.ok ? readEvents(copy, log) : copy.text().then((text) => void (carriesMessage(text) && log.push({ dir: "s2c", text })))).catch(() => {}));
    return response;
  };
  const settled = async () => {
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, CAPTURE_SETTLE_MS).unref());
    await Promise.race([Promise.allSettled(reading), timeout]);
  };
  return { fetch: fetchAndLog, settled };
}

/** An SSE body's "message" events (an event with no name is one), each one's data lines joined. */
async function readEvents(response: Response, log: Captured[]): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of response.body ?? []) {
    buffered += decoder.decode(chunk as Uint8Array, { stream: true }).replace(/\r\n/g, "\n");
    for (let end = buffered.indexOf("\n\n"); end !== -1; end = buffered.indexOf("\n\n")) {
      const fields = buffered.slice(0, end).split("\n").map((line) => /^([^:]*):? ?(.*)$/.exec(line)!);
      buffered = buffered.slice(end + 2);
      const name = fields.find((field) => field[1] === "event")?.[2] ?? "message";
      const data = fields.filter((field) => field[1] === "data").map((field) => field[2]).join("\n");
      if (name === "message" && data !== "") log.push({ dir: "s2c", text: data });
    }
  }
}
