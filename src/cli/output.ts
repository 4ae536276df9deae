// What mcp-wire gives back: results on stdout, everything else on stderr, and an exit code.
// Apart from the rest of the CLI because `mcp-wire --help` and a usage error need this and the
// command line's parser only (src/cli.ts loads the session, and with it the client, after them).

import { writeSync } from "node:fs";

export const ExitCode = {
  ok: 0,
  /** The server or the protocol failed. */
  failed: 1,
  /** The command line was wrong; nothing was asked of the server, or could not be. */
  usage: 2,
  /** tools/call answered with isError: true. The tool failed, not the protocol. */
  toolError: 3,
} as const;

/** Writes a result (one line) to stdout; resolves once it is handed to the system. */
export function print(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text + "\n", () => resolve()));
}

/** C0 but newline and tab, DEL, and C1 (which some terminals read as ESC [ and the like). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` with every control character but newline and tab (C0, DEL, C1) written out as `\uXXXX`,
 * for what the CLI prints of a server's text: an escape sequence in an error_description or a tool
 * result could otherwise clear the screen, move the cursor or retitle the terminal, and make a
 * hostile server's words look like ours. JSON stays JSON (and means the same): JSON.stringify
 * escapes C0 already, and DEL and C1, which it leaves raw, occur only inside its strings.
 */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function printError(text: string): void {
  process.stderr.write(text + "\n");
}

/**
 * Writes `text` and a newline straight to stdout (1) or stderr (2), for the lines written before
 * any session (--help, a usage error): process.stdout and process.stderr are streams made when
 * first reached, and loading Node's stream modules for them would cost `mcp-wire --help` about 6%
 * of a bare `node -e 0`. A reader gone (EPIPE) is not our failure; a descriptor that would block
 * (EAGAIN) gets the rest through the stream after all.
 */
export function printNow(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text + "\n");
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EAGAIN") (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(written));
    else if (code !== "EPIPE") throw error;
  }
}
