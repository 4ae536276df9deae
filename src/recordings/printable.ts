// The one way text from a recording is shown to a person, in every tool that prints one.

/**
 * Text from a recording made safe to show a person: each control character (C0, DEL, C1: on a
 * terminal ESC starts an ANSI sequence, \r and \b overwrite what was printed), bidirectional
 * override (it reorders what a reader sees) and lone surrogate is written as a \u escape, as JSON
 * writes them. For the tools that print a recording (check, explain, diagram).
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
