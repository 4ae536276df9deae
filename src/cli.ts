#!/usr/bin/env node
// mcp-wire, the command-line client: start a stdio server (or reach one over HTTP), find out its
// era (server/discover, else the initialize handshake), run one command, print its result as JSON
// on stdout, stop the server. stdout carries results only; all else goes to stderr.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle (and server/* per
// command), https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)
// Reading order: cli/arguments.ts (the command line), cli/commands.ts, cli/failures.ts, cli/trace.ts.

import { performance } from "node:perf_hooks";
import { McpClient } from "./client/client.js";
import type { LoggingMessageNotificationParams } from "./mcp/logging.js";
import type { Transport } from "./protocol/transport.js";
import { HttpClientTransport } from "./http/client.js";
import { StdioClientTransport } from "./transports/stdio-client.js";
import { parseCommandLine, UsageError, USAGE, type CliOptions, type CommandLine, type ServerLocation } from "./cli/arguments.js";
import { renderResult, runCommand } from "./cli/commands.js";
import { describeFailure, ExitCode, step, StepFailure } from "./cli/failures.js";
import { cliTrace, cliTraceNote } from "./cli/trace.js";

const startedAt = performance.now();
const elapsedMs = (): number => performance.now() - startedAt;

async function main(argv: string[]): Promise<number> {
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    printError(`mcp-wire: ${error.message}\n(mcp-wire --help shows the usage)`);
    return ExitCode.usage;
  }
  if (line.help) {
    await print(USAGE);
    return ExitCode.ok;
  }

  const { options, command } = line;
  const timeouts = options.timeoutMs === undefined ? undefined : { idleMs: options.timeoutMs, maxTotalMs: options.timeoutMs };
  const client = new McpClient(
    { name: "mcp-wire", version: "0.1.0" },
    {
      // Passed even though it is the default: the CLI is dual-era whatever McpClient's default is.
      protocolVersion: options.protocolVersion,
      handshakeTimeoutMs: options.handshakeTimeoutMs,
      timeouts,
      // The CLI is for looking at servers: it sends what it is asked to and shows the server's
      // answer, rather than refusing locally because a capability was not declared.
      enforceServerCapabilities: false,
      onProblem: (message) => printError(`mcp-wire: ${message}`),
    },
  );
  client.on("log", (params: LoggingMessageNotificationParams) => printError(formatLog(params)));
  stopOnSignals(client);

  try {
    await connect(client, openTransport(line.server, options));
    if (options.trace) printError(cliTraceNote(`era: ${client.era} ${client.protocolVersion}: ${client.eraReason}`, elapsedMs));
    if (options.logLevel) {
      const level = options.logLevel;
      await step("logging/setLevel", () => client.setLoggingLevel(level));
    }
    const outcome = await runCommand(client, command);
    const text = renderResult(outcome);
    if (outcome.note) printError(`mcp-wire: ${outcome.note}`);
    await print(text);
    return outcome.exitCode;
  } catch (error) {
    printError(`mcp-wire: ${describeFailure(error)}`);
    return ExitCode.failed;
  } finally {
    // Stops the server too (close stdin, SIGTERM, SIGKILL), whatever happened above.
    await client.close();
  }
}

/**
 * connect() probes with server/discover first (unless a handshake version is pinned), then sends
 * initialize if the server is not modern: a failure is named by the step it happened in, which
 * the client's era says (still unknown while the probe runs).
 */
async function connect(client: McpClient, transport: Transport): Promise<void> {
  try {
    await client.connect(transport);
  } catch (error) {
    throw new StepFailure(client.era === undefined ? "server/discover" : "initialize", error);
  }
}

/** The one place that knows how the server is reached: a process on stdio, or a URL. */
function openTransport(server: ServerLocation, options: CliOptions): Transport {
  const transport = "url" in server
    ? new HttpClientTransport(server.url, { headers: server.headers, onProblem: (message) => printError(`mcp-wire: ${message}`) })
    : new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: { ...process.env, ...options.env },
      cwd: options.cwd,
      onStderr: options.quiet ? undefined : (line) => printError(`[server] ${line}`),
    });
  return options.trace ? cliTrace(transport, printError, elapsedMs) : transport;
}

function formatLog({ level, logger, data }: LoggingMessageNotificationParams): string {
  return `[server log ${level}${logger ? ` ${logger}` : ""}] ${typeof data === "string" ? data : JSON.stringify(data)}`;
}

/**
 * The server runs in its own process group, so Ctrl-C reaches only us: close the client (which
 * stops the server) before going, or the server would be left running.
 */
function stopOnSignals(client: McpClient): void {
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    process.once(signal, () => void client.close().finally(() => process.exit(code)));
  }
}

function print(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text + "\n", () => resolve()));
}

function printError(text: string): void {
  process.stderr.write(text + "\n");
}

// A reader that stops early (`mcp-wire tools -- ... | head`) is not our failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Everything is closed by now; should a stray handle still hold the event loop, leave anyway.
    setTimeout(() => process.exit(), 1000).unref();
  },
  (error: unknown) => {
    printError(`mcp-wire: unexpected failure: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(ExitCode.failed);
  },
);
