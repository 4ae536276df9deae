// The web server of `mcp-wire inspect`: the page's files, its event stream (SSE) and its actions,
// on loopback only, on a port the system picks, behind a random token in the path. A page on any
// other site cannot use it: a request must name the token (else 404), its Host must be this
// server's own loopback address (a DNS-rebinding page sends its own name: 403), and a request that
// carries an Origin must come from the page itself (a cross-site request: 403).
// The page's files are hand-written (src/inspect/), copied next to the compiled code by the build.
// MCP Apps views are not served here: each is framed from the sandbox proxy's listener, another
// origin (cli/inspect-sandbox.ts), which is the one origin the page's policy lets it frame.

import { randomBytes, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The page's files, by the name it asks for them under, and their types. */
const FILES: { [name: string]: string } = {
  "": "text/html; charset=utf-8",
  "inspect.css": "text/css; charset=utf-8",
  "inspect.js": "text/javascript; charset=utf-8",
  "apps-host.js": "text/javascript; charset=utf-8",
  "templates.js": "text/javascript; charset=utf-8",
};
const FILE_ON_DISK: { [name: string]: string } = { "": "index.html" };
/** What one page's event stream may hold unread before it is ended. */
const MAX_UNREAD_EVENT_BYTES = 8 * 1024 * 1024;
/** An action's JSON body is small: a tool's arguments, an answer to a form. */
const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Only our own files run in the page; the diagram is an image; the page talks to us alone. No
 * server text ever becomes markup (the page uses textContent), this is the net under that rule.
 * Frames from the sandbox proxy's origins only (`frameOrigins`): the views' proxies.
 */
export function pagePolicy(frameOrigins: readonly string[]): string {
  const frames = frameOrigins.length > 0 ? frameOrigins.join(" ") : "'none'";
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; frame-src ${frames}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

export interface InspectRoutes {
  /** A page opened the event stream; `send` writes one event, the returned function is called when it goes. */
  events(send: (event: unknown) => void): () => void;
  /** The diagram as SVG. */
  diagram(): string;
  /** The origins the page may frame: the sandbox proxy's (cli/inspect-sandbox.ts). */
  frameOrigins: readonly string[];
  /** An action the page asked for (its parsed JSON body); resolves to what is sent back as JSON. */
  action(body: unknown): Promise<unknown>;
}

export interface InspectServer {
  /** The page's address, token included. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startInspectServer(routes: InspectRoutes, pageDirectory: URL): Promise<InspectServer> {
  const token = randomBytes(24).toString("base64url");
  const headers = { ...SAFE_HEADERS, "content-security-policy": pagePolicy(routes.frameOrigins) };
  const respond = (response: ServerResponse, status: number, type: string, body: string | Buffer): void => {
    response.writeHead(status, { ...headers, "content-type": type, "cache-control": "no-store" });
    response.end(body);
  };
  const streams = new Set<ServerResponse>();
  let port = 0;
  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) respond(response, 500, "text/plain", `inspect: ${error instanceof Error ? error.message : String(error)}`);
      else response.destroy();
    });
  });
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const refusal = refused(request, port, token);
    if (refusal) return respond(response, refusal.status, "text/plain", refusal.reason);
    const name = new URL(request.url ?? "/", "http://127.0.0.1").pathname.slice(token.length + 2);
    if (request.method === "GET" && Object.hasOwn(FILES, name)) {
      const file = new URL(FILE_ON_DISK[name] ?? name, pageDirectory);
      return respond(response, 200, FILES[name], await readFile(file));
    }
    if (request.method === "GET" && name === "diagram.svg") return respond(response, 200, "image/svg+xml", routes.diagram());
    if (request.method === "GET" && name === "events") return openStream(response);
    if (request.method === "POST" && name === "api") {
      // JSON only: a form another site could post is text/plain or form-encoded.
      if (!(request.headers["content-type"] ?? "").startsWith("application/json")) return respond(response, 415, "text/plain", "inspect: actions are JSON");
      const body = await readBody(request);
      if (body === undefined) return respond(response, 413, "text/plain", `inspect: an action is at most ${MAX_BODY_BYTES} bytes`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return respond(response, 400, "text/plain", "inspect: the action is not JSON");
      }
      return respond(response, 200, "application/json", JSON.stringify(await routes.action(parsed)));
    }
    respond(response, 404, "text/plain", "inspect: no such page");
  };
  const openStream = (response: ServerResponse): void => {
    response.writeHead(200, { ...headers, "content-type": "text/event-stream", "cache-control": "no-store" });
    streams.add(response);
    const stop = routes.events((event) => {
      // A page that stops reading does not make us buffer without end: its stream is ended, and
      // EventSource opens it again, getting the latest events (the page skips those it has).
      if (response.writableLength > MAX_UNREAD_EVENT_BYTES) return void response.end();
      response.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    response.on("close", () => {
      streams.delete(response);
      stop();
    });
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    close: () => new Promise<void>((resolve) => {
      for (const stream of streams) stream.end();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** Why a request is refused, if it is: the checks every request passes before any route. */
export function refused(request: IncomingMessage, port: number, token: string): { status: number; reason: string } | undefined {
  const host = request.headers.host;
  const ours = [`127.0.0.1:${port}`, `localhost:${port}`];
  // A DNS-rebinding page reaches 127.0.0.1 under its own name, which its Host header carries.
  if (host === undefined || !ours.includes(host)) return { status: 403, reason: "inspect: this server answers to 127.0.0.1 and localhost only" };
  const origin = request.headers.origin;
  // A sandboxed view's own requests carry `Origin: null`: refused like any other site's.
  if (origin !== undefined && origin !== `http://${host}`) return { status: 403, reason: "inspect: requests from other sites are refused" };
  const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
  const given = Buffer.from(path.slice(1, 1 + token.length));
  const expected = Buffer.from(token);
  const tokenOk = given.length === expected.length && timingSafeEqual(given, expected) && path.charAt(token.length + 1) === "/";
  return tokenOk ? undefined : { status: 404, reason: "inspect: no such page" };
}

const SAFE_HEADERS = {
  "x-content-type-options": "nosniff",
  // The token is in the URL: a link the page follows must not carry it away.
  "referrer-policy": "no-referrer",
};

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
