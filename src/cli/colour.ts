// Colour for a person at a terminal, never for a script: a stream gets colour only when it is a
// terminal, or when FORCE_COLOR asks for it, and never when NO_COLOR is set to anything
// (https://no-color.org). Modest on purpose: a failure in red, isError in bold red, headings bold.
// A Palette that is off returns its text unchanged, so piped output stays byte for byte what it was.

/** Whether `stream` gets colour, by the conventions people set in their environment. */
export function colourOn(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  // NO_COLOR wins: it is the user's own "no", FORCE_COLOR more often a tool's default.
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return stream.isTTY === true;
}

/** The result's own `"isError": true` as JSON.stringify(…, null, 2) writes it: a whole line (so never inside a string), indented once. */
const IS_ERROR = /^(  "isError": )true(,?)$/m;

/** Colours for one stream; apply them after terminalSafe, which would escape their ESC. */
export class Palette {
  constructor(readonly on: boolean) {}

  /** A failure line. */
  error(text: string): string {
    return this.on ? `\u001b[31m${text}\u001b[39m` : text;
  }

  /** A line that introduces what follows (a server's question). */
  heading(text: string): string {
    return this.on ? `\u001b[1m${text}\u001b[22m` : text;
  }

  /** Text that matters less (a field's hint, a problem with an answer). */
  dim(text: string): string {
    return this.on ? `\u001b[2m${text}\u001b[22m` : text;
  }

  /** A printed result: its top-level isError marker stands out. */
  result(json: string): string {
    return this.on ? json.replace(IS_ERROR, "$1\u001b[1;31mtrue\u001b[22;39m$2") : json;
  }
}
