// What a replay needs besides its server, read from the recording and the caller's choices: the
// server command (given, with the recording's "# args:" after it, or the recording's own), the
// pointers the edition may differ in, and the placeholders' normalizer. One reading for both ways
// of replaying: `mcp-wire replay` (replay-cli.ts) and mcp-wire/testing (src/testing.ts), so a golden
// means the same under each. The replay itself is replay.ts's.

import { dirname } from "node:path";
import { editions, placeholders } from "./directives.js";
import { ArgumentSyntaxError, parseRecording, splitArguments, type Recording } from "./recording.js";

/** A recording that cannot be replayed as asked (the CLI's usage errors, exit 2). */
export class ReplaySetupError extends Error {}

export interface ReplayChoices {
  /** The server command and its arguments; absent or empty: the recording's "# command:" (unless `noCommand`). */
  command?: string[];
  /** The server is not started from a command (it is at a URL, or in process): none is looked for. */
  noCommand?: boolean;
  /** The edition the server is ("# editions:" must list it; its "# differs in" pointers are ignored). */
  edition?: string;
}

export interface ReplaySetup {
  recording: Recording;
  /** The command to start (none when `noCommand`), "# args:" included. */
  command: string[];
  /** Whether `command` came from the recording, not from the caller: it runs a file's words. */
  commandFromRecording: boolean;
  /** Pointers ignored for this edition, on top of the recording's "# ignore:" lines. */
  ignore: string[];
  normalize?: (message: unknown) => unknown;
}

/**
 * Reads `text` (named `file` in errors; its placeholders' paths are relative to `directory`, by
 * default the file's own) and the choices into what replay() and the peer need. Throws
 * RecordingFormatError, DirectiveError or ReplaySetupError.
 */
export function setUpReplay(text: string, file: string, choices: ReplayChoices = {}, directory = dirname(file)): ReplaySetup {
  const recording = parseRecording(text, file);
  const given = choices.command ?? [];
  const commandFromRecording = given.length === 0 && !choices.noCommand;
  const command = choices.noCommand ? [] : commandFromRecording ? recordedCommand(recording, file) : [...given, ...recording.header.args];
  const ignore: string[] = [];
  const { holdsFor, differs } = editions(recording);
  if (choices.edition !== undefined) {
    if (holdsFor && !holdsFor.includes(choices.edition)) throw new ReplaySetupError(`${file} holds for the editions ${holdsFor.join(", ")}, not ${choices.edition} (its "# editions:" line)`);
    ignore.push(...(differs.get(choices.edition) ?? []));
  }
  const normalize = placeholders(recording, directory);
  return { recording, command, commandFromRecording, ignore, ...(normalize && { normalize }) };
}

/**
 * The server command a session recording names: the words of "# command:" (as `mcp-wire record`
 * writes them: recording.ts's quoteArgument), then those of "# args:".
 */
function recordedCommand(recording: Recording, file: string): string[] {
  const { command, args } = recording.header;
  if (command === undefined) {
    const url = recording.header.url === undefined ? "URL" : `URL (it was recorded at ${recording.header.url})`;
    throw new ReplaySetupError(`${file} has no "# command:" header: give the server command after "--", or --url ${url}`);
  }
  let words: string[];
  try {
    words = splitArguments(command);
  } catch (error) {
    if (!(error instanceof ArgumentSyntaxError)) throw error;
    throw new ReplaySetupError(`${file}: its "# command:" header: ${error.message}`);
  }
  if (words.length === 0) throw new ReplaySetupError(`${file}: its "# command:" header is empty`);
  return [...words, ...args];
}
