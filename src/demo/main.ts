#!/usr/bin/env node
// The demo program: its flags, then the demo server over stdio (or --http). Hosts run it as
// `node dist/server.js`, the one-file bundle scripts/bundle.ts makes from this module's output.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// stdout carries protocol messages only, so the first import sends console output to stderr.

import "../transports/stdout-guard.js";
import { createDemoServer } from "./server-definition.js";
import { addRootsTool } from "./two-way-tools.js";
import { serveStdio } from "../transports/stdio-server.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../jsonrpc/framing.js";
import { isSecureUrl } from "../auth/metadata.js";
import { DEFAULT_MAX_REMEMBERED_USES } from "../server/modern/request-state.js";
import { readRequestStateKey, REQUEST_STATE_KEY_VARIABLE } from "../fleet/request-state-key.js";

const USAGE = `usage: mcp-wire-server [--page-size N] [--max-message-bytes N] [--max-remembered-states N] [--notes FILE] [--roots-tool]
       mcp-wire-server --http [--port N] [--host H] [--allowed-host H]... [--allowed-origin O]...
                       [--session-per-post] [--page-size N] [--max-remembered-states N] [--http-adapter node|web]
                       [--instance NAME] [--request-state-key-file FILE]
                       [--auth-issuer URL [--auth-resource URL] [--auth-scopes "a b"]]
Serves the mcp-wire demo server over stdio (newline-delimited JSON-RPC on stdin/stdout), or with
--http over Streamable HTTP at http://H:N/mcp (default 127.0.0.1:3000), plus the legacy HTTP+SSE
transport at /sse. Requests must name a loopback Host (localhost, 127.0.0.1, [::1]) or one given
with --allowed-host (a name, or name:port); a browser page's Origin must be a loopback one, or,
once --allowed-origin is given, one of those. --http-adapter web serves through the web-standard
Request/Response path instead of node:http's own (the default; same answers). --session-per-post (once
--stateless) issues no MCP-Session-Id: each handshake-era POST gets a session of its own, answered with JSON
(GET is 405, no /sse), for load-balanced deployments. Set MCP_WIRE_TOKEN to require
"Authorization: Bearer <token>" over HTTP; if it is set, it must not be empty.
--auth-issuer makes the server an OAuth resource server: every MCP request needs an access token (a
JWT) issued by that authorization server (https, or http on this machine) for this server's URL (--auth-resource, default the MCP
endpoint's own URL) carrying every scope of --auth-scopes; the metadata that says so is served at
/.well-known/oauth-protected-resource and /.well-known/oauth-protected-resource/mcp.
--max-message-bytes bounds one stdio message (default ${DEFAULT_MAX_MESSAGE_BYTES}: 64 MiB of content, such as a text
argument, plus 1 MiB for the message around it).
--max-remembered-states bounds how many used 2026-07-28 requestStates are remembered to refuse their
replay (default ${DEFAULT_MAX_REMEMBERED_USES}); when all are unexpired, the next retry is refused (-32603) until one expires.
--request-state-key-file reads the key that seals 2026-07-28 requestStates from FILE (or set
${REQUEST_STATE_KEY_VARIABLE}; never on the command line, where others can read it): at least 32 bytes,
the same for every process behind one load balancer, so that a retry may land on any. --instance NAME
(with --http) starts every MCP-Session-Id with NAME and a dot, for a balancer to route each session to its process.
--notes serves FILE as the protocol notes (default: the package's PROTOCOL_NOTES.md), and watches it
for edits, which subscribers hear of. --roots-tool adds the tool list_roots, which asks the client
for its roots (roots/list); the walkthrough (npm start) uses both.`;

interface HttpFlags {
  port: number;
  host: string;
  /** StreamableHttpOptions.sessionPerPost. */
  sessionPerPost: boolean;
  /** How node:http reaches the handlers (McpHttpServer.listen's `adapter`). */
  adapter: "node" | "web";
  /** Host values accepted besides the loopback names. */
  allowedHosts: string[];
  /** Origin values accepted instead of loopback origins, if any are given. */
  allowedOrigins: string[];
  /** StreamableHttpOptions.instance: the start of every session id. */
  instance?: string;
  /** The OAuth resource server's settings, if --auth-issuer is given. */
  auth?: { issuer: string; resource?: string; scopes: string[] };
}

interface Options {
  pageSize?: number;
  maxMessageBytes?: number;
  /** RequestStateOptions.maxRememberedUses. */
  maxRememberedStates?: number;
  /** RequestStateOptions.key, from --request-state-key-file or the environment. */
  requestStateKey?: Uint8Array;
  /** The notes file served and watched instead of the package's PROTOCOL_NOTES.md. */
  notesPath?: string;
  rootsTool?: boolean;
  http?: HttpFlags;
}

function parseArguments(argv: string[]): Options {
  const options: Options = {};
  const http: HttpFlags & { wanted: boolean } = { port: 3000, host: "127.0.0.1", sessionPerPost: false, adapter: "node", allowedHosts: [], allowedOrigins: [], wanted: false };
  const auth: { issuer?: string; resource?: string; scopes?: string[] } = {};
  let keyFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--help" || flag === "-h") {
      process.stderr.write(USAGE + "\n");
      process.exit(0);
    }
    if (flag === "--http") http.wanted = true;
    // --stateless is the old name, kept for the scripts that use it.
    else if (flag === "--session-per-post" || flag === "--stateless") http.sessionPerPost = true;
    else if (flag === "--http-adapter") http.adapter = adapterValue(argv[++i]);
    else if (flag === "--host") http.host = argv[++i] ?? fail("--host needs a value");
    else if (flag === "--port") http.port = wholeNumber(flag, argv[++i], 0, 65535);
    else if (flag === "--allowed-host") http.allowedHosts.push(hostValue(argv[++i]));
    else if (flag === "--allowed-origin") http.allowedOrigins.push(originValue(argv[++i]));
    else if (flag === "--auth-issuer") auth.issuer = issuerValue(argv[++i]);
    else if (flag === "--auth-resource") auth.resource = urlValue(flag, argv[++i]);
    else if (flag === "--auth-scopes") auth.scopes = scopesValue(argv[++i]);
    else if (flag === "--page-size") options.pageSize = wholeNumber(flag, argv[++i], 1);
    else if (flag === "--max-message-bytes") options.maxMessageBytes = wholeNumber(flag, argv[++i], 1);
    else if (flag === "--max-remembered-states") options.maxRememberedStates = wholeNumber(flag, argv[++i], 1);
    else if (flag === "--instance") http.instance = instanceValue(argv[++i]);
    else if (flag === "--request-state-key-file") keyFile = argv[++i] ?? fail("--request-state-key-file needs a file");
    else if (flag === "--request-state-key") fail(`--request-state-key is not taken: a key on the command line is readable by every user of the machine; use --request-state-key-file FILE or ${REQUEST_STATE_KEY_VARIABLE}`);
    else if (flag === "--notes") options.notesPath = argv[++i] ?? fail("--notes needs a file");
    else if (flag === "--roots-tool") options.rootsTool = true;
    else fail(`unknown option ${flag}`);
  }
  options.requestStateKey = requestStateKey(keyFile);
  if (http.instance !== undefined && !http.wanted) fail("--instance needs --http (it names the process in session ids)");
  if (auth.issuer === undefined && (auth.resource !== undefined || auth.scopes !== undefined)) fail("--auth-resource and --auth-scopes need --auth-issuer");
  if (auth.issuer !== undefined) {
    if (!http.wanted) fail("--auth-issuer needs --http (stdio takes its credentials from the environment)");
    http.auth = { issuer: auth.issuer, resource: auth.resource, scopes: auth.scopes ?? [] };
  }
  if (http.wanted) {
    const { wanted: _, ...flags } = http;
    options.http = flags;
  } else if (http.allowedHosts.length > 0 || http.allowedOrigins.length > 0) fail("--allowed-host and --allowed-origin need --http");
  else if (argv.includes("--http-adapter")) fail("--http-adapter needs --http");
  return options;
}

/** A Host value as clients send it: a name or address, with an optional port; no scheme, no path. */
function hostValue(text: string | undefined): string {
  if (!text || !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(text)) fail(`--allowed-host needs a host name or address with an optional port (e.g. mcp.example.com or 192.168.1.10:3000), got ${JSON.stringify(text ?? "")}`);
  return text.toLowerCase();
}

/** An Origin value exactly as a browser sends it: scheme, host and port, nothing else. */
function originValue(text: string | undefined): string {
  let origin: string | undefined;
  try {
    origin = new URL(text ?? "").origin;
  } catch {
    // Reported below.
  }
  if (!text || origin !== text || !/^https?:/.test(origin)) fail(`--allowed-origin needs an origin such as https://app.example.com (scheme, host and optional port only), got ${JSON.stringify(text ?? "")}`);
  return text;
}

/** An absolute http(s) URL without a fragment, spaces or control characters: an issuer identifier or a resource URL. */
function urlValue(flag: string, text: string | undefined): string {
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(text ?? "").protocol) && !/[#\x00-\x20\x7f]/.test(text ?? "");
  } catch {
    // Reported below.
  }
  if (!ok) fail(`${flag} needs an http(s) URL without a fragment, spaces or control characters, got ${JSON.stringify(text ?? "")}`);
  return text!;
}

/** Spec (authorization#communication-security): the issuer's metadata and keys come over https, or from this machine. */
function issuerValue(text: string | undefined): string {
  const issuer = urlValue("--auth-issuer", text);
  if (!isSecureUrl(issuer)) fail(`--auth-issuer needs an https URL (plain http only to this machine: localhost, 127.0.0.1, [::1]), got ${JSON.stringify(issuer)}`);
  return issuer;
}

/** Space-separated scope names (RFC 6749 section 3.3: visible ASCII but the double quote and backslash). */
function scopesValue(text: string | undefined): string[] {
  const scopes = (text ?? "").split(" ").filter((scope) => scope !== "");
  if (scopes.length === 0 || !scopes.every((scope) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))) fail(`--auth-scopes needs scope names separated by spaces, got ${JSON.stringify(text ?? "")}`);
  return scopes;
}

function instanceValue(text: string | undefined): string {
  if (!text || !/^[A-Za-z0-9_-]{1,64}$/.test(text)) fail(`--instance needs a name of 1-64 characters of A-Z a-z 0-9 _ -, got ${JSON.stringify(text ?? "")}`);
  return text;
}

function requestStateKey(file: string | undefined): Uint8Array | undefined {
  try {
    return readRequestStateKey({ file });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

function adapterValue(text: string | undefined): "node" | "web" {
  if (text !== "node" && text !== "web") fail(`--http-adapter needs node or web, got ${JSON.stringify(text ?? "")}`);
  return text;
}

function wholeNumber(flag: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) fail(`${flag} needs a ${min > 0 ? "positive " : ""}whole number${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ""}`);
  return value;
}

function fail(message: string): never {
  process.stderr.write(`mcp-wire-server: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/**
 * The bearer token, if MCP_WIRE_TOKEN is set. Set but empty is a mistake (say, a failed
 * `$(openssl rand -hex 32)`), never a request to serve without authentication: fail closed.
 */
function bearerToken(): string | undefined {
  const token = process.env.MCP_WIRE_TOKEN;
  if (token !== undefined && token.trim() === "") {
    fail("MCP_WIRE_TOKEN is set but empty; set it to a random token (e.g. openssl rand -hex 32), or unset it to serve without authentication");
  }
  return token;
}

async function serveHttp(options: Options, http: HttpFlags): Promise<void> {
  const token = bearerToken();
  if (token !== undefined && http.auth) fail("MCP_WIRE_TOKEN and --auth-issuer exclude each other; choose one");
  // Loaded only here, so that the stdio server (what hosts start most) does not pay for it.
  const { McpHttpServer } = await import("../http/server.js");
  const { LOOPBACK_NAMES } = await import("../http/security.js");
  // Listed hosts replace the default in McpHttpServer; here they add to it, as the usage says.
  const allowedHosts = [...LOOPBACK_NAMES, ...http.allowedHosts];
  const server = new McpHttpServer(demoServer(options), {
    sessionPerPost: http.sessionPerPost,
    instance: http.instance,
    bearerToken: token,
    allowedHosts,
    allowedOrigins: http.allowedOrigins.length > 0 ? http.allowedOrigins : undefined,
    authorization: http.auth,
    onProblem: (message) => process.stderr.write(`mcp-wire-server: ${message}\n`),
  });
  const listening = await server.listen({ port: http.port, host: http.host, adapter: http.adapter });
  const port = new URL(listening.origin).port;
  const banner = [http.sessionPerPost ? `Streamable HTTP at ${listening.origin}/mcp, a session per POST (no MCP-Session-Id, no legacy HTTP+SSE)` : `Streamable HTTP at ${listening.origin}/mcp (legacy HTTP+SSE at ${listening.origin}/sse)`];
  if (http.host === "0.0.0.0" || http.host === "::") {
    banner.push(`listening on all interfaces (${http.host}) port ${port}; requests must name an allowed Host:`);
    banner.push(`  ${LOOPBACK_NAMES.join(", ")} (any port)${http.allowedHosts.length > 0 ? `, ${http.allowedHosts.join(", ")}` : "; add others with --allowed-host NAME"}`);
  } else if (http.allowedHosts.length > 0) {
    banner.push(`Host values allowed besides the loopback names: ${http.allowedHosts.join(", ")}`);
  }
  if (http.allowedOrigins.length > 0) banner.push(`Origin values allowed: ${http.allowedOrigins.join(", ")}`);
  const resourceServer = server.streamable.resourceServer;
  if (resourceServer) banner.push(`an OAuth resource server for ${resourceServer.resource}, tokens from ${http.auth!.issuer}; metadata at ${resourceServer.metadataUrl}`);
  for (const line of banner) process.stderr.write(`mcp-wire-server: ${line}\n`);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => void server.close().then(() => listening.close()).then(() => process.exit(0)));
  }
}

function demoServer(options: Options): ReturnType<typeof createDemoServer> {
  const server = createDemoServer({ pageSize: options.pageSize, requestState: { maxRememberedUses: options.maxRememberedStates, key: options.requestStateKey }, notesPath: options.notesPath });
  if (options.rootsTool) addRootsTool(server);
  return server;
}

const options = parseArguments(process.argv.slice(2));
if (options.http) {
  serveHttp(options, options.http).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
} else {
  serveStdio(demoServer(options), { maxMessageBytes: options.maxMessageBytes, programName: "mcp-wire-server" });
}
