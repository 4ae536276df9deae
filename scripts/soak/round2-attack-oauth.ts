// Soak cases for hostile OAuth documents end to end (issue 19, the attack on what round 2 did not
// reach): the CLI's discovery (protected resource metadata, authorization server metadata, the
// registration answer) and the demo server's --auth-issuer (the issuer's metadata and JWK Set),
// against loopback servers that send a multi-GB document, trickle a byte a second, redirect without
// end or to another origin or scheme, or send valid JSON nested 100,000 deep or with 135 KB strings.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices
// (server-supplied URLs are untrusted) and basic/authorization#authorization-server-discovery.

import type { IncomingMessage, ServerResponse } from "node:http";
import { judge, MIB, mib, RSS_BOUND, sleep, type CaseContext, type SoakCase } from "./harness.js";
import { cliChecks, evilServer } from "./client-cases.js";
import { describe, initialize, within } from "./wire.js";

/** How one hostile document misbehaves; `sent` counts the body bytes it wrote, `ms` when it was cut off. */
type Misbehaviour = (request: IncomingMessage, response: ServerResponse, origin: string, good: unknown, record: (bytes: number) => void) => void;

/** A body of `x` after `prefix` for as long as the client reads, up to 4 GiB: a multi-GB document. */
const huge: Misbehaviour = (_request, response, _origin, _good, record) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.write('{"issuer":"');
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  const pump = () => {
    while (sent < 4 * 1024 * MIB && !response.destroyed) {
      sent += chunk.length;
      if (!response.write(chunk)) return void response.once("drain", pump);
    }
  };
  response.on("close", () => record(sent));
  pump();
};

/** A space a second, forever: a document that never finishes. */
const trickle: Misbehaviour = (_request, response, _origin, _good, record) => {
  response.writeHead(200, { "content-type": "application/json" });
  let sent = 0;
  const timer = setInterval(() => response.write(" ", () => sent++), 1000);
  response.on("close", () => (clearInterval(timer), record(sent)));
};

const redirect = (to: (request: IncomingMessage, origin: string) => string): Misbehaviour => (request, response, origin) =>
  void response.writeHead(302, { location: to(request, origin) }).end();

const VARIANTS: Record<string, Misbehaviour> = {
  "a multi-GB document": huge,
  "a byte a second": trickle,
  "endless redirects": redirect((request) => `${request.url!.split("?")[0]}?n=${Number(new URL(request.url!, "http://x").searchParams.get("n") ?? 0) + 1}`),
  "a redirect to another origin": redirect((request, origin) => `${origin.replace("127.0.0.1", "localhost")}${request.url}`),
  "a redirect to a file: URL": redirect(() => "file:///etc/passwd"),
  "JSON nested 100,000 deep": (_request, response, _origin, good) => {
    const text = JSON.stringify(good);
    response.writeHead(200, { "content-type": "application/json" }).end(`${text.slice(0, -1)},"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
  },
  // One string of 135 KB as JSON (15,000 escape sequences), under the 256 KiB limit, at a loopback
  // URL: the PRM's authorization server, the metadata's issuer (not the one asked for), a client_id.
  "135 KB strings of escapes": (request, response, origin, good) => {
    const big = `${origin}/${"\u001b[2J".repeat(15_000)}`;
    const field = request.url!.startsWith("/prm") ? { authorization_servers: [big] } : request.url!.startsWith("/register") ? { client_id: big } : { issuer: big };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...(good as object), ...field }));
  },
};

/** The documents an honest MCP server and authorization server at `origin` publish. */
function honest(origin: string) {
  return {
    prm: { resource: `${origin}/mcp`, authorization_servers: [origin] },
    metadata: { issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, registration_endpoint: `${origin}/register`, jwks_uri: `${origin}/jwks`, code_challenge_methods_supported: ["S256"] },
  };
}

/** What the hostile server did with the hostile document: how many times it was asked, bytes sent, and when it was cut off. */
interface Served {
  asked: number;
  cutAt?: { bytes: number; ms: number };
}

/**
 * A loopback site whose document at `target` misbehaves as `how`; everything else is honest. Its
 * MCP endpoint answers 401 naming its protected resource metadata.
 */
async function hostileSite(context: CaseContext, target: "prm" | "metadata" | "register" | "jwks", how: Misbehaviour): Promise<{ origin: string; served: Served }> {
  const served: Served = { asked: 0 };
  let origin = "";
  let askedAt = 0;
  const paths = { prm: "/prm", metadata: "/.well-known/oauth-authorization-server", register: "/register", jwks: "/jwks" };
  origin = await evilServer(context, (request, _body, response) => {
    const path = request.url!.split("?")[0]!;
    const documents = honest(origin);
    if (path === paths[target]) {
      served.asked++;
      askedAt ||= Date.now();
      return how(request, response, origin, target === "prm" ? documents.prm : documents.metadata, (bytes) => (served.cutAt ??= { bytes, ms: Date.now() - askedAt }));
    }
    if (path === "/mcp") {
      return void response.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/prm"`, "content-type": "application/json" })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"authorization required"}}');
    }
    const document = path === paths.prm ? documents.prm : path === paths.metadata ? documents.metadata : undefined;
    if (document === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(document));
  });
  return { origin, served };
}

function cutOff(served: Served): string {
  if (!served.cutAt) return "";
  const { bytes, ms } = served.cutAt;
  // What the hostile server had written when the reader hung up: the reader took less (the socket buffers hold the rest).
  return `, cut off after ${bytes < MIB ? `${bytes} bytes` : `${mib(bytes)} written`} at ${(ms / 1000).toFixed(1)} s`;
}

/** The longest error line a person should have to read. */
const READABLE = 2000;
/** Each document has 10 s (fetch-json's DEFAULT_DOCUMENT_TIMEOUT_MS); the CLI may take a little longer to start and stop. */
const CLI_LIMIT_MS = 15_000;

export const hostileMetadataCase: SoakCase = {
  name: "hostile-metadata",
  title: "the CLI's OAuth discovery (--url, a 401) against PRM, authorization server metadata and registration answers that are huge, trickle, redirect, nest or carry 135 KB strings",
  bound: `each run ends by itself within ${CLI_LIMIT_MS / 1000} s (time-outs raised to 60 s) with exit 1 and one error line under ${READABLE} characters; at most 256 KiB read, 3 redirects followed, none to another origin or scheme; CLI peak RSS < ${mib(RSS_BOUND)}`,
  limitMs: 120_000,
  async run(context) {
    const targets = ["prm", "metadata", "register"] as const;
    const runs = targets.flatMap((target) => Object.entries(VARIANTS).map(([name, how]) => ({ target, name, how })));
    const results = await Promise.all(runs.map(async ({ target, name, how }): Promise<[boolean, string][]> => {
      const site = await hostileSite(context, target, how);
      const run = await context.cli(["--no-store", "--no-browser", "--auth-timeout", "1", "--protocol-version", "2025-11-25", "--handshake-timeout", "60000", "--timeout", "60000", "--url", `${site.origin}/mcp`, "tools"], CLI_LIMIT_MS + 5000);
      const label = `${target}, ${name}`;
      // The error lines; the authorization URL the CLI prints for the person is whole by design (a
      // registration's 135 KB client_id makes it that long: left to the registration's own bounds).
      const lines = run.cli.stderrText.split("\n");
      const longest = Math.max(0, ...lines.filter((line) => line.startsWith("mcp-wire:")).map((line) => line.length));
      const url = Math.max(0, ...lines.filter((line) => !line.startsWith("mcp-wire:")).map((line) => line.length));
      const redirects = name === "endless redirects" ? site.served.asked : 0;
      return [
        ...cliChecks(run, CLI_LIMIT_MS, label),
        [longest < READABLE, `${label}: longest error line ${longest} characters${url >= READABLE ? ` (another line, ${url} characters)` : ""}${cutOff(site.served)}`],
        [redirects <= 4, `${label}: asked ${site.served.asked} time(s)`],
        [run.cli.peakRss < RSS_BOUND && !run.cli.killedForMemory, `${label}: CLI peak RSS ${mib(run.cli.peakRss)}`],
      ];
    }));
    // Many lines: the verdict keeps every failure, and of what held, one line per variant with its figures.
    const checks = results.flat();
    const failed = checks.filter(([ok]) => !ok);
    if (failed.length > 0) return judge(failed);
    return { held: true, detail: `${runs.length} runs held; ${checks.filter(([, text]) => /cut off|another line/.test(text)).map(([, text]) => text).join("; ")}` };
  },
};

/** A JWT-shaped token with a key id: what makes a resource server fetch the issuer's keys. */
function forgedToken(issuer: string, audience: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", kid: "soak-key", typ: "at+jwt" })}.${part({ iss: issuer, sub: "soak", aud: audience, exp: Math.floor(Date.now() / 1000) + 600 })}.${"A".repeat(342)}`;
}

/** What a request with `token` gets: "HTTP <status>", and how long it took. */
async function tokenRequest(url: string, token: string | undefined, signal: AbortSignal): Promise<{ status: string; ms: number }> {
  const started = Date.now();
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(initialize()),
      signal: within(signal, 30_000),
    });
    await response.body?.cancel();
    return { status: `HTTP ${response.status}`, ms: Date.now() - started };
  } catch (error) {
    return { status: `failed: ${describe(error).slice(0, 60)}`, ms: Date.now() - started };
  }
}

/** A document of the issuer's takes at most 10 s (fetch-json); up to three metadata URLs and the JWK Set may be asked in turn. */
const ISSUER_WAIT_MS = 15_000;

export const hostileIssuerCase: SoakCase = {
  name: "hostile-issuer",
  title: "the demo server with --auth-issuer naming a hostile issuer: its metadata or JWK Set is huge, trickles, redirects, nests or carries 135 KB strings; 40 forged JWTs each",
  bound: `every request answered (503 with Retry-After, as the issuer cannot be had) within ${ISSUER_WAIT_MS / 1000} s; the failure logged a few times, not per request (stderr < 64 KiB); a request without a token still gets 401 at once; server up, peak RSS < ${mib(RSS_BOUND)}`,
  limitMs: 120_000,
  async run(context) {
    const runs = (["metadata", "jwks"] as const).flatMap((target) => Object.entries(VARIANTS).map(([name, how]) => ({ target, name, how })));
    const results = await Promise.all(runs.map(async ({ target, name, how }): Promise<[boolean, string][]> => {
      const site = await hostileSite(context, target, how);
      const label = `${target}, ${name}`;
      const started = await context.tryHttpServer(["--auth-issuer", site.origin]);
      if ("failed" in started) return [[false, `${label}: server did not start: ${started.failed}`]];
      const token = forgedToken(site.origin, started.url);
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => sleep(i * 50, context.signal).then(() => tokenRequest(started.url, token, context.signal))));
      const statuses = new Map<string, number>();
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const slowest = Math.max(...answers.map((answer) => answer.ms));
      const bare = await tokenRequest(started.url, undefined, context.signal);
      context.sampleAll();
      const up = started.server.alive;
      const logged = started.server.stderrSeen;
      return [
        [[...statuses.keys()].every((status) => status === "HTTP 503" || status === "HTTP 401") && slowest <= ISSUER_WAIT_MS, `${label}: ${[...statuses].map(([status, n]) => `${n} x ${status}`).join(", ")}, the slowest in ${(slowest / 1000).toFixed(1)} s${cutOff(site.served)}`],
        [bare.status === "HTTP 401", `${label}: no token: ${bare.status}`],
        [logged < 64 * 1024, `${label}: stderr ${logged} bytes`],
        [up && started.server.peakRss < RSS_BOUND, `${label}: ${up ? "server up" : started.server.describeEnd()}, peak RSS ${mib(started.server.peakRss)}`],
      ];
    }));
    const checks = results.flat();
    const failed = checks.filter(([ok]) => !ok);
    if (failed.length > 0) return judge(failed);
    return { held: true, detail: `${runs.length} issuers held; ${checks.filter(([, text]) => /slowest/.test(text)).map(([, text]) => text).join("; ")}` };
  },
};
