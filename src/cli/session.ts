// One run of mcp-wire against a server: reach it (a child process on stdio, or a URL), find out its
// era (server/discover, else the initialize handshake), run the command, print its result, stop
// the server. src/cli.ts loads this module only once the command line asks for a server.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)

import { performance } from "node:perf_hooks";
import { McpClient } from "../client/client.js";
import type { LoggingMessageNotificationParams } from "../mcp/logging.js";
import type { Transport } from "../protocol/transport.js";
import { StdioClientTransport } from "../transports/stdio-client.js";
import type { CliOptions, CommandLine, ServerLocation } from "./arguments.js";
import { renderResult, runCommand } from "./commands.js";
import { describeFailure, step, StepFailure } from "./failures.js";
import { ExitCode, print, printError } from "./output.js";
import { cliTrace, cliTraceNote } from "./trace.js";

/** Runs the command the command line names; resolves to the exit code. */
export async function runSession({ options, command, server }: Extract<CommandLine, { help: false }>): Promise<number> {
  // A reader that stops early (`mcp-wire tools -- ... | head`) is not our failure.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  const startedAt = performance.now();
  const elapsedMs = (): number => performance.now() - startedAt;
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
    const transport = await openTransport(server, options);
    await connect(client, options.trace ? cliTrace(transport, printError, elapsedMs) : transport);
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

/**
 * The one place that knows how the server is reached: a process on stdio, or a URL. The HTTP
 * client is loaded only for a URL, so that a stdio run does not pay for it.
 */
async function openTransport(server: ServerLocation, options: CliOptions): Promise<Transport> {
  if ("url" in server) {
    const { HttpClientTransport } = await import("../http/client.js");
    return new HttpClientTransport(server.url, { headers: server.headers, onProblem: (message) => printError(`mcp-wire: ${message}`) });
  }
  return new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    onStderr: options.quiet ? undefined : (line) => printError(`[server] ${line}`),
  });
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
