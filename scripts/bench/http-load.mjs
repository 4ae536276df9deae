// The load generator of the HTTP rows, in a process of its own so that its CPU is not the
// server's: one Streamable HTTP session (initialize, notifications/initialized), a short warm-up,
// then `calls` tools/call echo POSTs over `inFlight` keep-alive connections, one call outstanding
// on each. With `per-post` there is no handshake: each call is a handshake-era POST without a
// session id (a server with a session per POST); with `modern` each call is a 2026-07-28 request,
// its `_meta` envelope and mirrored headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) on it. Every id must get exactly one correct answer, as application/json or in the `data:`
// lines of an SSE body, as `mode` says. The server's CPU (user+sys) over the timed calls is read
// from /proc/<pid>. HTTP/1.1 is written and read by hand on node:net sockets: node:http's client
// costs more CPU per call than the baseline server, and would set the baseline's pace.
// Usage: node http-load.mjs <endpoint> json|sse <calls> <inFlight> <server pid> <clock ticks/s> [session|per-post|modern]
// Prints one JSON line: the figures, or { "problem": "..." } for wrong answers; crashes exit 1.

import { connect } from "node:net";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

/**
 * Untimed calls first: V8 compiles a server's hot code on background threads during its first few
 * thousand calls, and that CPU counts against the server. After 500 warm-up calls, 5,000 timed
 * ones measured mostly compilation (92 µs a call for ours, 44 for the bare server; 26 and 17.5 in
 * the steady state), which says how large a server's code is, not what a call costs.
 */
const WARM_UP_CALLS = 5000;
/** How long the load may go without an answer before the missing ones are reported. */
const STALL_MS = 10_000;
const ACCEPT = "application/json, text/event-stream";
const VERSION = "2025-11-25";
const HEAD_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");

const MODERN_VERSION = "2026-07-28";
/** The 2026-07-28 envelope as the SDK v2 client sends it: version, client info, capabilities. */
const MODERN_META = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"${MODERN_VERSION}","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}`;

const [endpoint, mode, callsText, inFlightText, pidText, ticksText, flavour = "session"] = process.argv.slice(2);
const calls = Number(callsText);
const inFlight = Number(inFlightText);
if (!endpoint || (mode !== "json" && mode !== "sse") || !(calls > 0) || !(inFlight > 0) || !["session", "per-post", "modern"].includes(flavour)) {
  throw new Error("usage: http-load.mjs <endpoint> json|sse <calls> <inFlight> <server pid> <clock ticks/s> [session|per-post|modern]");
}
const meta = flavour === "modern" ? MODERN_META : "";
const url = new URL(endpoint);
const problems = [];
const problem = (message) => void (problems.length < 5 && problems.push(message));

/** One keep-alive connection carrying one request at a time. */
class Connection {
  #socket;
  #buffer = Buffer.alloc(0);
  #waiting;

  constructor() {
    this.#socket = connect(Number(url.port), url.hostname);
    this.#socket.setNoDelay(true);
    this.#socket.on("data", (chunk) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      this.#read();
    });
    const lost = (error) => this.#waiting?.reject(error ?? new Error("the server closed the connection"));
    this.#socket.on("error", lost);
    this.#socket.on("close", () => lost());
  }

  /** One POST; resolves with the status, the lower-cased headers and the whole body as text. */
  post(body, headers) {
    if (this.#waiting) throw new Error("http-load: one request at a time per connection");
    let head = `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\naccept: ${ACCEPT}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.write(`${head}\r\n${body}`);
    });
  }

  close() {
    this.#socket.destroy();
  }

  /** Settles the waiting request once its whole response is in: Content-Length or chunked. */
  #read() {
    const headEnd = this.#buffer.indexOf(HEAD_END);
    if (headEnd === -1 || !this.#waiting) return;
    const [statusLine, ...lines] = this.#buffer.toString("latin1", 0, headEnd).split("\r\n");
    const headers = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let end;
    let parts = [];
    if (headers["content-length"] !== undefined) {
      end = headEnd + 4 + Number(headers["content-length"]);
      if (this.#buffer.length < end) return;
      parts.push(this.#buffer.subarray(headEnd + 4, end));
    } else if (headers["transfer-encoding"] === "chunked") {
      for (let at = headEnd + 4; ; ) {
        const sizeEnd = this.#buffer.indexOf(CRLF, at);
        if (sizeEnd === -1) return;
        const size = parseInt(this.#buffer.toString("latin1", at, sizeEnd), 16);
        // No trailers are expected: the last chunk is "0", CR LF, and an empty line.
        const next = sizeEnd + 2 + size + 2;
        if (this.#buffer.length < next) return;
        if (size === 0) {
          end = next;
          break;
        }
        parts.push(this.#buffer.subarray(sizeEnd + 2, sizeEnd + 2 + size));
        at = next;
      }
    } else {
      this.#waiting.reject(new Error(`a response with neither Content-Length nor chunked encoding: ${statusLine}`));
      return;
    }
    const text = Buffer.concat(parts).toString("utf8");
    this.#buffer = this.#buffer.subarray(end);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting.resolve({ status: Number(statusLine.split(" ")[1]), headers, text });
  }
}

/** The JSON-RPC messages of a response body: the JSON itself, or each non-empty SSE `data`. */
function messages(response) {
  const type = (response.headers["content-type"] ?? "").split(";")[0].trim();
  if (type === "application/json") return [JSON.parse(response.text)];
  if (type !== "text/event-stream") throw new Error(`unexpected content-type ${JSON.stringify(type)}`);
  const found = [];
  for (const event of response.text.split(/\r?\n\r?\n/)) {
    const data = event.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(line[5] === " " ? 6 : 5));
    // An event with empty data is the priming event (an id to resume from), not a message.
    if (data.length > 0 && data.join("\n") !== "") found.push(JSON.parse(data.join("\n")));
  }
  return found;
}

async function handshake(connection) {
  const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "bench", version: "1" } } };
  const answer = await connection.post(JSON.stringify(initialize), {});
  const session = answer.headers["mcp-session-id"];
  const [result] = answer.status === 200 ? messages(answer) : [];
  if (typeof session !== "string" || typeof result?.result?.protocolVersion !== "string") {
    throw new Error(`initialize: status ${answer.status}, session ${JSON.stringify(session)}, body ${answer.text.slice(0, 300)}`);
  }
  const headers = { "mcp-session-id": session, "mcp-protocol-version": VERSION };
  const initialized = await connection.post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers);
  if (initialized.status !== 202) throw new Error(`notifications/initialized: status ${initialized.status}, body ${initialized.text.slice(0, 300)}`);
  return headers;
}

/** Calls with ids first..last, one outstanding on each connection: each answer starts the next call. */
function run(connections, headers, first, last, answered) {
  let next = first;
  let answers = 0;
  let progressed = true;
  let stalled = false;
  const watchdog = setInterval(() => {
    if (!progressed && !stalled) {
      stalled = true;
      problem(`calls ${first}..${last} stalled for ${STALL_MS} ms with ${answers} answered`);
      for (const connection of connections) connection.close();
    }
    progressed = false;
  }, STALL_MS);
  const worker = async (connection) => {
    while (next <= last && !stalled) {
      const id = next++;
      const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"call ${id}"}${meta}}}`;
      check(id, await connection.post(body, headers), answered);
      progressed = true;
      answers++;
    }
  };
  return Promise.all(connections.map(worker)).catch((error) => {
    if (!stalled) throw error;
  }).finally(() => clearInterval(watchdog));
}

function check(id, response, answered) {
  if (response.status !== 200) return problem(`id ${id}: status ${response.status}: ${response.text.slice(0, 200)}`);
  const type = (response.headers["content-type"] ?? "").split(";")[0].trim();
  if (type !== (mode === "json" ? "application/json" : "text/event-stream")) return problem(`id ${id}: ${mode} wanted, got content-type ${JSON.stringify(type)}`);
  for (const message of messages(response)) {
    if (message.id !== id) return problem(`id ${id}: an answer for id ${JSON.stringify(message.id)} in its body`);
    if (answered[id]++ !== 0) return problem(`id ${id} answered more than once`);
    const text = message.result?.content?.[0]?.text;
    if (text !== `echo: call ${id}`) return problem(`id ${id}: wrong answer ${JSON.stringify(message).slice(0, 200)}`);
  }
  if (answered[id] === 0) problem(`id ${id}: no answer in a ${response.text.length}-character body`);
}

/** The server's user+sys CPU time so far, in seconds. */
function serverCpuSeconds() {
  const stat = readFileSync(`/proc/${pidText}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / Number(ticksText);
}

const connections = Array.from({ length: inFlight }, () => new Connection());
const headers = flavour === "session" ? await handshake(connections[0])
  : flavour === "per-post" ? { "mcp-protocol-version": VERSION }
  : { "mcp-protocol-version": MODERN_VERSION, "mcp-method": "tools/call", "mcp-name": "echo" };
const answered = new Uint8Array(WARM_UP_CALLS + calls + 1);
await run(connections, headers, 1, WARM_UP_CALLS, answered);
const cpuBefore = serverCpuSeconds();
const ownCpuBefore = process.cpuUsage();
const started = performance.now();
await run(connections, headers, WARM_UP_CALLS + 1, WARM_UP_CALLS + calls, answered);
const seconds = (performance.now() - started) / 1000;
const serverCpuMicroseconds = (serverCpuSeconds() - cpuBefore) * 1e6;
const ownCpu = process.cpuUsage(ownCpuBefore);
const driverCpuMicroseconds = ownCpu.user + ownCpu.system;
for (const connection of connections) connection.close();
const missing = answered.reduce((count, times, id) => count + (id > 0 && times === 0 ? 1 : 0), 0);
if (missing > 0) problem(`${missing} of ${WARM_UP_CALLS + calls} ids never answered`);
process.stdout.write(JSON.stringify(problems.length > 0 ? { problem: problems.join("; ") } : { calls, seconds, serverCpuMicroseconds, driverCpuMicroseconds }) + "\n");
