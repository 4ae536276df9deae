// The web-standard adapter of the HTTP handlers: a Fetch API Request becomes the handlers' small
// request view (exchange.ts) and their answer becomes a Response, an event stream a
// ReadableStream. This is how `handle(Request): Promise<Response>` serves any runtime with the
// Fetch API (Deno, Bun, workers); node:http has a path of its own without these objects
// (node-exchange.ts). The rules are the handlers', not this file's.

import { errorAnswer, type HttpAnswer, type HttpRequest } from "./exchange.js";

/** The handlers' view of a web Request. */
export function requestOf(request: Request): HttpRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    query: (name) => url.searchParams.get(name),
    header: (name) => request.headers.get(name),
    body: (limit) => readBody(request, limit),
    onClientGone: (listener) => {
      if (request.signal.aborted) listener();
      else request.signal.addEventListener("abort", listener, { once: true });
    },
  };
}

/** An answer as a Response; a body of known length says so, so a node:http adapter sends it in one write. */
export function responseOf(answer: HttpAnswer): Response {
  if (answer.events) return new Response(answer.events.body, { status: answer.status, headers: answer.headers });
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers: answer.headers });
  const headers = { ...answer.headers, "content-length": String(Buffer.byteLength(answer.body)) };
  return new Response(answer.body, { status: answer.status, headers });
}

/** An HTTP error whose body is a JSON-RPC error without id, as a Response. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}, code = -32000): Response {
  return responseOf(errorAnswer(status, message, headers, code));
}

/** Reads the body, stopping (and cancelling it) as soon as it passes `limit` bytes. */
async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
