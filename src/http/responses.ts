// Small pieces of HTTP shared by the server handlers: reading a POST body under a size limit as
// strict UTF-8, the Accept and Content-Type checks, and the defaults both transports (Streamable
// HTTP and legacy HTTP+SSE) share. Whichever adapter brought the request (exchange.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http

import { errorAnswer, type HttpAnswer, type HttpRequest } from "./exchange.js";

/** Decodes strictly: a byte sequence that is not UTF-8 is an error, not a U+FFFD in the message. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The largest POST body either HTTP transport takes by default, in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long a session may be idle by default (what counts as activity differs: see each transport's option). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** How often open SSE streams get a keep-alive comment by default. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;

/**
 * Reads a POST body that should hold JSON text: the text, or the refusal to answer with, a 413
 * past `maxBodyBytes` or a 400 with -32700 for bytes that are not UTF-8.
 */
export function readJsonText(request: HttpRequest, maxBodyBytes: number): Promise<string | HttpAnswer> {
  // The declared length is judged before a byte is read; the adapter counts what actually comes.
  const declared = Number(request.header("content-length"));
  if (Number.isFinite(declared) && declared > maxBodyBytes) return Promise.resolve(tooLarge(maxBodyBytes));
  // One reaction on the body's promise, not an async function around it: one promise and one await fewer per POST.
  return request.body(maxBodyBytes).then((bytes) => (bytes === undefined ? tooLarge(maxBodyBytes) : decodedText(bytes)));
}

function tooLarge(maxBodyBytes: number): HttpAnswer {
  return errorAnswer(413, `payload too large: the limit is ${maxBodyBytes} bytes`);
}

function decodedText(bytes: Uint8Array): string | HttpAnswer {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    // Spec (JSON-RPC 2.0 / RFC 8259): JSON text is UTF-8; a body that is not is unparsable, not repaired.
    return errorAnswer(400, "parse error: the body is not valid UTF-8", {}, -32700);
  }
}

/** The bare media type of a Content-Type value: "Application/JSON; charset=utf-8" -> "application/json". */
export function mediaType(header: string | null): string {
  // What nearly every client sends, answered without the three strings the general case makes.
  if (header === "application/json") return header;
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Whether an Accept header lists a media type (or a wildcard covering it). */
function accepts(accept: string | null, type: string): boolean {
  if (!accept) return false;
  return accept.split(",").some((part) => {
    const media = part.split(";")[0]!.trim().toLowerCase();
    return media === type || media === "*/*" || media === `${type.split("/")[0]}/*`;
  });
}

/** The last Accept value judged, and what wantsBoth made of it: a client sends the same one every time. */
let lastAccept: { value: string | null; both: boolean } = { value: null, both: false };

export function wantsBoth(accept: string | null): boolean {
  if (accept !== lastAccept.value) lastAccept = { value: accept, both: accepts(accept, "application/json") && accepts(accept, "text/event-stream") };
  return lastAccept.both;
}

export function wantsEventStream(accept: string | null): boolean {
  return accepts(accept, "text/event-stream");
}
