// A loopback HTTP server whose every answer the test writes by hand, for the client's fault tests:
// stalls, endless bodies, redirects, streams that end at once. It records each request (method,
// path, JSON-RPC method, headers) and whether the client let go of it before it was answered.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  path: string;
  /** The JSON-RPC method of a POSTed message, or undefined. */
  rpc: string | undefined;
  /** The parsed POST body, if it was JSON. */
  body: { id?: string | number; method?: string; params?: Record<string, unknown> } | undefined;
  headers: IncomingMessage["headers"];
  /** The client closed the connection before the response ended (it aborted the request). */
  abandoned: boolean;
}

export type Route = (seen: SeenRequest, response: ServerResponse) => void;

export interface Scripted {
  origin: string;
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function scriptedServer(route: Route): Promise<Scripted> {
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let body: SeenRequest["body"];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as SeenRequest["body"];
      } catch {
        body = undefined;
      }
      const entry: SeenRequest = { method: request.method ?? "", path: request.url ?? "", rpc: body?.method, body, headers: request.headers, abandoned: false };
      seen.push(entry);
      response.on("close", () => (entry.abandoned = !response.writableFinished));
      route(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/mcp`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The result of an initialize a scripted server gives, with the tools and resources capabilities. */
export function initializeResult(id: unknown, protocolVersion = "2025-11-25"): string {
  return JSON.stringify({
    jsonrpc: "2.0", id,
    result: { protocolVersion, capabilities: { tools: {}, resources: { subscribe: true }, logging: {} }, serverInfo: { name: "scripted", version: "1" } },
  });
}

export function json(response: ServerResponse, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(200, { "content-type": "application/json", ...headers }).end(text);
}

/** 202 for notifications, 405 for GET, 200 for DELETE: the parts of a session a test does not script. */
export function routine(seen: SeenRequest, response: ServerResponse): boolean {
  if (seen.method === "GET") return void response.writeHead(405).end(), true;
  if (seen.method === "DELETE") return void response.writeHead(200).end(), true;
  if (seen.method === "POST" && seen.body?.id === undefined) return void response.writeHead(202).end(), true;
  return false;
}

export interface LegacyScript {
  /** POSTs that are never answered, not even with 202. */
  stall?: (seen: SeenRequest) => boolean;
  /** Writes its own answer to a request on the stream; returns false to leave it to the default. */
  answer?: (seen: SeenRequest, stream: ServerResponse) => boolean;
}

/**
 * A 2024-11-05 HTTP+SSE server: GET opens the stream with the `endpoint` event; each POST gets 202,
 * and a request's answer goes on the stream (an initialize result, else an empty result).
 */
export function legacyServer(script: LegacyScript = {}): Promise<Scripted> {
  let stream: ServerResponse | undefined;
  return scriptedServer((seen, response) => {
    if (seen.method === "GET") {
      stream = response;
      return void response.writeHead(200, { "content-type": "text/event-stream" }).write("event: endpoint\ndata: /messages\n\n");
    }
    if (script.stall?.(seen)) return;
    response.writeHead(202).end();
    const id = seen.body?.id;
    if (id === undefined || script.answer?.(seen, stream!)) return;
    const answer = seen.rpc === "initialize" ? initializeResult(id, "2024-11-05") : JSON.stringify({ jsonrpc: "2.0", id, result: {} });
    stream!.write(`event: message\ndata: ${answer}\n\n`);
  });
}

export const wait = async (check: () => boolean, ms = 5000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
