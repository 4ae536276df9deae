// `mcp-wire record` over HTTP: a reverse proxy in front of a Streamable HTTP server (and the legacy
// HTTP+SSE transport, whose paths it forwards alike). Each request goes to the target with its
// method, path, headers and body; each answer comes back with its status, headers and body, an SSE
// stream streamed through chunk by chunk, never buffered. On the way, the messages are recorded:
// a POST body as "> ", a JSON answer or each SSE "message" event as "< " (decoded copies when a body
// is compressed: record-http-body.ts), and, as "#" notes, each request's method and path, each
// answer's status, and the headers that shape the session.
// Only what carries a JSON-RPC message is recorded as one: an answer to anything but a POST (a 405
// to a GET, a /.well-known/ probe's 404 or metadata document) is noted, but for an SSE stream's
// events; so is an HTTP refusal (a 401, a 404 for an ended session) unless its body answers a
// request by id (a 2026-07-28 server's 400 does). Each message goes with its exchange (an "#
// exchange N" note, recording-exchange.ts: the connection, the session id, the status) so that
// `check` can tell the sessions of one recording apart by what the wire said.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// Secrets stay out of the file: only the headers named below are noted, the values of Authorization
// and cookies are redacted, and so are the userinfo and query values of URLs (either may hold a key).
// A body or event past --max-line-bytes is noted by size.

import { request as httpRequest, createServer, Agent, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { request as httpsRequest, Agent as HttpsAgent } from "node:https";
import { BodyDecoder, EventRecorder, JsonBody, type DecodedSink, type Recorder } from "./record-http-body.js";
import { KeptBytes } from "./record-http-kept.js";
import { SessionFile } from "./record-file.js";
import { parseLine } from "./recording.js";
import { answersById, exchangeNote, type Exchange } from "./recording-exchange.js";

export interface HttpRecordOptions {
  out: string;
  /** Where the proxy listens (loopback unless told otherwise). */
  host: string;
  port: number;
  /** The server's endpoint; requests are forwarded to its origin with their own path. */
  target: URL;
  /** The largest body or SSE event recorded whole, in bytes. */
  maxLineBytes: number;
  /** What all open exchanges keep at once for the recording (decoded copies, decoders), in bytes. */
  maxKeptBytes: number;
  /** Told each message as it is recorded, with what its exchange said so far (record --check). */
  onLine?: (dir: "c2s" | "s2c", bytes: Buffer, exchange?: Exchange) => void;
}

/** Headers that belong to one connection, not to the request: never forwarded (RFC 9110, 7.6.1), nor those a Connection header names. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]);
/** Headers noted in the recording; the secret ones by name only. */
const NOTED = ["content-type", "content-encoding", "mcp-session-id", "mcp-protocol-version", "last-event-id", "authorization", "cookie", "set-cookie", "www-authenticate"];
const SECRET = new Set(["authorization", "cookie", "set-cookie"]);

/** Serves until SIGINT, SIGTERM or SIGHUP; resolves with the exit code (130, 143, 129). */
export async function recordHttp(options: HttpRecordOptions, onListening: (url: string) => void): Promise<number> {
  const onLine = options.onLine;
  const file = new SessionFile(options.out, { prose: [`Recorded by mcp-wire record on ${new Date().toISOString()}.`], transport: "http", url: redactedUrl(options.target) }, onLine && ((dir, bytes) => onLine(dir, bytes, currentFacts)));
  const secure = options.target.protocol === "https:";
  const basic = basicCredentials(options.target);
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true });
  const server = createServer((req, res) => forward(req, res));
  const unfinished = new Unfinished();
  const connections = new WeakMap<Socket, number>();
  let connectionCount = 0;
  let exchanges = 0;
  /** The exchange the last lines written belong to: another's line needs its note first. */
  let current: number | undefined;
  let currentFacts: Exchange | undefined;
  /** Writes `write`'s lines as exchange `n`'s, with what is newly known of it (added to `known`: the first said of each wins, as readers take it). */
  const recordIn = (n: number, known: Exchange, write: (file: SessionFile) => void, facts?: Exchange) => file.record(() => {
    if (facts !== undefined || current !== n) file.note(exchangeNote(n, facts).slice(2));
    if (facts !== undefined) {
      known.connection ??= facts.connection;
      known.method ??= facts.method;
      known.status ??= facts.status;
      known.session ??= facts.session;
    }
    current = n;
    currentFacts = known;
    write(file);
  });
  const kept = new KeptBytes(options.maxKeptBytes);

  function forward(req: IncomingMessage, res: ServerResponse): void {
    const url = targetUrl(options.target, req.url ?? "/");
    const exchange = ++exchanges;
    if (!connections.has(req.socket)) connections.set(req.socket, ++connectionCount);
    const requestFacts = { connection: connections.get(req.socket), method: req.method, session: single(req.headers["mcp-session-id"]) };
    /** What this exchange said so far, for record --check. */
    const known: Exchange = {};
    recordIn(exchange, known, (file) => file.note(`> ${req.method} ${redactedPath(req.url ?? "/")}${notedHeaders(req.headers)}`), requestFacts);
    const headers = forwardedHeaders(req.headers);
    headers.host = options.target.host;
    if (basic !== undefined && headers.authorization === undefined) headers.authorization = basic;
    const upstream = (secure ? httpsRequest : httpRequest)(url, { method: req.method, headers, agent });
    // The answer is recorded after the request's body, which may still be decoding when the answer comes.
    let requestRecorded = () => {};
    const afterRequest = new Promise<void>((resolve) => (requestRecorded = resolve));
    const recordRequest: Recorder = (write) => recordIn(exchange, known, write);
    const recordAnswer = (write: (file: SessionFile) => void, facts?: Exchange) => void unfinished.track(afterRequest.then(() => recordIn(exchange, known, write, facts)));
    const encoding = req.headers["content-encoding"];
    const body = new BodyDecoder(encoding, unfinished.sink(new JsonBody("c2s", options.maxLineBytes, encoding, recordRequest, requestRecorded)), kept);
    req.on("data", (chunk: Buffer) => body.push(chunk));
    req.on("end", () => body.end());
    // A request cut short: its body is noted as such (its answer waits no more), and what it kept goes back.
    req.on("close", () => req.complete || body.abort());
    req.pipe(upstream);
    upstream.on("response", (answer) => {
      // An answer that comes while its request is still arriving came first on the wire: held back
      // for a body that may never end, it would keep every message of the answer (an SSE stream).
      if (!req.complete) requestRecorded();
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.headers));
      res.flushHeaders();
      const status = answer.statusCode ?? 502;
      recordAnswer((file) => file.note(`< ${status} ${url.pathname}${notedHeaders(answer.headers)}`), { status, session: single(answer.headers["mcp-session-id"]) });
      const ok = status >= 200 && status <= 299;
      const sse = ok && /^text\/event-stream/i.test(answer.headers["content-type"] ?? "");
      const answerEncoding = answer.headers["content-encoding"];
      const recordBody: Recorder = (write) => recordAnswer(write);
      const answerBody = new BodyDecoder(answerEncoding, unfinished.sink(sse
        ? new EventRecorder(options.maxLineBytes, recordBody)
        : new JsonBody("s2c", options.maxLineBytes, answerEncoding, recordBody, undefined, (text) => answersMessages(req.method, status, text))), kept);
      // pipe() passes each chunk on as it comes (an SSE event is not held back) and waits for a
      // slow client; its "data" listener comes first, so a chunk is passed on before it is recorded.
      answer.pipe(res);
      answer.on("data", (chunk: Buffer) => answerBody.push(chunk));
      answer.on("end", () => answerBody.end());
      answer.on("error", () => res.destroy());
      answer.on("close", () => answer.complete || answerBody.abort());
    });
    upstream.on("error", (error) => {
      recordAnswer((file) => file.note(`< the target failed: ${error.message}`), { status: 502 });
      if (res.headersSent) return void res.destroy();
      // The client gets a JSON-RPC error it can read, as from any HTTP failure of the server's.
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: `mcp-wire record: the target ${options.target.origin} failed: ${error.message}` } }));
    });
    // The client went away before its answer ended (an SSE stream closed, say): so does the request to the target.
    res.on("close", () => res.writableFinished || upstream.destroy());
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  onListening(`http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}${options.target.pathname}`);
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  let stop: (signal: (typeof signals)[number]) => void = () => {};
  const signal = await new Promise<(typeof signals)[number]>((resolve) => {
    stop = resolve;
    for (const name of signals) process.on(name, stop);
  });
  for (const name of signals) process.off(name, stop);
  server.close();
  // A clean stop first writes what already passed to a client but is still being decoded, or waits
  // for its request's line; a stream still open is not waited for past FLUSH_MS.
  await unfinished.settled(FLUSH_MS);
  server.closeAllConnections();
  agent.destroy();
  file.close();
  return { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 }[signal];
}

/**
 * Whether an answer's (not an SSE stream's) body is a message of the session. Spec (transports):
 * a POST's answer is its JSON-RPC response, a 202 has none (the legacy transport's "Accepted" is a
 * word, not a message). Other methods carry no message but on an event stream; and an HTTP error
 * comes from the transport, not the peer's JSON-RPC, unless it answers a request by its id.
 */
function answersMessages(method: string | undefined, status: number, text: string): boolean {
  if (method !== "POST" || status === 202) return false;
  return (status >= 200 && status <= 299) || answersById(parseLine(text));
}

/** A header's one value (a repeated one is not a session id). */
function single(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** How long a stop waits for recording still under way (a compressed body's last bytes) before it closes the file. */
const FLUSH_MS = 500;

/** Recording still under way: bodies being decoded, answers waiting for their request's line. */
class Unfinished {
  readonly #pending = new Set<Promise<void>>();

  track(work: Promise<void>): void {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  /** `sink`, counted as under way until it is told its end. */
  sink(sink: DecodedSink): DecodedSink {
    let ended = () => {};
    this.track(new Promise<void>((resolve) => (ended = resolve)));
    return { data: (decoded) => sink.data(decoded), end: (problem) => (sink.end(problem), ended()), held: () => sink.held?.() ?? 0 };
  }

  /** Resolves when nothing is under way (a body ending may start an answer's write: looked at again), or after `ms`. */
  async settled(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.#pending.size > 0 && Date.now() < deadline) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(this.#pending), new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now())))]);
      clearTimeout(timer);
    }
  }
}

/**
 * Where a request goes: the target's origin and the request's path (never another host, whatever
 * the path looks like), with the target's own query parameters first, then the request's.
 */
function targetUrl(target: URL, path: string): URL {
  const url = new URL(`${target.origin}${path.startsWith("/") ? "" : "/"}${path}`);
  url.search = [target.search.slice(1), url.search.slice(1)].filter((query) => query !== "").join("&");
  return url;
}

/** The target's userinfo as the Authorization it stands for (RFC 7617), or undefined if it has none. */
function basicCredentials(target: URL): string | undefined {
  if (target.username === "" && target.password === "") return undefined;
  // The URL keeps a "%" that starts no escape as it was written: so does the credential.
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return `Basic ${Buffer.from(`${decoded(target.username)}:${decoded(target.password)}`).toString("base64")}`;
}

/** A URL as the recording shows it: its userinfo and the values of its query are redacted, as either may be a key. */
export function redactedUrl(url: URL): string {
  const userinfo = url.username !== "" || url.password !== "" ? "***@" : "";
  return `${url.protocol}//${userinfo}${url.host}${redactedPath(url.pathname + url.search)}`;
}

/** A path and query with each query value redacted (a parameter without "=" may be a key itself). */
function redactedPath(path: string): string {
  const question = path.indexOf("?");
  if (question === -1) return path;
  const parameters = path.slice(question + 1).split("&").map((parameter) => (parameter.includes("=") ? `${parameter.slice(0, parameter.indexOf("="))}=***` : "***"));
  return `${path.slice(0, question)}?${parameters.join("&")}`;
}

function forwardedHeaders(headers: IncomingHttpHeaders): { [name: string]: string | string[] } {
  // Spec (RFC 9110, 7.6.1): the headers a Connection header names belong to this connection too.
  const named = new Set((headers.connection ?? "").split(",").map((name) => name.trim().toLowerCase()));
  const kept: { [name: string]: string | string[] } = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) kept[name] = value;
  return kept;
}

function notedHeaders(headers: IncomingHttpHeaders): string {
  return NOTED.filter((name) => headers[name] !== undefined).map((name) => ` ${name}: ${SECRET.has(name) ? "[redacted]" : String(headers[name])}`).join(";");
}
