// One run of mcp-wire against a server: reach it (a child process on stdio, or a URL), find out its
// era (server/discover, else the initialize handshake), run the command, print its result, stop
// the server. src/cli.ts loads this module only once the command line asks for a server.
// Every line it writes on stderr passes through one Redactor (cli/redact.ts): no token, secret or
// code is ever printed, by --trace or by an error; and everything it prints, stdout too, through
// terminalSafe (cli/output.ts): no control character of a server's drives the terminal.
// A person at a terminal gets more than a script (and a script nothing else): a progress bar on
// a call (cli/progress.ts), the server's questions asked (cli/elicitation.ts), colour (cli/colour.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)

import { performance } from "node:perf_hooks";
import { isatty } from "node:tty";
import { McpClient } from "../client/client.js";
import type { LoggingMessageNotificationParams } from "../mcp/logging.js";
import type { Transport } from "../protocol/transport.js";
import { StdioClientTransport } from "../transports/stdio-client.js";
import type { CliOptions, Command, ServerLocation } from "./arguments.js";
import { colourOn, Palette } from "./colour.js";
import { renderResult, runCommand } from "./commands.js";
import { terminalElicitation } from "./elicitation.js";
import { describeFailure, step, StepFailure } from "./failures.js";
import { ExitCode, print, printError, terminalSafe } from "./output.js";
import { ProgressDisplay } from "./progress.js";
import { Redactor } from "./redact.js";
import { cliHttpTrace, cliTrace, cliTraceNote } from "./trace.js";

/** What a run needs from the command line (CommandLine, the server's variant). */
export interface SessionLine {
  options: CliOptions;
  command: Command;
  server: ServerLocation;
}

/** Runs the command the command line names; resolves to the exit code. */
export async function runSession({ options, command, server }: SessionLine): Promise<number> {
  // A reader that stops early (`mcp-wire tools -- ... | head`) is not our failure.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  const startedAt = performance.now();
  const elapsedMs = (): number => performance.now() - startedAt;
  // Spec (authorization#token-theft): a logged token is a stolen one: every stderr line is redacted.
  const redactor = new Redactor();
  const stderrColour = new Palette(colourOn(process.stderr));
  const progress = new ProgressDisplay(process.stderr, {
    terminal: process.stderr.isTTY === true, paint: (bar) => stderrColour.heading(bar), redact: (text) => redactor.redact(text),
  });
  // Redacted first: a secret cut in two by an escaped character would no longer be found.
  const sayIn = (paint: (text: string) => string) => (line: string): void => {
    progress.clear();
    printError(paint(terminalSafe(redactor.redact(line))));
  };
  const say = sayIn((text) => text);
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
      onProblem: (message) => say(`mcp-wire: ${message}`),
      // Declared whether or not a person is there, so that a server's question is declined with a reason rather than unknown.
      elicitation: terminalElicitation({
        // process.stdin is made when first reached: only a question reaches it.
        get input() { return process.stdin; },
        output: process.stderr,
        terminal: isatty(0) && isatty(2),
        say,
        beforeQuestion: () => progress.clear(),
        palette: stderrColour,
        redact: (text) => redactor.redact(text),
        serverName: (): string | undefined => client.serverInfo?.name,
      }),
    },
  );
  client.on("log", (params: LoggingMessageNotificationParams) => say(formatLog(params)));
  stopOnSignals(client);
  const output: Output = { say, redactor, elapsedMs, closing: [] };

  try {
    const transport = await openTransport(server, options, output);
    await connect(client, options.trace ? cliTrace(transport, say, elapsedMs) : transport);
    if (options.trace) say(cliTraceNote(`era: ${client.era} ${client.protocolVersion}: ${client.eraReason}`, elapsedMs));
    if (options.logLevel) {
      const level = options.logLevel;
      await step("logging/setLevel", () => client.setLoggingLevel(level));
    }
    const outcome = await runCommand(client, command, {}, (report) => progress.report(report)).finally(() => progress.finish());
    const text = renderResult(outcome);
    if (outcome.note) say(`mcp-wire: ${outcome.note}`);
    // Colour after terminalSafe, which would escape its ESC; off unless stdout is a person's terminal.
    await print(new Palette(colourOn(process.stdout)).result(terminalSafe(text)));
    return outcome.exitCode;
  } catch (error) {
    sayIn((text) => stderrColour.error(text))(`mcp-wire: ${describeFailure(error)}${output.hint?.(error) ?? ""}`);
    return ExitCode.failed;
  } finally {
    // Stops the server too (close stdin, SIGTERM, SIGKILL), whatever happened above.
    await client.close();
    for (const close of output.closing) await close();
  }
}

/** How the run writes on stderr, what it must free at its end, and a hint for a failure. */
export interface Output {
  say: (line: string) => void;
  redactor: Redactor;
  elapsedMs: () => number;
  closing: (() => Promise<void>)[];
  hint?: (error: unknown) => string;
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
 * client and the CLI's OAuth parts are loaded only for a URL, so that a stdio run does not pay for them.
 */
export async function openTransport(server: ServerLocation, options: CliOptions, output: Output): Promise<Transport> {
  if ("url" in server) {
    const { HttpClientTransport } = await import("../http/client.js");
    const { authorizationHint, cliAuthorization, countedFetch } = await import("./authorization.js");
    for (const [name, value] of Object.entries(server.headers)) output.redactor.addHeader(name, value);
    const { authorization, close } = cliAuthorization(server.authorization ?? {}, { print: output.say, redactor: output.redactor });
    output.closing.push(close);
    const traced = options.trace ? cliHttpTrace(fetch, output.say, output.elapsedMs, output.redactor) : undefined;
    // Counted, so that a handshake that timed out while signing in can say so.
    const signIn = countedFetch(traced ?? fetch);
    authorization.fetchOptions = { fetch: signIn.fetch };
    output.hint = (error) => authorizationHint(error, signIn.busy());
    return new HttpClientTransport(server.url, { headers: server.headers, fetch: traced, onProblem: (message) => output.say(`mcp-wire: ${message}`), authorization });
  }
  return new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    onStderr: options.quiet ? undefined : (line) => output.say(`[server] ${line}`),
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
