// The words of a recording's command lines ("# command:", "# args:"; recording.ts): each bare, or a
// JSON string when it has spaces, quotes or anything but [\w@%+=:,./-], so that the line shown is
// the line that could be pasted into a shell.

import { printable } from "./printable.js";

/** A command line ("# command:", "# args:") with a quoted word that is not a JSON string. */
export class ArgumentSyntaxError extends Error {
  constructor(readonly word: string) {
    super(`cannot read the quoted word ${printable(word.slice(0, 40))}`);
    this.name = "ArgumentSyntaxError";
  }
}

/**
 * One argument of a "# command:" or "# args:" line, as a shell would take it back (so the line
 * shown is the line that could be pasted): bare when it is only [\w@%+=:,./-], else a JSON string.
 */
export function quoteArgument(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : JSON.stringify(argument);
}

/** The words of a "# command:" or "# args:" line: quoteArgument's inverse, each word bare or a JSON string. */
export function splitArguments(line: string): string[] {
  const words: string[] = [];
  for (const [word] of line.matchAll(/"(?:[^"\\]|\\.)*"|\S+/g)) {
    if (!word.startsWith('"')) {
      words.push(word);
      continue;
    }
    try {
      words.push(JSON.parse(word) as string);
    } catch {
      throw new ArgumentSyntaxError(word);
    }
  }
  return words;
}
