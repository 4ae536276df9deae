// A server of the handshake era, for the walkthrough's step on one (`node dist/walkthrough-handshake-era.js`,
// with the demo's flags): the demo server, but deaf to 2026-07-28. Each line it reads loses the
// envelope (the `io.modelcontextprotocol/` keys of params._meta) before the server sees it, so every
// request is a handshake-era request, as it is to a server written before 2026-07-28: server/discover
// is then an unknown method (-32601, the answer the demo gave before it spoke 2026-07-28; SDK v2's
// probe met it in fixtures/modern/sdk-v2-auto-vs-legacy-server.jsonl), and the client falls back.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)

import "./transports/stdout-guard.js";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { isObject } from "./jsonrpc/messages.js";
import { createDemoServer } from "./demo/server-definition.js";
import { addRootsTool } from "./demo/two-way-tools.js";
import { problemLog } from "./transports/stdio-server.js";
import { StreamTransport } from "./transports/stdio.js";

const ENVELOPE_PREFIX = "io.modelcontextprotocol/";

/** The line as a server of the handshake era reads it: without the envelope; anything else as it came. */
function withoutEnvelope(line: string): string {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return line;
  }
  const params = isObject(message) && isObject(message.params) ? message.params : undefined;
  const meta = params && isObject(params._meta) ? params._meta : undefined;
  if (!meta || !Object.keys(meta).some((key) => key.startsWith(ENVELOPE_PREFIX))) return line;
  const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith(ENVELOPE_PREFIX)));
  const { _meta: _, ...rest } = params!;
  return JSON.stringify({ ...(message as object), params: Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : rest });
}

/** The demo's flags the walkthrough gives its servers: --page-size N, --notes FILE, --roots-tool. */
function demoFromArguments(argv: string[]): ReturnType<typeof createDemoServer> {
  const at = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const pageSize = at("--page-size");
  const server = createDemoServer({ pageSize: pageSize === undefined ? undefined : Number(pageSize), notesPath: at("--notes") });
  if (argv.includes("--roots-tool")) addRootsTool(server);
  return server;
}

const input = new PassThrough();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => input.write(`${withoutEnvelope(line)}\n`));
lines.on("close", () => input.end());
const session = demoFromArguments(process.argv.slice(2)).connect(new StreamTransport(input, process.stdout), { onProblem: problemLog(process.stderr, "mcp-wire-server") });
// As serveStdio does: once stdin ended and every answer went out, exit.
session.onClose(() => process.stdout.end(() => process.exit(0)));
