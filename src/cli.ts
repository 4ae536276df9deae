#!/usr/bin/env node
// mcp-wire, the command-line client: start a stdio server (or reach one over HTTP), find out its
// era (server/discover, else the initialize handshake), run one command, print its result as JSON
// on stdout, stop the server. stdout carries results only; all else goes to stderr.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle (and server/* per
// command), https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)
// Reading order: cli/arguments.ts (the command line), cli/session.ts (one run), cli/commands.ts,
// cli/failures.ts, cli/trace.ts, cli/output.ts, cli/authorization.ts and cli/redact.ts (OAuth), and for a
// person at a terminal cli/progress.ts, cli/elicitation.ts (cli/form-fields.ts) and cli/colour.ts.
// This file loads the command line's parser only: `--help` and usage errors, which scripts and
// people hit often, need nothing else; the session, and with it the client, is loaded after them.

import { parseCommandLine, UsageError, USAGE, type CommandLine } from "./cli/arguments.js";
import { ExitCode, printError, printNow, terminalSafe } from "./cli/output.js";

/**
 * The recording tools (record, replay, check, explain, diagram: src/recordings/), which work on recordings of
 * sessions rather than through a client: each is its own module, loaded only when named, with its
 * own command line. `run` returns the exit code.
 */
const WIRE_TOOLS: { [name: string]: () => Promise<{ run(argv: string[]): Promise<number> }> } = {
  record: () => import("./recordings/record-cli.js"),
  explain: () => import("./recordings/explain.js"),
  diagram: () => import("./recordings/diagram.js"),
  replay: () => import("./recordings/replay-cli.js"),
  check: () => import("./recordings/check-cli.js"),
};

async function main(argv: string[]): Promise<number> {
  const tool = WIRE_TOOLS[argv[0] ?? ""];
  if (tool) return (await tool()).run(argv.slice(1));
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    printNow(2, terminalSafe(`mcp-wire: ${error.message}\n(mcp-wire --help shows the usage)`));
    return ExitCode.usage;
  }
  if (line.help) {
    printNow(1, USAGE);
    return ExitCode.ok;
  }
  if ("logout" in line) return (await import("./cli/authorization.js")).logout(line.logout);
  const { runSession } = await import("./cli/session.js");
  return runSession(line);
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
