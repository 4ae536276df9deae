// A token endpoint (or an IdP's) on loopback for the grant tests: it records each request's form
// and headers, and answers with whatever the test's handler returns. Not a real authorization
// server (test/helpers/auth-server.ts is): the tests check what the grant sends.

import { createServer, type IncomingHttpHeaders } from "node:http";

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

export interface StubAnswer {
  status?: number;
  json: unknown;
}

export interface TokenEndpointStub {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Serves on 127.0.0.1 until closed; bodies over 64 KiB are refused (the tests send small forms). */
export async function tokenEndpointStub(answer: (request: RecordedRequest) => StubAnswer | Promise<StubAnswer>): Promise<TokenEndpointStub> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) {
      body += chunk;
      if (body.length > 65_536) return void res.writeHead(413).end();
    }
    const recorded = { path: req.url ?? "", headers: req.headers, form: new URLSearchParams(body) };
    requests.push(recorded);
    const { status = 200, json } = await answer(recorded);
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("token endpoint stub: no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The Basic credentials of a request, decoded as RFC 6749 section 2.3.1 encodes them. */
export function basicCredentials(request: RecordedRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  if (header === undefined || !header.startsWith("Basic ")) return undefined;
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const unform = (value: string) => decodeURIComponent(value.replace(/\+/g, " "));
  return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
}

/** A JWT's three parts: header and claims parsed, the signed input and the signature as bytes. */
export function decodeJwt(jwt: string): { header: Record<string, unknown>; claims: Record<string, unknown>; input: Buffer; signature: Buffer } {
  const [header = "", claims = "", signature = ""] = jwt.split(".");
  return {
    header: JSON.parse(Buffer.from(header, "base64url").toString("utf8")),
    claims: JSON.parse(Buffer.from(claims, "base64url").toString("utf8")),
    input: Buffer.from(`${header}.${claims}`),
    signature: Buffer.from(signature, "base64url"),
  };
}
