// Small pieces of HTTP shared by the server handlers: error responses that carry a JSON-RPC error
// object, JSON bodies, reading a POST body under a size limit as strict UTF-8, the Accept checks,
// and the defaults both transports (Streamable HTTP and legacy HTTP+SSE) share.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// (HTTP errors MAY carry a JSON-RPC error without an id).

/** An HTTP error whose body is a JSON-RPC error response without id, so clients can read why. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}, code = -32000): Response {
  return jsonResponse(status, { jsonrpc: "2.0", error: { code, message } }, headers);
}

/** A JSON body; its length is given, so the node:http adapter can send it in one write. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  return new Response(text, { status, headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers } });
}

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
export async function readJsonText(request: Request, maxBodyBytes: number): Promise<string | Response> {
  const body = await readBody(request, maxBodyBytes);
  if (body.tooLarge) return errorResponse(413, `payload too large: the limit is ${maxBodyBytes} bytes`);
  // Spec (JSON-RPC 2.0 / RFC 8259): JSON text is UTF-8; a body that is not is unparsable, not repaired.
  if (body.invalidUtf8) return errorResponse(400, "parse error: the body is not valid UTF-8", {}, -32700);
  return body.text;
}

/**
 * Reads the body as UTF-8 text, stopping as soon as it passes `limit` bytes. A body that is not
 * valid UTF-8 comes back as `invalidUtf8` with no text.
 */
async function readBody(request: Request, limit: number): Promise<{ text: string; tooLarge: boolean; invalidUtf8?: boolean }> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return { text: "", tooLarge: true };
  if (!request.body) return { text: "", tooLarge: false };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return { text: "", tooLarge: true };
    }
    chunks.push(value);
  }
  try {
    return { text: strictUtf8.decode(Buffer.concat(chunks)), tooLarge: false };
  } catch {
    return { text: "", tooLarge: false, invalidUtf8: true };
  }
}

/** The bare media type of a Content-Type value: "Application/JSON; charset=utf-8" -> "application/json". */
export function mediaType(header: string | null): string {
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

export function wantsBoth(accept: string | null): boolean {
  return accepts(accept, "application/json") && accepts(accept, "text/event-stream");
}

export function wantsEventStream(accept: string | null): boolean {
  return accepts(accept, "text/event-stream");
}
