// The command-line plumbing `mcp-wire explain` and `mcp-wire diagram` share: their flags (with
// -h/--help and usage errors, exit 2), and reading the recording FILE, or saying on stderr why it
// cannot be read (exit 1). Nothing here goes to stdout but the usage asked for with --help.

import { readFile } from "node:fs/promises";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ExitCode, print, printError } from "../cli/output.js";
import { parseRecording, RecordingFormatError, type Recording } from "./recording.js";

/** A recording that cannot be opened or read: the file and why, for the tool to print. */
export class RecordingUnreadableError extends Error {
  constructor(readonly file: string, why: string) {
    super(`${file}: ${why}`);
    this.name = "RecordingUnreadableError";
  }
}

/** Reads and parses a recording file; a missing file is a RecordingUnreadableError, a bad form a RecordingFormatError. */
export async function loadRecording(file: string): Promise<Recording> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : String(error);
    throw new RecordingUnreadableError(file, `cannot read the file (${code})`);
  }
  return parseRecording(text, file);
}

/** Reads a recording for a tool, or prints why it cannot be read (stderr) and gives undefined. */
export async function readOrReport(tool: string, file: string): Promise<Recording | undefined> {
  try {
    return await loadRecording(file);
  } catch (error) {
    if (!(error instanceof RecordingUnreadableError || error instanceof RecordingFormatError)) throw error;
    printError(`mcp-wire ${tool}: ${error.message}`);
    return undefined;
  }
}

/** A tool's usage error: what is wrong, then its usage, on stderr; the exit code to return. */
export function reportUsage(tool: string, message: string, usage: string): number {
  printError(`mcp-wire ${tool}: ${message}\n${usage}`);
  return ExitCode.usage;
}

/** -h and --help, the flag every tool takes. */
export const HELP_FLAG = { type: "boolean", short: "h" } as const;

type ToolOptions = NonNullable<ParseArgsConfig["options"]>;
type ToolArguments<T extends ToolOptions> = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: T }>>;

/**
 * A tool's command line: its flags and its positionals; or the exit code when there is nothing
 * more to do: the usage printed for a "help" flag (0), or a usage error reported (2).
 */
export async function readToolArguments<T extends ToolOptions>(tool: string, usage: string, argv: string[], options: T): Promise<ToolArguments<T> | number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (error) {
    return reportUsage(tool, error instanceof Error ? error.message : String(error), usage);
  }
  if ("help" in parsed.values && parsed.values.help === true) {
    await print(usage);
    return ExitCode.ok;
  }
  return parsed;
}
