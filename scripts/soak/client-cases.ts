// Soak cases for our own client, the `mcp-wire` CLI, against evil servers run inside the soak
// (issue 7, items 3, 8, 11, 12 and 13): an endless SSE event or JSON body, a cross-origin redirect,
// servers that never answer, a malformed response, and a server that closes stdout but stays.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Writable } from "node:stream";
import { judge, MIB, mib, RSS_BOUND, type CaseContext, type SoakCase, type Tracked } from "./harness.js";

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A loopback HTTP server for one case, closed (every socket with it) when the case ends. */
export async function evilServer(context: CaseContext, handle: Handler): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => handle(request, body, response));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  context.onEnd(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

/** A proper initialize answer as JSON, with a session id. */
function answerInitialize(body: string, response: ServerResponse): void {
  const { id } = JSON.parse(body) as { id: number | string };
  response.writeHead(200, { "content-type": "application/json", "mcp-session-id": "evil-session" });
  response.end(JSON.stringify({ jsonrpc: "2.0", id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "evil", version: "1" } } }));
}

/** Writes `prefix`, then `x` for as long as the client reads, up to `budget` bytes; never ends the body. */
export async function endless(response: ServerResponse, prefix: string, budget: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  response.write(prefix);
  for (let sent = 0; sent < budget && !response.destroyed; sent += chunk.length) {
    if (!response.write(chunk)) await drained(response);
  }
}

/** Resolves when `response` (or any stream written to) can take more, or has closed. */
export function drained(response: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off("drain", done);
      response.off("close", done);
      resolve();
    };
    response.on("drain", done);
    response.on("close", done);
  });
}

/**
 * The checks every CLI case makes: ended by itself within the limit, with an error of its own,
 * which says what went wrong if `saying` is given.
 */
export function cliChecks(run: { cli: Tracked; ms: number; timedOut: boolean }, limitMs: number, label: string, saying?: RegExp): [boolean, string][] {
  const { cli, ms, timedOut } = run;
  const lastError = cli.stderrText.trim().split("\n").filter((line) => line.startsWith("mcp-wire:")).at(-1)?.slice(0, 200);
  return [
    [!timedOut && ms <= limitMs, timedOut ? `${label} still running after ${(ms / 1000).toFixed(1)} s (killed)` : `${label} ended in ${(ms / 1000).toFixed(1)} s (limit ${limitMs / 1000} s)`],
    // Killed for running too long is said above already.
    ...(timedOut ? [] : [
      [!cli.killedForMemory && cli.exit?.signal === null && cli.exit.code !== 0 && cli.exit.code !== 134, cli.killedForMemory || cli.exit?.signal || cli.exit?.code === 0 || cli.exit?.code === 134 ? `${label}: ${cli.describeEnd()}` : `${label}: exit ${cli.exit?.code}`],
      [lastError !== undefined && (saying === undefined || saying.test(lastError)), `${label}: ${lastError ?? "no mcp-wire: error line on stderr"}${lastError !== undefined && saying && !saying.test(lastError) ? ` (not an error matching ${saying})` : ""}`],
    ] as [boolean, string][]),
  ];
}

/** At the stdio client's default cap (64 MiB of content + 1 MiB), loopback delivers the bytes in about a second. */
const ENDLESS_LIMIT_MS = 10_000;

export const endlessBodyCase: SoakCase = {
  name: "client-endless",
  title: "the CLI (--url) against a server whose initialize answer is an endless SSE event, then an endless JSON body",
  bound: `the CLI fails with a clear error, peak RSS < ${mib(RSS_BOUND)}, within ${ENDLESS_LIMIT_MS / 1000} s`,
  limitMs: 90_000,
  async run(context) {
    const budget = Math.max(512, 1024 * context.scale) * MIB;
    // The two kinds are independent processes: run side by side.
    const checks = await Promise.all((["sse", "json"] as const).map(async (kind): Promise<[boolean, string][]> => {
      const origin = await evilServer(context, (request, body, response) => {
        if (request.method !== "POST" || !body.includes('"initialize"')) return void response.writeHead(404).end();
        if (kind === "sse") {
          response.writeHead(200, { "content-type": "text/event-stream" });
          void endless(response, "data: ", budget);
        } else {
          response.writeHead(200, { "content-type": "application/json" });
          void endless(response, '{"jsonrpc":"2.0","id":0,"result":{"padding":"', budget);
        }
      });
      // Long timeouts, so that only a size limit can end the wait in time.
      const run = await context.cli(["--url", `${origin}/mcp`, "--handshake-timeout", "60000", "--timeout", "60000", "ping"], ENDLESS_LIMIT_MS);
      return [...cliChecks(run, ENDLESS_LIMIT_MS, `${kind}: CLI`, /limit|too large|exceed/i), [run.cli.peakRss < RSS_BOUND && !run.cli.killedForMemory, `${kind}: CLI peak RSS ${mib(run.cli.peakRss)}`]];
    }));
    return judge(checks.flat());
  },
};

export const redirectCase: SoakCase = {
  name: "client-redirect",
  title: "the CLI with --header credentials against a server that redirects (307) to another local origin",
  bound: "no request carrying the credentials reaches the other origin; the CLI ends with an error",
  limitMs: 40_000,
  async run(context) {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const other = await evilServer(context, (request, _body, response) => {
      seen.push(request.headers);
      response.writeHead(404, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32600,"message":"nope"}}');
    });
    const origin = await evilServer(context, (request, _body, response) => {
      response.writeHead(307, { location: `${other}${request.url}` }).end();
    });
    const run = await context.cli(["--url", `${origin}/mcp`, "--header", "X-Api-Key: soak-secret-key", "--header", "Authorization: Bearer soak-secret-token-0123456789", "ping"], 20_000);
    const leaked = seen.filter((headers) => JSON.stringify(headers).includes("soak-secret")).length;
    return judge([
      [leaked === 0, `the other origin got ${seen.length} request(s), ${leaked} with the credentials`],
      ...cliChecks(run, 20_000, "CLI"),
    ]);
  },
};

/** The HTTP behaviours of a stalling server, one per variant of the timeout case. */
const STALLS: Record<string, Handler> = {
  // Nothing at all: not even headers for initialize.
  "initialize never answered": () => {},
  // A session, then a ping POST whose answer never comes, nor that of any later request
  // (the cancellation's POST and the DELETE included).
  "ping never answered": (request, body, response) => {
    if (body.includes('"initialize"')) return answerInitialize(body, response);
    if (request.method === "GET") return void response.writeHead(405).end();
    if (body.includes('"notifications/initialized"')) return void response.writeHead(202).end();
  },
  // A session, then a ping answered with an event stream that stays silent.
  "ping's stream silent": (request, body, response) => {
    if (body.includes('"initialize"')) return answerInitialize(body, response);
    if (request.method === "GET") return void response.writeHead(405).end();
    if (body.includes('"notifications/initialized"')) return void response.writeHead(202).end();
    if (!body.includes('"ping"')) return;
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.flushHeaders();
  },
};

const TIMEOUT_MS = 2000;
const TIMEOUT_MARGIN_MS = 3000;

export const timeoutCase: SoakCase = {
  name: "client-timeout",
  title: `the CLI with --timeout ${TIMEOUT_MS} (and --handshake-timeout ${TIMEOUT_MS}) against HTTP servers that stall`,
  bound: `the CLI ends with a timeout error within ${TIMEOUT_MS / 1000} s + ${TIMEOUT_MARGIN_MS / 1000} s`,
  limitMs: 40_000,
  async run(context) {
    // The variants are independent processes: run side by side.
    const results = await Promise.all(Object.entries(STALLS).map(async ([name, handler]) => {
      const origin = await evilServer(context, handler);
      // Killed a little after its limit: how much later it would have ended is not the question.
      // Handshake-era stalls: pinned, so that auto mode's server/discover probe (which such a server
      // leaves unanswered too) does not add its own timeout to the one measured here.
      const run = await context.cli(["--protocol-version", "2025-11-25", "--url", `${origin}/mcp`, "--timeout", String(TIMEOUT_MS), "--handshake-timeout", String(TIMEOUT_MS), "ping"], TIMEOUT_MS + TIMEOUT_MARGIN_MS + 1000);
      return cliChecks(run, TIMEOUT_MS + TIMEOUT_MARGIN_MS, name, /timed out|timeout|no response after/i);
    }));
    return judge(results.flat());
  },
};

/**
 * A fake stdio server, as a `node -e` program: it answers initialize, then misbehaves as `mode`
 * says. It reports on stderr any response it receives (a client must never answer a response),
 * and exits by itself after 30 s, so that nothing outlives the soak.
 */
function fakeStdioServer(mode: "malformed" | "close-stdout"): string {
  return `
setTimeout(() => process.exit(0), 30000);
let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf("\\n"); end >= 0; end = buffer.indexOf("\\n")) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.method === undefined) process.stderr.write("soak-got-a-response " + JSON.stringify(message).slice(0, 200) + "\\n");
    else if (message.method === "initialize") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: {}, serverInfo: { name: "fake", version: "1" } } }) + "\\n");
    else if (message.method === "notifications/initialized" && ${JSON.stringify(mode)} === "close-stdout") process.stdout.end();
    else if (message.id !== undefined && ${JSON.stringify(mode)} === "malformed") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id }) + "\\n");
  }
});`;
}

export const stdioServerFaultsCase: SoakCase = {
  name: "client-stdio-faults",
  title: "the CLI (--timeout 20000) against a stdio server that answers ping malformed, and one that closes stdout but keeps running",
  bound: "the CLI fails at once (within 5 s, not at its 20 s timeout), and never answers a response",
  limitMs: 60_000,
  async run(context) {
    const results = await Promise.all((["malformed", "close-stdout"] as const).map(async (mode) => {
      // Handshake-era fakes that ignore what they do not know: pinned, so that the 3 s server/discover
      // probe of auto mode is not counted against the bound on how soon the CLI fails.
      const run = await context.cli(["--protocol-version", "2025-11-25", "--timeout", "20000", "ping", "--", process.execPath, "-e", fakeStdioServer(mode)], 6000);
      const answeredAResponse = run.cli.stderrText.includes("soak-got-a-response");
      return [...cliChecks(run, 5000, mode), [!answeredAResponse, answeredAResponse ? `${mode}: the CLI answered a response` : `${mode}: no response answered`]] as [boolean, string][];
    }));
    return judge(results.flat());
  },
};
