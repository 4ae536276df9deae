#!/usr/bin/env node
// mcp-wire, the command-line client: start a stdio server (or reach one over HTTP), find out its
// era (server/discover, else the initialize handshake), run one command, print its result as JSON
// on stdout, stop the server. stdout carries results only; all else goes to stderr.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle (and server/* per
// command), https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)
// Reading order: cli/arguments.ts (the command line), cli/session.ts (one run), cli/commands.ts,
// cli/failures.ts, cli/trace.ts, cli/output.ts, cli/authorization.ts and cli/redact.ts (OAuth);
// cli/vocabulary.ts (the words the command line knows), cli/host-config.ts (--config),
// cli/completion.ts and cli/suggest.ts ("did you mean"); and for a person at a terminal
// cli/progress.ts, cli/elicitation.ts (cli/form-fields.ts) and cli/colour.ts.
// This file loads the command line's parser only: `--help` and usage errors, which scripts and
// people hit often, need nothing else; the session, and with it the client, is loaded after them.

import { parseCommandLine, UsageError, USAGE, type CommandLine } from "./cli/arguments.js";
import { ExitCode, printError, printNow, terminalSafe } from "./cli/output.js";
import type { SessionLine } from "./cli/session.js";
import type { WireToolName } from "./cli/vocabulary.js";

/**
 * The recording tools (record, replay, check, explain, diagram: src/recordings/), which work on recordings of
 * sessions rather than through a client: each is its own module, loaded only when named, with its
 * own command line. `run` returns the exit code.
 */
const WIRE_TOOLS: { [name in WireToolName]: () => Promise<{ run(argv: string[]): Promise<number> }> } = {
  record: () => import("./recordings/record-cli.js"),
  explain: () => import("./recordings/explain.js"),
  diagram: () => import("./recordings/diagram.js"),
  replay: () => import("./recordings/replay-cli.js"),
  check: () => import("./recordings/check-cli.js"),
  // Not a recording tool, but like them it has a command line of its own (and a server it stays connected to).
  inspect: () => import("./cli/inspect.js"),
};

async function main(argv: string[]): Promise<number> {
  const tool = Object.hasOwn(WIRE_TOOLS, argv[0] ?? "") ? WIRE_TOOLS[argv[0] as WireToolName] : undefined;
  if (tool) return (await tool()).run(argv.slice(1));
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    return usageFailure(error);
  }
  if (line.help) {
    printNow(1, USAGE);
    return ExitCode.ok;
  }
  if ("logout" in line) return (await import("./cli/authorization.js")).logout(line.logout);
  if ("completion" in line) {
    printNow(1, (await import("./cli/completion.js")).completionScript(line.completion));
    return ExitCode.ok;
  }
  let session: SessionLine;
  try {
    // The file named by --config is read (and its reader loaded) only when one is named.
    const { server, ...rest } = line;
    session = "config" in server ? (await import("./cli/host-config.js")).sessionFromConfig({ ...rest, server }) : { ...rest, server };
  } catch (error) {
    return usageFailure(error);
  }
  const { runSession } = await import("./cli/session.js");
  return runSession(session);
}

/** A command line (or the --config file it names) that cannot be run: exit 2; anything else is thrown on. */
function usageFailure(error: unknown): number {
  if (!(error instanceof UsageError)) throw error;
  printNow(2, terminalSafe(`mcp-wire: ${error.message}\n(mcp-wire --help shows the usage)`));
  return ExitCode.usage;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Everything is closed by now; should a stray handle still hold the event loop, leave anyway.
    setTimeout(() => process.exit(), 1000).unref();
  },
  (error: unknown) => {
    printError(terminalSafe(`mcp-wire: unexpected failure: ${error instanceof Error ? error.stack : String(error)}`));
    process.exit(ExitCode.failed);
  },
);
