#!/usr/bin/env node
// The demo server over stdio: what an MCP host runs as `node dist/server.js`.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
// stdout carries protocol messages only, so the first import sends console output to stderr.

import "./transports/stdout-guard.js";
import { createDemoServer } from "./demo/server-definition.js";
import { serveStdio } from "./transports/stdio-server.js";

const USAGE = `usage: mcp-wire-server [--page-size N] [--max-message-bytes N]
Serves the mcp-wire demo server over stdio (newline-delimited JSON-RPC on stdin/stdout).`;

function parseArguments(argv: string[]): { pageSize?: number; maxMessageBytes?: number } {
  const options: { pageSize?: number; maxMessageBytes?: number } = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--help" || flag === "-h") {
      process.stderr.write(USAGE + "\n");
      process.exit(0);
    }
    const value = Number(argv[++i]);
    if (!Number.isSafeInteger(value) || value < 1) fail(`${flag} needs a positive whole number`);
    if (flag === "--page-size") options.pageSize = value;
    else if (flag === "--max-message-bytes") options.maxMessageBytes = value;
    else fail(`unknown option ${flag}`);
  }
  return options;
}

function fail(message: string): never {
  process.stderr.write(`mcp-wire-server: ${message}\n${USAGE}\n`);
  process.exit(2);
}

const options = parseArguments(process.argv.slice(2));
serveStdio(createDemoServer({ pageSize: options.pageSize }), { maxMessageBytes: options.maxMessageBytes });
