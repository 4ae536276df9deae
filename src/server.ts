#!/usr/bin/env node
// The demo server over stdio: what an MCP host runs as `node dist/server.js`.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// stdout carries protocol messages only, so the first import sends console output to stderr.

import "./transports/stdout-guard.js";
import { createDemoServer } from "./demo/server-definition.js";
import { serveStdio } from "./transports/stdio-server.js";

const USAGE = `usage: mcp-wire-server [--page-size N] [--max-message-bytes N]
       mcp-wire-server --http [--port N] [--host H] [--stateless] [--page-size N]
Serves the mcp-wire demo server over stdio (newline-delimited JSON-RPC on stdin/stdout), or with
--http over Streamable HTTP at http://H:N/mcp (default 127.0.0.1:3000), plus the legacy HTTP+SSE
transport at /sse. Set MCP_WIRE_TOKEN to require "Authorization: Bearer <token>" over HTTP; if it
is set, it must not be empty.`;

interface Options {
  pageSize?: number;
  maxMessageBytes?: number;
  http?: { port: number; host: string; stateless: boolean };
}

function parseArguments(argv: string[]): Options {
  const options: Options = {};
  const http = { port: 3000, host: "127.0.0.1", stateless: false, wanted: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--help" || flag === "-h") {
      process.stderr.write(USAGE + "\n");
      process.exit(0);
    }
    if (flag === "--http") http.wanted = true;
    else if (flag === "--stateless") http.stateless = true;
    else if (flag === "--host") http.host = argv[++i] ?? fail("--host needs a value");
    else if (flag === "--port") http.port = wholeNumber(flag, argv[++i], 0, 65535);
    else if (flag === "--page-size") options.pageSize = wholeNumber(flag, argv[++i], 1);
    else if (flag === "--max-message-bytes") options.maxMessageBytes = wholeNumber(flag, argv[++i], 1);
    else fail(`unknown option ${flag}`);
  }
  if (http.wanted) options.http = { port: http.port, host: http.host, stateless: http.stateless };
  return options;
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

async function serveHttp(options: Options, http: NonNullable<Options["http"]>): Promise<void> {
  const token = bearerToken();
  // Loaded only here, so that the stdio server (what hosts start most) does not pay for it.
  const { McpHttpServer } = await import("./http/server.js");
  const server = new McpHttpServer(createDemoServer({ pageSize: options.pageSize }), {
    stateless: http.stateless,
    bearerToken: token,
    onProblem: (message) => process.stderr.write(`mcp-wire-server: ${message}\n`),
  });
  const listening = await server.listen({ port: http.port, host: http.host });
  process.stderr.write(`mcp-wire-server: Streamable HTTP at ${listening.origin}/mcp (legacy HTTP+SSE at ${listening.origin}/sse)\n`);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => void server.close().then(() => listening.close()).then(() => process.exit(0)));
  }
}

const options = parseArguments(process.argv.slice(2));
if (options.http) {
  serveHttp(options, options.http).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
} else {
  serveStdio(createDemoServer({ pageSize: options.pageSize }), { maxMessageBytes: options.maxMessageBytes });
}
